// SPDX-License-Identifier: GPL-3.0-or-later
#include "conformance/conformanceview.h"

#include "conformance/conformancemodel.h"

#include "conform/conformrefusal.h"
#include "conform/sessionjudging.h"
#include "policy/presetcatalog.h"
#include "session/session.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace {

const QString kEditorPolicy = u"editor"_s; // the policy box's item data for the editor's policy

QString escaped(const QString& text) { return text.toHtmlEscaped(); }

// What a case's attempts look like in the details: the answer, what the policy would have done, the wait.
QString attemptRows(const CaseResult& r)
{
    QString rows;
    for (const AttemptJudgement& j : r.judgement.attempts) {
        QString policy;
        if (j.open)
            policy = QObject::tr("still open when the observation ended");
        else if (j.expected.verdict == Verdict::Retry)
            policy = QObject::tr("retry after %1–%2 ms: %3").arg(j.expected.delayLow.count()).arg(j.expected.delayHigh.count()).arg(j.expected.reason);
        else
            policy = verdictName(j.expected.verdict) + u": "_s + j.expected.reason;
        const QString wait = j.waitAfter ? QObject::tr("%1 ms").arg(j.waitAfter->count()) : QString();
        rows += u"<tr><td><a href=\"attempt:%1\">%1</a></td><td>%2</td><td>%3</td><td align=\"right\">%4</td></tr>"_s.arg(j.index)
                    .arg(escaped(j.answer), escaped(policy), wait);
    }
    return rows;
}

} // namespace

ConformanceView::ConformanceView(const Clock& clock, Scheduler& scheduler, QWidget* parent)
    : QWidget(parent)
    , m_clock(clock)
    , m_scheduler(scheduler)
    , m_model(new ConformanceModel(this))
    , m_policy(new QComboBox(this))
    , m_suite(new QComboBox(this))
    , m_command(new QLineEdit(this))
    , m_run(new QPushButton(tr("Run Suite"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_judgeSession(new QPushButton(tr("Judge Shown Session"), this))
    , m_save(new QToolButton(this))
    , m_summary(new QLabel(this))
    , m_table(new QTableView(this))
    , m_details(new QTextBrowser(this))
{
    setObjectName(u"ConformanceView"_s);
    m_policy->addItem(tr("The policy editor's policy"), kEditorPolicy);
    for (const QString& name : PresetCatalog::names())
        m_policy->addItem(name, name);
    m_policy->setCurrentIndex(std::max(0, m_policy->findData(u"curl-7.88"_s)));
    for (const QString& name : SuiteLoader::builtInNames())
        m_suite->addItem(name, name);
    m_suite->setCurrentIndex(std::max(0, m_suite->findData(u"standard"_s)));
    auto* suiteFile = new QPushButton(tr("File…"), this);
    connect(suiteFile, &QPushButton::clicked, this, &ConformanceView::chooseSuiteFile);
    m_command->setText(uR"(curl -sS --fail -o /dev/null --retry 3 -m 3 -X "$RETRYLAB_METHOD" "$RETRYLAB_URL")"_s);
    m_command->setToolTip(tr("Run once per case by /bin/sh with RETRYLAB_URL, RETRYLAB_METHOD, RETRYLAB_CASE and, "
                             "when the case suggests a key, RETRYLAB_IDEMPOTENCY_KEY in its environment. It makes "
                             "one request with its own client and exits non-zero when the request failed."));
    m_stop->setEnabled(false);
    m_save->setText(tr("Save Report"));
    m_save->setPopupMode(QToolButton::InstantPopup);
    m_save->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto* saveMenu = new QMenu(m_save);
    saveMenu->addAction(tr("JUnit XML…"), this, [this] { saveReport(true); });
    saveMenu->addAction(tr("JSON…"), this, [this] { saveReport(false); });
    m_save->setMenu(saveMenu);
    m_save->setEnabled(false);
    m_judgeSession->setEnabled(false);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    auto* suiteRow = new QHBoxLayout;
    suiteRow->addWidget(m_suite, 1);
    suiteRow->addWidget(suiteFile);
    form->addRow(tr("&Policy:"), m_policy);
    auto* suiteLabel = new QLabel(tr("&Suite:"), this);
    suiteLabel->setBuddy(m_suite);
    form->addRow(suiteLabel, suiteRow);
    form->addRow(tr("&Command:"), m_command);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : { m_run, m_stop, m_judgeSession })
        buttons->addWidget(b);
    buttons->addWidget(m_save);
    buttons->addStretch(1);

    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    for (int column : { ConformanceModel::CaseColumn, ConformanceModel::VerdictColumn, ConformanceModel::AttemptsColumn,
             ConformanceModel::FindingsColumn })
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Run a suite, or judge the shown session: each case's findings and attempts appear here."));
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        const QModelIndex current = m_table->currentIndex();
        if (current.isValid() && url.scheme() == u"attempt"_s)
            showCaseAttempts(current.row(), url.path().toInt());
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { showDetails(current.row()); });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex& from) {
        if (m_table->currentIndex().row() == from.row())
            showDetails(from.row());
    });
    connect(m_run, &QPushButton::clicked, this, &ConformanceView::runSuite);
    connect(m_stop, &QPushButton::clicked, this, &ConformanceView::stop);
    connect(m_judgeSession, &QPushButton::clicked, this, &ConformanceView::judgeShownSession);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    m_summary->setWordWrap(true);
    // Inside a scroll area, so a small window (1280×720 at scale 2) scrolls the tab instead of refusing to fit.
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    auto* scroll = new QScrollArea(this);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
}

