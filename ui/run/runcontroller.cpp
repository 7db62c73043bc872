// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/runcontroller.h"

#include "editors/labroutes.h"
#include "livesession.h"

#include "engine/clock.h"
#include "engine/retryengine.h"
#include "http/targeturl.h"
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "observe/observation.h"
#include "session/batch.h"
#include "session/format/sessionfile.h"
#include "session/sessionrecorder.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

using namespace Qt::StringLiterals;

RunController::RunController(const Clock& clock, Scheduler& scheduler, QObject* parent)
    : QObject(parent)
    , m_session(new LiveSession(this))
    , m_lab(new FaultServer(this))
    , m_clock(clock)
    , m_scheduler(scheduler)
    , m_recordingDir(defaultRecordingDirectory())
{
    m_savePool.setMaxThreadCount(1);
    RetryEngine::registerMetaTypes();
    connect(m_lab, &FaultServer::labEvent, this, [this](const LabEvent& e) {
        if (m_running && e.kind == LabEvent::Kind::ResponseFinished && e.stepKind == QLatin1String("no-route"))
            ++m_noRoute;
    });
    connect(m_lab, &FaultServer::listeningChanged, this, &RunController::labChanged);
}

RunController::~RunController()
{
    // A batch still running keeps its journal (recovered at the next start); saves under way finish.
    m_savePool.waitForDone();
    cancelBeats(); // runs not started yet on a beat: their tasks point here
    // The engine's replies and timers go before the clock and scheduler they point to.
    m_batch.reset();
}

const Clock& RunController::clock() const
{
    return m_clock;
}

Scheduler& RunController::scheduler() const
{
    return m_scheduler;
}

void RunController::fail(const QString& message)
{
    m_error = message;
    emit statusChanged(message);
}

bool RunController::startLab(const QString& scenarioName)
{
    if (!m_lab->isListening() && !m_lab->start()) {
        fail(tr("The fault lab could not start: %1").arg(m_lab->errorString()));
        emit labChanged();
        return false;
    }
    const bool loaded = loadScenario(scenarioName);
    emit labChanged();
    return loaded;
}

void RunController::setLabEnabled(bool enabled)
{
    if (enabled == isLabEnabled())
        return;
    if (enabled) {
        const FaultScenario scenario = m_lab->scenario();
        if (!m_lab->start()) {
            fail(tr("The fault lab could not start: %1").arg(m_lab->errorString()));
        } else {
            m_lab->loadScenario(scenario);
        }
    } else {
        m_lab->stop();
    }
    emit labChanged();
}

bool RunController::isLabEnabled() const
{
    return m_lab->isListening();
}

bool RunController::loadScenario(const QString& nameOrPath)
{
    const ScenarioLoader::Result loaded = ScenarioCatalog::load(nameOrPath);
    if (!loaded.ok()) {
        fail(tr("Scenario \"%1\" was not loaded: %2").arg(nameOrPath, loaded.problemText()));
        return false;
    }
    m_lab->loadScenario(*loaded.scenario);
    emit labChanged();
    return true;
}

void RunController::applyScenario(const FaultScenario& scenario)
{
    m_lab->loadScenario(scenario);
    emit labChanged();
}

QString RunController::scenarioName() const
{
    return m_lab->scenario().name;
}

void RunController::resetLab()
{
    m_lab->reset();
    emit labChanged();
}

