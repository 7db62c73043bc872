// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/export/sessionexport.h"

#include "session/ratelimit/attemptratelimits.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QUrlQuery>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

QString ms(qint64 ns)
{
    return ns == PackedAttempt::kUnset ? QString() : QString::number(double(ns) / 1e6, 'f', 3);
}

QString optInt(qint64 v)
{
    return v == PackedAttempt::kUnset ? QString() : QString::number(v);
}

QString optional(const std::optional<qint64>& v)
{
    return v ? QString::number(*v) : QString();
}

// As the JSON writes it (RateLimitJson): the shortest decimal that reads back to the same number.
QString seconds(const std::optional<double>& v)
{
    return v && std::isfinite(*v) ? QString::number(*v, 'g', QLocale::FloatingPointShortest) : QString();
}

QJsonArray harHeaders(const AttemptStore& store, quint32 offset, const Redactor& redactor)
{
    QJsonArray out;
    const int n = store.headerCount(offset);
    for (int i = 0; i < n; ++i) {
        const QByteArrayView name = store.headerName(offset, i);
        out.append(QJsonObject { { u"name"_s, QString::fromUtf8(name) },
            { u"value"_s, QString::fromUtf8(redactor.header(name, store.headerValue(offset, i))) } });
    }
    return out;
}

QString headerValue(const AttemptStore& store, quint32 offset, QByteArrayView name)
{
    const int n = store.headerCount(offset);
    for (int i = 0; i < n; ++i) {
        if (store.headerName(offset, i).compare(name, Qt::CaseInsensitive) == 0)
            return QString::fromUtf8(store.headerValue(offset, i));
    }
    return QString();
}

// The HAR entries' `_rateLimit`: the session JSON's `rate_limit` object, read once while it repeats.
class HarRateLimits
{
public:
    explicit HarRateLimits(const Session& session)
        : m_reader(session.attempts, session.meta.wallOriginUtc)
    {
    }
    QJsonValue value(const PackedAttempt& attempt)
    {
        const QByteArrayView text = m_reader.json(attempt);
        if (text != QByteArrayView(m_text)) {
            m_text = text.toByteArray();
            m_value = text == "null" ? QJsonValue() : QJsonValue(QJsonDocument::fromJson(m_text).object());
        }
        return m_value;
    }

private:
    AttemptRateLimits m_reader;
    QByteArray m_text = "null";
    QJsonValue m_value;
};

// Milliseconds between two recorded phases, or -1 when either is unknown.
double span(qint64 from, qint64 to)
{
    if (from == PackedAttempt::kUnset || to == PackedAttempt::kUnset || to < from)
        return -1;
    return double(to - from) / 1e6;
}

} // namespace

