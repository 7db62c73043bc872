// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/scenarioloader.h"

#include "lab/upstreamtarget.h"

#include "lab/routematcher.h"

#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QJsonDocument>

#include <cmath>
#include <initializer_list>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

namespace {

// Collects problems while walking the document.
class Reader
{
public:
    QList<ScenarioProblem> problems;

    void problem(const QString& path, const QString& message) { problems.append({ path, message }); }

    void checkKeys(const QJsonObject& object, const QString& path, std::initializer_list<const char16_t*> known)
    {
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            const QString key = it.key();
            if (key.startsWith(u'_') || key == u"$schema"_s)
                continue;
            bool found = false;
            for (const char16_t* k : known)
                found = found || key == QStringView(k);
            if (!found)
                problem(path + u'.' + key, u"unknown key"_s);
        }
    }

    std::optional<qint64> integer(const QJsonObject& o, const QString& path, const QString& key, qint64 min, qint64 max)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return std::nullopt;
        const double d = v.toDouble(-1e300);
        // The range first: casting 1e30 (or NaN) to qint64 is undefined. double(max) may round up to
        // 2^63, so the upper bound is strict against 2^63 as well.
        if (!v.isDouble() || !(d >= double(min) && d <= double(max) && d < 9223372036854775808.0)
            || d != std::floor(d)) {
            problem(path + u'.' + key, u"must be an integer from %1 to %2"_s.arg(min).arg(max));
            return std::nullopt;
        }
        return qint64(d);
    }

    std::optional<QString> string(const QJsonObject& o, const QString& path, const QString& key)
    {
        const QJsonValue v = o.value(key);
        if (v.isUndefined())
            return std::nullopt;
        if (!v.isString()) {
            problem(path + u'.' + key, u"must be a string"_s);
            return std::nullopt;
        }
        return v.toString();
    }

    std::optional<QString> oneOf(const QJsonObject& o, const QString& path, const QString& key, const QStringList& allowed)
    {
        const std::optional<QString> s = string(o, path, key);
        if (s && !allowed.contains(*s)) {
            problem(path + u'.' + key, u"must be one of: %1"_s.arg(allowed.join(u", "_s)));
            return std::nullopt;
        }
        return s;
    }

    std::optional<RetryAfterForm> retryAfterForm(const QJsonObject& o, const QString& path, const QString& key)
    {
        static const QStringList names { u"none"_s, u"seconds"_s, u"imf-fixdate"_s, u"rfc850"_s, u"asctime"_s, u"ms"_s };
        const std::optional<QString> s = oneOf(o, path, key, names);
        if (!s)
            return std::nullopt;
        return static_cast<RetryAfterForm>(names.indexOf(*s));
    }

    FaultServerLimits limits(const QJsonValue& v, const QString& path)
    {
        FaultServerLimits out;
        if (!v.isObject()) {
            problem(path, u"must be an object"_s);
            return out;
        }
        const QJsonObject o = v.toObject();
        checkKeys(o, path, { u"request_line_bytes", u"header_bytes", u"header_count", u"body_bytes", u"forward_body_bytes",
                               u"idle_timeout_ms", u"header_timeout_ms", u"request_timeout_ms", u"max_connections" });
        constexpr qint64 kDay = 24 * 3600 * 1000;
        if (auto n = integer(o, path, u"request_line_bytes"_s, 16, 1 << 24))
            out.requestLineBytes = qsizetype(*n);
        if (auto n = integer(o, path, u"header_bytes"_s, 16, 1 << 26))
            out.headerBytes = qsizetype(*n);
        if (auto n = integer(o, path, u"header_count"_s, 1, 100000))
            out.headerCount = int(*n);
        if (auto n = integer(o, path, u"body_bytes"_s, 0, 1LL << 30)) // bodies are held in memory
            out.bodyBytes = qsizetype(*n);
        if (auto n = integer(o, path, u"forward_body_bytes"_s, 0, 1LL << 50)) // streamed, never held: 0 = no limit
            out.forwardBodyBytes = *n;
        if (auto n = integer(o, path, u"idle_timeout_ms"_s, 1, kDay))
            out.idleTimeout = milliseconds(*n);
        if (auto n = integer(o, path, u"header_timeout_ms"_s, 1, kDay))
            out.headerTimeout = milliseconds(*n);
        if (auto n = integer(o, path, u"request_timeout_ms"_s, 1, kDay))
            out.requestTimeout = milliseconds(*n);
        if (auto n = integer(o, path, u"max_connections"_s, 1, 100000))
            out.maxConnections = int(*n);
        return out;
    }

    std::optional<RateLimitSpec> rateLimit(const QJsonValue& value, const QString& path);
    std::optional<FaultStep> step(const QJsonValue& value, const QString& path);
    void outageStep(const QJsonObject& o, const QString& path, FaultStep& step);
    std::optional<LatencyRamp> latencyRamp(const QJsonValue& value, const QString& path);
    std::optional<FaultRoute> route(const QJsonValue& value, const QString& path);
    std::optional<OutageWindow> outage(const QJsonValue& value, const QString& path);
};