bool RunController::run(const RunPlan& plan)
{
    if (m_running) {
        fail(tr("A batch is still running; stop it first."));
        return false;
    }
    RequestSpec request = plan.request;
    if (plan.targetLab) {
        if (!isLabEnabled()) {
            fail(tr("The built-in lab is off: switch it on in the lab panel, or send to a URL."));
            return false;
        }
        const QUrl relative(plan.labPath.isEmpty() ? u"/"_s : plan.labPath);
        request.url = m_lab->url().resolved(relative);
    }
    if (const QString problem = TargetUrl::problem(request.url); !problem.isEmpty()) {
        fail(problem);
        return false;
    }
    const QList<PolicyProblem> problems = validate(plan.policy);
    if (!problems.isEmpty()) {
        fail(tr("The policy has %n problem(s): %1", nullptr, int(problems.size()))
                 .arg(problems.first().path + u": "_s + problems.first().message));
        return false;
    }
    if (const QString refusal = engineRefusal(plan.policy); !refusal.isEmpty()) {
        fail(refusal);
        return false;
    }

    // A batch per press: it starts at t = 0 and the lab stamps its events on the same axis. The views let go
    // of the last batch's store first.
    m_session->clear();
    m_batch.reset();
    m_batch = std::make_unique<Batch>(m_clock, m_scheduler);
    m_batch->setConcurrency(plan.concurrency);
    m_batch->setPolicyChanges(plan.policy, plan.policyChanges); // the session says which preset, changed how
    // The lab is reset before the batch's recorder listens to it: what resetting reports is not the batch's.
    if (m_resetLabBeforeRun)
        resetLab();
    if (isLabEnabled())
        m_batch->useLab(m_lab, m_lab->scenario().source);

    startRecording();
    // The views read the batch's session as its recorder writes it: each finished attempt a row it appended,
    // each of the lab's events one it kept (it listens to the lab from useLab()), each change of a breaker's
    // state one it kept.
    m_session->clear();
    m_session->show(m_batch->sharedSession(), LiveSession::Reveal::AsRecorded);
    connect(m_batch.get(), &Batch::attemptStored, m_session, &LiveSession::onAttemptStored);
    connect(m_batch.get(), &Batch::labEventStored, m_session, &LiveSession::onLabEventStored);
    connect(m_batch.get(), &Batch::breakerChangeStored, m_session, &LiveSession::onBreakerChangeStored);
    RetryEngine* engine = &m_batch->engine();
    connect(engine, &RetryEngine::runStarted, m_session, &LiveSession::onRunStarted);
    connect(engine, &RetryEngine::attemptStarted, m_session, &LiveSession::onAttemptStarted);
    connect(engine, &RetryEngine::attemptPhase, m_session, &LiveSession::onAttemptPhase);
    connect(engine, &RetryEngine::waitScheduled, m_session, &LiveSession::onWaitScheduled); // throttle holds
    connect(engine, &RetryEngine::runFinished, m_session, &LiveSession::onRunFinished);
    connect(engine, &RetryEngine::runFinished, this, &RunController::onRunFinished);
    connect(m_batch.get(), &Batch::idle, this, &RunController::onIdle);

    m_error.clear();
    m_noRoute = 0;
    m_routeProblem = plan.targetLab ? LabRoutes::noRouteProblem(m_lab->scenario(), request.method, plan.labPath) : QString();
    m_submitted = std::max(1, plan.repeat);
    m_finished = 0;
    m_succeeded = 0;
    m_attempts = 0;
    m_stopping = false;
    m_running = true;
    emit runningChanged(true);
    emit progressChanged(0, m_submitted);
    if (plan.interval > Millis(0)) {
        // On a beat: the first now, one every interval after; the batch is not over while beats are due
        // (the engine goes idle between them).
        const MonoTime first = m_clock.now();
        for (int i = 0; i < m_submitted; ++i) {
            m_beats.append(m_scheduler.scheduleAt(first + i * plan.interval, [this, request, policy = plan.policy] {
                if (!m_beats.isEmpty())
                    m_beats.removeFirst();
                if (m_batch)
                    m_batch->submit(request, policy);
            }));
        }
    } else {
        for (int i = 0; i < m_submitted; ++i)
            m_batch->submit(request, plan.policy);
    }
    emit statusChanged(statusText());
    return true;
}

