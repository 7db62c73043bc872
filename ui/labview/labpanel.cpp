// SPDX-License-Identifier: GPL-3.0-or-later
#include "labview/labpanel.h"

#include "labview/scenarioeditor.h"
#include "labview/scenariooutline.h"
#include "livesession.h"
#include "run/runcontroller.h"

#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "lab/scenarioloader.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextOption>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kMaxLogLines = 2000; // the log shows the latest lab events only

QLabel* bigNumber(QWidget* parent)
{
    auto* label = new QLabel(parent);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 1.4);
    f.setBold(true);
    label->setFont(f);
    label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return label;
}

} // namespace

LabPanel::LabPanel(RunController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_enabled(new QCheckBox(tr("Lab &running"), this))
    , m_address(new QLabel(this))
    , m_scenarios(new QComboBox(this))
    , m_description(new QLabel(this))
    , m_edit(new QToolButton(this))
    , m_views(new QStackedWidget(this))
    , m_outline(new ScenarioOutline(m_views))
    , m_editor(new ScenarioEditor(m_views))
    , m_requestsLabel(bigNumber(this))
    , m_operationsLabel(bigNumber(this))
    , m_duplicatesLabel(bigNumber(this))
    , m_resetBeforeRun(new QCheckBox(tr("Reset before each run"), this))
    , m_log(new QPlainTextEdit(this))
    , m_recordingNote(new QLabel(this))
{
    m_address->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (const ScenarioCatalog::Entry& e : ScenarioCatalog::builtIn()) {
        m_scenarios->addItem(e.name, e.name);
        m_scenarios->setItemData(m_scenarios->count() - 1, e.description, Qt::ToolTipRole);
    }
    auto* open = new QToolButton(this);
    open->setText(tr("Open…"));
    open->setToolTip(tr("Load a scenario JSON file"));
    connect(open, &QToolButton::clicked, this, &LabPanel::openScenarioFile);
    m_edit->setText(tr("&Edit"));
    m_edit->setCheckable(true);
    m_edit->setToolTip(tr("Edit the scenario: routes, steps, answers, upstream — the lab plays each valid change at once"));
    m_views->addWidget(m_outline);
    m_views->addWidget(m_editor);
    connect(m_edit, &QToolButton::toggled, this, &LabPanel::setEditing);
    connect(m_editor, &ScenarioEditor::scenarioReady, m_controller, &RunController::applyScenario);
    m_description->setWordWrap(true);
    m_description->setForegroundRole(QPalette::PlaceholderText);
    m_recordingNote->setWordWrap(true);
    m_recordingNote->setFrameShape(QFrame::StyledPanel);
    m_recordingNote->setMargin(4);
    m_recordingNote->hide();

    auto* head = new QHBoxLayout;
    head->addWidget(m_enabled);
    head->addStretch();
    head->addWidget(m_address);
    auto* scenarioRow = new QHBoxLayout;
    scenarioRow->addWidget(m_scenarios, 1);
    scenarioRow->addWidget(open);
    scenarioRow->addWidget(m_edit);

    auto* ledger = new QGroupBox(tr("Ledger: what the server saw"), this);
    auto* ledgerForm = new QFormLayout(ledger);
    ledgerForm->addRow(tr("Requests received"), m_requestsLabel);
    ledgerForm->addRow(tr("Operations applied"), m_operationsLabel);
    ledgerForm->addRow(tr("Attempts received twice"), m_duplicatesLabel);
    auto* reset = new QPushButton(tr("Reset lab"), this);
    reset->setToolTip(tr("Clear the ledger, step positions, idempotency keys and rate limiters"));
    connect(reset, &QPushButton::clicked, m_controller, &RunController::resetLab);
    auto* resetRow = new QHBoxLayout;
    resetRow->addWidget(m_resetBeforeRun);
    resetRow->addStretch();
    resetRow->addWidget(reset);
    ledgerForm->addRow(resetRow);
    m_resetBeforeRun->setChecked(m_controller->resetLabBeforeRun());
    connect(m_resetBeforeRun, &QCheckBox::toggled, m_controller, &RunController::setResetLabBeforeRun);

    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(int(kMaxLogLines));
    m_log->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_log->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("Server-side events appear here while requests run."));
    auto* split = m_split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_views);
    split->addWidget(m_log);
    split->setChildrenCollapsible(false);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    m_log->setMinimumHeight(m_log->fontMetrics().lineSpacing() * 3 + 8);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(head);
    layout->addLayout(scenarioRow);
    layout->addWidget(m_recordingNote);
    layout->addWidget(m_description);
    layout->addWidget(split, 1);
    layout->addWidget(ledger);

    connect(m_enabled, &QCheckBox::toggled, m_controller, &RunController::setLabEnabled);
    connect(m_scenarios, &QComboBox::activated, this, &LabPanel::onScenarioPicked);
    connect(m_controller, &RunController::labChanged, this, &LabPanel::refreshState);
    connect(m_controller->session(), &LiveSession::refreshed, this, &LabPanel::onSessionRefreshed);
    connect(m_controller->lab(), &FaultServer::labEvent, this, &LabPanel::onLabEvent);
    connect(m_controller->session(), &LiveSession::cleared, this, [this] {
        m_log->clear();
        m_recordedRequests = m_recordedOperations = 0;
        m_recordedReceipts.clear();
        m_recordedTwice = 0;
        refreshLedger();
    });
    refreshState();
}