std::optional<RateLimitSpec> Reader::rateLimit(const QJsonValue& value, const QString& path)
{
    if (!value.isObject()) {
        problem(path, u"must be an object"_s);
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    checkKeys(o, path, { u"algorithm", u"limit", u"window_ms", u"dialect", u"retry_after", u"policy", u"status" });
    const int before = int(problems.size());
    RateLimitSpec spec;
    if (auto a = oneOf(o, path, u"algorithm"_s, { u"token-bucket"_s, u"fixed-window"_s }))
        spec.algorithm = *a == u"token-bucket"_s ? RateLimitSpec::Algorithm::TokenBucket : RateLimitSpec::Algorithm::FixedWindow;
    if (!o.contains(u"limit"_s))
        problem(path + u".limit"_s, u"is required"_s);
    if (auto n = integer(o, path, u"limit"_s, 1, 1000000))
        spec.limit = int(*n);
    if (auto n = integer(o, path, u"window_ms"_s, 1, 86400000LL * 7))
        spec.window = milliseconds(*n);
    if (auto d = string(o, path, u"dialect"_s)) {
        if (auto dialect = RateLimitSpec::dialectFromName(*d))
            spec.dialect = *dialect;
        else
            problem(path + u".dialect"_s, u"must be one of: none, ietf-11, ietf-07, legacy, x-ratelimit, github"_s);
    }
    if (auto f = retryAfterForm(o, path, u"retry_after"_s))
        spec.retryAfterForm = *f;
    if (auto p = string(o, path, u"policy"_s))
        spec.policyName = p->toUtf8();
    if (auto s = integer(o, path, u"status"_s, 400, 599))
        spec.status = int(*s);
    return problems.size() == before ? std::optional(spec) : std::nullopt;
}

std::optional<FaultStep> Reader::step(const QJsonValue& value, const QString& path)
{
    if (!value.isObject()) {
        problem(path, u"must be an object"_s);
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    checkKeys(o, path,
        { u"kind", u"repeat", u"weight", u"note", u"status", u"headers", u"body", u"json", u"delay_ms", u"dribble",
            u"applied", u"retry_after", u"truncate_after", u"then", u"garbage", u"duration_ms", u"mode",
            u"latency_ramp" });
    const int before = int(problems.size());
    FaultStep step;
    const std::optional<QString> kindName = string(o, path, u"kind"_s);
    if (!kindName) {
        if (!o.contains(u"kind"_s))
            problem(path + u".kind"_s, u"is required"_s);
    } else if (auto kind = FaultStep::kindFromName(*kindName)) {
        step.kind = *kind;
    } else {
        problem(path + u".kind"_s,
            u"unknown step kind '%1' (respond, late, close, reset, truncate, garbage, hang, refuse, rate-limit, forward, outage)"_s
                .arg(*kindName));
    }
    if (step.kind == FaultStep::Kind::RateLimit)
        step.status = 429;
    if (step.kind == FaultStep::Kind::Outage)
        step.status = 503;
    const QJsonValue repeat = o.value(u"repeat"_s);
    if (repeat.isString() && repeat.toString() == u"forever"_s)
        step.repeat = -1;
    else if (auto n = integer(o, path, u"repeat"_s, 1, 1000000))
        step.repeat = int(*n);
    if (auto n = integer(o, path, u"weight"_s, 0, 1000000))
        step.weight = int(*n);
    if (auto s = string(o, path, u"note"_s))
        step.note = *s;
    if (auto n = integer(o, path, u"status"_s, 200, 599)) {
        step.status = int(*n);
        if (step.kind == FaultStep::Kind::Forward)
            step.statusOverride = int(*n);
    }
    if (o.contains(u"headers"_s)) {
        const QJsonValue h = o.value(u"headers"_s);
        if (!h.isObject()) {
            problem(path + u".headers"_s, u"must be an object of strings"_s);
        } else {
            const QJsonObject headers = h.toObject();
            for (auto it = headers.constBegin(); it != headers.constEnd(); ++it) {
                if (!it.value().isString() && !it.value().isDouble())
                    problem(path + u".headers."_s + it.key(), u"must be a string"_s);
                else
                    step.headers.append(qMakePair(it.key().toUtf8(), it.value().toVariant().toString().toUtf8()));
            }
        }
    }
    if (auto s = string(o, path, u"body"_s))
        step.body = s->toUtf8();
    if (o.contains(u"json"_s))
        step.json = o.value(u"json"_s);
    if (o.contains(u"json"_s) && o.contains(u"body"_s))
        problem(path, u"give either body or json, not both"_s);
    if (auto n = integer(o, path, u"delay_ms"_s, 0, 3600000))
        step.delay = milliseconds(*n);
    if (o.contains(u"dribble"_s)) {
        const QJsonObject d = o.value(u"dribble"_s).toObject();
        const QString dp = path + u".dribble"_s;
        checkKeys(d, dp, { u"bytes", u"interval_ms" });
        if (auto n = integer(d, dp, u"bytes"_s, 1, 1 << 20))
            step.dribbleBytes = qsizetype(*n);
        else if (!d.contains(u"bytes"_s))
            problem(dp + u".bytes"_s, u"is required"_s);
        if (auto n = integer(d, dp, u"interval_ms"_s, 0, 600000))
            step.dribbleInterval = milliseconds(*n);
    }
    if (o.contains(u"applied"_s)) {
        if (!o.value(u"applied"_s).isBool())
            problem(path + u".applied"_s, u"must be true or false"_s);
        else
            step.applied = o.value(u"applied"_s).toBool();
    }
    if (o.contains(u"retry_after"_s)) {
        const QJsonValue r = o.value(u"retry_after"_s);
        const QString rp = path + u".retry_after"_s;
        if (r.isDouble()) {
            if (auto n = integer(o, path, u"retry_after"_s, 0, 86400 * 365)) {
                step.retryAfterForm = RetryAfterForm::Seconds;
                step.retryAfter = milliseconds(*n * 1000);
            }
        } else if (r.isObject()) {
            const QJsonObject ro = r.toObject();
            checkKeys(ro, rp, { u"seconds", u"ms", u"form" });
            step.retryAfterForm = RetryAfterForm::Seconds;
            if (auto n = integer(ro, rp, u"seconds"_s, 0, 86400 * 365))
                step.retryAfter = milliseconds(*n * 1000);
            if (auto n = integer(ro, rp, u"ms"_s, 0, 86400000LL * 365))
                step.retryAfter = milliseconds(*n);
            if (!ro.contains(u"seconds"_s) && !ro.contains(u"ms"_s))
                problem(rp, u"needs seconds or ms"_s);
            if (auto f = retryAfterForm(ro, rp, u"form"_s))
                step.retryAfterForm = *f;
        } else {
            problem(rp, u"must be a number of seconds or an object {seconds|ms, form}"_s);
        }
    }
    if (auto n = integer(o, path, u"truncate_after"_s, 0, 1 << 30))
        step.truncateAfter = qsizetype(*n);
    if (auto t = oneOf(o, path, u"then"_s, { u"close"_s, u"reset"_s })) {
        step.truncateWithReset = *t == u"reset"_s;
        step.answerLost = step.kind == FaultStep::Kind::Forward;
    }
    if (auto s = string(o, path, u"garbage"_s))
        step.garbage = s->toUtf8();
    if (auto n = integer(o, path, u"duration_ms"_s, 0, 3600000))
        step.duration = milliseconds(*n);
    if (o.contains(u"latency_ramp"_s)) {
        step.latencyRamp = latencyRamp(o.value(u"latency_ramp"_s), path + u".latency_ramp"_s);
        if (o.contains(u"delay_ms"_s))
            problem(path, u"give either delay_ms or latency_ramp, not both"_s);
    }
    if (kindName && step.kind == FaultStep::Kind::Outage)
        outageStep(o, path, step);
    else if (o.contains(u"mode"_s))
        problem(path + u".mode"_s, u"only an outage step has a mode"_s);
    if (kindName) {
        if (step.kind == FaultStep::Kind::Late && step.latencyRamp
            && (step.latencyRamp->from.count() <= 0 || step.latencyRamp->to.count() <= 0))
            problem(path + u".latency_ramp"_s, u"a late step needs a delay: from_ms and to_ms of at least 1"_s);
        else if (step.kind == FaultStep::Kind::Late && step.delay.count() <= 0 && !o.contains(u"latency_ramp"_s))
            problem(path + u".delay_ms"_s, u"a late step needs a delay"_s);
        if (step.latencyRamp && (step.kind == FaultStep::Kind::Hang || step.kind == FaultStep::Kind::Refuse))
            problem(path + u".latency_ramp"_s,
                u"only a step that answers (or fails) after a delay has a latency ramp: not hang or refuse"_s);
        if (step.kind == FaultStep::Kind::Refuse && step.duration.count() <= 0)
            problem(path + u".duration_ms"_s, u"a refuse step needs a duration"_s);
        if (step.dribbleBytes > 0 && step.kind != FaultStep::Kind::Respond && step.kind != FaultStep::Kind::Late
            && step.kind != FaultStep::Kind::Forward)
            problem(path + u".dribble"_s, u"only respond, late and forward steps dribble"_s);
        if (step.kind == FaultStep::Kind::Forward && (o.contains(u"body"_s) || o.contains(u"json"_s)))
            problem(path, u"a forward step relays the upstream's body: no body or json"_s);
    }
    return problems.size() == before ? std::optional(step) : std::nullopt;
}

// An outage step: the whole server down for duration_ms (required), failing each request as `mode` says;
// only a status outage writes an answer, and it applies nothing.
void Reader::outageStep(const QJsonObject& o, const QString& path, FaultStep& step)
{
    if (auto m = oneOf(o, path, u"mode"_s, { u"status"_s, u"reset"_s, u"refuse"_s }))
        step.outageMode
            = *m == u"refuse"_s ? OutageMode::Refuse : (*m == u"reset"_s ? OutageMode::Reset : OutageMode::Status);
    if (!o.contains(u"duration_ms"_s))
        problem(path + u".duration_ms"_s, u"is required: how long the whole server is down"_s);
    else if (o.value(u"duration_ms"_s).isDouble() && o.value(u"duration_ms"_s).toDouble() == 0)
        problem(path + u".duration_ms"_s, u"an outage needs a duration of at least 1 ms"_s);
    if (step.outageMode != OutageMode::Status) {
        for (const char16_t* key : { u"status", u"headers", u"body", u"json", u"retry_after" }) {
            if (o.contains(QStringView(key).toString()))
                problem(path + u'.' + QStringView(key).toString(),
                    u"a %1 outage writes no answer (only mode status does)"_s.arg(o.value(u"mode"_s).toString()));
        }
    }
    if (o.contains(u"applied"_s))
        problem(path + u".applied"_s, u"an outage applies nothing"_s);
    if (o.contains(u"latency_ramp"_s))
        problem(path + u".latency_ramp"_s, u"an outage's answers wait delay_ms, not a ramp"_s);
}

std::optional<LatencyRamp> Reader::latencyRamp(const QJsonValue& value, const QString& path)
{
    if (!value.isObject()) {
        problem(path, u"must be an object {from_ms, to_ms, over_ms | over_requests}"_s);
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    checkKeys(o, path, { u"from_ms", u"to_ms", u"over_ms", u"over_requests" });
    const int before = int(problems.size());
    LatencyRamp ramp;
    if (auto n = integer(o, path, u"from_ms"_s, 0, 3600000))
        ramp.from = milliseconds(*n);
    if (auto n = integer(o, path, u"to_ms"_s, 0, 3600000))
        ramp.to = milliseconds(*n);
    else if (!o.contains(u"to_ms"_s))
        problem(path + u".to_ms"_s, u"is required: the delay the ramp ends at"_s);
    if (auto n = integer(o, path, u"over_ms"_s, 1, 86400000))
        ramp.over = milliseconds(*n);
    if (auto n = integer(o, path, u"over_requests"_s, 2, 1000000))
        ramp.overPlays = int(*n);
    if (o.contains(u"over_ms"_s) == o.contains(u"over_requests"_s))
        problem(path, u"give one of over_ms (time since the step first played) or over_requests (its plays)"_s);
    return problems.size() == before ? std::optional(ramp) : std::nullopt;
}

std::optional<FaultRoute> Reader::route(const QJsonValue& value, const QString& path)
{
    if (!value.isObject()) {
        problem(path, u"must be an object"_s);
        return std::nullopt;
    }
    const QJsonObject o = value.toObject();
    checkKeys(o, path, { u"name", u"method", u"path", u"host", u"operation", u"mode", u"steps", u"idempotency", u"rate_limit" });
    const int before = int(problems.size());
    FaultRoute route;
    const QJsonValue method = o.value(u"method"_s);
    if (method.isString()) {
        route.methods << method.toString().toUpper().toLatin1();
    } else if (method.isArray()) {
        const QJsonArray methods = method.toArray();
        for (const QJsonValue& m : methods)
            route.methods << m.toString().toUpper().toLatin1();
    } else if (!method.isUndefined()) {
        problem(path + u".method"_s, u"must be a method name or a list of them"_s);
    }
    if (auto p = string(o, path, u"path"_s)) {
        route.path = *p;
        const QString why = RouteMatcher::patternProblem(*p);
        if (!why.isEmpty())
            problem(path + u".path"_s, why);
    } else if (!o.contains(u"path"_s)) {
        problem(path + u".path"_s, u"is required"_s);
    }
    if (auto h = string(o, path, u"host"_s)) {
        // The lab as a forward proxy: "api.test", "*.example.com" or "*" (routes by host, then by path).
        static const QRegularExpression hostPattern(u"^(\\*|(\\*\\.)?[A-Za-z0-9_.:-]+)$"_s);
        if (hostPattern.match(*h).hasMatch())
            route.host = h->toLower();
        else
            problem(path + u".host"_s, u"must be a host name, an address, \"*\" or \"*.domain\""_s);
    }
    route.name = string(o, path, u"name"_s)
                     .value_or((route.methods.isEmpty() ? u"*"_s : QString::fromLatin1(route.methods.join(','))) + u' ' + route.path);
    if (auto op = string(o, path, u"operation"_s))
        route.operation = *op;
    if (auto m = oneOf(o, path, u"mode"_s, { u"sequence"_s, u"loop"_s, u"random"_s }))
        route.mode = *m == u"loop"_s ? FaultRoute::Mode::Loop : (*m == u"random"_s ? FaultRoute::Mode::Random : FaultRoute::Mode::Sequence);
    const QJsonValue steps = o.value(u"steps"_s);
    if (!steps.isArray() || steps.toArray().isEmpty()) {
        problem(path + u".steps"_s, u"must be a non-empty list of steps"_s);
    } else {
        const QJsonArray list = steps.toArray();
        int totalWeight = 0;
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (auto s = step(list.at(i), path + u".steps[%1]"_s.arg(i))) {
                totalWeight += s->weight;
                route.steps << *s;
            }
        }
        if (route.mode == FaultRoute::Mode::Random && route.steps.size() == list.size() && totalWeight <= 0)
            problem(path + u".steps"_s, u"random mode needs a positive total weight"_s);
    }
    const QJsonValue idem = o.value(u"idempotency"_s);
    if (idem.isBool()) {
        route.idempotency.enabled = idem.toBool();
    } else if (idem.isObject()) {
        const QJsonObject io = idem.toObject();
        const QString ip = path + u".idempotency"_s;
        checkKeys(io, ip, { u"header", u"required" });
        route.idempotency.enabled = true;
        if (auto h = string(io, ip, u"header"_s))
            route.idempotency.header = h->toLatin1();
        if (io.contains(u"required"_s))
            route.idempotency.required = io.value(u"required"_s).toBool();
    } else if (!idem.isUndefined()) {
        problem(path + u".idempotency"_s, u"must be true/false or an object {header, required}"_s);
    }
    if (o.contains(u"rate_limit"_s))
        route.rateLimit = rateLimit(o.value(u"rate_limit"_s), path + u".rate_limit"_s);
    return problems.size() == before ? std::optional(route) : std::nullopt;
}

std::optional<OutageWindow> Reader::outage(const QJsonValue& value, const QString& path)
{
    const QJsonObject o = value.toObject();
    if (!value.isObject()) {
        problem(path, u"must be an object"_s);
        return std::nullopt;
    }
    checkKeys(o, path, { u"from_ms", u"duration_ms", u"mode", u"status" });
    const int before = int(problems.size());
    OutageWindow window;
    if (auto n = integer(o, path, u"from_ms"_s, 0, 86400000))
        window.from = milliseconds(*n);
    if (auto n = integer(o, path, u"duration_ms"_s, 1, 86400000))
        window.duration = milliseconds(*n);
    else if (!o.contains(u"duration_ms"_s))
        problem(path + u".duration_ms"_s, u"is required"_s);
    if (auto m = oneOf(o, path, u"mode"_s, { u"refuse"_s, u"status"_s, u"reset"_s }))
        window.mode = *m == u"refuse"_s ? OutageWindow::Mode::Refuse : (*m == u"reset"_s ? OutageWindow::Mode::Reset : OutageWindow::Mode::Status);
    if (auto n = integer(o, path, u"status"_s, 200, 599))
        window.status = int(*n);
    return problems.size() == before ? std::optional(window) : std::nullopt;
}

} // namespace

QString ScenarioLoader::Result::problemText() const
{
    QStringList lines;
    for (const ScenarioProblem& p : problems)
        lines << p.toString();
    return lines.join(u'\n');
}

ScenarioLoader::Result ScenarioLoader::fromJson(const QByteArray& json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    Result result;
    if (error.error != QJsonParseError::NoError) {
        result.problems.append({ u"$"_s, u"not JSON: %1 at offset %2"_s.arg(error.errorString()).arg(error.offset) });
        return result;
    }
    if (!document.isObject()) {
        result.problems.append({ u"$"_s, u"must be a JSON object"_s });
        return result;
    }
    return fromObject(document.object());
}

ScenarioLoader::Result ScenarioLoader::fromObject(const QJsonObject& o)
{
    Reader r;
    const QString root = u"$"_s;
    r.checkKeys(o, root, { u"format", u"name", u"description", u"seed", u"routes", u"rate_limit", u"outages", u"fallback_status",
                           u"limits", u"upstream", u"forwarded_headers" });
    FaultScenario scenario;
    if (!o.contains(u"format"_s))
        r.problem(u"$.format"_s, u"is required (1)"_s);
    else if (o.value(u"format"_s).toInt(-1) != FaultScenario::currentFormat)
        r.problem(u"$.format"_s, u"unsupported format (this version reads format 1)"_s);
    if (auto name = r.string(o, root, u"name"_s))
        scenario.name = *name;
    if (scenario.name.isEmpty())
        r.problem(u"$.name"_s, u"is required"_s);
    scenario.description = r.string(o, root, u"description"_s).value_or(QString());
    if (auto seed = r.integer(o, root, u"seed"_s, 0, (1LL << 53)))
        scenario.seed = quint64(*seed);
    if (auto upstream = r.string(o, root, u"upstream"_s)) {
        UpstreamTarget target;
        target.base = QUrl(*upstream, QUrl::StrictMode);
        if (const QString why = target.problem(); !why.isEmpty())
            r.problem(u"$.upstream"_s, why);
        else
            scenario.upstream = target.base;
    }
    if (o.contains(u"forwarded_headers"_s)) {
        if (o.value(u"forwarded_headers"_s).isBool())
            scenario.forwardedHeaders = o.value(u"forwarded_headers"_s).toBool();
        else
            r.problem(u"$.forwarded_headers"_s, u"must be true or false"_s);
    }
    if (auto status = r.integer(o, root, u"fallback_status"_s, 200, 599))
        scenario.fallbackStatus = int(*status);
    const QJsonValue routes = o.value(u"routes"_s);
    if (!routes.isArray() || routes.toArray().isEmpty()) {
        r.problem(u"$.routes"_s, u"must be a non-empty list of routes"_s);
    } else {
        const QJsonArray list = routes.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (auto route = r.route(list.at(i), u"$.routes[%1]"_s.arg(i)))
                scenario.routes << *route;
        }
    }
    if (o.contains(u"limits"_s))
        scenario.limits = r.limits(o.value(u"limits"_s), u"$.limits"_s);
    if (o.contains(u"rate_limit"_s))
        scenario.rateLimit = r.rateLimit(o.value(u"rate_limit"_s), u"$.rate_limit"_s);
    if (o.contains(u"outages"_s)) {
        const QJsonArray list = o.value(u"outages"_s).toArray();
        if (!o.value(u"outages"_s).isArray())
            r.problem(u"$.outages"_s, u"must be a list"_s);
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (auto window = r.outage(list.at(i), u"$.outages[%1]"_s.arg(i)))
                scenario.outages << *window;
        }
    }
    Result result;
    result.problems = r.problems;
    if (result.problems.isEmpty()) {
        scenario.source = o;
        result.scenario = scenario;
    }
    return result;
}

ScenarioLoader::Result ScenarioLoader::fromFile(const QString& fileName)
{
    QFile file(fileName);
    if (!file.open(QIODevice::ReadOnly)) {
        Result result;
        result.problems.append({ u"$"_s, u"cannot read %1: %2"_s.arg(fileName, file.errorString()) });
        return result;
    }
    return fromJson(file.read(4 * 1024 * 1024));
}
