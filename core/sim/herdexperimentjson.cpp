// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdexperimentjson.h"

#include "policy/jsonreader.h"
#include "policy/policyjson.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace {

const QString kFormat = QStringLiteral("retrylab-herd");
constexpr int kVersion = 1;

QString tr(const char* text)
{
    return QCoreApplication::translate("HerdExperimentJson", text);
}

const QStringList& distributionKinds()
{
    static const QStringList names { QStringLiteral("fixed"), QStringLiteral("exponential"), QStringLiteral("normal") };
    return names;
}
const QStringList& outageAnswers()
{
    static const QStringList names { QStringLiteral("status"), QStringLiteral("reset"), QStringLiteral("refuse"), QStringLiteral("hang") };
    return names;
}
const QStringList& serverKinds()
{
    static const QStringList names { QStringLiteral("queue"), QStringLiteral("optimistic-row") };
    return names;
}
const QStringList& loops()
{
    static const QStringList names { QStringLiteral("closed"), QStringLiteral("open") };
    return names;
}

QJsonValue optionalMs(const std::optional<Millis>& value)
{
    return value ? QJsonValue(double(value->count())) : QJsonValue(QJsonValue::Null);
}

QJsonObject distribution(const HerdDistribution& d)
{
    return { { QStringLiteral("kind"), distributionKinds().at(int(d.kind)) }, { QStringLiteral("mean_ms"), d.meanMs },
        { QStringLiteral("sd_ms"), d.sdMs } };
}

QJsonValue window(const std::optional<HerdWindow>& w, const QJsonObject& extra)
{
    if (!w)
        return QJsonValue(QJsonValue::Null);
    QJsonObject o = extra;
    o.insert(QStringLiteral("start_ms"), double(w->start.count()));
    o.insert(QStringLiteral("duration_ms"), double(w->duration.count()));
    return o;
}

HerdDistribution readDistribution(JsonReader r, const HerdDistribution& fallback)
{
    HerdDistribution d;
    d.kind = r.choice(QStringLiteral("kind"), fallback.kind, distributionKinds());
    d.meanMs = r.number(QStringLiteral("mean_ms"), fallback.meanMs);
    d.sdMs = r.number(QStringLiteral("sd_ms"), fallback.sdMs);
    r.rejectUnknownKeys();
    return d;
}

// A window object, or null / absent for none. Its own extra keys are read by READ_EXTRA.
template<typename ReadExtra>
std::optional<HerdWindow> readWindow(JsonReader& parent, const QJsonObject& object, const QString& key, ReadExtra readExtra)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull()) {
        if (value.isNull())
            parent.child(key); // read: not unknown
        return std::nullopt;
    }
    JsonReader r = parent.child(key);
    HerdWindow w;
    w.start = r.millis(QStringLiteral("start_ms"), Millis(0));
    w.duration = r.millis(QStringLiteral("duration_ms"), Millis(0));
    readExtra(r);
    r.rejectUnknownKeys();
    return w;
}

} // namespace