int LabPanel::shownDuplicates() const
{
    return m_duplicatesLabel->text().toInt();
}

QString LabPanel::shownScenarioName() const
{
    return m_recording ? m_recordingScenario : m_controller->lab()->scenario().name;
}

void LabPanel::setEditing(bool editing)
{
    {
        const QSignalBlocker block(m_edit);
        m_edit->setChecked(editing);
    }
    if (editing && m_editor->appliedDocument() != m_controller->lab()->scenario().source)
        m_editor->setDocument(m_controller->lab()->scenario().source);
    const bool editor = editing && !m_recording;
    if (editor != (m_views->currentWidget() == m_editor)) {
        // The editor takes the room the description and most of the log had (the log keeps three lines).
        m_description->setVisible(!editor);
        const int total = m_split->height();
        m_split->setSizes(editor ? QList<int> { total, 0 } : QList<int> { total * 3 / 5, total * 2 / 5 });
    }
    m_views->setCurrentWidget(editor ? static_cast<QWidget*>(m_editor) : m_outline);
}

void LabPanel::showRecording(const QJsonObject& scenario)
{
    m_recording = true;
    // A recording's scenario is shown, not edited; the editor keeps the lab's (and any edit under way).
    m_edit->setEnabled(false);
    setEditing(m_edit->isChecked()); // the outline, while the recording is shown
    const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(scenario);
    m_recordingScenario = loaded.ok() ? loaded.scenario->name : QString();
    const QString live = m_controller->lab()->scenario().name;
    if (scenario.isEmpty())
        m_recordingNote->setText(tr("Showing a recording made without the built-in lab; the lab plays \"%1\".").arg(live));
    else if (m_recordingScenario == live)
        m_recordingNote->setText(tr("Showing the recording: its events and ledger, up to the playhead."));
    else
        m_recordingNote->setText(tr("Showing a recording of \"%1\": its routes, events and ledger. The lab itself plays "
                                    "\"%2\" (the next Run).").arg(m_recordingScenario, live));
    m_recordingNote->show();
    if (loaded.ok()) {
        m_description->setText(loaded.scenario->description);
        m_outline->setScenario(*loaded.scenario);
    } else {
        m_description->setText(QString());
        m_outline->setScenario(FaultScenario());
    }
    // The events already shown (opening a file shows them all before this is called).
    m_recordedRequests = m_recordedOperations = 0;
    m_recordedReceipts.clear();
    m_recordedTwice = 0;
    countRecording(0, m_controller->session()->labEventCount());
    refreshLedger();
}

void LabPanel::showLive()
{
    if (!m_recording)
        return;
    m_recording = false;
    m_recordingNote->hide();
    m_edit->setEnabled(true);
    setEditing(m_edit->isChecked());
    m_requests = m_operations = -1;
    refreshState();
}

void LabPanel::countRecording(qsizetype from, qsizetype to)
{
    const LabEventStore& events = m_controller->session()->labEvents();
    if (&events != m_countedStore) {
        // Another store (the shown events were copied into the session's own): tokens are a store's own,
        // so the counts start over from its first event.
        m_countedStore = &events;
        m_recordedRequests = m_recordedOperations = 0;
        m_recordedReceipts.clear();
        m_recordedTwice = 0;
        from = 0;
    }
    for (qsizetype i = from; i < to && i < events.size(); ++i) {
        const LabEvent::Kind kind = events.kind(i);
        if (kind == LabEvent::Kind::RequestReceived) {
            ++m_recordedRequests;
            if (const quint32 token = events.attemptIdToken(i)) {
                if (token >= m_recordedReceipts.size())
                    m_recordedReceipts.resize(std::max<size_t>(size_t(events.textCount()), m_recordedReceipts.size() * 2));
                quint8& seen = m_recordedReceipts[token];
                if (seen < 2 && ++seen == 2)
                    ++m_recordedTwice;
            }
        } else if (kind == LabEvent::Kind::OperationApplied) {
            ++m_recordedOperations;
        }
    }
}

