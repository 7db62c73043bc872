// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/nodepolicycode.h"

#include "codegen/codewriter.h"

#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString jsList(const QStringList& items)
{
    QStringList q;
    for (const QString& i : items)
        q << quoted(i);
    return u"["_s + q.join(u", "_s) + u"]"_s;
}

QString statusTest(const QList<StatusRange>& ranges, const QString& status)
{
    QStringList parts;
    for (const StatusRange& r : ranges)
        parts << (r.low == r.high ? u"%1 === %2"_s.arg(status).arg(r.low)
                                  : u"(%1 >= %2 && %1 <= %3)"_s.arg(status).arg(r.low).arg(r.high));
    return parts.size() == 1 ? parts.first() : u"("_s + parts.join(u" || "_s) + u")"_s;
}

QString conditionCode(const RuleCondition& when)
{
    QStringList t;
    switch (when.outcome) {
    case OutcomeKind::Status: t << u"a.status !== undefined"_s; break;
    case OutcomeKind::Error: t << u"a.error !== undefined"_s; break;
    case OutcomeKind::CircuitOpen: t << u"false /* no circuit breaker here */"_s; break;
    case OutcomeKind::Any: break;
    }
    if (!when.methods.isEmpty())
        t << jsList(when.methods) + u".includes(a.method)"_s;
    if (when.idempotencyKey)
        t << (*when.idempotencyKey ? u"a.hasKey"_s : u"!a.hasKey"_s);
    if (!when.statuses.isEmpty())
        t << statusTest(when.statuses, u"a.status"_s);
    if (!when.errors.isEmpty()) {
        QStringList names;
        for (ErrorClass e : when.errors)
            names << errorClassId(e);
        t << jsList(names) + u".includes(a.error)"_s;
    }
    if (when.serverCouldHaveActed)
        t << (*when.serverCouldHaveActed ? u"couldHaveActed(a)"_s : u"!couldHaveActed(a)"_s);
    if (when.body) {
        const QString value = u"jsonValue(a.body, %1)"_s.arg(quoted(when.body->path));
        t << (when.body->values.isEmpty() ? QString(value + u" !== undefined"_s) : QString(jsList(when.body->values) + u".includes("_s + value + u")"_s));
    }
    for (const HeaderMatch& h : when.headers) {
        const QString value = u"a.header(%1)"_s.arg(quoted(h.name.toLower()));
        if (h.absent)
            t << value + u" === undefined"_s;
        else if (h.values.isEmpty())
            t << value + u" !== undefined"_s;
        else {
            QStringList lower;
            for (const QString& v : h.values)
                lower << v.toLower();
            t << u"headerIs(%1, %2)"_s.arg(value, jsList(lower));
        }
    }
    if (when.afterLostAnswer)
        t << (*when.afterLostAnswer ? u"a.lostEarlier"_s : u"!a.lostEarlier"_s);
    return t.isEmpty() ? u"true"_s : t.join(u" && "_s);
}

QString actionName(RuleAction a)
{
    switch (a) {
    case RuleAction::Retry: return u"retry"_s;
    case RuleAction::Stop: return u"stop"_s;
    case RuleAction::Success: return u"success"_s;
    }
    return u"stop"_s;
}

QString ms(Millis m)
{
    return QString::number(m.count());
}

// jitter(x): applyJitter() of core/policy/jitter.cpp with u = Math.random().
QString jitterCode(const Jitter& j)
{
    QString body;
    switch (j.kind) {
    case JitterKind::None: return {};
    case JitterKind::Full: body = u"x * Math.random()"_s; break;
    case JitterKind::Equal: body = u"x / 2 + (x / 2) * Math.random()"_s; break;
    case JitterKind::Proportional:
        body = u"Math.max(0, x * %1) + (Math.max(0, x * %2) - Math.max(0, x * %1)) * Math.random()"_s
                   .arg(numberText(1 - j.factor), numberText(1 + j.factor));
        break;
    case JitterKind::Multiplicative:
        body = u"x * (%1 + %2 * Math.random())"_s.arg(numberText(std::min(j.low, j.high)), numberText(std::abs(j.high - j.low)));
        break;
    case JitterKind::Additive: body = u"x + %1 * Math.random()"_s.arg(ms(j.additive)); break;
    }
    return u"function jitter(x) {\n  return %1;\n}\n\n"_s.arg(body);
}

