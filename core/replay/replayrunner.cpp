// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay/replayrunner.h"

#include "engine/virtualtime.h"
#include "lab/faultserver.h"
#include "session/batch.h"
#include "lab/scenarioloader.h"
#include "replay/replayscenario.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

ReplayRunner::ReplayRunner(const Session& recorded, ReplayOptions options, const Clock& clock, Scheduler& scheduler,
    QObject* parent)
    : QObject(parent)
    , m_recorded(recorded)
    , m_options(std::move(options))
    , m_clock(clock)
    , m_scheduler(scheduler)
{
}

ReplayRunner::~ReplayRunner()
{
    if (m_batch)
        m_batch->disconnect(this);
    m_batch.reset(); // before the virtual clock and scheduler it runs on
}

TargetUrl::Parsed ReplayRunner::parseBaseUrl(const QString& text)
{
    TargetUrl::Parsed parsed = TargetUrl::parse(text);
    if (parsed.ok())
        parsed.problem = baseUrlProblem(parsed.url);
    if (!parsed.ok())
        parsed.url = QUrl();
    return parsed;
}

QString ReplayRunner::baseUrlProblem(const QUrl& url)
{
    if (const QString problem = TargetUrl::problem(url); !problem.isEmpty())
        return problem;
    const QString shown = url.toString();
    if (url.hasQuery())
        return tr("\"%1\" has a query, but each recorded request keeps its own: give a scheme, host, port and "
                  "at most a path prefix").arg(shown);
    if (url.hasFragment())
        return tr("\"%1\" has a fragment, which is never sent: leave it out").arg(shown);
    if (!url.userInfo().isEmpty())
        return tr("\"%1\" has user info: send credentials as a header (Authorization) instead").arg(shown);
    return {};
}

bool ReplayRunner::start(QString* error)
{
    if (m_options.live && !m_options.baseUrl.isEmpty()) {
        if (const QString problem = baseUrlProblem(m_options.baseUrl); !problem.isEmpty()) {
            if (error)
                *error = problem;
            return false;
        }
    }
    if (m_options.live || m_options.realTime) {
        m_batch = std::make_unique<Batch>(m_clock, m_scheduler);
    } else {
        m_virtualClock = std::make_unique<VirtualClock>();
        m_virtualScheduler = std::make_unique<VirtualScheduler>(*m_virtualClock);
        m_batch = std::make_unique<Batch>(*m_virtualClock, *m_virtualScheduler);
        m_batch->skipWaits(*m_virtualScheduler);
    }
    const int concurrency = m_options.concurrency > 0 ? m_options.concurrency : m_recorded.meta.concurrency;
    m_batch->setConcurrency(std::max(1, concurrency));
    m_batch->setSessionSource(m_options.live ? u"replay-live"_s : u"replay-offline"_s);
    m_batch->setRedaction(m_recorded.redaction);

    QUrl labUrl;
    if (!m_options.live) {
        const QJsonObject scenario = ReplayScenario::fromSession(m_recorded);
        const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(scenario);
        if (!loaded.ok()) {
            if (error)
                *error = tr("the recorded answers do not make a valid scenario: %1").arg(loaded.problemText());
            return false;
        }
        m_lab = std::make_unique<FaultServer>();
        if (!m_lab->start()) {
            if (error)
                *error = tr("the fault lab could not start: %1").arg(m_lab->errorString());
            return false;
        }
        m_lab->loadScenario(*loaded.scenario);
        labUrl = m_lab->url();
        m_batch->useLab(m_lab.get(), scenario);
    }
    connect(&m_batch->engine(), &RetryEngine::runFinished, this,
        [this] { Q_EMIT progress(++m_done, int(m_recorded.runs.size())); });
    connect(m_batch.get(), &Batch::idle, this, &ReplayRunner::onIdle);

    // The replay's session says what was changed in its policies, as the recording did.
    if (m_options.policy) {
        m_batch->setPolicyChanges(*m_options.policy, m_options.policyChanges);
    } else {
        for (auto it = m_recorded.policyChanges.cbegin(); it != m_recorded.policyChanges.cend(); ++it)
            m_batch->setPolicyChanges(m_recorded.policies.value(it.key()), it.value());
    }
    m_running = true;
    for (const SessionRun& run : m_recorded.runs) {
        RequestSpec spec = m_recorded.requests.value(run.request);
        if (!m_options.live) {
            QUrl url = labUrl;
            url.setPath(ReplayScenario::pathFor(run.runId));
            url.setQuery(spec.url.query(QUrl::FullyEncoded), QUrl::StrictMode);
            spec.url = url;
        } else if (!m_options.baseUrl.isEmpty()) {
            QString prefix = m_options.baseUrl.path(QUrl::FullyEncoded);
            while (prefix.endsWith(u'/'))
                prefix.chop(1);
            const QString path = spec.url.path(QUrl::FullyEncoded);
            spec.url.setScheme(m_options.baseUrl.scheme());
            spec.url.setHost(m_options.baseUrl.host());
            spec.url.setPort(m_options.baseUrl.port());
            const QString joined = path.isEmpty() || path.startsWith(u'/') ? QString(prefix + path) : QString(prefix + u'/' + path);
            spec.url.setPath(joined, QUrl::StrictMode);
        }
        const RetryPolicy policy = m_options.policy ? *m_options.policy : m_recorded.policies.value(run.policy);
        m_batch->submit(spec, policy, run.seed);
    }
    if (m_recorded.runs.isEmpty()) {
        m_running = false;
        QMetaObject::invokeMethod(this, &ReplayRunner::finished, Qt::QueuedConnection);
    }
    return true;
}

void ReplayRunner::onIdle()
{
    if (!m_running)
        return;
    m_running = false;
    m_result = m_batch->takeSession();
    // Runs finish in any order; the comparison pairs them by submission order (= run id).
    std::sort(m_result.runs.begin(), m_result.runs.end(),
        [](const SessionRun& a, const SessionRun& b) { return a.runId < b.runId; });
    m_result.rebuildIndex();
    if (m_lab)
        m_lab->stop();
    Q_EMIT finished();
}

void ReplayRunner::cancel()
{
    if (m_batch)
        m_batch->cancelAll();
}
