// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/observedrecords.h"

#include "engine/requestheaders.h"
#include "http/ratelimitparser.h"
#include "http/retryafter.h"
#include "http/secretheaders.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("observe", text); }

MonoTime at(qint64 ms)
{
    return MonoTime(std::chrono::milliseconds(ms));
}

QDateTime wallAt(const RecordOptions& options, qint64 ms)
{
    return options.wallOrigin.isValid() ? options.wallOrigin.addMSecs(ms) : QDateTime::currentDateTimeUtc();
}

// How an exchange that got no complete answer failed, for its client, and in words.
std::optional<ErrorClass> errorOf(const LabExchange& e, QString* text)
{
    const QString& o = e.outcome;
    const qint64 spent = exchangeEndMs(e) - e.arrivedMs;
    if (o == u"reset"_s || o == u"closed"_s || o == u"truncated"_s) {
        *text = o == u"reset"_s ? tr("the server reset the connection")
            : o == u"closed"_s  ? tr("the server closed the connection without an answer")
                                : tr("the answer was cut short");
        return ErrorClass::ConnectionLost;
    }
    if (o == u"garbage"_s) {
        *text = tr("the answer was not HTTP");
        return ErrorClass::Protocol;
    }
    if (o == u"hang"_s || o == u"client-gone"_s || (e.clientGoneMs && !e.responseFinishedMs)) {
        *text = tr("the client hung up %1 ms after it began sending, before the answer was complete").arg(spent);
        return ErrorClass::ResponseTimeout;
    }
    if (e.status == 0) {
        *text = tr("no answer (%1)").arg(o.isEmpty() ? tr("unknown") : o);
        return ErrorClass::ConnectionLost;
    }
    return std::nullopt;
}

FinalKind outcomeOf(const LabExchange& last)
{
    if (last.status == 0 || (!last.outcome.isEmpty() && last.outcome != u"answered"_s && last.outcome != u"rejected"_s))
        return FinalKind::Network;
    if (last.status == 429)
        return FinalKind::RateLimited;
    if (last.status >= 500)
        return FinalKind::ServerError;
    if (last.status >= 400)
        return FinalKind::ClientError;
    return FinalKind::Success;
}

