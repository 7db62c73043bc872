// SPDX-License-Identifier: GPL-3.0-or-later
// Reads an Envoy route retry_policy (YAML, API v3) into a policy: alone, under `retry_policy`, or in a route
// action beside `timeout` and `hedge_policy`, with the cluster's `connect_timeout` and `circuit_breakers`
// beside it (as exportEnvoy() writes). Starts from Envoy's defaults: 1 retry, a 25 ms base interval capped at
// 10 × base, full jitter, the 15 s route timeout. Facts: retry-systems.md §6, resilience-fleets.md §1.7.
#include "codegen/targets/proxytargets.h"
#include "codegen/yamlreader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

const QList<ErrorClass> kConnectFailure { ErrorClass::Dns, ErrorClass::Refused, ErrorClass::Tls, ErrorClass::ConnectTimeout };
const QList<ErrorClass> kReset { ErrorClass::Dns, ErrorClass::Refused, ErrorClass::Tls, ErrorClass::ConnectTimeout,
    ErrorClass::ConnectionLost, ErrorClass::Protocol };

struct Reader
{
    CodeImport& out;

    void lose(const QString& path, const QString& what) { out.lost.append(LostBehaviour { path, what }); }
    void problem(const QString& path, const QString& what) { out.problems << u"%1: %2"_s.arg(path, what); }

    // A protobuf Duration as YAML/JSON writes it: "1.5s" (or {seconds, nanos}); whole milliseconds, rounded up.
    std::optional<Millis> duration(const QJsonValue& v, const QString& path)
    {
        static const QRegularExpression re(u"^([0-9]{1,10})(\\.[0-9]{1,9})?s$"_s);
        double seconds = -1;
        if (v.isString()) {
            const QRegularExpressionMatch m = re.match(v.toString());
            if (m.hasMatch())
                seconds = QString(m.captured(1) + m.captured(2)).toDouble();
        } else if (v.isObject()) {
            const QJsonObject o = v.toObject();
            const double s = o.value(u"seconds"_s).toDouble(-1);
            const double n = o.value(u"nanos"_s).toDouble(0);
            if (s >= 0 && s < 1e10 && n >= 0 && n < 1e9 && s == std::floor(s) && n == std::floor(n))
                seconds = s + n / 1e9;
        }
        if (seconds < 0) {
            problem(path, u"not a duration: write seconds with an \"s\", e.g. \"0.025s\""_s);
            return std::nullopt;
        }
        return Millis(qint64(std::ceil(seconds * 1000.0 - 1e-6)));
    }

    std::optional<int> count(const QJsonValue& v, const QString& path)
    {
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 0 || d != std::floor(d) || d > 1e6) {
            problem(path, u"not a whole number from 0 to 1000000"_s);
            return std::nullopt;
        }
        return int(d);
    }

    QJsonObject object(const QJsonValue& v, const QString& path)
    {
        if (!v.isObject()) {
            problem(path, u"not a mapping"_s);
            return {};
        }
        return v.toObject();
    }

    // A request-header matcher on :method with an exact value, or nothing.
    std::optional<QString> methodMatcher(const QJsonObject& m)
    {
        if (m.value(u"name"_s).toString() != u":method"_s || m.value(u"invert_match"_s).toBool(false))
            return std::nullopt;
        if (m.value(u"exact_match"_s).isString())
            return m.value(u"exact_match"_s).toString().toUpper();
        const QJsonObject s = m.value(u"string_match"_s).toObject();
        if (s.size() == 1 && s.value(u"exact"_s).isString())
            return s.value(u"exact"_s).toString().toUpper();
        return std::nullopt;
    }

    // A response-header matcher as the policy's HeaderMatch: present, or an exact value.
    std::optional<HeaderMatch> headerMatcher(const QJsonObject& m)
    {
        const QString name = m.value(u"name"_s).toString();
        if (name.isEmpty() || m.value(u"invert_match"_s).toBool(false))
            return std::nullopt;
        HeaderMatch h;
        h.name = name.toLower();
        if (m.size() == 1 || (m.size() == 2 && m.value(u"present_match"_s).toBool(false)))
            return h;
        if (m.size() == 2 && m.value(u"exact_match"_s).isString()) {
            h.values << m.value(u"exact_match"_s).toString();
            return h;
        }
        const QJsonObject s = m.value(u"string_match"_s).toObject();
        if (m.size() == 2 && s.size() == 1 && s.value(u"exact"_s).isString()) {
            h.values << s.value(u"exact"_s).toString();
            return h;
        }
        return std::nullopt;
    }
};

