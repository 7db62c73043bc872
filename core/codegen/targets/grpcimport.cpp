// SPDX-License-Identifier: GPL-3.0-or-later
// Reads a gRPC service config (JSON, gRFC A6) into a policy: the first methodConfig with a retryPolicy or a
// hedgingPolicy, its timeout, and retryThrottling. The policy decides as a gRPC client would: grpc-status
// when present, else the HTTP status mapped as doc/http-grpc-status-mapping.md says, transport failures as
// UNAVAILABLE, a response timeout as DEADLINE_EXCEEDED, a malformed answer as INTERNAL; the 2024 backoff
// (×U(0.8, 1.2)) and grpc-retry-pushback-ms as the grpc preset models them. Facts: retry-systems.md §3.
#include "codegen/targets/grpcstatus.h"
#include "codegen/targets/proxytargets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

struct Reader
{
    CodeImport& out;
    void lose(const QString& path, const QString& what) { out.lost.append(LostBehaviour { path, what }); }
    void problem(const QString& path, const QString& what) { out.problems << u"%1: %2"_s.arg(path, what); }

    std::optional<Millis> duration(const QJsonValue& v, const QString& path, bool positive)
    {
        static const QRegularExpression re(u"^([0-9]{1,10})(\\.[0-9]{1,9})?s$"_s);
        const QRegularExpressionMatch m = re.match(v.toString());
        if (!v.isString() || !m.hasMatch()) {
            problem(path, u"not a duration: write seconds with an \"s\", e.g. \"0.1s\""_s);
            return std::nullopt;
        }
        const Millis ms(qint64(std::ceil(QString(m.captured(1) + m.captured(2)).toDouble() * 1000.0 - 1e-6)));
        if (positive && ms <= Millis(0)) {
            problem(path, u"must be above 0"_s);
            return std::nullopt;
        }
        return ms;
    }

    std::optional<int> attempts(const QJsonValue& v, const QString& path)
    {
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d != std::floor(d) || d < 2 || d > 1e6) {
            problem(path, u"a whole number of attempts, at least 2"_s);
            return std::nullopt;
        }
        if (d > 5)
            lose(path, u"above 5: gRPC treats it as 5, and so does the policy read"_s);
        return std::min(int(d), 5);
    }

    QList<int> codes(const QJsonValue& v, const QString& path, bool required)
    {
        QList<int> out;
        const QJsonArray a = v.toArray();
        if (!v.isArray() || (required && a.isEmpty())) {
            problem(path, required ? u"a non-empty list of status codes"_s : u"a list of status codes"_s);
            return out;
        }
        for (qsizetype i = 0; i < a.size() && i < 100; ++i) {
            std::optional<int> c;
            if (a.at(i).isString())
                c = GrpcStatus::fromName(a.at(i).toString());
            else if (a.at(i).isDouble() && a.at(i).toDouble() == std::floor(a.at(i).toDouble()) && !GrpcStatus::name(a.at(i).toInt()).isEmpty())
                c = a.at(i).toInt();
            if (!c)
                problem(u"%1[%2]"_s.arg(path).arg(i), u"not a gRPC status code (a name such as UNAVAILABLE, or 0-16)"_s);
            else if (!out.contains(*c))
                out << *c;
        }
        std::sort(out.begin(), out.end());
        return out;
    }
};

QStringList codeTexts(const QList<int>& codes)
{
    QStringList out;
    for (const int c : codes)
        out << QString::number(c);
    return out;
}

// What CODES cover as the policy's conditions: grpc-status listed, HTTP answers without it, failures.
QList<RuleCondition> conditionsFor(const QList<int>& codes)
{
    QList<RuleCondition> out;
    RuleCondition named;
    named.outcome = OutcomeKind::Status;
    named.headers << HeaderMatch { u"grpc-status"_s, codeTexts(codes), false };
    out << named;
    RuleCondition http;
    http.outcome = OutcomeKind::Status;
    http.headers << HeaderMatch { u"grpc-status"_s, {}, true };
    QList<int> statuses;
    for (int s = 400; s <= 599; ++s)
        if (codes.contains(GrpcStatus::fromHttp(s)))
            statuses << s;
    for (const int s : statuses) {
        if (!http.statuses.isEmpty() && http.statuses.last().high == s - 1)
            http.statuses.last().high = s;
        else
            http.statuses << StatusRange { s, s };
    }
    if (!http.statuses.isEmpty())
        out << http;
    RuleCondition failed;
    failed.outcome = OutcomeKind::Error;
    for (const ErrorClass e : { ErrorClass::Dns, ErrorClass::Refused, ErrorClass::Tls, ErrorClass::ConnectTimeout,
             ErrorClass::ResponseTimeout, ErrorClass::ConnectionLost, ErrorClass::Protocol })
        if (codes.contains(GrpcStatus::fromError(e)))
            failed.errors << e;
    if (!failed.errors.isEmpty())
        out << failed;
    return out;
}

} // namespace

