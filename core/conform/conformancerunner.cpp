// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/conformancerunner.h"

#include "conform/calls/callsjudge.h"

#include "engine/clock.h"
#include "engine/scheduler.h"
#include "lab/faultserver.h"
#include "observe/observedrecords.h"

#include <QCoreApplication>
#include <QProcess>
#include <QSet>
#include <QUuid>

#include <algorithm>

#include <signal.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("conform", text); }

// After the command exits, exchanges still open (a connection it left behind) get this long to end.
constexpr std::chrono::milliseconds kDrain { 2000 };
constexpr qsizetype kOutputKept = 64 * 1024;

} // namespace

JudgedRun judgedRunOf(QList<LabExchange> exchanges, std::optional<int> exitCode, std::optional<qint64> observedUntilMs,
    const QDateTime& wallOrigin)
{
    std::stable_sort(exchanges.begin(), exchanges.end(),
        [](const LabExchange& a, const LabExchange& b) { return a.arrivedMs < b.arrivedMs; });
    ObservedRun observed;
    observed.id = 1;
    observed.grouping.rule = u"case"_s;
    observed.grouping.evidence = tr("every request the command sent for one suite case");
    for (qsizetype i = 0; i < exchanges.size(); ++i) {
        ObservedAttempt a;
        a.exchange = exchanges.at(i);
        a.index = int(i + 1);
        a.failed = failedExchange(a.exchange);
        if (i > 0)
            a.clientWait = MonoTime(std::chrono::milliseconds(
                std::max<qint64>(0, a.exchange.arrivedMs - exchangeEndMs(exchanges.at(i - 1)))));
        observed.attempts << a;
    }
    RecordOptions options;
    options.wallOrigin = wallOrigin;
    JudgedRun run;
    run.record = ObservedRecords::runRecord(observed, 1, options);
    if (observedUntilMs)
        run.observedUntil = MonoTime(std::chrono::milliseconds(*observedUntilMs));
    run.exitCode = exitCode;
    return run;
}

// One case: its lab, its command, what the lab saw.
class ConformanceRunner::CaseRun
{
public:
    CaseRun(ConformanceRunner& owner, const SuiteCase& c, const QStringList& command)
        : m_owner(owner)
    {
        m_result.suiteCase = c;
        const Clock& clock = owner.m_clock;
        m_lab.setClock([&clock] { return std::chrono::duration_cast<std::chrono::milliseconds>(clock.now()).count(); });
        m_lab.loadScenario(c.scenario);
        QObject::connect(&m_lab, &FaultServer::requestReceived, &m_lab, [this](const LabEvent& e) { m_inFlight.insert(e.requestId); });
        QObject::connect(&m_lab, &FaultServer::exchangeFinished, &m_lab, [this](const LabExchange& e) {
            m_inFlight.remove(e.requestId);
            m_exchanges << e;
            if (m_exited && m_inFlight.isEmpty())
                finish();
        });
        m_started = clock.now();
        if (!m_lab.start(FaultServerOptions {})) {
            m_result.startError = tr("the lab could not start: %1").arg(m_lab.errorString());
            return;
        }
        const QString base = m_lab.url().toString(QUrl::StripTrailingSlash);
        m_url = QUrl(base + c.path);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"RETRYLAB_URL"_s, m_url.toString());
        environment.insert(u"RETRYLAB_BASE_URL"_s, base);
        environment.insert(u"RETRYLAB_CASE"_s, c.name);
        environment.insert(u"RETRYLAB_METHOD"_s, c.method);
        if (c.key)
            environment.insert(u"RETRYLAB_IDEMPOTENCY_KEY"_s, QUuid::createUuid().toString(QUuid::WithoutBraces));
        else
            environment.remove(u"RETRYLAB_IDEMPOTENCY_KEY"_s);
        if (c.calls) {
            environment.insert(u"RETRYLAB_CALLS"_s, QString::number(c.calls->count));
            environment.insert(u"RETRYLAB_INTERVAL_MS"_s, QString::number(c.calls->interval.count()));
            environment.insert(u"RETRYLAB_CALL_HEADER"_s, QString::fromLatin1(kCallHeader));
        } else {
            for (const QString& name : { u"RETRYLAB_CALLS"_s, u"RETRYLAB_INTERVAL_MS"_s, u"RETRYLAB_CALL_HEADER"_s })
                environment.remove(name);
        }
        m_process.setProcessEnvironment(environment);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_process, &QProcess::readyRead, &m_process, [this] {
            m_result.output += m_process.readAll();
            if (m_result.output.size() > kOutputKept)
                m_result.output = m_result.output.right(kOutputKept);
        });
        QObject::connect(&m_process, &QProcess::errorOccurred, &m_process, [this](QProcess::ProcessError e) {
            if (e == QProcess::FailedToStart) {
                m_result.startError = tr("cannot run %1: %2").arg(m_process.program(), m_process.errorString());
                m_result.commandNotFound = true;
                m_exited = true;
                finish();
            }
        });
        QObject::connect(&m_process, &QProcess::finished, &m_process, [this](int code, QProcess::ExitStatus status) { exited(code, status); });
        m_timeout = owner.m_scheduler.scheduleAt(m_started + c.timeout, [this] {
            m_timeout.reset();
            m_result.timedOut = true;
            killGroup();
        });
        // Its own process group, so stopping it stops what it started too (a shell's client, an SDK's workers).
        m_process.setChildProcessModifier([] { ::setpgid(0, 0); });
        m_process.start(command.first(), command.sliced(1));
    }

    ~CaseRun()
    {
        cancelTasks();
        if (m_process.state() != QProcess::NotRunning) {
            killGroup();
            m_process.waitForFinished(3000);
        }
    }

    QUrl url() const { return m_url; }
    bool failedAtOnce() const { return !m_result.startError.isEmpty() && !m_exited; }
    CaseResult takeResult() { return std::move(m_result); }

    void abort()
    {
        m_result.timedOut = false;
        m_result.startError = tr("stopped before the case ended");
        if (m_process.state() != QProcess::NotRunning)
            killGroup();
    }