ConformanceView::~ConformanceView() = default;

void ConformanceView::setEditorPolicy(std::function<std::optional<RetryPolicy>()> provider) { m_editorPolicy = std::move(provider); }

void ConformanceView::setShownSession(std::shared_ptr<const Session> session)
{
    m_shown = std::move(session);
    m_judgeSession->setEnabled(m_shown && !isRunning() && !m_shown->runs.isEmpty());
}

bool ConformanceView::isRunning() const { return m_runner && m_runner->isRunning(); }

std::optional<RetryPolicy> ConformanceView::chosenPolicy(QString* error) const
{
    const QString name = m_policy->currentData().toString();
    if (name == kEditorPolicy) {
        std::optional<RetryPolicy> policy = m_editorPolicy ? m_editorPolicy() : std::nullopt;
        if (!policy)
            *error = tr("The policy editor's policy has problems: fix them, or pick a preset.");
        else if (const QString refusal = conformRefusal(*policy); !refusal.isEmpty()) {
            *error = refusal;
            return std::nullopt;
        }
        return policy;
    }
    const PolicyParseResult parsed = PresetCatalog::load(name);
    if (!parsed.ok()) {
        *error = tr("Preset %1 cannot be read.").arg(name);
        return std::nullopt;
    }
    // What the judge does not read is refused by name, as `retrylab conform` refuses it.
    if (const QString refusal = conformRefusal(*parsed.policy); !refusal.isEmpty()) {
        *error = refusal;
        return std::nullopt;
    }
    return parsed.policy;
}

bool ConformanceView::judgeCommand(const QString& command, const QString& what)
{
    if (isRunning())
        return false;
    m_policy->setCurrentIndex(std::max(0, m_policy->findData(kEditorPolicy)));
    m_suite->setCurrentIndex(std::max(0, m_suite->findData(u"standard"_s)));
    m_command->setText(command);
    Q_EMIT statusMessage(tr("Judging the exported %1 code against the policy editor's policy on the standard suite…").arg(what));
    runSuite();
    return isRunning();
}

void ConformanceView::runSuite()
{
    if (isRunning())
        return;
    QString error;
    const std::optional<RetryPolicy> policy = chosenPolicy(&error);
    const SuiteLoader::Result suite = SuiteLoader::load(m_suite->currentData().toString());
    if (!suite.ok())
        error = tr("The suite cannot be read: %1").arg(suite.problems.join(u"; "_s));
    if (m_command->text().trimmed().isEmpty())
        error = tr("Give the client command to judge.");
    if (!error.isEmpty() || !policy) {
        m_summary->setText(error);
        Q_EMIT statusMessage(error);
        return;
    }
    m_policyName = policy->name;
    m_suiteName = suite.suite->name;
    m_commandLine = { u"/bin/sh"_s, u"-c"_s, m_command->text() };
    m_startedUtc = m_clock.wallNow().toUTC(); // the report's timestamp: when the run began, not when it is saved
    m_runner = std::make_unique<ConformanceRunner>(m_clock, m_scheduler, *policy, JudgeOptions {});
    m_model->setPending(suite.suite->cases);
    const int total = int(suite.suite->cases.size());
    connect(m_runner.get(), &ConformanceRunner::caseStarted, this, [this, total](int index, const QString& name) {
        m_model->setRunning(index);
        m_summary->setText(tr("Case %1 of %2: %3…").arg(index + 1).arg(total).arg(name));
    });
    connect(m_runner.get(), &ConformanceRunner::caseFinished, this, [this](int index, const CaseResult& r) {
        m_model->setResult(index, r);
        if (r.commandNotFound)
            m_runner->stop();
    });
    connect(m_runner.get(), &ConformanceRunner::finished, this, [this] {
        setBusy(false);
        const ConformanceReport r = report();
        m_summary->setText(r.summary());
        Q_EMIT statusMessage(r.summary());
    });
    setBusy(true);
    m_runner->start(suite.suite->cases, m_commandLine);
}

void ConformanceView::stop()
{
    if (m_runner)
        m_runner->stop();
}

