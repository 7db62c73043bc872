// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/sessionjson.h"

#include "session/format/enumnames.h"
#include "session/format/refusalnames.h"
#include "json/jsontext.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>
#include <initializer_list>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

QJsonValue optMs(qint64 v)
{
    return v == PackedAttempt::kUnset ? QJsonValue() : QJsonValue(v);
}

QJsonValue nsAsMs(qint64 ns)
{
    return ns == PackedAttempt::kUnset ? QJsonValue() : QJsonValue(double(ns) / 1e6);
}

qint64 msAsNs(const QJsonValue& v)
{
    qint64 ns = PackedAttempt::kUnset;
    return v.isDouble() && JsonText::nsFromMillis(v.toDouble(), &ns) ? ns : PackedAttempt::kUnset;
}

// Milliseconds that do not fit nanoseconds: what msAsNs cannot read, named in PROBLEM.
bool timesInRange(const QJsonObject& o, std::initializer_list<const char16_t*> keys, QString* problem)
{
    for (const char16_t* key : keys) {
        const QJsonValue v = o.value(QStringView(key));
        qint64 ns = 0;
        if (v.isDouble() && !JsonText::nsFromMillis(v.toDouble(), &ns)) {
            *problem = QString::fromUtf16(key) + tr(": out of range (more than ±292 years)");
            return false;
        }
    }
    return true;
}

// Checks that every key of O is known (or starts with '_'); sets PROBLEM to the first unknown one.
bool onlyKnown(const QJsonObject& o, const QStringList& known, QString* problem)
{
    for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
        if (!known.contains(it.key()) && !it.key().startsWith(u'_')) {
            *problem = tr("%1: unknown field").arg(it.key());
            return false;
        }
    }
    return true;
}

std::optional<Millis> optMillis(const QJsonValue& v)
{
    if (!v.isDouble())
        return std::nullopt;
    const double ms = v.toDouble();
    // Whole milliseconds cut toward zero as before; beyond ±1e15 ms (31 000 years) is out of range.
    if (!(std::abs(ms) <= 1e15))
        return std::nullopt;
    return Millis(qint64(ms));
}

} // namespace