void LabPanel::refreshState()
{
    FaultServer* lab = m_controller->lab();
    const bool on = lab->isListening();
    {
        const QSignalBlocker block(m_enabled);
        m_enabled->setChecked(on);
    }
    m_address->setText(on ? lab->url().toDisplayString() : tr("off"));
    const FaultScenario& scenario = lab->scenario();
    // A scenario from a file or edited here is not in the list: its name shows in place of one.
    m_scenarios->setPlaceholderText(scenario.name);
    m_scenarios->setCurrentIndex(m_scenarios->findData(scenario.name));
    if (!m_recording) {
        m_description->setText(scenario.description);
        m_outline->setScenario(scenario);
        // Another scenario picked or opened: the editor follows it (its own edits come back unchanged).
        if (m_editor->appliedDocument() != scenario.source)
            m_editor->setDocument(scenario.source);
    }
    refreshLedger();
}

void LabPanel::refreshLedger()
{
    if (m_recording) {
        m_requests = m_recordedRequests;
        m_operations = m_recordedOperations;
        m_requestsLabel->setText(QString::number(m_requests));
        m_operationsLabel->setText(QString::number(m_operations));
        m_duplicatesLabel->setText(QString::number(m_recordedTwice));
        return;
    }
    const LabLedger& ledger = m_controller->lab()->ledger();
    if (ledger.requestsReceived() == m_requests && ledger.operationsApplied() == m_operations)
        return;
    m_requests = ledger.requestsReceived();
    m_operations = ledger.operationsApplied();
    m_requestsLabel->setText(QString::number(m_requests));
    m_operationsLabel->setText(QString::number(m_operations));
    m_duplicatesLabel->setText(QString::number(ledger.attemptsReceivedMoreThanOnce().size()));
}

QString LabPanel::logLine(const LabEvent& e)
{
    const QString at = tr("+%1 ms").arg(e.atMs);
    switch (e.kind) {
    case LabEvent::Kind::RequestReceived:
        return tr("%1 #%2 %3 %4").arg(at).arg(e.requestId).arg(QString::fromLatin1(e.method), e.path);
    case LabEvent::Kind::ResponseFinished:
        return e.status ? tr("%1 #%2 → %3 (%4)").arg(at).arg(e.requestId).arg(e.status).arg(e.stepKind)
                        : tr("%1 #%2 → %3").arg(at).arg(e.requestId).arg(e.stepKind);
    case LabEvent::Kind::OperationApplied:
        return tr("%1 #%2 applied %3").arg(at).arg(e.requestId).arg(e.route);
    default:
        return QString();
    }
}

void LabPanel::onLabEvent(const LabEvent& e)
{
    // What nothing records (a client sending while no batch or observation runs) is not part of any session,
    // and no view draws it: the log says it heard it. While a recording is shown, the log is the recording's.
    if (m_controller->isRunning() || m_recording)
        return;
    if (const QString line = logLine(e); !line.isEmpty())
        m_log->appendPlainText(line);
    refreshLedger();
}

void LabPanel::onSessionRefreshed(const LiveSessionDelta& delta)
{
    const LabEventStore& events = m_controller->session()->labEvents();
    QStringList lines;
    // The log keeps its last kMaxLogLines lines: a larger delta (a session opened whole) writes only those.
    const qsizetype from = std::max(delta.labEventsBefore, delta.labEventsAfter - kMaxLogLines);
    for (qsizetype i = from; i < delta.labEventsAfter && i < events.size(); ++i) {
        const LabEvent::Kind kind = events.kind(i);
        if (kind != LabEvent::Kind::RequestReceived && kind != LabEvent::Kind::ResponseFinished
            && kind != LabEvent::Kind::OperationApplied)
            continue; // no line: the event is not rebuilt
        lines << logLine(events.at(i));
    }
    if (!lines.isEmpty())
        m_log->appendPlainText(lines.join(u'\n'));
    if (m_recording)
        countRecording(delta.labEventsBefore, delta.labEventsAfter);
    refreshLedger();
}

void LabPanel::onScenarioPicked(int index)
{
    m_controller->loadScenario(m_scenarios->itemData(index).toString());
}

void LabPanel::openScenarioFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Scenario"), QString(), tr("Scenario files (*.json)"));
    if (!path.isEmpty())
        m_controller->loadScenario(path);
}