void ConformanceView::judgeShownSession()
{
    if (!m_shown || isRunning())
        return;
    QString error;
    const std::optional<RetryPolicy> policy = chosenPolicy(&error);
    if (!policy) {
        m_summary->setText(error);
        return;
    }
    m_policyName = policy->name;
    m_suiteName = tr("the shown session");
    m_startedUtc = m_clock.wallNow().toUTC();
    m_commandLine.clear();
    m_model->setResults(judgeSession(*m_shown, *policy, JudgeOptions {}));
    const ConformanceReport r = report();
    m_summary->setText(r.summary());
    m_save->setEnabled(m_model->rowCount() > 0);
    Q_EMIT statusMessage(r.summary());
}

ConformanceReport ConformanceView::report() const
{
    ConformanceReport r;
    r.suite = m_suiteName;
    r.policy = m_policyName;
    r.command = m_commandLine;
    r.startedUtc = m_startedUtc;
    r.cases = m_model->results();
    return r;
}

void ConformanceView::setBusy(bool busy)
{
    m_run->setEnabled(!busy);
    m_stop->setEnabled(busy);
    m_policy->setEnabled(!busy);
    m_suite->setEnabled(!busy);
    m_command->setEnabled(!busy);
    m_judgeSession->setEnabled(!busy && m_shown && !m_shown->runs.isEmpty());
    m_save->setEnabled(!busy && m_model->rowCount() > 0);
    Q_EMIT runningChanged(busy);
}

void ConformanceView::chooseSuiteFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Conformance Suite"), {}, tr("Suites (*.json)"));
    if (!path.isEmpty())
        addSuiteFile(path);
}

bool ConformanceView::addSuiteFile(const QString& path)
{
    const SuiteLoader::Result r = SuiteLoader::fromFile(path);
    if (!r.ok()) {
        m_summary->setText(tr("%1 is not a suite: %2").arg(QFileInfo(path).fileName(), r.problems.join(u"; "_s)));
        return false;
    }
    m_suite->addItem(QFileInfo(path).fileName(), path);
    m_suite->setCurrentIndex(m_suite->count() - 1);
    return true;
}

void ConformanceView::saveReport(bool junit)
{
    const QString path = QFileDialog::getSaveFileName(this, junit ? tr("Save JUnit Report") : tr("Save JSON Report"),
        junit ? u"conformance.xml"_s : u"conformance.json"_s, junit ? tr("JUnit XML (*.xml)") : tr("JSON (*.json)"));
    if (path.isEmpty())
        return;
    const ConformanceReport r = report();
    QSaveFile file(path);
    const QByteArray bytes = junit ? r.toJUnit() : QJsonDocument(r.toJson()).toJson();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        m_summary->setText(tr("Cannot write %1: %2").arg(path, file.errorString()));
    else
        Q_EMIT statusMessage(tr("Report written to %1.").arg(path));
}

void ConformanceView::showDetails(int row)
{
    const CaseResult* r = m_model->result(row);
    if (!r) {
        m_details->clear();
        return;
    }
    QString html = u"<h3>%1 — %2</h3><p>%3</p>"_s.arg(escaped(r->suiteCase.name), escaped(caseVerdict(*r)), escaped(r->suiteCase.description));
    if (!r->startError.isEmpty())
        html += u"<p>%1</p>"_s.arg(escaped(r->startError));
    if (!r->judgement.findings.isEmpty()) {
        html += u"<p><b>%1</b></p><ul>"_s.arg(tr("Findings"));
        for (const ConformanceFinding& f : r->judgement.findings) {
            html += u"<li><a href=\"attempt:%1\">%2</a> %3</li>"_s.arg(std::max(1, f.attempt))
                        .arg(escaped(tr("attempt %1").arg(std::max(1, f.attempt))), escaped(f.sentence()));
        }
        html += u"</ul>"_s;
    }
    for (const ConformanceFinding& f : r->judgement.notes)
        html += u"<p><i>%1</i></p>"_s.arg(escaped(f.sentence()));
    if (!r->judgement.attempts.isEmpty()) {
        html += u"<table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">#</th><th align=\"left\">%1</th>"
                "<th align=\"left\">%2</th><th align=\"right\">%3</th></tr>"_s.arg(tr("Answer"), tr("The policy after it"), tr("Then waited"));
        html += attemptRows(*r) + u"</table>"_s;
        html += u"<p>%1</p>"_s.arg(tr("Click an attempt to see the case on the timeline."));
    }
    m_details->setHtml(html);
}

void ConformanceView::showCaseAttempts(int row, int attempt)
{
    const CaseResult* r = m_model->result(row);
    if (!r || r->run.record.attempts.isEmpty())
        return;
    auto session = std::make_shared<Session>();
    session->meta = SessionMeta::current();
    session->meta.source = tr("conformance: %1, case %2").arg(m_suiteName, r->suiteCase.name);
    session->redaction.salt = RedactionSettings::newSalt();
    session->addRun(r->run.record);
    Q_EMIT showAttemptsRequested(session, r->suiteCase.name, r->run.record.runId, attempt);
}