private:
    void killGroup()
    {
        if (const qint64 pid = m_process.processId(); pid > 0)
            ::kill(-pid_t(pid), SIGKILL);
        m_process.kill();
    }

    void exited(int code, QProcess::ExitStatus status)
    {
        m_result.output += m_process.readAll();
        if (m_result.output.size() > kOutputKept)
            m_result.output = m_result.output.right(kOutputKept);
        m_exited = true;
        m_exitedAt = m_owner.m_clock.now();
        if (status == QProcess::NormalExit)
            m_exitCode = code;
        else
            m_result.killedBySignal = !m_result.timedOut;
        if (m_timeout) {
            m_owner.m_scheduler.cancel(*m_timeout);
            m_timeout.reset();
        }
        if (m_inFlight.isEmpty()) {
            finish();
            return;
        }
        m_drain = m_owner.m_scheduler.scheduleAt(m_exitedAt + kDrain, [this] {
            m_drain.reset();
            finish();
        });
    }

    void cancelTasks()
    {
        if (m_timeout)
            m_owner.m_scheduler.cancel(*m_timeout);
        if (m_drain)
            m_owner.m_scheduler.cancel(*m_drain);
        m_timeout.reset();
        m_drain.reset();
    }

    void finish()
    {
        if (m_finished)
            return;
        m_finished = true;
        cancelTasks();
        m_lab.stop(); // what was still open ends now, as "stopped"
        const MonoTime now = m_owner.m_clock.now();
        m_result.elapsed = std::chrono::duration_cast<Millis>(now - m_started);
        const qint64 untilMs = std::chrono::duration_cast<std::chrono::milliseconds>(m_exited ? m_exitedAt : now).count();
        const QDateTime wallOrigin = m_owner.m_clock.wallNow().addMSecs(
            -std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
        m_result.run = judgedRunOf(m_exchanges, m_exitCode, untilMs, wallOrigin);
        if (m_result.startError.isEmpty()) {
            JudgeOptions options = m_owner.m_options;
            options.wallOrigin = wallOrigin;
            if (const std::optional<CallPlan> plan = judgedAsCalls(m_result.suiteCase, m_owner.m_policy)) {
                m_result.judgement = judgeCalls(m_owner.m_policy, m_result.run, *plan, options);
            } else {
                ConformanceJudge judge(m_owner.m_policy, options);
                m_result.judgement = judge.judge(m_result.run);
            }
        }
        // Reported from the event loop: the owner deletes this object when it takes the result.
        QMetaObject::invokeMethod(&m_owner, [owner = &m_owner, this] { owner->caseDone(takeResult()); }, Qt::QueuedConnection);
    }

    ConformanceRunner& m_owner;
    CaseResult m_result;
    FaultServer m_lab;
    QProcess m_process;
    QUrl m_url;
    QList<LabExchange> m_exchanges;
    QSet<quint64> m_inFlight;
    MonoTime m_started { 0 };
    MonoTime m_exitedAt { 0 };
    std::optional<int> m_exitCode;
    std::optional<Scheduler::TaskId> m_timeout;
    std::optional<Scheduler::TaskId> m_drain;
    bool m_exited = false;
    bool m_finished = false;
};

ConformanceRunner::ConformanceRunner(const Clock& clock, Scheduler& scheduler, RetryPolicy policy, JudgeOptions options,
    QObject* parent)
    : QObject(parent)
    , m_clock(clock)
    , m_scheduler(scheduler)
    , m_policy(std::move(policy))
    , m_options(std::move(options))
{
}

ConformanceRunner::~ConformanceRunner() = default;

void ConformanceRunner::start(const QList<SuiteCase>& cases, const QStringList& command)
{
    Q_ASSERT(!command.isEmpty());
    m_cases = cases;
    m_command = command;
    m_results.clear();
    m_index = -1;
    m_stopping = false;
    next();
}

void ConformanceRunner::stop()
{
    m_stopping = true;
    if (m_current)
        m_current->abort();
}

bool ConformanceRunner::isRunning() const { return m_current != nullptr; }

void ConformanceRunner::next()
{
    ++m_index;
    if (m_stopping || m_index >= m_cases.size()) {
        emit finished();
        return;
    }
    m_current = std::make_unique<CaseRun>(*this, m_cases.at(m_index), m_command);
    if (m_current->failedAtOnce()) { // the lab did not start: nothing runs
        CaseResult r = m_current->takeResult();
        QMetaObject::invokeMethod(this, [this, r] { caseDone(r); }, Qt::QueuedConnection);
        return;
    }
    emit caseStarted(m_index, m_cases.at(m_index).name, m_current->url());
}

void ConformanceRunner::caseDone(CaseResult result)
{
    m_current.reset();
    m_results << result;
    emit caseFinished(m_index, m_results.last());
    next();
}