bool isPerAttemptHeader(QByteArrayView name)
{
    static const QList<QByteArrayView> names { "host", "content-length", "transfer-encoding", "connection", "keep-alive",
        "te", "trailer", "upgrade", "proxy-connection", "expect", "x-retrylab-attempt", "amz-sdk-request",
        "x-stainless-retry-count", "grpc-previous-rpc-attempts", "x-envoy-attempt-count", "retry-attempt" };
    for (QByteArrayView n : names) {
        if (name.compare(n, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

} // namespace

namespace ObservedRecords {

QUrl urlOf(const LabExchange& e, const RecordOptions& options)
{
    if (const auto it = options.urls.constFind(e.requestId); it != options.urls.constEnd())
        return *it;
    if (e.target.startsWith("http://") || e.target.startsWith("https://")) // absolute-form (RFC 9112 §3.2.2)
        return QUrl::fromEncoded(e.target);
    if (!e.origin.isEmpty()) { // through the lab as a forward proxy: the origin the client named, default port dropped
        QUrl url = QUrl::fromEncoded(e.origin.toUtf8() + (e.target.startsWith('/') ? e.target : '/' + e.target));
        if (url.port() == (url.scheme() == u"https"_s ? 443 : 80))
            url.setPort(-1);
        return url;
    }
    QByteArray host = combinedHeader(e.requestHeaders, "host").trimmed();
    if (host.isEmpty())
        host = e.clientAddress.isEmpty() ? QByteArrayLiteral("localhost") : QByteArrayLiteral("127.0.0.1");
    const QByteArray target = e.target.startsWith('/') ? e.target : '/' + e.target;
    return QUrl::fromEncoded(options.scheme.toLatin1() + "://" + host + target);
}

AttemptRecord attemptRecord(const ObservedAttempt& o, int runId, const RecordOptions& options)
{
    const LabExchange& e = o.exchange;
    AttemptRecord a;
    a.runId = runId;
    a.index = o.index;
    a.at.scheduled = at(e.arrivedMs); // the client's wait ended when it sent
    a.at.started = at(e.arrivedMs);
    if (e.requestCompleteMs)
        a.at.requestSent = at(*e.requestCompleteMs);
    if (e.responseStartedMs) {
        a.at.headersReceived = at(*e.responseStartedMs);
        if (e.responseBodyBytes > 0)
            a.at.firstByte = a.at.headersReceived;
    }
    a.at.finished = at(exchangeEndMs(e));
    a.phaseReached = e.responseFinishedMs ? AttemptPhase::Finished
        : e.responseStartedMs             ? (e.responseBodyBytes > 0 ? AttemptPhase::FirstByte : AttemptPhase::HeadersReceived)
        : e.requestCompleteMs             ? AttemptPhase::RequestSent
                                          : AttemptPhase::Started;
    a.method = QString::fromLatin1(e.method);
    a.url = urlOf(e, options);
    for (const auto& [name, value] : e.requestHeaders)
        a.requestHeaders.append({ name, value, isSecretHeader(name) });
    a.bodySize = e.requestBodySize;
    a.bodySha256 = e.requestBodySha256;
    a.bytesUp = e.requestBodySize;
    a.bytesDown = e.responseBodyBytes;
    a.connectionReused = e.requestOnConnection > 1;
    a.http2Used = false;
    a.idempotencyKey = QString::fromUtf8(idempotencyKeyOf(e.requestHeaders));
    a.attemptId = QString::fromUtf8(combinedHeader(e.requestHeaders, "x-retrylab-attempt"));
    if (e.status > 0)
        a.status = e.status;
    a.responseHeaders = e.responseHeaders;
    a.bodyExcerpt = e.responseBodyExcerpt;
    a.bodyExcerptTruncated = e.responseBodyBytes > e.responseBodyExcerpt.size();
    QString errorText;
    a.error = errorOf(e, &errorText);
    a.qtError = errorText;
    const QDateTime answeredAt = wallAt(options, e.responseStartedMs.value_or(exchangeEndMs(e)));
    if (e.status > 0) {
        a.retryAfter = parseRetryAfter(e.responseHeaders, answeredAt);
        a.rateLimitHeaders = rateLimitFieldsOf(e.responseHeaders);
        a.rateLimit = parseRateLimits(
            e.responseHeaders, rateLimitInstant(combinedHeader(e.responseHeaders, "date"), answeredAt));
    }
    ObservedAttemptFacts facts;
    facts.clientWait = o.clientWait;
    if (o.askedBefore) {
        facts.askedFor = o.askedBefore->delay;
        facts.askedBy = o.askedBefore->by;
    }
    facts.exchange = e.requestId;
    a.observed = facts;
    return a;
}

RequestSpec requestOf(const LabExchange& e, const RecordOptions& options)
{
    RequestSpec spec;
    spec.method = QString::fromLatin1(e.method).toUpper();
    spec.url = urlOf(e, options);
    for (const auto& [name, value] : e.requestHeaders) {
        if (!isPerAttemptHeader(name))
            spec.headers.append({ name, value });
    }
    if (!e.requestBodyTruncated && e.requestBody.size() == e.requestBodySize)
        spec.body = e.requestBody;
    spec.keyMode = IdempotencyKeyMode::None; // the client's own key, if any, is among its headers
    spec.attemptIdEnabled = false;
    return spec;
}

RunRecord runRecord(const ObservedRun& run, int runId, const RecordOptions& options)
{
    RunRecord r;
    r.runId = runId;
    r.observed = run.grouping;
    r.attemptCount = int(run.attempts.size());
    if (run.attempts.isEmpty())
        return r;
    const LabExchange& first = run.attempts.first().exchange;
    const LabExchange& last = run.attempts.last().exchange;
    r.request = requestOf(first, options);
    r.submittedAt = at(first.arrivedMs);
    r.startedAt = r.submittedAt;
    r.finishedAt = at(exchangeEndMs(last));
    qint64 waited = 0;
    for (const ObservedAttempt& a : run.attempts) {
        r.attempts.append(attemptRecord(a, runId, options));
        if (a.clientWait && a.clientWait->count() > 0)
            waited += std::chrono::duration_cast<Millis>(*a.clientWait).count();
    }
    r.totalWait = Millis(waited);
    r.outcome = outcomeOf(last);
    const QString answer = last.status > 0 ? QString::number(last.status) : tr("no answer");
    r.reason = run.attempts.size() == 1 ? tr("observed: one attempt, answered %1").arg(answer)
                                        : tr("observed: %1 attempts, the last answered %2").arg(run.attempts.size()).arg(answer);
    if (last.status > 0) {
        if (const std::optional<ServerAsk> ask = serverAsk(last.responseHeaders, wallAt(options, last.responseStartedMs.value_or(exchangeEndMs(last)))))
            r.serverAskedFor = ask->delay;
    }
    return r;
}

} // namespace ObservedRecords