QJsonObject herdExperimentToJson(const HerdExperiment& e)
{
    const HerdServerModel& s = e.server;
    QJsonObject server {
        { QStringLiteral("kind"), serverKinds().at(int(s.kind)) },
        { QStringLiteral("concurrency"), s.concurrency },
        { QStringLiteral("service"), distribution(s.service) },
        { QStringLiteral("load_latency_ms"), s.loadLatencyMs },
        { QStringLiteral("queue_limit"), s.queueLimit ? QJsonValue(*s.queueLimit) : QJsonValue(QJsonValue::Null) },
        { QStringLiteral("queue_timeout_ms"), optionalMs(s.queueTimeout) },
        { QStringLiteral("overload_status"), s.overloadStatus },
        { QStringLiteral("hop"), distribution(s.hop) },
        { QStringLiteral("error_rate"), s.errorRate },
        { QStringLiteral("error_status"), s.errorStatus },
        { QStringLiteral("retry_after_ms"), optionalMs(s.retryAfter) },
        { QStringLiteral("outage"), window(s.outage, { { QStringLiteral("answer"), outageAnswers().at(int(s.outageAnswer)) }, { QStringLiteral("status"), s.outageStatus } }) },
        { QStringLiteral("cut"), window(s.cut, { { QStringLiteral("fraction"), s.cutFraction } }) },
        { QStringLiteral("latency_spike"), window(s.latencySpike, { { QStringLiteral("extra_ms"), s.latencySpikeMs } }) },
    };
    const HerdClientModel& c = e.clients;
    QJsonObject clients {
        { QStringLiteral("loop"), loops().at(int(c.loop)) },
        { QStringLiteral("count"), c.clients },
        { QStringLiteral("requests_per_client"), c.requestsPerClient },
        { QStringLiteral("think_ms"), double(c.think.count()) },
        { QStringLiteral("rate"), c.rate },
        { QStringLiteral("arrivals"), c.poisson ? QStringLiteral("poisson") : QStringLiteral("fixed") },
        { QStringLiteral("spike"), window(c.spike, { { QStringLiteral("rate"), c.spikeRate } }) },
        { QStringLiteral("processes"), c.processes },
        { QStringLiteral("method"), c.method },
        { QStringLiteral("attempt_timeout_ms"), optionalMs(c.attemptTimeout) },
    };
    QJsonArray policies;
    for (const HerdPolicy& p : e.policies)
        policies.append(QJsonObject { { QStringLiteral("label"), p.label }, { QStringLiteral("policy"), policyToJson(p.policy) } });
    return {
        { QStringLiteral("format"), kFormat },
        { QStringLiteral("version"), kVersion },
        { QStringLiteral("name"), e.name },
        { QStringLiteral("title"), e.title },
        { QStringLiteral("source"), e.source },
        { QStringLiteral("claims"), e.claims },
        { QStringLiteral("server"), server },
        { QStringLiteral("clients"), clients },
        { QStringLiteral("duration_ms"), double(e.duration.count()) },
        { QStringLiteral("runs"), e.runs },
        { QStringLiteral("seed"), QString::number(e.seed) },
        { QStringLiteral("resolution_ms"), double(e.resolution.count()) },
        { QStringLiteral("policies"), policies },
    };
}

QByteArray herdExperimentToBytes(const HerdExperiment& experiment)
{
    return QJsonDocument(herdExperimentToJson(experiment)).toJson(QJsonDocument::Indented);
}