CodeImport importGrpc(const QByteArray& text)
{
    CodeImport out;
    Reader r { out };
    if (text.size() > 1024 * 1024) {
        out.problems << u"larger than 1 MiB: not a service config"_s;
        return out;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError) {
        out.problems << u"not JSON: %1 at offset %2"_s.arg(error.errorString()).arg(error.offset);
        return out;
    }
    if (!doc.isObject()) {
        out.problems << u"not a service config: expected a JSON object"_s;
        return out;
    }
    const QJsonObject root = doc.object();
    RetryPolicy p;
    p.name = root.value(u"_retrylab_policy"_s).toString(u"grpc-import"_s);
    p.description = u"Imported from a gRPC service config."_s;
    p.limits.maxAttempts = 1;

    std::optional<qsizetype> chosen;
    const QJsonArray configs = root.value(u"methodConfig"_s).toArray();
    if (root.contains(u"methodConfig"_s) && !root.value(u"methodConfig"_s).isArray())
        r.problem(u"methodConfig"_s, u"not a list"_s);
    for (qsizetype i = 0; i < configs.size() && i < 1000; ++i) {
        const QJsonObject mc = configs.at(i).toObject();
        if (!configs.at(i).isObject()) {
            r.problem(u"methodConfig[%1]"_s.arg(i), u"not an object"_s);
            continue;
        }
        if (!chosen && (mc.contains(u"retryPolicy"_s) || mc.contains(u"hedgingPolicy"_s)))
            chosen = i;
        else if (mc.contains(u"retryPolicy"_s) || mc.contains(u"hedgingPolicy"_s))
            r.lose(u"methodConfig[%1]"_s.arg(i), u"a second method's retry or hedging: the policy holds one"_s);
    }
    if (!chosen && !configs.isEmpty())
        chosen = 0;
    for (auto it = root.constBegin(); it != root.constEnd(); ++it) {
        const QString k = it.key();
        if (k == u"methodConfig"_s || k == u"_retrylab"_s || k == u"_retrylab_policy"_s)
            continue;
        if (k == u"retryThrottling"_s) {
            const QJsonObject t = it.value().toObject();
            const double maxTokens = t.value(u"maxTokens"_s).toDouble(-1);
            const double ratio = t.value(u"tokenRatio"_s).toDouble(-1);
            if (!(maxTokens > 0 && maxTokens <= 1000))
                r.problem(u"retryThrottling.maxTokens"_s, u"a number in (0, 1000]"_s);
            if (!(ratio > 0 && ratio <= 1000))
                r.problem(u"retryThrottling.tokenRatio"_s, u"a number above 0"_s);
            for (auto tt = t.constBegin(); tt != t.constEnd(); ++tt)
                if (tt.key() != u"maxTokens"_s && tt.key() != u"tokenRatio"_s)
                    r.lose(u"retryThrottling."_s + tt.key(), u"not a retryThrottling field: not read"_s);
            p.throttling.enabled = true;
            p.throttling.maxTokens = maxTokens;
            p.throttling.tokenRatio = std::round(ratio * 1000.0) / 1000.0;
            p.throttling.scope = BudgetScope::Host;
        } else {
            r.lose(k, u"not a retry setting: not read"_s);
        }
    }

    QList<int> codes;
    std::optional<ResilienceStrategy> hedge;
    if (chosen) {
        const QString base = u"methodConfig[%1]"_s.arg(*chosen);
        const QJsonObject mc = configs.at(*chosen).toObject();
        if (mc.contains(u"retryPolicy"_s) && mc.contains(u"hedgingPolicy"_s))
            r.problem(base, u"both a retryPolicy and a hedgingPolicy: gRPC allows one"_s);
        for (auto it = mc.constBegin(); it != mc.constEnd(); ++it) {
            const QString k = it.key();
            const QString path = base + u'.' + k;
            if (k == u"name"_s) {
                const QJsonArray names = it.value().toArray();
                for (const QJsonValue& n : names)
                    if (!n.toObject().value(u"service"_s).toString().isEmpty()) {
                        r.lose(path, u"applies to named services or methods: the policy applies to every call"_s);
                        break;
                    }
            } else if (k == u"timeout"_s) {
                p.limits.deadline = r.duration(it.value(), path, true);
            } else if (k == u"retryPolicy"_s) {
                const QJsonObject rp = it.value().toObject();
                if (!it.value().isObject())
                    r.problem(path, u"not an object"_s);
                for (const QString& required : { u"maxAttempts"_s, u"initialBackoff"_s, u"maxBackoff"_s, u"backoffMultiplier"_s, u"retryableStatusCodes"_s })
                    if (!rp.contains(required))
                        r.problem(path + u'.' + required, u"required"_s);
                for (auto rt = rp.constBegin(); rt != rp.constEnd(); ++rt) {
                    const QString rk = rt.key();
                    const QString rpath = path + u'.' + rk;
                    if (rk == u"maxAttempts"_s) {
                        if (const auto n = r.attempts(rt.value(), rpath))
                            p.limits.maxAttempts = *n;
                    } else if (rk == u"initialBackoff"_s) {
                        if (const auto d = r.duration(rt.value(), rpath, true))
                            p.backoff.base = *d;
                    } else if (rk == u"maxBackoff"_s) {
                        p.backoff.cap = r.duration(rt.value(), rpath, true);
                    } else if (rk == u"backoffMultiplier"_s) {
                        const double m = rt.value().toDouble(-1);
                        if (!rt.value().isDouble() || !(m > 0) || m > 1000)
                            r.problem(rpath, u"a number above 0"_s);
                        else
                            p.backoff.multiplier = m;
                    } else if (rk == u"retryableStatusCodes"_s) {
                        codes = r.codes(rt.value(), rpath, true);
                    } else {
                        r.lose(rpath, u"not a retryPolicy field the policy holds: not read"_s);
                    }
                }
            } else if (k == u"hedgingPolicy"_s) {
                const QJsonObject hp = it.value().toObject();
                ResilienceStrategy h;
                h.kind = ResilienceStrategy::Kind::Hedging;
                h.hedgeUnsafe = true;
                h.hedging.delay = Millis(0);
                if (!hp.contains(u"maxAttempts"_s))
                    r.problem(path + u".maxAttempts"_s, u"required"_s);
                for (auto ht = hp.constBegin(); ht != hp.constEnd(); ++ht) {
                    const QString hpath = path + u'.' + ht.key();
                    if (ht.key() == u"maxAttempts"_s) {
                        if (const auto n = r.attempts(ht.value(), hpath))
                            h.hedging.maxHedges = *n - 1;
                    } else if (ht.key() == u"hedgingDelay"_s) {
                        if (const auto d = r.duration(ht.value(), hpath, false))
                            h.hedging.delay = *d;
                    } else if (ht.key() == u"nonFatalStatusCodes"_s) {
                        codes = r.codes(ht.value(), hpath, false);
                    } else {
                        r.lose(hpath, u"not a hedgingPolicy field: not read"_s);
                    }
                }
                hedge = h;
            } else {
                r.lose(path, u"not a retry setting: not read"_s);
            }
        }
    }
    if (!out.problems.isEmpty())
        return out;

    // The backoff of gRFC A6 since 2024: min(initial · multiplier^(n−1), max) · U(0.8, 1.2).
    p.backoff.kind = BackoffKind::Exponential;
    p.jitter.kind = JitterKind::Multiplicative;
    p.jitter.low = 0.8;
    p.jitter.high = 1.2;
    p.jitter.capOrder = CapOrder::BeforeJitter;
    DelayHint pushback;
    pushback.header = u"grpc-retry-pushback-ms"_s;
    pushback.format = HintFormat::Milliseconds;
    pushback.combine = HintCombine::Replace;
    pushback.overMax = HintOverMax::GiveUp;
    pushback.resetsExponent = true;
    pushback.negativeMeansStop = true;
    pushback.invalidMeansStop = true;
    p.hints << pushback;
    if (codes.contains(2))
        r.lose(u"UNKNOWN"_s, u"an HTTP 1xx-3xx answer without grpc-status is UNKNOWN to gRPC; the policy treats it as a success"_s);

    // The rules, as the grpc preset writes them.
    RetryRule ok;
    ok.name = u"grpc-ok"_s;
    ok.action = RuleAction::Success;
    ok.when.outcome = OutcomeKind::Status;
    ok.when.headers << HeaderMatch { u"grpc-status"_s, { u"0"_s }, false };
    p.rules << ok;
    const QList<RuleCondition> retried = conditionsFor(codes);
    if (!codes.isEmpty()) {
        RetryRule listed;
        listed.name = hedge ? u"non-fatal"_s : u"retryable"_s;
        listed.when = retried.first();
        p.rules << listed;
    }
    RetryRule other;
    other.name = u"other-grpc-status"_s;
    other.action = RuleAction::Stop;
    other.when.outcome = OutcomeKind::Status;
    other.when.headers << HeaderMatch { u"grpc-status"_s, {}, false };
    p.rules << other;
    for (qsizetype i = 1; i < retried.size(); ++i) {
        RetryRule rule;
        rule.name = retried.at(i).outcome == OutcomeKind::Error ? u"transport"_s : u"http-mapped"_s;
        rule.when = retried.at(i);
        p.rules << rule;
    }
    if (hedge) {
        hedge->failures = codes.isEmpty() ? QList<RuleCondition>() : retried;
        if (p.limits.deadline) {
            ResilienceStrategy total;
            total.kind = ResilienceStrategy::Kind::TotalTimeout;
            total.timeout = *p.limits.deadline;
            p.pipeline << total;
            p.limits.deadline.reset();
        }
        p.pipeline << *hedge;
        p.limits.maxAttempts = 1;
    }
    for (const PolicyProblem& pp : validate(p))
        out.problems << u"the policy read is not valid: %1: %2"_s.arg(pp.path, pp.message);
    if (out.problems.isEmpty())
        out.policy = p;
    return out;
}