namespace SessionExport {

std::optional<Format> formatFromName(const QString& name)
{
    if (name == u"json"_s)
        return Format::Json;
    if (name == u"csv"_s)
        return Format::Csv;
    if (name == u"har"_s)
        return Format::Har;
    return std::nullopt;
}

Redactor redactorFor(const Session& session, bool redact)
{
    if (!redact)
        return Redactor::none();
    RedactionSettings s = session.redaction;
    s.enabled = true;
    return Redactor(s);
}

QStringList csvColumns()
{
    return { u"run"_s, u"attempt"_s, u"method"_s, u"url"_s, u"scheduled_ms"_s, u"start_ms"_s, u"end_ms"_s,
        u"duration_ms"_s, u"phase_reached"_s, u"status"_s, u"error"_s, u"qt_error"_s, u"abort_reason"_s,
        u"decision"_s, u"final"_s, u"delay_ms"_s, u"delay_ceiling_ms"_s, u"delay_source"_s, u"retry_after_ms"_s,
        u"reason"_s, u"rule"_s, u"idempotency_key"_s, u"attempt_id"_s, u"connection_reused"_s, u"bytes_up"_s,
        u"bytes_down"_s, u"rate_limit"_s, u"rate_limit_limit"_s, u"rate_limit_remaining"_s, u"rate_limit_reset_s"_s,
        u"rate_limit_dialect"_s, u"queued_ms"_s, u"client_wait_ms"_s, u"asked_for_ms"_s, u"asked_by"_s,
        u"grouping"_s };
}

QByteArray csvField(const QString& value)
{
    QByteArray v = value.toUtf8();
    if (!v.contains(',') && !v.contains('"') && !v.contains('\n') && !v.contains('\r'))
        return v;
    v.replace("\"", "\"\"");
    return '"' + v + '"';
}

bool writeCsv(const Session& session, const Redactor& redactor, QIODevice& device, const SessionProgress& progress)
{
    QByteArray out = csvColumns().join(u',').toUtf8() + "\r\n";
    const AttemptStore& store = session.attempts;
    const StringPool& s = store.strings();
    const qint64 total = session.attemptCount();
    qint64 done = 0;
    AttemptRateLimits rateLimits(store, session.meta.wallOriginUtc);
    for (const SessionRun& run : session.runs) {
        const QString grouping = run.observed ? run.observed->rule + (run.observed->heuristic ? u" (heuristic)"_s : QString()) : QString();
        for (quint32 row : run.rows) {
            const PackedAttempt& p = store.packed(row);
            const bool decided = p.verdict >= 0;
            const QString undecided = p.observed ? u"observed"_s : u"cancelled"_s;
            QString rateLimit;
            for (int i = 0; i < store.headerCount(p.rateLimitHeaders); ++i) {
                if (i)
                    rateLimit += u"; "_s;
                rateLimit += QString::fromUtf8(store.headerName(p.rateLimitHeaders, i)) + u": "_s
                    + QString::fromUtf8(store.headerValue(p.rateLimitHeaders, i));
            }
            const RateLimitSnapshot* quota = rateLimits.parse(p).mostRestrictive(); // as `rate_limit` in JSON
            const double duration = span(p.at[PackedAttempt::Started], p.at[PackedAttempt::Finished]);
            const QStringList fields { QString::number(p.runId), QString::number(p.index), s.string(p.method),
                redactor.url(s.string(p.url)), ms(p.at[PackedAttempt::Scheduled]), ms(p.at[PackedAttempt::Started]),
                ms(p.at[PackedAttempt::Finished]), duration < 0 ? QString() : QString::number(duration, 'f', 3),
                attemptPhaseName(AttemptPhase(p.phaseReached)), p.status >= 0 ? QString::number(p.status) : QString(),
                p.error >= 0 ? errorClassName(ErrorClass(p.error)) : QString(), s.string(p.qtError),
                abortReasonName(AbortReason(p.abortReason)),
                decided ? verdictName(Verdict(p.verdict)) : undecided,
                decided ? finalKindName(FinalKind(p.finalKind)) : QString(), decided ? optInt(p.delayMs) : QString(),
                decided ? QString::number(p.ceilingMs) : QString(),
                decided ? delaySourceName(DelaySource(p.delaySource)) : QString(), optInt(p.retryAfterMs),
                decided ? s.string(p.reason) : p.observed ? QString() : undecided, s.string(p.ruleName), s.string(p.idempotencyKey),
                s.string(p.attemptId), p.connectionReused ? u"true"_s : u"false"_s, QString::number(p.bytesUp),
                QString::number(p.bytesDown), rateLimit, quota ? optional(quota->limit) : QString(),
                quota ? optional(quota->remaining) : QString(), quota ? seconds(quota->resetSeconds) : QString(),
                quota ? quota->dialect : QString(), ms(p.at[PackedAttempt::Queued]), ms(p.clientWaitNs),
                optInt(p.askedForMs), s.string(p.askedBy), grouping };
            for (qsizetype i = 0; i < fields.size(); ++i) {
                if (i)
                    out += ',';
                out += csvField(fields.at(i));
            }
            out += "\r\n";
            if (out.size() > (1 << 20)) {
                if (device.write(out) != out.size())
                    return false;
                out.clear();
            }
            if ((++done & 4095) == 0 && progress && !progress(done, total))
                return false;
        }
    }
    return device.write(out) == out.size();
}

// harEntry() with `_rateLimit` given: the entry's attempt's, read by the caller.
QJsonObject harEntry(const Session& session, qsizetype runIndex, quint32 row, const Redactor& redactor,
    const QJsonValue& rateLimit)
{
    const AttemptStore& store = session.attempts;
    const StringPool& s = store.strings();
    const PackedAttempt& p = store.packed(row);
    const SessionRun& run = session.runs.at(runIndex);
    const RequestSpec* spec = run.request < session.requests.size() ? &session.requests.at(run.request) : nullptr;

    const qint64* at = p.at;
    const qint64 started = at[PackedAttempt::Started] != PackedAttempt::kUnset ? at[PackedAttempt::Started]
                                                                               : at[PackedAttempt::Scheduled];
    // Phases → HAR timings. dns and ssl are never observed separately (-1); connect includes TLS.
    const qint64 connecting = at[PackedAttempt::Connecting];
    const qint64 connected = at[PackedAttempt::TlsDone] != PackedAttempt::kUnset ? at[PackedAttempt::TlsDone]
                                                                                 : at[PackedAttempt::RequestSent];
    const qint64 sent = at[PackedAttempt::RequestSent];
    const qint64 head = at[PackedAttempt::HeadersReceived];
    const qint64 end = at[PackedAttempt::Finished];
    // HAR's blocked is "time spent in a queue waiting for a network connection": the queued phase (an
    // attempt that waited for one of the policy's connections per host), and any time before connecting.
    const qint64 queued = at[PackedAttempt::Queued];
    double blocked = span(started, connecting);
    if (queued != PackedAttempt::kUnset && started != PackedAttempt::kUnset)
        blocked = qMax(0.0, blocked) + span(queued, started);
    const double connect = span(connecting, connected != PackedAttempt::kUnset ? connected : end);
    double send = 0;
    if (at[PackedAttempt::TlsDone] != PackedAttempt::kUnset)
        send = qMax(0.0, span(at[PackedAttempt::TlsDone], sent));
    else if (connecting == PackedAttempt::kUnset)
        send = qMax(0.0, span(started, sent));
    const double wait = sent != PackedAttempt::kUnset ? qMax(0.0, span(sent, head != PackedAttempt::kUnset ? head : end)) : 0.0;
    const double receive = head != PackedAttempt::kUnset ? qMax(0.0, span(head, end)) : 0.0;
    const QJsonObject timings { { u"blocked"_s, blocked }, { u"dns"_s, -1 }, { u"connect"_s, connect }, { u"ssl"_s, -1 },
        { u"send"_s, send }, { u"wait"_s, wait }, { u"receive"_s, receive } };
    double time = send + wait + receive + qMax(0.0, blocked) + qMax(0.0, connect);

    QDateTime origin = session.meta.wallOriginUtc.isValid() ? session.meta.wallOriginUtc
                                                            : QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    const qint64 entryStart = queued != PackedAttempt::kUnset ? queued : started;
    const QDateTime startedAt = origin.addMSecs(entryStart == PackedAttempt::kUnset ? 0 : entryStart / 1000000);

    const QString url = redactor.url(s.string(p.url));
    QJsonArray query;
    const QUrlQuery q { QUrl(url) };
    for (const auto& [name, value] : q.queryItems(QUrl::FullyDecoded))
        query.append(QJsonObject { { u"name"_s, name }, { u"value"_s, value } });
    const QString httpVersion = p.http2 ? u"HTTP/2"_s : u"HTTP/1.1"_s;
    QJsonObject request { { u"method"_s, s.string(p.method) }, { u"url"_s, url }, { u"httpVersion"_s, httpVersion },
        { u"cookies"_s, QJsonArray() }, { u"headers"_s, harHeaders(store, p.requestHeaders, redactor) },
        { u"queryString"_s, query }, { u"headersSize"_s, -1 }, { u"bodySize"_s, p.bodySize } };
    if (spec && !spec->body.isEmpty()) {
        QString mime = headerValue(store, p.requestHeaders, "content-type");
        request[u"postData"_s] = QJsonObject { { u"mimeType"_s, mime.isEmpty() ? u"application/octet-stream"_s : mime },
            { u"text"_s, QString::fromUtf8(spec->body) } };
    }
    const bool answered = p.status >= 0;
    QString mime = headerValue(store, p.responseHeaders, "content-type");
    QJsonObject content { { u"size"_s, p.bytesDown }, { u"mimeType"_s, mime.isEmpty() ? u"x-unknown"_s : mime } };
    if (p.bodyExcerpt)
        content[u"text"_s] = s.string(p.bodyExcerpt);
    const QJsonObject response { { u"status"_s, answered ? p.status : 0 }, { u"statusText"_s, s.string(p.reasonPhrase) },
        { u"httpVersion"_s, answered ? httpVersion : QString() }, { u"cookies"_s, QJsonArray() },
        { u"headers"_s, harHeaders(store, p.responseHeaders, redactor) }, { u"content"_s, content },
        { u"redirectURL"_s, s.string(p.redirectTarget) }, { u"headersSize"_s, -1 },
        { u"bodySize"_s, answered ? p.bytesDown : -1 } };
    const bool decided = p.verdict >= 0;
    const QString undecided = p.observed ? u"observed"_s : u"cancelled"_s;
    QJsonObject entry { { u"startedDateTime"_s, startedAt.toString(Qt::ISODateWithMs) }, { u"time"_s, time },
        { u"request"_s, request }, { u"response"_s, response }, { u"cache"_s, QJsonObject() },
        { u"timings"_s, timings }, { u"_runId"_s, p.runId }, { u"_attempt"_s, p.index },
        { u"_attemptId"_s, s.string(p.attemptId) },
        { u"_decision"_s, decided ? verdictName(Verdict(p.verdict)) : undecided },
        { u"_delayMs"_s, decided && p.delayMs != PackedAttempt::kUnset ? QJsonValue(p.delayMs) : QJsonValue() },
        { u"_delaySource"_s, decided ? delaySourceName(DelaySource(p.delaySource)) : QString() },
        { u"_reason"_s, decided ? s.string(p.reason) : p.observed ? QString() : undecided },
        { u"_idempotencyKey"_s, p.idempotencyKey ? QJsonValue(s.string(p.idempotencyKey)) : QJsonValue() },
        { u"_final"_s, decided ? finalKindName(FinalKind(p.finalKind)) : QString() },
        { u"_retryAfterMs"_s, p.retryAfterMs != PackedAttempt::kUnset ? QJsonValue(p.retryAfterMs) : QJsonValue() },
        { u"_rateLimit"_s, rateLimit } };
    if (p.observed) {
        entry[u"_clientWaitMs"_s] = p.clientWaitNs == PackedAttempt::kUnset ? QJsonValue() : QJsonValue(double(p.clientWaitNs) / 1e6);
        entry[u"_askedForMs"_s] = p.askedForMs == PackedAttempt::kUnset ? QJsonValue() : QJsonValue(p.askedForMs);
        entry[u"_askedBy"_s] = p.askedBy ? QJsonValue(s.string(p.askedBy)) : QJsonValue();
        if (run.observed)
            entry[u"_grouping"_s] = QJsonObject { { u"rule"_s, run.observed->rule }, { u"evidence"_s, run.observed->evidence },
                { u"heuristic"_s, run.observed->heuristic } };
    }
    if (p.error >= 0)
        entry[u"_error"_s] = QString(errorClassName(ErrorClass(p.error))
            + (p.qtError ? QString(u": "_s + s.string(p.qtError)) : QString()));
    else if (!answered)
        entry[u"_error"_s] = p.abortReason ? abortReasonName(AbortReason(p.abortReason)) : u"no answer"_s;
    return entry;
}

QJsonObject harEntry(const Session& session, qsizetype runIndex, quint32 row, const Redactor& redactor)
{
    HarRateLimits rateLimits(session);
    return harEntry(session, runIndex, row, redactor, rateLimits.value(session.attempts.packed(row)));
}

bool writeHar(const Session& session, const Redactor& redactor, QIODevice& device, const SessionProgress& progress)
{
    const QJsonObject creator { { u"name"_s, u"Retrylab"_s }, { u"version"_s, QStringLiteral(RETRYLAB_VERSION) } };
    QByteArray out = "{\"log\":{\"version\":\"1.2\",\"creator\":" + QJsonDocument(creator).toJson(QJsonDocument::Compact)
        + ",\"pages\":[],\"entries\":[";
    const qint64 total = session.attemptCount();
    qint64 done = 0;
    HarRateLimits rateLimits(session);
    for (qsizetype r = 0; r < session.runs.size(); ++r) {
        for (quint32 row : session.runs.at(r).rows) {
            out += done ? ",\n" : "\n";
            const QJsonValue rateLimit = rateLimits.value(session.attempts.packed(row));
            out += QJsonDocument(harEntry(session, r, row, redactor, rateLimit)).toJson(QJsonDocument::Compact);
            if (out.size() > (1 << 20)) {
                if (device.write(out) != out.size())
                    return false;
                out.clear();
            }
            if ((++done & 4095) == 0 && progress && !progress(done, total))
                return false;
        }
    }
    out += "\n]}}\n";
    return device.write(out) == out.size();
}

bool save(const Session& session, Format format, const Redactor& redactor, const QString& path,
    const SessionProgress& progress, QString* error)
{
    if (format == Format::Json)
        return SessionFile::save(session, path, progress, error, &redactor);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const bool ok = format == Format::Csv ? writeCsv(session, redactor, file, progress)
                                          : writeHar(session, redactor, file, progress);
    if (!ok || !file.commit()) {
        file.cancelWriting();
        if (error)
            *error = tr("cannot write %1: %2").arg(path, ok ? file.errorString() : tr("cancelled or write error"));
        return false;
    }
    return true;
}

} // namespace SessionExport
