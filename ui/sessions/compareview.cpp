// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/compareview.h"

#include "live/chartpalette.h"
#include "live/placeholderlabel.h"
#include "livesession.h"
#include "sessions/comparemodel.h"
#include "sessions/requestdifference.h"
#include "shell/dockscrollarea.h"
#include "sessions/sessionfeeder.h"
#include "timelineview.h"

#include "replay/replaycomparison.h"

#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

// Tints the "compared with A" cell: better in the palette's success colour, worse in its failure colour.
class DirectionDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        const int direction = index.data(CompareModel::directionRole).toInt();
        if (direction != 0 && index.column() == CompareModel::Change) {
            const ChartPalette palette = ChartPalette::fromPalette(option.palette);
            // A solid blend (not alpha), so the tint survives printing and palette-reduced screenshots.
            const QColor base = option.palette.base().color();
            const QColor mark = direction > 0 ? palette.success : palette.failure;
            const auto mix = [](int a, int b) { return (a * 6 + b * 4) / 10; };
            painter->fillRect(option.rect,
                QColor(mix(base.red(), mark.red()), mix(base.green(), mark.green()), mix(base.blue(), mark.blue())));
        }
        QStyledItemDelegate::paint(painter, option, index); // bold comes from the model (its size hint too)
    }
};

QWidget* titled(QLabel* label, QWidget* content, QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    label->setTextFormat(Qt::PlainText);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    column->addWidget(label);
    column->addWidget(content, 1);
    return box;
}

} // namespace

CompareView::CompareView(QWidget* parent)
    : QWidget(parent)
    , m_model(new CompareModel(this))
    , m_liveA(new LiveSession(this))
    , m_liveB(new LiveSession(this))
{
    setObjectName(u"CompareView"_s);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(new PlaceholderLabel(
        tr("Nothing to compare yet.\nSession ▸ Compare With Policy… replays this session under another policy;\n"
           "Session ▸ Compare With Session… puts another recording beside it."),
        m_stack));

    auto* content = new QWidget(m_stack);
    m_title = new QLabel(content);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::RichText);
    m_table = new QTableView(content);
    m_table->setModel(m_model);
    m_table->setItemDelegate(new DirectionDelegate(m_table));
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // The figures always whole; a long measure name gives way (its tooltip says it in full).
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(CompareModel::Measure, QHeaderView::Stretch);
    m_table->setAlternatingRowColors(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);

    m_timelineA = new TimelineView(m_liveA, content);
    m_timelineB = new TimelineView(m_liveB, content);
    m_timelineA->setCompact(true);
    m_timelineB->setCompact(true);
    m_timelineB->setLegendVisible(false); // A's legend serves both
    m_labelA = new QLabel(content);
    m_labelB = new QLabel(content);
    auto* split = new QSplitter(Qt::Vertical, content);
    split->addWidget(titled(m_labelA, m_timelineA, split));
    split->addWidget(titled(m_labelB, m_timelineB, split));
    split->setChildrenCollapsible(false);

    // The figures above the timelines, in a splitter: on a short screen the table scrolls, the lanes stay.
    auto* figures = new QWidget(content);
    auto* figuresColumn = new QVBoxLayout(figures);
    figuresColumn->setContentsMargins(0, 0, 0, 0);
    figuresColumn->addWidget(m_title);
    figuresColumn->addWidget(m_table, 1);
    m_split = new QSplitter(Qt::Vertical, content);
    m_split->addWidget(figures);
    m_split->addWidget(split);
    m_split->setStretchFactor(0, 0);
    m_split->setStretchFactor(1, 1);
    m_split->setChildrenCollapsible(false);
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(6, 6, 6, 6);
    column->addWidget(m_split, 1);
    // Each timeline keeps room for a few lanes and its axis: on a short screen the tab scrolls instead.
    m_timelineA->setMinimumHeight(kLeastLaneHeight);
    m_timelineB->setMinimumHeight(kLeastLaneHeight);
    m_stack->addWidget(new DockScrollArea(content, m_stack));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    // One time axis: whichever timeline moves, the other shows the same seconds.
    connect(m_timelineA, &TimelineView::timeRangeChanged, m_timelineB, &TimelineView::setTimeRange);
    connect(m_timelineB, &TimelineView::timeRangeChanged, m_timelineA, &TimelineView::setTimeRange);
}

