// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdexperiment.h"

#include <QCoreApplication>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("HerdExperiment", text);
}

void checkWindow(QList<PolicyProblem>& problems, const std::optional<HerdWindow>& window, const QString& path)
{
    if (!window)
        return;
    if (window->start.count() < 0)
        problems.append({ path + QStringLiteral(".start_ms"), tr("must be 0 or more") });
    if (window->duration.count() <= 0)
        problems.append({ path + QStringLiteral(".duration_ms"), tr("must be more than 0") });
}

void checkDistribution(QList<PolicyProblem>& problems, const HerdDistribution& d, const QString& path)
{
    if (!(d.meanMs >= 0) || d.meanMs > 3.6e6)
        problems.append({ path + QStringLiteral(".mean_ms"), tr("must be between 0 and 3 600 000") });
    if (!(d.sdMs >= 0) || d.sdMs > 3.6e6)
        problems.append({ path + QStringLiteral(".sd_ms"), tr("must be between 0 and 3 600 000") });
}

void checkStatus(QList<PolicyProblem>& problems, int status, const QString& path)
{
    if (status < 100 || status > 599)
        problems.append({ path, tr("must be an HTTP status, 100 to 599") });
}

} // namespace

QList<PolicyProblem> validate(const HerdExperiment& e)
{
    QList<PolicyProblem> problems;
    const HerdServerModel& s = e.server;
    if (s.concurrency < 0 || s.concurrency > 1000000)
        problems.append({ QStringLiteral("server.concurrency"), tr("must be between 0 (no limit) and 1 000 000") });
    checkDistribution(problems, s.service, QStringLiteral("server.service"));
    checkDistribution(problems, s.hop, QStringLiteral("server.hop"));
    if (!(s.loadLatencyMs >= 0) || s.loadLatencyMs > 60000)
        problems.append({ QStringLiteral("server.load_latency_ms"), tr("must be between 0 and 60 000") });
    if (s.queueLimit && *s.queueLimit < 0)
        problems.append({ QStringLiteral("server.queue_limit"), tr("must be 0 or more") });
    if (s.queueTimeout && s.queueTimeout->count() <= 0)
        problems.append({ QStringLiteral("server.queue_timeout_ms"), tr("must be more than 0") });
    if (!(s.errorRate >= 0 && s.errorRate <= 1))
        problems.append({ QStringLiteral("server.error_rate"), tr("must be between 0 and 1") });
    checkStatus(problems, s.errorStatus, QStringLiteral("server.error_status"));
    checkStatus(problems, s.outageStatus, QStringLiteral("server.outage.status"));
    checkStatus(problems, s.overloadStatus, QStringLiteral("server.overload_status"));
    if (s.retryAfter && (s.retryAfter->count() < 0 || s.retryAfter->count() > 86400000))
        problems.append({ QStringLiteral("server.retry_after_ms"), tr("must be between 0 and 86 400 000") });
    checkWindow(problems, s.outage, QStringLiteral("server.outage"));
    checkWindow(problems, s.cut, QStringLiteral("server.cut"));
    if (s.cut && !(s.cutFraction > 0 && s.cutFraction <= 1))
        problems.append({ QStringLiteral("server.cut.fraction"), tr("must be more than 0 and at most 1") });
    checkWindow(problems, s.latencySpike, QStringLiteral("server.latency_spike"));
    if (s.latencySpike && !(s.latencySpikeMs >= 0 && s.latencySpikeMs <= 3.6e6))
        problems.append({ QStringLiteral("server.latency_spike.extra_ms"), tr("must be between 0 and 3 600 000") });

    const HerdClientModel& c = e.clients;
    const bool open = c.loop == HerdClientModel::Loop::Open;
    if (c.clients < 1 || c.clients > 1000000)
        problems.append({ QStringLiteral("clients.count"), tr("must be between 1 and 1 000 000") });
    if (c.requestsPerClient < 1 || c.requestsPerClient > 65535)
        problems.append({ QStringLiteral("clients.requests_per_client"), tr("must be between 1 and 65 535") });
    if (c.think.count() < 0)
        problems.append({ QStringLiteral("clients.think_ms"), tr("must be 0 or more") });
    if (open && !(c.rate > 0 && c.rate <= 1e7))
        problems.append({ QStringLiteral("clients.rate"), tr("an open loop needs a rate of arrivals per second, more than 0 and at most 10 000 000") });
    checkWindow(problems, c.spike, QStringLiteral("clients.spike"));
    if (c.spike && !(c.spikeRate > 0 && c.spikeRate <= 1e7))
        problems.append({ QStringLiteral("clients.spike.rate"), tr("must be more than 0 and at most 10 000 000") });
    if (c.processes < 1 || c.processes > 1000000)
        problems.append({ QStringLiteral("clients.processes"), tr("must be between 1 and 1 000 000") });
    if (c.attemptTimeout && c.attemptTimeout->count() <= 0)
        problems.append({ QStringLiteral("clients.attempt_timeout_ms"), tr("must be more than 0") });
    if (open && e.duration.count() <= 0)
        problems.append({ QStringLiteral("duration_ms"), tr("an open loop needs a duration: arrivals and measuring stop there") });
    if (e.duration.count() < 0 || e.duration.count() > 86400000)
        problems.append({ QStringLiteral("duration_ms"), tr("must be between 0 and 86 400 000 (one day)") });
    if (e.runs < 1 || e.runs > 10000)
        problems.append({ QStringLiteral("runs"), tr("must be between 1 and 10 000") });
    if (e.resolution.count() < 1 || e.resolution.count() > 3600000)
        problems.append({ QStringLiteral("resolution_ms"), tr("must be between 1 and 3 600 000") });
    else if (e.duration.count() / e.resolution.count() > 100000)
        problems.append({ QStringLiteral("resolution_ms"), tr("gives more than 100 000 points: make it coarser") });
    if (e.policies.isEmpty())
        problems.append({ QStringLiteral("policies"), tr("needs at least one policy") });
    for (qsizetype i = 0; i < e.policies.size(); ++i) {
        const QString at = QStringLiteral("policies[%1]").arg(i);
        const HerdPolicy& p = e.policies.at(i);
        if (p.label.trimmed().isEmpty())
            problems.append({ at + QStringLiteral(".label"), tr("must not be empty") });
        for (const PolicyProblem& problem : validate(p.policy))
            problems.append({ at + QStringLiteral(".policy.") + problem.path, problem.message });
        for (qsizetype k = 0; k < p.policy.pipeline.size(); ++k) {
            const ResilienceStrategy::Kind kind = p.policy.pipeline.at(k).kind;
            if (kind == ResilienceStrategy::Kind::Hedging || kind == ResilienceStrategy::Kind::RateLimiter
                || kind == ResilienceStrategy::Kind::Bulkhead) {
                problems.append({ at + QStringLiteral(".policy.pipeline[%1]").arg(k),
                    tr("the herd simulator runs retries, timeouts, budgets and circuit breakers; it does not run %1 yet")
                        .arg(strategyKindName(kind)) });
            }
        }
    }
    for (qsizetype i = 0; i < e.policies.size(); ++i)
        for (qsizetype k = i + 1; k < e.policies.size(); ++k)
            if (e.policies.at(i).label == e.policies.at(k).label)
                problems.append({ QStringLiteral("policies[%1].label").arg(k), tr("\"%1\" is already the label of policies[%2]").arg(e.policies.at(k).label).arg(i) });
    return problems;
}