QString backoffCode(const RetryPolicy& p)
{
    const Backoff& b = p.backoff;
    const Jitter& j = p.jitter;
    QString out = jitterCode(j);
    out += u"// The backoff of retry n (backoff.* and jitter.*), in whole milliseconds.\n"_s;
    out += u"function nextBackoff(backoff, throttling) {\n"_s;
    out += u"  const n = ++backoff.retries;\n"_s;
    if (b.throttlingBase)
        out += u"  const base = throttling ? %1 : %2;\n"_s.arg(ms(*b.throttlingBase), ms(b.base));
    else
        out += u"  const base = %1;\n"_s.arg(ms(b.base));
    const QString cap = b.cap ? ms(*b.cap) : QString();
    const auto capped = [&](const QString& x) { return cap.isEmpty() ? x : u"Math.min(%1, %2)"_s.arg(cap, x); };
    switch (b.kind) {
    case BackoffKind::None: out += u"  const ceiling = 0;\n"_s; break;
    case BackoffKind::Constant: out += u"  const ceiling = base;\n"_s; break;
    case BackoffKind::Linear: out += u"  const ceiling = base + (n - 1) * %1;\n"_s.arg(ms(b.increment)); break;
    case BackoffKind::Exponential:
        if (b.origin == ExponentOrigin::FirstRetryIsZero)
            out += u"  if (n === 1) return %1; // the first retry waits 0\n"_s.arg(ms(j.floor));
        out += u"  const ceiling = base * %1 ** (n - 1%2);\n"_s.arg(numberText(b.multiplier),
            b.exponentOffset == 0 ? QString() : (b.exponentOffset > 0 ? u" + %1"_s : u" - %1"_s).arg(std::abs(b.exponentOffset)));
        break;
    case BackoffKind::Decorrelated:
        out += u"  // AWS decorrelated jitter: U(base, previous · 3), capped; previous starts at base.\n"_s;
        out += u"  const previous = backoff.previous > 0 ? backoff.previous : base;\n"_s;
        out += u"  const ceiling = %1;\n"_s.arg(capped(u"base + (Math.max(base, previous * 3) - base) * Math.random()"_s));
        out += u"  backoff.previous = ceiling;\n"_s;
        break;
    case BackoffKind::DecorrelatedV2:
        out += u"  // Polly's DecorrelatedJitterBackoffV2: f(t) = 2^t · tanh(√(4t)).\n"_s;
        out += u"  const curve = (t) => (t <= 0 ? 0 : 2 ** t * Math.tanh(Math.sqrt(4 * t)));\n"_s;
        out += u"  const next = curve(n - 1 + Math.random());\n"_s;
        out += u"  const ceiling = %1;\n"_s.arg(capped(u"Math.max(0, ((next - backoff.previous) / 1.4) * base)"_s));
        out += u"  backoff.previous = next;\n"_s;
        break;
    }
    QString d;
    const bool familyCaps = b.kind == BackoffKind::Decorrelated || b.kind == BackoffKind::DecorrelatedV2;
    const auto cappedCeiling = [&] { return familyCaps ? u"ceiling"_s : capped(u"ceiling"_s); };
    if (j.kind == JitterKind::None)
        d = cappedCeiling();
    else if (j.capOrder == CapOrder::BeforeJitter)
        d = u"jitter(%1)"_s.arg(cappedCeiling());
    else
        d = capped(u"jitter(ceiling)"_s);
    if (j.floor.count() > 0)
        d = u"Math.max(%1, %2)"_s.arg(ms(j.floor), d);
    out += u"  return Math.floor(%1 + 1e-3);\n}\n\n"_s.arg(d);
    return out;
}