CompareView::~CompareView() = default;

void CompareView::splitFiguresAndLanes()
{
    if (height() < 100)
        return;
    m_splitPending = false;
    const int figures = m_title->heightForWidth(std::max(200, width() - 12)) + m_tableHeight + 8;
    const int top = std::min(figures, int(height() * 0.45));
    m_split->setSizes({ top, std::max(200, height() - top) });
}

void CompareView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_splitPending)
        splitFiguresAndLanes();
}

void CompareView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_splitPending)
        splitFiguresAndLanes();
    // The legend (it wraps onto rows) only when the lanes keep room; the Timeline tab has it too.
    m_timelineA->setLegendVisible(height() >= kLegendHeight);
}

bool CompareView::isEmpty() const
{
    return m_stack->currentIndex() == 0;
}

void CompareView::clear()
{
    delete m_feederA;
    delete m_feederB;
    m_feederA = m_feederB = nullptr;
    m_liveA->clear();
    m_liveB->clear();
    m_model->clear();
    m_stack->setCurrentIndex(0);
}

void CompareView::setSessions(std::shared_ptr<const Session> a, const QString& nameA, std::shared_ptr<const Session> b,
    const QString& nameB)
{
    clear();
    if (!a || !b)
        return;
    const ReplayComparison comparison = ReplayComparison::compare(*a, *b);
    // Short column names, so the header never cuts them; the sides are named in full above.
    m_model->setSideNames(tr("A"), tr("B"));
    m_model->setTotals(comparison.recorded, comparison.replayed);
    const qsizetype paired = comparison.runs.size();
    QStringList lines { tr("<b>A</b>: %1 &nbsp; · &nbsp; <b>B</b>: %2").arg(nameA.toHtmlEscaped(), nameB.toHtmlEscaped()) };
    if (a->runs.size() != b->runs.size()) {
        lines << tr("A has %1 runs and B %2: the first %3 of each are compared, times and totals included.")
                     .arg(a->runs.size()).arg(b->runs.size()).arg(paired);
    }
    const QString different = RequestDifference::describe(*a, *b, paired);
    if (!different.isEmpty()) {
        const ChartPalette palette = ChartPalette::fromPalette(this->palette());
        lines << u"<span style='color:%1'><b>%2</b></span>"_s.arg(palette.failure.name(), different.toHtmlEscaped());
    }
    m_differentRequests = !different.isEmpty();
    m_title->setText(lines.join(u"<br>"_s));
    m_title->setToolTip(tr("Differences within 5 % (times) or 1 % (counts) are not coloured: that is noise."));
    m_labelA->setText(tr("A: %1").arg(nameA));
    m_labelB->setText(tr("B: %1").arg(nameB));
    // The table as tall as its rows, no taller; the timelines get the rest (at most 45 % for the figures).
    int height = m_table->horizontalHeader()->sizeHint().height() + 2 * m_table->frameWidth();
    for (int r = 0; r < m_model->rowCount(); ++r)
        height += m_table->rowHeight(r);
    m_table->setMaximumHeight(height);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() + 3 * m_table->verticalHeader()->defaultSectionSize());
    m_tableHeight = height;
    m_splitPending = true;
    if (isVisible())
        splitFiguresAndLanes();

    m_feederA = new SessionFeeder(std::move(a), m_liveA, false, this);
    m_feederB = new SessionFeeder(std::move(b), m_liveB, false, this);
    m_feederA->showAll();
    m_feederB->showAll();
    m_stack->setCurrentIndex(1);
    fitBoth();
}

void CompareView::fitBoth()
{
    const double start = std::min(m_timelineA->contentStartSeconds(), m_timelineB->contentStartSeconds());
    const double end = std::max(m_timelineA->contentEndSeconds(), m_timelineB->contentEndSeconds());
    const double span = std::max(0.5, end - start);
    m_timelineA->setFollowLive(false);
    m_timelineB->setFollowLive(false);
    m_timelineA->resetZoom(); // first lanes at the top
    m_timelineB->resetZoom();
    m_timelineA->setTimeRange(start - span * 0.02, start + span * 1.05);
    m_timelineB->setTimeRange(start - span * 0.02, start + span * 1.05);
}