HerdExperimentParse herdExperimentFromBytes(const QByteArray& bytes)
{
    HerdExperimentParse out;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        out.problems.append({ QString(), tr("not JSON: %1 at byte %2").arg(error.errorString()).arg(error.offset) });
        return out;
    }
    if (!doc.isObject()) {
        out.problems.append({ QString(), tr("a herd experiment is a JSON object") });
        return out;
    }
    const QJsonObject root = doc.object();
    QList<PolicyProblem>& problems = out.problems;
    JsonReader r(problems, QString(), root);
    if (r.string(QStringLiteral("format"), QString()) != kFormat)
        r.problem(QStringLiteral("format"), tr("must be \"%1\"").arg(kFormat));
    const int version = r.integer(QStringLiteral("version"), kVersion);
    if (version != kVersion)
        r.problem(QStringLiteral("version"), tr("version %1 is not one this Retrylab reads (it reads %2)").arg(version).arg(kVersion));

    HerdExperiment e;
    e.name = r.string(QStringLiteral("name"), QString());
    e.title = r.string(QStringLiteral("title"), QString());
    e.source = r.string(QStringLiteral("source"), QString());
    e.claims = r.string(QStringLiteral("claims"), QString());

    const QJsonObject serverObject = root.value(QStringLiteral("server")).toObject();
    JsonReader s = r.child(QStringLiteral("server"));
    HerdServerModel& server = e.server;
    server.kind = s.choice(QStringLiteral("kind"), server.kind, serverKinds());
    server.concurrency = s.integer(QStringLiteral("concurrency"), server.concurrency);
    server.service = readDistribution(s.child(QStringLiteral("service")), server.service);
    server.loadLatencyMs = s.number(QStringLiteral("load_latency_ms"), server.loadLatencyMs);
    if (serverObject.value(QStringLiteral("queue_limit")).isNull())
        s.optionalBoolean(QStringLiteral("queue_limit"));
    else if (s.has(QStringLiteral("queue_limit")))
        server.queueLimit = s.integer(QStringLiteral("queue_limit"), 0);
    server.queueTimeout = s.optionalMillis(QStringLiteral("queue_timeout_ms"), std::nullopt);
    server.overloadStatus = s.integer(QStringLiteral("overload_status"), server.overloadStatus);
    server.hop = readDistribution(s.child(QStringLiteral("hop")), server.hop);
    server.errorRate = s.number(QStringLiteral("error_rate"), server.errorRate);
    server.errorStatus = s.integer(QStringLiteral("error_status"), server.errorStatus);
    server.retryAfter = s.optionalMillis(QStringLiteral("retry_after_ms"), std::nullopt);
    server.outage = readWindow(s, serverObject, QStringLiteral("outage"), [&](JsonReader& w) {
        server.outageAnswer = w.choice(QStringLiteral("answer"), server.outageAnswer, outageAnswers());
        server.outageStatus = w.integer(QStringLiteral("status"), server.outageStatus);
    });
    server.cut = readWindow(s, serverObject, QStringLiteral("cut"), [&](JsonReader& w) {
        server.cutFraction = w.number(QStringLiteral("fraction"), server.cutFraction);
    });
    server.latencySpike = readWindow(s, serverObject, QStringLiteral("latency_spike"), [&](JsonReader& w) {
        server.latencySpikeMs = w.number(QStringLiteral("extra_ms"), server.latencySpikeMs);
    });
    s.rejectUnknownKeys();

    const QJsonObject clientsObject = root.value(QStringLiteral("clients")).toObject();
    JsonReader c = r.child(QStringLiteral("clients"));
    HerdClientModel& clients = e.clients;
    clients.loop = c.choice(QStringLiteral("loop"), clients.loop, loops());
    clients.clients = c.integer(QStringLiteral("count"), clients.clients);
    clients.requestsPerClient = c.integer(QStringLiteral("requests_per_client"), clients.requestsPerClient);
    clients.think = c.millis(QStringLiteral("think_ms"), clients.think);
    clients.rate = c.number(QStringLiteral("rate"), clients.rate);
    clients.poisson = c.choice(QStringLiteral("arrivals"), 0, { QStringLiteral("poisson"), QStringLiteral("fixed") }) == 0;
    clients.spike = readWindow(c, clientsObject, QStringLiteral("spike"), [&](JsonReader& w) {
        clients.spikeRate = w.number(QStringLiteral("rate"), clients.spikeRate);
    });
    clients.processes = c.integer(QStringLiteral("processes"), clients.processes);
    clients.method = c.string(QStringLiteral("method"), clients.method).toUpper();
    clients.attemptTimeout = c.optionalMillis(QStringLiteral("attempt_timeout_ms"), std::nullopt);
    c.rejectUnknownKeys();

    e.duration = r.millis(QStringLiteral("duration_ms"), e.duration);
    e.runs = r.integer(QStringLiteral("runs"), e.runs);
    const QString seed = r.string(QStringLiteral("seed"), QString::number(e.seed));
    bool seedOk = false;
    e.seed = seed.toULongLong(&seedOk);
    if (!seedOk)
        r.problem(QStringLiteral("seed"), tr("must be a whole number from 0 to 18446744073709551615, as a string"));
    e.resolution = r.millis(QStringLiteral("resolution_ms"), e.resolution);

    const QList<QJsonObject> policies = r.objectList(QStringLiteral("policies"));
    for (qsizetype i = 0; i < policies.size(); ++i) {
        JsonReader p = r.element(QStringLiteral("policies"), i, policies.at(i));
        HerdPolicy policy;
        policy.label = p.string(QStringLiteral("label"), QString());
        const QJsonValue body = policies.at(i).value(QStringLiteral("policy"));
        p.child(QStringLiteral("policy"));
        if (!body.isObject()) {
            p.problem(QStringLiteral("policy"), tr("must be a policy object (policy format)"));
        } else {
            const PolicyParseResult parsed = policyFromJson(body.toObject());
            for (const PolicyProblem& problem : parsed.problems)
                problems.append({ QStringLiteral("policies[%1].policy.").arg(i) + problem.path, problem.message });
            if (parsed.policy)
                policy.policy = *parsed.policy;
        }
        p.rejectUnknownKeys();
        e.policies.append(policy);
    }
    r.rejectUnknownKeys();
    if (problems.isEmpty())
        problems = validate(e);
    if (problems.isEmpty())
        out.experiment = e;
    return out;
}