QString hintSentence(const DelayHint& h)
{
    QString s = h.header;
    if (!h.statuses.isEmpty()) {
        QStringList r;
        for (const StatusRange& x : h.statuses)
            r << (x.low == x.high ? QString::number(x.low) : u"%1-%2"_s.arg(x.low).arg(x.high));
        s += u" on "_s + r.join(u", "_s);
    }
    return s;
}

QString hintsCode(const RetryPolicy& p)
{
    QString out;
    bool restore = false;
    for (const DelayHint& h : p.hints)
        restore = restore || !h.advancesBackoff;
    out += u"  hints: {\n"_s;
    for (qsizetype i = 0; i < p.hints.size(); ++i) {
        const DelayHint& h = p.hints.at(i);
        out += u"    // hints[%1]: %2\n"_s.arg(i).arg(hintSentence(h));
        QString read;
        const QString name = quoted(h.header.toLower());
        switch (h.format) {
        case HintFormat::RetryAfter:
            read = h.alsoRetryAfterMs && h.header.compare(u"Retry-After"_s, Qt::CaseInsensitive) == 0
                ? u"a.header(\"retry-after\") !== undefined ? retryAfterMs(a.header(\"retry-after\")) : millisecondsOf(a.header(\"retry-after-ms\"))"_s
                : u"retryAfterMs(a.header(%1))"_s.arg(name);
            break;
        case HintFormat::Milliseconds: read = u"millisecondsOf(a.header(%1))"_s.arg(name); break;
        case HintFormat::Seconds: read = u"secondsOf(a.header(%1))"_s.arg(name); break;
        }
        out += u"    {\n      let asked = %1%2;\n"_s.arg(h.statuses.isEmpty() ? QString() : statusTest(h.statuses, u"a.status"_s) + u" ? "_s,
                                                        read + (h.statuses.isEmpty() ? QString() : u" : undefined"_s));
        out += u"      if (Number.isNaN(asked)) %1\n"_s.arg(h.invalidMeansStop ? u"return { verdict: \"stop\" }; // not a valid value: don't retry"_s : u"asked = undefined; // not a valid value: ignored"_s);
        out += u"      if (asked !== undefined && asked < 0) %1\n"_s.arg(h.negativeMeansStop ? u"return { verdict: \"stop\" }; // negative: don't retry"_s : u"asked = undefined; // negative: ignored"_s);
        out += u"      if (asked !== undefined) {\n"_s;
        if (h.zeroFallsBackToBackoff)
            out += u"        if (asked === 0) break hints; // 0 falls back to the backoff\n"_s;
        if (h.max) {
            switch (h.overMax) {
            case HintOverMax::GiveUp:
                out += u"        if (asked > %1) return { verdict: \"stop\" }; // more than %1 ms: give up\n"_s.arg(ms(*h.max));
                break;
            case HintOverMax::Clamp:
                out += u"        asked = Math.min(asked, %1);\n"_s.arg(ms(*h.max));
                break;
            case HintOverMax::Ignore:
                out += u"      }\n      if (asked !== undefined && asked <= %1) {\n"_s.arg(ms(*h.max));
                break;
            }
        }
        QString chosen = u"asked"_s;
        switch (h.combine) {
        case HintCombine::Replace: break;
        case HintCombine::AtLeastBackoff: chosen = u"Math.max(delay, asked)"_s; break;
        case HintCombine::ClampAroundBackoff: chosen = u"Math.max(delay, Math.min(asked, delay + %1))"_s.arg(ms(h.window)); break;
        }
        if (h.cappedByBackoffCap && p.backoff.cap)
            chosen = u"Math.min(%1, %2)"_s.arg(ms(*p.backoff.cap), chosen);
        if (h.jittered && p.jitter.kind != JitterKind::None)
            chosen = u"Math.max(%1, Math.floor(jitter(%2) + 1e-6))"_s.arg(ms(p.jitter.floor), chosen);
        out += u"        delay = %1;\n"_s.arg(chosen);
        if (!h.advancesBackoff)
            out += u"        state.backoff = before; // a hint's wait leaves the backoff where it was\n"_s;
        if (h.resetsExponent)
            out += u"        state.backoff = { retries: 0, previous: 0 }; // the hint resets the exponent\n"_s;
        out += u"        break hints;\n      }\n    }\n"_s;
    }
    out += u"  }\n"_s;
    if (restore)
        out.prepend(u"  const before = { ...state.backoff };\n"_s);
    return out;
}

} // namespace