bool RunController::observe(bool asProxy)
{
    if (m_running) {
        fail(tr("A batch is running: stop it first."));
        return false;
    }
    if (asProxy) {
        if (!startProxyLab())
            return false;
    } else if (!isLabEnabled()) {
        fail(tr("Observing a client needs the built-in lab: switch it on in the lab panel."));
        return false;
    } else if (m_resetLabBeforeRun) {
        resetLab();
    }
    m_session->clear();
    m_observation = std::make_unique<Observation>(m_clock, asProxy ? m_proxy : m_lab);
    m_observationPath.clear();
    if (!m_recordingDir.isEmpty() && QDir().mkpath(m_recordingDir)) {
        const QString path = QDir(m_recordingDir).filePath(
            u"run-"_s + QDateTime::currentDateTime().toString(u"yyyyMMdd-HHmmss-zzz"_s) + u"-observed.json"_s);
        QString error;
        if (m_observation->journalTo(path, &error))
            m_observationPath = path;
        else
            fail(tr("The observation is not recorded: %1").arg(error));
    }
    // The views follow the observation's session (the journalled one) as it records, as a batch's.
    m_session->show(m_observation->session(), LiveSession::Reveal::AsRecorded);
    connect(m_observation.get(), &Observation::runStarted, m_session, &LiveSession::onRunStarted);
    connect(m_observation.get(), &Observation::attemptStored, m_session, &LiveSession::onAttemptStored);
    connect(m_observation.get(), &Observation::runFinished, m_session, &LiveSession::onRunFinished);
    connect(m_observation.get(), &Observation::labEventStored, m_session, &LiveSession::onLabEventStored);
    connect(m_observation.get(), &Observation::attemptStored, this, [this] {
        m_submitted = m_finished = m_observation->runs();
        m_attempts = int(m_observation->attempts());
        emit statusChanged(statusText());
    });
    m_error.clear();
    m_submitted = m_finished = m_succeeded = m_attempts = m_noRoute = 0;
    m_stopping = false;
    m_running = true;
    emit runningChanged(true);
    emit statusChanged(statusText());
    return true;
}

void RunController::finishObserving()
{
    m_observation->finish(); // every run final in the views
    m_session->flush();
    std::unique_ptr<ObservationRecorder> taken = m_observation->takeRecorder();
    m_observation.reset();
    stopProxyLab();
    m_running = false;
    const std::shared_ptr<const Session> session = taken->sharedSession(); // the one the views show
    m_succeeded = int(std::count_if(session->runs.cbegin(), session->runs.cend(),
        [&](const SessionRun& r) { return r.outcome == FinalKind::Success; }));
    if (!m_observationPath.isEmpty()) {
        emit batchRecorded(session, m_observationPath);
        // Saved off the GUI thread; the journal goes once the file is on disk (ObservationRecorder::save).
        ObservationRecorder* recorder = taken.release();
        recorder->setParent(this);
        const QString path = m_observationPath;
        m_savePool.start([this, recorder, path] {
            QString error;
            const bool ok = recorder->save(&error);
            QMetaObject::invokeMethod(recorder, [this, recorder, ok, path, error] {
                recorder->deleteLater();
                if (ok)
                    pruneRecordings();
                emit recordingSaved(path, ok, error);
            }, Qt::QueuedConnection);
        });
    }
    emit runningChanged(false);
    emit statusChanged(statusText());
}

void RunController::stop()
{
    if (m_observation) {
        m_stopping = true;
        finishObserving();
        return;
    }
    if (!m_running || !m_batch)
        return;
    m_stopping = true;
    cancelBeats(); // runs not yet started on the beat never start
    m_batch->cancelAll();
    onIdle();
}

void RunController::onRunFinished(const RunSummary& run)
{
    ++m_finished;
    m_succeeded += run.succeeded() ? 1 : 0;
    m_attempts += run.attemptCount;
    emit progressChanged(m_finished, m_submitted);
    emit statusChanged(statusText());
}

void RunController::cancelBeats()
{
    for (const Scheduler::TaskId task : std::as_const(m_beats))
        m_scheduler.cancel(task);
    m_beats.clear();
}

void RunController::onIdle()
{
    if (!m_running || (m_batch && !m_batch->isIdle()) || !m_beats.isEmpty())
        return;
    m_running = false;
    m_session->flush();
    finishRecording();
    emit runningChanged(false);
    emit statusChanged(statusText());
}