QList<StatusRange> rangesOf(QList<int> statuses)
{
    std::sort(statuses.begin(), statuses.end());
    QList<StatusRange> out;
    for (const int s : statuses) {
        if (!out.isEmpty() && out.last().high >= s - 1)
            out.last().high = std::max(out.last().high, s);
        else
            out << StatusRange { s, s };
    }
    return out;
}

} // namespace

CodeImport importEnvoy(const QByteArray& text)
{
    CodeImport out;
    Reader r { out };
    const YamlDocument doc = YamlReader::parse(text);
    if (!doc.ok()) {
        out.problems << u"not YAML this reader takes: "_s + doc.problem;
        return out;
    }
    if (!doc.value.isObject()) {
        out.problems << u"the document is not a mapping: expected an Envoy retry_policy"_s;
        return out;
    }
    const QJsonObject root = doc.value.toObject();
    QJsonObject route = root;
    QString routePrefix;
    if (root.contains(u"route"_s)) {
        route = r.object(root.value(u"route"_s), u"route"_s);
        routePrefix = u"route."_s;
    }
    QJsonObject rp;
    QString rpPrefix;
    bool bare = false;
    if (route.contains(u"retry_policy"_s)) {
        rp = r.object(route.value(u"retry_policy"_s), routePrefix + u"retry_policy"_s);
        rpPrefix = routePrefix + u"retry_policy."_s;
    } else if (root.contains(u"retry_on"_s) || root.contains(u"num_retries"_s)) {
        rp = root;
        bare = true;
    } else {
        out.problems << u"no retry_policy: expected one alone, under retry_policy, or in a route"_s;
        return out;
    }
    if (!out.problems.isEmpty())
        return out;

    RetryPolicy p;
    p.name = root.value(u"name"_s).isString() && bare ? root.value(u"name"_s).toString() : u"envoy-import"_s;
    p.description = u"Imported from an Envoy route retry_policy."_s;
    p.limits.maxAttempts = 2;
    p.limits.countedAs = AttemptCounting::Retries;
    p.limits.deadline = Millis(15000);
    p.backoff.kind = BackoffKind::Exponential;
    p.backoff.base = Millis(25);
    p.backoff.multiplier = 2.0;
    p.backoff.cap = Millis(250);
    p.jitter.kind = JitterKind::Full;
    p.jitter.capOrder = CapOrder::BeforeJitter;

    // The retry_policy's own fields.
    QStringList conditions;
    QList<int> codes;
    QStringList methods;
    QList<HeaderMatch> retriableHeaders;
    std::optional<Millis> perTry;
    int retries = 1;
    const QStringList known { u"retry_on"_s, u"num_retries"_s, u"per_try_timeout"_s, u"retry_back_off"_s, u"rate_limited_retry_back_off"_s,
        u"retriable_status_codes"_s, u"retriable_request_headers"_s, u"retriable_headers"_s };
    for (auto it = rp.constBegin(); it != rp.constEnd(); ++it) {
        const QString key = it.key();
        const QString path = rpPrefix + key;
        const QJsonValue v = it.value();
        if (key == u"retry_on"_s) {
            if (!v.isString())
                r.problem(path, u"not a string of comma-separated conditions"_s);
            for (const QString& c : v.toString().split(u','))
                if (!c.trimmed().isEmpty())
                    conditions << c.trimmed();
        } else if (key == u"num_retries"_s) {
            if (const auto n = r.count(v, path))
                retries = *n;
        } else if (key == u"per_try_timeout"_s) {
            perTry = r.duration(v, path);
        } else if (key == u"retry_back_off"_s) {
            const QJsonObject b = r.object(v, path);
            for (auto bt = b.constBegin(); bt != b.constEnd(); ++bt)
                if (bt.key() != u"base_interval"_s && bt.key() != u"max_interval"_s)
                    r.lose(path + u'.' + bt.key(), u"not a RetryBackOff field: not read"_s);
            if (!b.contains(u"base_interval"_s)) {
                r.problem(path + u".base_interval"_s, u"required"_s);
            } else if (const auto base = r.duration(b.value(u"base_interval"_s), path + u".base_interval"_s)) {
                p.backoff.base = std::max(*base, Millis(1));
                p.backoff.cap = p.backoff.base * 10;
            }
            if (b.contains(u"max_interval"_s))
                if (const auto max = r.duration(b.value(u"max_interval"_s), path + u".max_interval"_s)) {
                    if (*max < p.backoff.base)
                        r.problem(path + u".max_interval"_s, u"below base_interval (Envoy refuses it)"_s);
                    p.backoff.cap = *max;
                }
        } else if (key == u"rate_limited_retry_back_off"_s) {
            const QJsonObject b = r.object(v, path);
            Millis max(300'000);
            if (b.contains(u"max_interval"_s))
                if (const auto m = r.duration(b.value(u"max_interval"_s), path + u".max_interval"_s))
                    max = *m;
            const QJsonArray headers = b.value(u"reset_headers"_s).toArray();
            if (headers.isEmpty())
                r.problem(path + u".reset_headers"_s, u"at least one reset header is required"_s);
            for (qsizetype i = 0; i < headers.size() && i < 100; ++i) {
                const QString hp = path + u".reset_headers[%1]"_s.arg(i);
                const QJsonObject h = headers.at(i).toObject();
                const QString name = h.value(u"name"_s).toString();
                const QString format = h.value(u"format"_s).toString(u"SECONDS"_s);
                if (name.isEmpty()) {
                    r.problem(hp + u".name"_s, u"a header name is required"_s);
                } else if (format == u"SECONDS"_s) {
                    DelayHint d;
                    d.header = name.toLower();
                    d.format = HintFormat::Seconds;
                    d.combine = HintCombine::Replace;
                    d.max = max;
                    d.overMax = HintOverMax::Ignore;
                    p.hints << d;
                } else if (format == u"UNIX_TIMESTAMP"_s) {
                    r.lose(hp, u"a reset time as a Unix timestamp: the policy reads delays, not instants"_s);
                } else {
                    r.problem(hp + u".format"_s, u"SECONDS or UNIX_TIMESTAMP"_s);
                }
            }
            for (auto bt = b.constBegin(); bt != b.constEnd(); ++bt)
                if (bt.key() != u"reset_headers"_s && bt.key() != u"max_interval"_s)
                    r.lose(path + u'.' + bt.key(), u"not a RateLimitedRetryBackOff field: not read"_s);
            r.lose(path, u"Envoy's jitter on the asked delay, U[d, 1.5·d): the policy waits the asked delay exactly"_s);
        } else if (key == u"retriable_status_codes"_s) {
            const QJsonArray a = v.toArray();
            if (!v.isArray())
                r.problem(path, u"not a list of status codes"_s);
            for (qsizetype i = 0; i < a.size() && i < 1000; ++i) {
                const double c = a.at(i).toDouble(-1);
                if (!a.at(i).isDouble() || c < 100 || c > 599 || c != std::floor(c))
                    r.problem(u"%1[%2]"_s.arg(path).arg(i), u"not an HTTP status code (100-599)"_s);
                else
                    codes << int(c);
            }
        } else if (key == u"retriable_request_headers"_s) {
            const QJsonArray a = v.toArray();
            for (qsizetype i = 0; i < a.size() && i < 100; ++i) {
                if (const auto m = r.methodMatcher(a.at(i).toObject()))
                    methods << *m;
                else
                    r.lose(u"%1[%2]"_s.arg(path).arg(i), u"a request-header condition other than an exact :method: the policy's rules see methods and the idempotency key only"_s);
            }
        } else if (key == u"retriable_headers"_s) {
            const QJsonArray a = v.toArray();
            for (qsizetype i = 0; i < a.size() && i < 100; ++i) {
                if (const auto h = r.headerMatcher(a.at(i).toObject()))
                    retriableHeaders << *h;
                else
                    r.lose(u"%1[%2]"_s.arg(path).arg(i), u"a header matcher other than presence or an exact value: not read"_s);
            }
        } else if (key == u"retry_host_predicate"_s || key == u"retry_priority"_s || key == u"host_selection_retry_max_attempts"_s
            || key == u"retry_options_predicates"_s) {
            r.lose(path, u"host selection for retries: a policy has one upstream"_s);
        } else if (!(bare && (key == u"name"_s))) {
            r.lose(path, known.contains(key) ? u"not read"_s : u"not a RetryPolicy field: not read"_s);
        }
    }

    // The route's fields beside it.
    std::optional<bool> hedgeOnTimeout;
    if (!bare) {
        for (auto it = route.constBegin(); it != route.constEnd(); ++it) {
            const QString path = routePrefix + it.key();
            if (it.key() == u"retry_policy"_s) {
                continue;
            } else if (it.key() == u"timeout"_s) {
                if (const auto t = r.duration(it.value(), path))
                    p.limits.deadline = *t > Millis(0) ? std::optional<Millis>(*t) : std::nullopt;
            } else if (it.key() == u"hedge_policy"_s) {
                const QJsonObject h = r.object(it.value(), path);
                for (auto ht = h.constBegin(); ht != h.constEnd(); ++ht) {
                    if (ht.key() == u"hedge_on_per_try_timeout"_s) {
                        if (!ht.value().isBool())
                            r.problem(path + u".hedge_on_per_try_timeout"_s, u"not true or false"_s);
                        hedgeOnTimeout = ht.value().toBool();
                    } else {
                        r.lose(path + u'.' + ht.key(), u"declared by Envoy but not implemented, or not a HedgePolicy field: not read"_s);
                    }
                }
            } else if (routePrefix.isEmpty() && (it.key() == u"circuit_breakers"_s || it.key() == u"connect_timeout"_s)) {
                continue; // the cluster's, below
            } else {
                r.lose(path, u"not a retry setting: not read"_s);
            }
        }
        for (auto it = root.constBegin(); it != root.constEnd(); ++it) {
            if (it.key() == u"route"_s)
                continue;
            if (it.key() == u"connect_timeout"_s) {
                if (const auto t = r.duration(it.value(), it.key()))
                    p.limits.connectTimeout = *t;
            } else if (it.key() == u"circuit_breakers"_s) {
                r.lose(it.key(), u"the cluster's circuit breakers and retry budget bound concurrent retries across requests: "
                                 "the policy has no concurrency budget"_s);
            } else if (!routePrefix.isEmpty()) {
                r.lose(it.key(), u"not a retry setting: not read"_s);
            }
        }
    }

    // retry_on → what is retried.
    QList<int> statuses;
    QList<ErrorClass> errors;
    bool timeoutRetried = false;
    QList<RetryRule> headerRules;
    const QString onPath = rpPrefix + u"retry_on"_s;
    const auto addErrors = [&](const QList<ErrorClass>& list) {
        for (const ErrorClass e : list)
            if (!errors.contains(e))
                errors << e;
    };
    const auto grpcRule = [&](const QString& condition, int code) {
        RetryRule rule;
        rule.name = condition;
        rule.when.outcome = OutcomeKind::Status;
        rule.when.headers << HeaderMatch { u"grpc-status"_s, { QString::number(code) }, false };
        rule.note = u"retry_on "_s + condition;
        headerRules << rule;
    };
    for (const QString& c : std::as_const(conditions)) {
        if (c == u"5xx"_s) {
            for (int s = 500; s <= 599; ++s)
                statuses << s;
            addErrors(kReset);
            timeoutRetried = true;
        } else if (c == u"gateway-error"_s) {
            statuses << 502 << 503 << 504;
            addErrors(kReset);
            timeoutRetried = true;
        } else if (c == u"reset"_s) {
            addErrors(kReset);
            timeoutRetried = true;
        } else if (c == u"connect-failure"_s || c == u"reset-before-request"_s) {
            addErrors(kConnectFailure);
        } else if (c == u"retriable-4xx"_s) {
            statuses << 409;
        } else if (c == u"retriable-status-codes"_s) {
            statuses << codes;
        } else if (c == u"envoy-ratelimited"_s) {
            RetryRule rule;
            rule.name = c;
            rule.when.outcome = OutcomeKind::Status;
            rule.when.headers << HeaderMatch { u"x-envoy-ratelimited"_s, {}, false };
            rule.note = u"retry_on envoy-ratelimited"_s;
            headerRules << rule;
        } else if (c == u"retriable-headers"_s) {
            for (const HeaderMatch& h : std::as_const(retriableHeaders)) {
                RetryRule rule;
                rule.name = u"retriable-headers"_s;
                rule.when.outcome = OutcomeKind::Status;
                rule.when.headers << h;
                headerRules << rule;
            }
        } else if (c == u"refused-stream"_s) {
            r.lose(onPath, u"refused-stream (HTTP/2 REFUSED_STREAM): the policy has no such outcome"_s);
        } else if (c == u"http3-post-connect-failure"_s) {
            r.lose(onPath + u".http3-post-connect-failure"_s, u"an HTTP/3 failure after connecting: the policy has no such outcome"_s);
        } else if (c == u"cancelled"_s) {
            grpcRule(c, 1);
        } else if (c == u"deadline-exceeded"_s) {
            grpcRule(c, 4);
        } else if (c == u"resource-exhausted"_s) {
            grpcRule(c, 8);
        } else if (c == u"internal"_s) {
            grpcRule(c, 13);
        } else if (c == u"unavailable"_s) {
            grpcRule(c, 14);
        } else {
            r.problem(onPath, u"unknown retry condition \"%1\""_s.arg(c.left(60)));
        }
    }
    if (!codes.isEmpty() && !conditions.contains(u"retriable-status-codes"_s))
        r.lose(rpPrefix + u"retriable_status_codes"_s, u"listed, but retry_on lacks retriable-status-codes, so Envoy ignores them"_s);
    if (!retriableHeaders.isEmpty() && !conditions.contains(u"retriable-headers"_s))
        r.lose(rpPrefix + u"retriable_headers"_s, u"listed, but retry_on lacks retriable-headers, so Envoy ignores them"_s);
    // A per-try timeout counts as a retriable 504; when it triggers a hedge instead, it is no failure.
    if (perTry && timeoutRetried && !hedgeOnTimeout.value_or(false))
        errors << ErrorClass::ResponseTimeout;
    std::sort(errors.begin(), errors.end());

    for (RetryRule& rule : headerRules) {
        rule.when.methods = methods;
        p.rules << rule;
    }
    if (!statuses.isEmpty()) {
        RetryRule rule;
        rule.name = u"retry-on-status"_s;
        rule.when.outcome = OutcomeKind::Status;
        rule.when.statuses = rangesOf(statuses);
        rule.when.methods = methods;
        rule.note = u"retry_on "_s + conditions.join(u',');
        p.rules << rule;
    }
    if (!errors.isEmpty()) {
        RetryRule rule;
        rule.name = u"retry-on-failure"_s;
        rule.when.outcome = OutcomeKind::Error;
        rule.when.errors = errors;
        rule.when.methods = methods;
        rule.note = u"retry_on "_s + conditions.join(u',');
        p.rules << rule;
    }

    // Retries, or hedges on the per-try timeout.
    if (hedgeOnTimeout.value_or(false) && perTry) {
        ResilienceStrategy total;
        total.kind = ResilienceStrategy::Kind::TotalTimeout;
        ResilienceStrategy hedge;
        hedge.kind = ResilienceStrategy::Kind::Hedging;
        hedge.hedging.maxHedges = retries;
        hedge.hedging.delay = *perTry;
        hedge.hedgeUnsafe = methods.isEmpty();
        hedge.failures.clear();
        for (const RetryRule& rule : std::as_const(p.rules))
            hedge.failures << rule.when;
        if (p.limits.deadline) {
            total.timeout = *p.limits.deadline;
            p.pipeline << total;
            p.limits.deadline.reset();
        }
        p.pipeline << hedge;
        p.limits.maxAttempts = 1;
        p.limits.countedAs = AttemptCounting::Attempts;
        if (retries < 1)
            r.problem(rpPrefix + u"num_retries"_s, u"hedging needs at least one retry"_s);
    } else {
        if (hedgeOnTimeout.value_or(false))
            r.lose(routePrefix + u"hedge_policy.hedge_on_per_try_timeout"_s, u"without a per_try_timeout Envoy never hedges"_s);
        p.limits.maxAttempts = retries + 1;
        p.limits.attemptTimeout = perTry;
    }
    if (p.backoff.cap && *p.backoff.cap < p.backoff.base)
        p.backoff.cap = p.backoff.base;

    if (!out.problems.isEmpty())
        return out;
    for (const PolicyProblem& pp : validate(p))
        out.problems << u"the policy read is not valid: %1: %2"_s.arg(pp.path, pp.message);
    if (out.problems.isEmpty())
        out.policy = p;
    return out;
}