NodePolicyCode nodePolicyCode(const RetryPolicy& p)
{
    NodePolicyCode c;
    bool couldHaveActed = false;
    for (const RetryRule& r : p.rules) {
        c.readsHeaders = c.readsHeaders || !r.when.headers.isEmpty();
        c.readsBody = c.readsBody || r.when.body.has_value();
        c.readsKey = c.readsKey || r.when.idempotencyKey.has_value();
        c.tracksLostAnswers = c.tracksLostAnswers || r.when.afterLostAnswer.has_value();
        couldHaveActed = couldHaveActed || r.when.serverCouldHaveActed.has_value();
    }
    c.readsHeaders = c.readsHeaders || !p.hints.isEmpty();
    c.addsKeys = p.idempotency.autoAdd && !p.idempotency.methods.isEmpty();

    QString& o = c.code;
    o += u"const MAX_ATTEMPTS = %1; // limits.max_retries %2, plus the first attempt\n"_s.arg(p.limits.maxAttempts).arg(p.maxRetries());
    if (c.addsKeys || c.readsKey)
        o += u"export const IDEMPOTENCY_HEADER = %1;\n"_s.arg(quoted(p.idempotency.header));
    if (c.tracksLostAnswers || couldHaveActed)
        o += u"// Errors that prove the server never saw the request.\nconst NEVER_SENT = [\"dns\", \"refused\", \"tls\", \"connect-timeout\"];\n"_s;
    o += u"\n"_s;

    if (c.addsKeys) {
        const QString value = p.idempotency.format == KeyFormat::Quoted ? u"`\"%1${crypto.randomUUID()}\"`"_s
                                                                        : u"`%1${crypto.randomUUID()}`"_s;
        o += u"// One key per call, sent on every attempt (idempotency.*); a key the caller set wins.\n"_s;
        o += u"function withIdempotencyKey(method, headers = {}) {\n"_s;
        o += u"  const has = Object.keys(headers).some((h) => h.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase());\n"_s;
        o += u"  if (has || !%1.includes(method)) return { ...headers };\n"_s.arg(jsList(p.idempotency.methods));
        o += u"  return { ...headers, [IDEMPOTENCY_HEADER]: %1 };\n}\n\n"_s.arg(value.arg(p.idempotency.prefix));
    }

    o += u"// Node's errors as Retrylab's error classes (docs/policy-format.md, \"errors\").\n"_s;
    o += uR"(export function errorClass(error) {
  for (let e = error; e; e = e.cause) {
    const code = String(e.code ?? "");
    if (e.name === "TimeoutError" || code === "ECONNABORTED" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
      return ["lookup", "connect", "secureConnect"].includes(e.event) ? "connect-timeout" : "response-timeout";
    if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "ETIMEDOUT") return "connect-timeout";
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns";
    if (code === "ECONNREFUSED") return "refused";
    if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code) || code === "EPROTO") return "tls";
    if (/^HPE_/.test(code)) return "protocol";
    if (["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ERR_STREAM_PREMATURE_CLOSE"].includes(code)) return "connection-lost";
  }
  return "connection-lost";
}

)"_s;
    if (couldHaveActed)
        o += u"const couldHaveActed = (a) => a.status !== undefined || !NEVER_SENT.includes(a.error);\n\n"_s;
    if (c.readsBody) {
        o += uR"(// The value at PATH ("error.code", "errors[0].code") of a JSON body, as text; undefined when absent.
function jsonValue(body, path) {
  let v = body;
  for (const step of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (v === null || typeof v !== "object") return undefined;
    v = step.startsWith("[") ? (Array.isArray(v) ? v[Number(step.slice(1, -1))] : undefined) : Array.isArray(v) ? undefined : v[step];
    if (v === undefined) return undefined;
  }
  return v === null ? "null" : typeof v === "object" ? undefined : String(v);
}

export function parseBody(text) {
  try {
    return typeof text === "string" ? JSON.parse(text) : text;
  } catch {
    return undefined;
  }
}

)"_s;
    }
    bool headerValues = false;
    for (const RetryRule& r : p.rules)
        for (const HeaderMatch& h : r.when.headers)
            headerValues = headerValues || (!h.absent && !h.values.isEmpty());
    if (headerValues)
        o += u"const headerIs = (value, wanted) => value !== undefined && String(value).split(\",\").some((v) => wanted.includes(v.trim().toLowerCase()));\n\n"_s;

    o += u"// The rules, in order: the first that matches decides (rules[i]).\nexport const RULES = [\n"_s;
    for (const RetryRule& r : p.rules) {
        o += u"  { name: %1, action: \"%2\"%3, when: (a) => %4 },\n"_s.arg(quoted(r.name), actionName(r.action),
            r.throttling ? u", throttling: true"_s : QString(), conditionCode(r.when));
    }
    o += u"];\n\n"_s;
    o += u"export const ruleFor = (a) => RULES.find((r) => r.when(a));\n\n"_s;

    bool readsRetryAfter = false, readsMs = false, readsSeconds = false;
    for (const DelayHint& h : p.hints) {
        readsRetryAfter = readsRetryAfter || h.format == HintFormat::RetryAfter;
        readsMs = readsMs || h.format == HintFormat::Milliseconds || (h.format == HintFormat::RetryAfter && h.alsoRetryAfterMs);
        readsSeconds = readsSeconds || h.format == HintFormat::Seconds;
    }
    if (readsRetryAfter) {
        o += uR"(// Retry-After (RFC 9110 §10.2.3) in ms: delay-seconds or an HTTP-date (a past one is 0); NaN when invalid.
function retryAfterMs(value) {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const asctime = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(text);
  const date = Date.parse(asctime ? `${text} GMT` : text);
  return Number.isNaN(date) ? NaN : Math.max(0, date - Date.now());
}

)"_s;
    }
    if (readsMs)
        o += u"const millisecondsOf = (value) => (value === undefined ? undefined : /^\\s*-?\\d+(\\.\\d+)?\\s*$/.test(value) ? Math.floor(Number(value)) : NaN);\n\n"_s;
    if (readsSeconds)
        o += u"const secondsOf = (value) => (value === undefined ? undefined : /^\\s*-?\\d+\\s*$/.test(value) ? Number(value) * 1000 : NaN);\n\n"_s;

    o += backoffCode(p);

    o += u"export const newState = () => ({ attempts: 0, backoff: { retries: 0, previous: 0 }%1 });\n\n"_s
             .arg(c.tracksLostAnswers ? u", lostEarlier: false"_s : QString());
    o += u"// What the policy does after an attempt's answer A: { verdict: \"retry\", delay } or \"stop\" or \"success\".\n"_s;
    o += u"export function decide(state, a) {\n  const rule = ruleFor(a);\n  state.attempts += 1;\n"_s;
    if (c.tracksLostAnswers)
        o += u"  if (a.error !== undefined && !NEVER_SENT.includes(a.error)) state.lostEarlier = true;\n"_s;
    o += u"  if (!rule) return { verdict: a.status !== undefined && a.status < 400 ? \"success\" : \"stop\" };\n"_s;
    o += u"  if (rule.action !== \"retry\") return { verdict: rule.action };\n"_s;
    o += u"  if (state.attempts >= MAX_ATTEMPTS) return { verdict: \"stop\" };\n"_s;
    const bool hintsHere = !p.hints.isEmpty();
    QString hc = hintsHere ? hintsCode(p) : QString();
    if (hc.startsWith(u"  const before"_s)) {
        const qsizetype nl = hc.indexOf(u'\n') + 1;
        o += hc.left(nl);
        hc = hc.mid(nl);
    }
    o += u"  %1 delay = nextBackoff(state.backoff, rule.throttling === true);\n"_s.arg(hintsHere ? u"let"_s : u"const"_s);
    o += hc;
    o += u"  return { verdict: \"retry\", delay: Math.min(delay, 2147483647) };\n}\n"_s;
    return c;
}