QString RunController::statusText() const
{
    if (!m_error.isEmpty())
        return m_error;
    if (m_submitted == 0)
        return tr("Ready: the fault lab plays \"%1\". Press Run to send the request.").arg(scenarioName());
    const double amplification = m_finished ? double(m_attempts) / m_finished : 0.0;
    // A lab request that matches no route is said before and while it runs, and counted after.
    const QString noRoute = m_noRoute > 0
        ? tr(" — %n request(s) matched no route of %1 (answered 404, no-route)", nullptr, m_noRoute).arg(scenarioName())
        : QString();
    if (m_observation && m_proxy) {
        return tr("Observing as a proxy: programs using %1 are watched; %n logical request(s) so far, %2 attempts (%3 retries)",
            nullptr, m_observation->runs())
            .arg(m_proxy->url().toString(), QString::number(m_observation->attempts()),
                QString::number(m_observation->attempts() - m_observation->runs()));
    }
    if (m_observation) {
        return tr("Observing: clients sending to %1 are watched; %n logical request(s) so far, %2 attempts (%3 retries)",
            nullptr, m_observation->runs())
            .arg(m_lab->url().toString(), QString::number(m_observation->attempts()),
                QString::number(m_observation->attempts() - m_observation->runs()));
    }
    if (m_running) {
        const QString running = tr("Running: %1 of %2 runs finished, %3 attempts so far")
                                    .arg(m_finished)
                                    .arg(m_submitted)
                                    .arg(m_attempts);
        return m_routeProblem.isEmpty() ? QString(running + noRoute) : QString(running + u" — "_s + m_routeProblem);
    }
    const QString ended = m_stopping ? tr("Stopped") : tr("Done");
    return tr("%1: %2 runs, %3 succeeded, %4 failed; %5 attempts (amplification %6)")
               .arg(ended)
               .arg(m_finished)
               .arg(m_succeeded)
               .arg(m_finished - m_succeeded)
               .arg(m_attempts)
               .arg(amplification, 0, 'f', 2)
        + noRoute;
}

QString RunController::defaultRecordingDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + u"/sessions"_s;
}

void RunController::startRecording()
{
    m_recording = false;
    if (m_recordingDir.isEmpty())
        return;
    if (!QDir().mkpath(m_recordingDir)) {
        fail(tr("Runs are not recorded: the folder %1 cannot be created.").arg(m_recordingDir));
        return;
    }
    const QString name = u"run-"_s + QDateTime::currentDateTime().toString(u"yyyyMMdd-HHmmss-zzz"_s) + u".json"_s;
    QString error;
    if (!m_batch->journalTo(QDir(m_recordingDir).filePath(name), &error)) {
        fail(tr("Runs are not recorded: %1").arg(error));
        return;
    }
    m_recording = true;
}

void RunController::finishRecording()
{
    if (!m_recording || !m_batch)
        return;
    m_recording = false;
    // The lab's last events (the final answer's ledger entry) are in; nothing is written to the session from
    // now on, so it is saved on another thread while the views go on showing it.
    const std::shared_ptr<const Session> session = m_batch->finishSession();
    std::unique_ptr<SessionRecorder> taken = m_batch->takeRecorder();
    const QString path = taken->sessionPath();
    SessionRecorder* recorder = taken.release();
    recorder->setParent(this);
    emit batchRecorded(session, path);
    // Saved off the GUI thread; the journal goes only once the file is on disk.
    m_savePool.start([this, recorder, session, path] {
        QString error;
        const bool ok = SessionFile::save(*session, path, {}, &error);
        QMetaObject::invokeMethod(recorder, [this, recorder, ok, path, error] {
            if (ok)
                recorder->releaseJournal();
            recorder->deleteLater();
            if (ok)
                pruneRecordings();
            emit recordingSaved(path, ok, error);
        }, Qt::QueuedConnection);
    });
}

void RunController::pruneRecordings() const
{
    QDir dir(m_recordingDir);
    const QFileInfoList files = dir.entryInfoList({ u"run-*.json"_s }, QDir::Files, QDir::Name | QDir::Reversed);
    for (qsizetype i = keepRecordings; i < files.size(); ++i) {
        if (!QFileInfo::exists(files.at(i).absoluteFilePath() + u".journal"_s))
            QFile::remove(files.at(i).absoluteFilePath());
    }
}