QJsonObject herdResultToJson(const HerdResult& result, bool withSeries)
{
    QJsonArray results;
    QJsonObject series;
    for (const HerdPolicyResult& r : result.results) {
        const HerdTotals& t = r.totals;
        results.append(QJsonObject {
            { QStringLiteral("policy"), r.label },
            { QStringLiteral("clients"), r.clients },
            { QStringLiteral("runs"), r.runs },
            { QStringLiteral("requests_mean"), t.requests },
            { QStringLiteral("succeeded_mean"), t.succeeded },
            { QStringLiteral("failed_mean"), t.failed },
            { QStringLiteral("unfinished_mean"), t.unfinished },
            { QStringLiteral("attempts_mean"), t.attempts },
            { QStringLiteral("server_calls_mean"), t.serverCalls },
            { QStringLiteral("duplicates_mean"), t.duplicates },
            { QStringLiteral("completion_ms_mean"), t.completionMs },
            { QStringLiteral("latency_p50_ms"), t.latencyP50Ms },
            { QStringLiteral("latency_p90_ms"), t.latencyP90Ms },
            { QStringLiteral("latency_p99_ms"), t.latencyP99Ms },
            { QStringLiteral("amplification"), t.amplification() },
            { QStringLiteral("success_rate"), t.successRate() },
            { QStringLiteral("goodput"), r.goodput },
            { QStringLiteral("recovered"), r.recovered ? QJsonValue(*r.recovered) : QJsonValue(QJsonValue::Null) },
            { QStringLiteral("collapsed_at_ms"), r.collapsedAt ? QJsonValue(double(r.collapsedAt->count())) : QJsonValue(QJsonValue::Null) },
            { QStringLiteral("wall_ms"), r.wallMs },
        });
        if (withSeries) {
            QJsonArray rows;
            const qint64 step = r.series.resolution.count();
            for (qsizetype i = 0; i < r.series.samples.size(); ++i) {
                const HerdSample& s = r.series.samples.at(i);
                const auto num = [](double v) { return std::isnan(v) ? QJsonValue(QJsonValue::Null) : QJsonValue(v); };
                rows.append(QJsonObject {
                    { QStringLiteral("t_ms"), double(i * step) },
                    { QStringLiteral("offered"), s.offered },
                    { QStringLiteral("attempts"), s.attempts },
                    { QStringLiteral("goodput"), s.goodput },
                    { QStringLiteral("retries"), s.retries },
                    { QStringLiteral("utilisation"), s.utilisation },
                    { QStringLiteral("in_service"), s.inService },
                    { QStringLiteral("queue"), s.queue },
                    { QStringLiteral("breaker_open"), num(s.breakerOpen) },
                    { QStringLiteral("budget_tokens"), num(s.budgetTokens) },
                });
            }
            series.insert(r.label, rows);
        }
    }
    QJsonObject out {
        { QStringLiteral("experiment"), result.experiment },
        { QStringLiteral("seed"), QString::number(result.seed) },
        { QStringLiteral("cancelled"), result.cancelled },
        { QStringLiteral("results"), results },
    };
    if (withSeries)
        out.insert(QStringLiteral("series"), series);
    return out;
}

QByteArray herdSeriesCsv(const HerdSeries& series)
{
    QByteArray out = "t_ms,offered,attempts,goodput,retries,utilisation,in_service,queue,breaker_open,budget_tokens\n";
    const auto num = [](double v) { return std::isnan(v) ? QByteArray() : QByteArray::number(v, 'g', 10); };
    for (qsizetype i = 0; i < series.samples.size(); ++i) {
        const HerdSample& s = series.samples.at(i);
        out += QByteArray::number(i * series.resolution.count()) + ',' + num(s.offered) + ',' + num(s.attempts) + ','
            + num(s.goodput) + ',' + num(s.retries) + ',' + num(s.utilisation) + ',' + num(s.inService) + ','
            + num(s.queue) + ',' + num(s.breakerOpen) + ',' + num(s.budgetTokens) + '\n';
    }
    return out;
}
