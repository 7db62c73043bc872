// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/attemptlogjson.h"

#include "engine/requestheaders.h"
#include "policy/policyjson.h"

#include <QJsonArray>

namespace {

const QString kRedacted = QStringLiteral("[redacted]");

QJsonValue msOrNull(const std::optional<MonoTime>& t)
{
    return t ? QJsonValue(toMs(*t)) : QJsonValue();
}

QJsonArray headersToJson(const HttpHeaderList& headers, bool redact)
{
    QJsonArray out;
    for (const auto& [name, value] : headers) {
        const bool hide = redact && isSecretHeader(name);
        out.append(QJsonArray { QString::fromLatin1(name), hide ? kRedacted : QString::fromLatin1(value) });
    }
    return out;
}

QJsonValue optionalNumber(const std::optional<qint64>& v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

QJsonObject snapshotToJson(const RateLimitSnapshot& q)
{
    return QJsonObject { { QStringLiteral("limit"), optionalNumber(q.limit) },
        { QStringLiteral("remaining"), optionalNumber(q.remaining) },
        { QStringLiteral("reset_seconds"), q.resetSeconds ? QJsonValue(*q.resetSeconds) : QJsonValue() },
        { QStringLiteral("policy"), q.policy.isEmpty() ? QJsonValue() : QJsonValue(q.policy) },
        { QStringLiteral("dialect"), q.dialect } };
}

// The most restrictive quota at the top level, every quota under "policies"; null when the answer stated none.
QJsonValue rateLimitToJson(const RateLimitParse& parse)
{
    const RateLimitSnapshot* most = parse.mostRestrictive();
    if (!most)
        return QJsonValue();
    QJsonObject o = snapshotToJson(*most);
    QJsonArray all;
    for (const RateLimitSnapshot& q : parse.snapshots)
        all.append(snapshotToJson(q));
    o[u"policies"] = all;
    if (!parse.warnings.isEmpty())
        o[u"warnings"] = QJsonArray::fromStringList(parse.warnings);
    return o;
}

} // namespace

QJsonObject attemptToJson(const AttemptRecord& a, bool redact)
{
    QJsonObject o;
    o[u"index"] = a.index;
    o[u"scheduled_ms"] = msOrNull(a.at.scheduled);
    o[u"start_ms"] = msOrNull(a.at.started);
    o[u"end_ms"] = msOrNull(a.at.finished);
    o[u"phase_reached"] = attemptPhaseName(a.phaseReached);
    o[u"status"] = a.status ? QJsonValue(*a.status) : QJsonValue();
    o[u"reason_phrase"] = a.reasonPhrase;
    o[u"error"] = a.error ? QJsonValue(errorClassName(*a.error)) : QJsonValue();
    o[u"qt_error"] = a.qtError;
    o[u"abort_reason"] = abortReasonName(a.abortReason);
    if (a.decision) {
        o[u"decision"] = verdictName(a.decision->verdict);
        o[u"delay_ms"] = qint64(a.decision->delay.count());
        o[u"delay_ceiling_ms"] = qint64(a.decision->ceiling.count());
        o[u"delay_source"] = delaySourceName(a.decision->source);
        o[u"reason"] = a.decision->reason;
    } else {
        o[u"decision"] = QStringLiteral("cancelled");
        o[u"delay_ms"] = QJsonValue();
        o[u"delay_ceiling_ms"] = QJsonValue();
        o[u"delay_source"] = QJsonValue();
        o[u"reason"] = QStringLiteral("cancelled");
    }
    o[u"idempotency_key"] = a.idempotencyKey.isEmpty() ? QJsonValue() : QJsonValue(a.idempotencyKey);
    o[u"attempt_id"] = a.attemptId;
    HttpHeaderList sent;
    for (const SentHeader& h : a.requestHeaders)
        sent.append({ h.name, h.value });
    o[u"request_headers"] = headersToJson(sent, redact);
    o[u"response_headers"] = headersToJson(a.responseHeaders, redact);
    o[u"rate_limit"] = rateLimitToJson(a.rateLimit);
    o[u"rate_limit_fields"] = headersToJson(a.rateLimitHeaders, false);
    o[u"throttle_wait_ms"] = qint64(a.throttleWait.count());
    o[u"retry_after_ms"] = a.retryAfter && a.retryAfter->delay ? QJsonValue(qint64(a.retryAfter->delay->count())) : QJsonValue();
    o[u"method"] = a.method;
    o[u"url"] = a.url.toString();
    o[u"body_size"] = a.bodySize;
    o[u"body_sha256"] = QString::fromLatin1(a.bodySha256);
    o[u"bytes_up"] = a.bytesUp;
    o[u"bytes_down"] = a.bytesDown;
    o[u"connection_reused"] = a.connectionReused;
    o[u"http2"] = a.http2Used;
    return o;
}

QJsonObject runToJson(const RunRecord& run, bool redact)
{
    QJsonObject o;
    o[u"run"] = run.runId;
    o[u"seed"] = QString::number(run.seed);
    o[u"policy"] = policyToJson(run.policy);
    o[u"method"] = run.request.method;
    o[u"url"] = run.request.url.toString();
    o[u"outcome"] = finalKindName(run.outcome);
    o[u"reason"] = run.reason;
    o[u"server_asked_for_ms"] = run.serverAskedFor ? QJsonValue(qint64(run.serverAskedFor->count())) : QJsonValue();
    o[u"start_ms"] = msOrNull(run.startedAt);
    o[u"end_ms"] = msOrNull(run.finishedAt);
    o[u"total_wait_ms"] = qint64(run.totalWait.count());
    QJsonArray attempts;
    for (const AttemptRecord& a : run.attempts)
        attempts.append(attemptToJson(a, redact));
    o[u"attempts"] = attempts;
    return o;
}

QJsonObject attemptLogToJson(const QList<RunRecord>& runs, bool redact)
{
    QJsonArray list;
    for (const RunRecord& r : runs)
        list.append(runToJson(r, redact));
    return QJsonObject { { QStringLiteral("format"), QStringLiteral("retrylab-attempt-log") },
        { QStringLiteral("version"), 1 }, { QStringLiteral("runs"), list } };
}
