// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/attemptspage.h"

#include "run/attemptdetailpane.h"
#include "run/attemptstablemodel.h"
#include "run/hedgewords.h"
#include "live/wholesessiondelta.h"
#include "livesession.h"
#include "sessions/chartexport.h"

#include "engine/attemptrecord.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>

using namespace Qt::StringLiterals;

AttemptsPage::AttemptsPage(LiveSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new AttemptsTableModel(session, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_detail(new AttemptDetailPane(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(AttemptsTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter->setPlaceholderText(tr("Filter attempts (any column: 503, retry, connection-lost, Retry-After…)"));
    m_filter->setClearButtonEnabled(true);
    ChartExport::markControl(m_filter);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // arrival order until the user sorts
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    // Wide enough for typical values (and their headers), so a fresh table needs no resizing.
    const QFontMetrics fm = m_table->fontMetrics();
    const QString samples[] = { tr("Run 00"), tr("Attempt"), tr("00.000 s"), tr("DELETE"), tr("/api/orders"),
        tr("503 Service Unavail"), tr("0000.0 ms"), tr("success"), tr("00.5 s"), tr("retry-after-ms") };
    for (int c = 0; c < int(std::size(samples)); ++c) {
        const QString header = m_model->headerData(c, Qt::Horizontal).toString();
        m_table->setColumnWidth(c, std::max(fm.horizontalAdvance(samples[c]), fm.horizontalAdvance(header)) + 18);
    }
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &AttemptsPage::onCurrentChanged);
    // A new batch or another session: the detail of an attempt that is no longer shown goes.
    connect(session, &LiveSession::cleared, m_detail, &AttemptDetailPane::showNothing);
    connect(session, &LiveSession::cleared, this, [this] {
        m_fitsRefusals = false;
        m_fitsCopies = false;
    });
    connect(session, &LiveSession::refreshed, this, &AttemptsPage::fitColumns);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filter);
    layout->addWidget(splitter, 1);
    fitColumns(wholeSessionDelta(*session)); // a session shown already (a page made later)
}

// Words longer than a column's sample widen it once, when the first such row comes (or is there already),
// instead of cutting every one short: a call the pipeline refused says why in its Result ("not sent — circuit
// open (4.2 s left)"), a hedged request's copy says what it was in its Decision ("copy 2 (after the delay)
// — won"). Only a pipeline refuses calls or hedges.
void AttemptsPage::fitColumns(const LiveSessionDelta& delta)
{
    const Session* shown = m_session->session();
    if ((m_fitsRefusals && m_fitsCopies) || !shown
        || std::none_of(shown->policies.cbegin(), shown->policies.cend(), [](const RetryPolicy& p) { return !p.pipeline.isEmpty(); }))
        return;
    const auto widen = [this](int column, const QString& text) {
        const int width = m_table->fontMetrics().horizontalAdvance(text + u"00"_s) + 18;
        if (m_table->columnWidth(column) < width)
            m_table->setColumnWidth(column, width);
    };
    for (qsizetype i = delta.attemptsBefore; i < delta.attemptsAfter && i < m_session->finishedAttempts(); ++i) {
        if (m_fitsRefusals && m_fitsCopies)
            break;
        const StoredAttempt a = m_session->attempt(i);
        if (!m_fitsRefusals && a.refused()) {
            m_fitsRefusals = true;
            widen(AttemptsTableModel::Result, AttemptsTableModel::resultText(m_session->attemptRecord(i)));
        }
        if (!m_fitsCopies && a.hedge()) {
            m_fitsCopies = true;
            AttemptRecord widest; // ended, not won: "copy 2 (after the delay) — failed", as long as most copies' words
            widest.index = 2;
            widest.hedge = HedgeFacts { HedgeFacts::Trigger::Delay, false };
            widest.at.finished = MonoTime(0);
            widen(AttemptsTableModel::Decision, HedgeWords::label(widest, HedgeWords::CopyContext {}));
        }
    }
}

void AttemptsPage::onCurrentChanged()
{
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const AttemptRecord* a = current.isValid() ? m_model->attemptAt(current.row()) : nullptr;
    if (!a) {
        m_detail->showNothing();
        return;
    }
    m_detail->showAttempt(*a, HedgeWords::contextOf(m_session->session(), *a));
    emit attemptSelected(a->runId, a->index);
}

void AttemptsPage::selectAttempt(int runId, int index)
{
    const int row = m_model->rowOf(runId, index);
    if (row < 0)
        return;
    const QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!proxyIndex.isValid())
        return;
    if (m_table->currentIndex().row() == proxyIndex.row())
        return;
    m_table->setCurrentIndex(proxyIndex);
    m_table->scrollTo(proxyIndex);
}