namespace SessionJson {

QJsonObject metaToJson(const SessionMeta& m)
{
    const auto date = [](const QDateTime& d) { return d.isValid() ? QJsonValue(d.toString(Qt::ISODateWithMs)) : QJsonValue(); };
    return QJsonObject { { u"app_version"_s, m.appVersion }, { u"created_utc"_s, date(m.createdUtc) },
        { u"wall_origin_utc"_s, date(m.wallOriginUtc) },
        { u"monotonic_origin_ns"_s, QString::number(m.monotonicOriginNs) }, { u"host"_s, m.host },
        { u"notes"_s, m.notes }, { u"concurrency"_s, m.concurrency }, { u"source"_s, m.source } };
}

bool metaFromJson(const QJsonObject& o, SessionMeta* m, QString* problem)
{
    if (!onlyKnown(o, { u"app_version"_s, u"created_utc"_s, u"wall_origin_utc"_s, u"monotonic_origin_ns"_s, u"host"_s,
                          u"notes"_s, u"concurrency"_s, u"source"_s }, problem))
        return false;
    m->appVersion = o.value(u"app_version"_s).toString();
    m->createdUtc = QDateTime::fromString(o.value(u"created_utc"_s).toString(), Qt::ISODateWithMs);
    m->wallOriginUtc = QDateTime::fromString(o.value(u"wall_origin_utc"_s).toString(), Qt::ISODateWithMs);
    m->monotonicOriginNs = o.value(u"monotonic_origin_ns"_s).toString().toLongLong();
    m->host = o.value(u"host"_s).toString();
    m->notes = o.value(u"notes"_s).toString();
    m->concurrency = std::max(1, o.value(u"concurrency"_s).toInt(1));
    m->source = o.value(u"source"_s).toString();
    for (const QString& key : { u"created_utc"_s, u"wall_origin_utc"_s }) {
        const QJsonValue v = o.value(key);
        if (!v.isNull() && !v.isUndefined()
            && (!v.isString() || !QDateTime::fromString(v.toString(), Qt::ISODateWithMs).isValid())) {
            *problem = key + tr(": not an ISO 8601 date-time");
            return false;
        }
    }
    return true;
}

QJsonObject redactionToJson(const RedactionSettings& s)
{
    QJsonArray headers;
    for (const QByteArray& h : s.headers)
        headers.append(QString::fromLatin1(h));
    return QJsonObject { { u"enabled"_s, s.enabled }, { u"headers"_s, headers },
        { u"query_parameters"_s, QJsonArray::fromStringList(s.queryParameters) },
        { u"salt"_s, QString::fromLatin1(s.salt) } };
}

bool redactionFromJson(const QJsonObject& o, RedactionSettings* s, QString* problem)
{
    if (!onlyKnown(o, { u"enabled"_s, u"headers"_s, u"query_parameters"_s, u"salt"_s }, problem))
        return false;
    if (o.contains(u"enabled"_s) && !o.value(u"enabled"_s).isBool()) {
        *problem = tr("enabled: must be true or false");
        return false;
    }
    s->enabled = o.value(u"enabled"_s).toBool(true);
    s->headers.clear();
    for (const QJsonValue& h : o.value(u"headers"_s).toArray())
        s->headers.append(h.toString().toLatin1());
    s->queryParameters.clear();
    for (const QJsonValue& q : o.value(u"query_parameters"_s).toArray())
        s->queryParameters.append(q.toString());
    s->salt = o.value(u"salt"_s).toString().toLatin1();
    return true;
}

QJsonObject requestToJson(const RequestSpec& r, const Redactor& redactor)
{
    QJsonArray headers;
    for (const auto& [name, value] : r.headers)
        headers.append(QJsonArray { QString::fromLatin1(name), QString::fromUtf8(redactor.header(name, value)) });
    static const QString modes[] = { u"auto"_s, u"none"_s, u"value"_s };
    QJsonObject o { { u"method"_s, r.method }, { u"url"_s, redactor.url(r.url.toString(QUrl::FullyEncoded)) },
        { u"headers"_s, headers }, { u"body_base64"_s, QString::fromLatin1(r.body.toBase64()) },
        { u"key_mode"_s, modes[int(r.keyMode)] }, { u"idempotency_key"_s, r.idempotencyKey },
        { u"http2"_s, r.http2Allowed }, { u"follow_redirects"_s, r.followRedirects },
        { u"attempt_id"_s, r.attemptIdEnabled }, { u"attempt_id_header"_s, QString::fromLatin1(r.attemptIdHeader) },
        { u"body_excerpt_cap"_s, qint64(r.bodyExcerptCap) } };
    if (r.attemptTimeout)
        o[u"attempt_timeout_ms"_s] = qint64(r.attemptTimeout->count());
    if (r.connectTimeout)
        o[u"connect_timeout_ms"_s] = qint64(r.connectTimeout->count());
    if (r.deadline)
        o[u"deadline_ms"_s] = qint64(r.deadline->count());
    if (!r.omittedDefaults.isEmpty()) {
        QJsonArray omitted;
        for (const QByteArray& name : r.omittedDefaults)
            omitted.append(QString::fromLatin1(name));
        o[u"omitted_default_headers"_s] = omitted;
    }
    return o;
}

bool requestFromJson(const QJsonObject& o, RequestSpec* r, QString* problem)
{
    if (!onlyKnown(o, { u"method"_s, u"url"_s, u"headers"_s, u"body_base64"_s, u"key_mode"_s, u"idempotency_key"_s,
                          u"http2"_s, u"follow_redirects"_s, u"attempt_id"_s, u"attempt_id_header"_s,
                          u"body_excerpt_cap"_s, u"attempt_timeout_ms"_s, u"connect_timeout_ms"_s, u"deadline_ms"_s,
                          u"omitted_default_headers"_s },
            problem))
        return false;
    r->method = o.value(u"method"_s).toString(u"GET"_s);
    r->url = QUrl(o.value(u"url"_s).toString());
    r->headers.clear();
    for (const QJsonValue& h : o.value(u"headers"_s).toArray()) {
        const QJsonArray pair = h.toArray();
        if (pair.size() != 2) {
            *problem = tr("headers: each header must be a [name, value] pair");
            return false;
        }
        r->headers.append({ pair.at(0).toString().toLatin1(), pair.at(1).toString().toUtf8() });
    }
    r->body = QByteArray::fromBase64(o.value(u"body_base64"_s).toString().toLatin1());
    const QString mode = o.value(u"key_mode"_s).toString(u"auto"_s);
    if (mode != u"auto"_s && mode != u"none"_s && mode != u"value"_s) {
        *problem = tr("key_mode: must be auto, none or value");
        return false;
    }
    r->keyMode = mode == u"none"_s ? IdempotencyKeyMode::None
        : mode == u"value"_s       ? IdempotencyKeyMode::Value
                                   : IdempotencyKeyMode::Auto;
    r->idempotencyKey = o.value(u"idempotency_key"_s).toString();
    r->http2Allowed = o.value(u"http2"_s).toBool(false);
    r->followRedirects = o.value(u"follow_redirects"_s).toBool(false);
    r->attemptIdEnabled = o.value(u"attempt_id"_s).toBool(true);
    r->attemptIdHeader = o.value(u"attempt_id_header"_s).toString(u"X-Retrylab-Attempt"_s).toLatin1();
    r->bodyExcerptCap = qsizetype(o.value(u"body_excerpt_cap"_s).toInteger(64 * 1024));
    for (const char16_t* key : { u"attempt_timeout_ms", u"connect_timeout_ms", u"deadline_ms" }) {
        const QJsonValue v = o.value(QStringView(key));
        if (v.isDouble() && !(std::abs(v.toDouble()) <= 1e15)) {
            *problem = QString::fromUtf16(key) + tr(": out of range");
            return false;
        }
    }
    r->attemptTimeout = optMillis(o.value(u"attempt_timeout_ms"_s));
    r->connectTimeout = optMillis(o.value(u"connect_timeout_ms"_s));
    r->deadline = optMillis(o.value(u"deadline_ms"_s));
    r->omittedDefaults.clear();
    for (const QJsonValue& name : o.value(u"omitted_default_headers"_s).toArray())
        r->omittedDefaults.append(name.toString().toLatin1().toLower());
    return true;
}

QJsonObject observedToJson(const ObservedGrouping& g)
{
    return QJsonObject { { u"rule"_s, g.rule }, { u"evidence"_s, g.evidence }, { u"heuristic"_s, g.heuristic } };
}

bool observedFromJson(const QJsonValue& v, std::optional<ObservedGrouping>* out, QString* problem)
{
    out->reset();
    if (v.isUndefined() || v.isNull())
        return true;
    const QJsonObject o = v.toObject();
    QString unknown;
    if (!v.isObject() || !onlyKnown(o, { u"rule"_s, u"evidence"_s, u"heuristic"_s }, &unknown)) {
        *problem = u"observed"_s + (unknown.isEmpty() ? tr(": must be an object") : u"."_s + unknown);
        return false;
    }
    const QString rule = o.value(u"rule"_s).toString();
    if (rule != u"attempt-header"_s && rule != u"idempotency-key"_s && rule != u"fingerprint"_s) {
        *problem = tr("observed.rule: must be attempt-header, idempotency-key or fingerprint, not \"%1\"").arg(rule);
        return false;
    }
    *out = ObservedGrouping { rule, o.value(u"evidence"_s).toString(), o.value(u"heuristic"_s).toBool(rule == u"fingerprint"_s) };
    return true;
}

QJsonObject policyChangesToJson(qsizetype policy, const PolicyChanges& changes)
{
    QJsonObject o = changes.toJson();
    o.insert(u"policy_ref"_s, qint64(policy));
    return o;
}

bool policyChangesFromJson(const QJsonObject& o, qsizetype* policy, PolicyChanges* changes, QString* problem)
{
    const QJsonValue ref = o.value(u"policy_ref"_s);
    if (!ref.isDouble() || ref.toDouble() < 0 || ref.toDouble() != std::floor(ref.toDouble()) || ref.toDouble() > 1e9) {
        *problem = tr("policy_ref: must be the index of a policy");
        return false;
    }
    QJsonObject rest = o;
    rest.remove(u"policy_ref"_s);
    const std::optional<PolicyChanges> read = PolicyChanges::fromJson(rest, problem);
    if (!read)
        return false;
    *policy = qsizetype(ref.toDouble());
    *changes = *read;
    return true;
}

QJsonObject runFactsToJson(const SessionRun& r, const QString& method, const QString& url)
{
    QJsonObject o { { u"run"_s, r.runId }, { u"seed"_s, QString::number(r.seed) },
        { u"policy_ref"_s, r.policy < 0 ? QJsonValue() : QJsonValue(qint64(r.policy)) }, { u"request_ref"_s, qint64(r.request) }, { u"method"_s, method },
        { u"url"_s, url }, { u"outcome"_s, r.outcome == FinalKind::None ? QJsonValue() : QJsonValue(finalKindName(r.outcome)) },
        { u"reason"_s, r.reason }, { u"server_asked_for_ms"_s, optMs(r.serverAskedForMs) },
        { u"submitted_ms"_s, nsAsMs(r.submittedNs) }, { u"start_ms"_s, nsAsMs(r.startedNs) },
        { u"end_ms"_s, nsAsMs(r.finishedNs) }, { u"total_wait_ms"_s, r.totalWaitMs } };
    if (r.observed)
        o[u"observed"_s] = observedToJson(*r.observed);
    return o;
}

bool runFactsFromJson(const QJsonObject& o, SessionRun* r, QString* problem)
{
    // "policy" (an inline policy) is handled by the reader; "method"/"url" are informative.
    if (!onlyKnown(o, { u"run"_s, u"seed"_s, u"policy_ref"_s, u"request_ref"_s, u"policy"_s, u"request"_s,
                          u"method"_s, u"url"_s, u"outcome"_s, u"reason"_s, u"server_asked_for_ms"_s,
                          u"submitted_ms"_s, u"start_ms"_s, u"end_ms"_s, u"total_wait_ms"_s, u"observed"_s },
            problem))
        return false;
    if (!o.value(u"run"_s).isDouble()) {
        *problem = tr("run: must be an integer");
        return false;
    }
    r->runId = o.value(u"run"_s).toInt();
    bool ok = true;
    const QJsonValue seed = o.value(u"seed"_s);
    r->seed = seed.isString() ? seed.toString().toULongLong(&ok) : quint64(seed.toInteger(0));
    if (!ok) {
        *problem = tr("seed: must be a decimal integer string");
        return false;
    }
    std::optional<ObservedGrouping> observed;
    if (!observedFromJson(o.value(u"observed"_s), &observed, problem))
        return false;
    r->observed = observed;
    // null: a run without a policy of its own (an observed one; the reader refuses it on any other run)
    r->policy = o.value(u"policy_ref"_s).isNull() ? -1 : qsizetype(o.value(u"policy_ref"_s).toInteger(0));
    r->request = qsizetype(o.value(u"request_ref"_s).toInteger(0));
    const QJsonValue outcome = o.value(u"outcome"_s);
    if (outcome.isString()) {
        const auto k = EnumNames::finalKind(QByteArrayView(outcome.toString().toUtf8()));
        if (!k) {
            *problem = tr("outcome: unknown outcome \"%1\"").arg(outcome.toString());
            return false;
        }
        r->outcome = *k;
    }
    r->reason = o.value(u"reason"_s).toString();
    r->serverAskedForMs = o.value(u"server_asked_for_ms"_s).isDouble() ? o.value(u"server_asked_for_ms"_s).toInteger()
                                                                      : PackedAttempt::kUnset;
    if (!timesInRange(o, { u"submitted_ms", u"start_ms", u"end_ms" }, problem))
        return false;
    r->submittedNs = o.contains(u"submitted_ms"_s) ? msAsNs(o.value(u"submitted_ms"_s)) : 0;
    if (r->submittedNs == PackedAttempt::kUnset)
        r->submittedNs = 0;
    r->startedNs = msAsNs(o.value(u"start_ms"_s));
    r->finishedNs = msAsNs(o.value(u"end_ms"_s));
    r->totalWaitMs = o.value(u"total_wait_ms"_s).toInteger(0);
    return true;
}

QJsonObject labEventToJson(const LabEvent& e)
{
    return QJsonObject { { u"kind"_s, LabEvent::kindName(e.kind) }, { u"at_ms"_s, e.atMs },
        { u"connection"_s, qint64(e.connectionId) }, { u"request"_s, qint64(e.requestId) },
        { u"method"_s, QString::fromLatin1(e.method) }, { u"path"_s, e.path }, { u"route"_s, e.route },
        { u"step"_s, e.stepKind }, { u"status"_s, e.status }, { u"attempt_id"_s, e.attemptId },
        { u"idempotency_key"_s, e.idempotencyKey }, { u"applied"_s, e.applied }, { u"detail"_s, e.detail } };
}

bool labEventFromJson(const QJsonObject& o, LabEvent* e, QString* problem)
{
    const QString kind = o.value(u"kind"_s).toString();
    bool found = false;
    for (int k = 0; k <= int(LabEvent::Kind::Tunnel); ++k) {
        if (LabEvent::kindName(LabEvent::Kind(k)) == kind) {
            e->kind = LabEvent::Kind(k);
            found = true;
        }
    }
    if (!found) {
        *problem = tr("kind: unknown lab event kind \"%1\"").arg(kind);
        return false;
    }
    e->atMs = o.value(u"at_ms"_s).toInteger();
    e->connectionId = quint64(o.value(u"connection"_s).toInteger());
    e->requestId = quint64(o.value(u"request"_s).toInteger());
    e->method = o.value(u"method"_s).toString().toLatin1();
    e->path = o.value(u"path"_s).toString();
    e->route = o.value(u"route"_s).toString();
    e->stepKind = o.value(u"step"_s).toString();
    e->status = o.value(u"status"_s).toInt();
    e->attemptId = o.value(u"attempt_id"_s).toString();
    e->idempotencyKey = o.value(u"idempotency_key"_s).toString();
    e->applied = o.value(u"applied"_s).toBool();
    e->detail = o.value(u"detail"_s).toString();
    return true;
}

QJsonObject breakerChangeToJson(const BreakerChange& c)
{
    const auto state = [](CircuitBreaker::State st) { return QString::fromLatin1(breakerStates(st)); };
    return QJsonObject {
        { u"policy"_s, c.policy },
        { u"scope"_s, c.scope },
        { u"at_ms"_s, double(c.at.count()) / 1e6 },
        { u"from"_s, state(c.from) },
        { u"to"_s, state(c.to) },
        { u"calls"_s, c.window.calls },
        { u"failures"_s, c.window.failures },
        { u"break_ms"_s, qint64(c.breakFor.count()) },
    };
}

bool breakerChangeFromJson(const QJsonObject& o, BreakerChange* c, QString* problem)
{
    static const QStringList known { u"policy"_s, u"scope"_s, u"at_ms"_s, u"from"_s, u"to"_s, u"calls"_s, u"failures"_s, u"break_ms"_s };
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!known.contains(it.key()) && !it.key().startsWith(u'_')) {
            *problem = tr("%1: unknown field").arg(it.key());
            return false;
        }
    }
    for (const QString& text : { u"policy"_s, u"scope"_s, u"from"_s, u"to"_s }) {
        if (!o.value(text).isString()) {
            *problem = tr("%1: must be a string").arg(text);
            return false;
        }
    }
    for (const QString& number : { u"at_ms"_s, u"calls"_s, u"failures"_s, u"break_ms"_s }) {
        if (!o.value(number).isDouble() || o.value(number).toDouble() < 0 || !std::isfinite(o.value(number).toDouble())) {
            *problem = tr("%1: must be a number, 0 or more").arg(number);
            return false;
        }
    }
    c->policy = o.value(u"policy"_s).toString();
    c->scope = o.value(u"scope"_s).toString();
    c->at = MonoTime(qint64(std::llround(o.value(u"at_ms"_s).toDouble() * 1e6)));
    for (const auto& [field, out] : { std::pair { u"from"_s, &c->from }, std::pair { u"to"_s, &c->to } }) {
        const std::optional<CircuitBreaker::State> st = breakerStateFromName(o.value(field).toString().toUtf8());
        if (!st) {
            *problem = tr("%1: unknown circuit state \"%2\" (closed, open, half-open)").arg(field, o.value(field).toString());
            return false;
        }
        *out = *st;
    }
    c->window.calls = o.value(u"calls"_s).toInt();
    c->window.failures = o.value(u"failures"_s).toInt();
    if (c->window.failures > c->window.calls) {
        *problem = tr("failures: more than the %1 calls").arg(c->window.calls);
        return false;
    }
    c->breakFor = Millis(o.value(u"break_ms"_s).toInteger());
    return true;
}

} // namespace SessionJson
