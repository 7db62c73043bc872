// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/attemptspage.h"

#include "run/attemptdetailpane.h"
#include "run/attemptstablemodel.h"
#include "run/hedgewords.h"
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
    // A hedged request's copy says what it was in its Decision ("copy 2 (after the delay) — won"), longer than
    // any verdict: the column widens once, at the first copy.
    connect(session, &LiveSession::refreshed, this, [this, session](const LiveSessionDelta& delta) {
        for (qsizetype i = delta.attemptsBefore; !m_fitsCopies && i < delta.attemptsAfter && i < session->finishedAttempts(); ++i) {
            if (!session->attempt(i).hedge())
                continue;
            m_fitsCopies = true;
            AttemptRecord widest;
            widest.index = 2;
            widest.hedge = HedgeFacts { HedgeFacts::Trigger::Delay, false };
            widest.at.finished = MonoTime(0); // ended, not won: "failed", as long as most copies' words
            const QString text = HedgeWords::label(widest, HedgeWords::CopyContext {});
            const int width = m_table->fontMetrics().horizontalAdvance(text + u"0"_s) + 18;
            if (m_table->columnWidth(AttemptsTableModel::Decision) < width)
                m_table->setColumnWidth(AttemptsTableModel::Decision, width);
        }
    });
    // A call the pipeline refused says why in its Result ("not sent — circuit open (4.2 s left)"), longer than
    // any status: the column widens to it once, when the first one comes, instead of cutting every one short.
    connect(session, &LiveSession::refreshed, this, [this, session](const LiveSessionDelta& delta) {
        const Session* shown = session->session();
        if (m_fitsRefusals || !shown
            || std::none_of(shown->policies.cbegin(), shown->policies.cend(), [](const RetryPolicy& p) { return !p.pipeline.isEmpty(); }))
            return; // only a pipeline refuses calls
        for (qsizetype i = delta.attemptsBefore; !m_fitsRefusals && i < delta.attemptsAfter && i < session->finishedAttempts(); ++i) {
            if (!session->attempt(i).refused())
                continue;
            m_fitsRefusals = true;
            const QString text = AttemptsTableModel::resultText(session->attemptRecord(i));
            const int width = m_table->fontMetrics().horizontalAdvance(text + u"00"_s) + 18;
            if (m_table->columnWidth(AttemptsTableModel::Result) < width)
                m_table->setColumnWidth(AttemptsTableModel::Result, width);
        }
    });

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
