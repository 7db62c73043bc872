// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/harentry.h"

#include "engine/requestheaders.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("har", text); }

bool fail(HarFieldProblem* problem, const QString& field, const QString& message)
{
    *problem = HarFieldProblem { field, message };
    return false;
}

// A HAR timing: milliseconds, -1 (or absent) when it does not apply; 0 for anything not a number ≥ 0.
double timing(const QJsonObject& timings, const QString& name)
{
    const QJsonValue v = timings.value(name);
    return v.isDouble() && v.toDouble() > 0 && std::isfinite(v.toDouble()) ? v.toDouble() : 0.0;
}

bool readHeaders(const QJsonValue& value, const QString& field, HttpHeaderList* out, QByteArray* authority,
    HarFieldProblem* problem)
{
    if (!value.isArray())
        return fail(problem, field, tr("must be an array of {\"name\", \"value\"} objects"));
    const QJsonArray headers = value.toArray();
    for (qsizetype i = 0; i < headers.size(); ++i) {
        const QJsonObject h = headers.at(i).toObject();
        const QString where = field + u'[' + QString::number(i) + u']';
        if (!headers.at(i).isObject() || !h.value(u"name"_s).isString() || !h.value(u"value"_s).isString())
            return fail(problem, where, tr("must be an object with a string \"name\" and \"value\""));
        const QByteArray name = h.value(u"name"_s).toString().toUtf8();
        const QByteArray v = h.value(u"value"_s).toString().toUtf8();
        if (name.isEmpty())
            return fail(problem, where + u".name"_s, tr("must not be empty"));
        if (name.startsWith(':')) { // an HTTP/2 or /3 pseudo-header
            if (authority && name == ":authority")
                *authority = v;
            continue;
        }
        out->append({ name, v });
    }
    return true;
}

// What became of a request that got no answer, from Chrome's _error ("net::ERR_CONNECTION_RESET").
QString outcomeOfError(const QString& error)
{
    if (error.contains(u"RESET"_s))
        return u"reset"_s;
    if (error.contains(u"CLOSED"_s) || error.contains(u"EMPTY_RESPONSE"_s) || error.contains(u"REFUSED"_s))
        return u"closed"_s;
    return u"client-gone"_s; // aborted, timed out, or nothing said: the client gave up on it
}

} // namespace

bool readHarEntry(const QJsonObject& entry, HarEntry* out, HarFieldProblem* problem)
{
    LabExchange& e = out->exchange;
    const QJsonValue started = entry.value(u"startedDateTime"_s);
    out->started = QDateTime::fromString(started.toString(), Qt::ISODateWithMs);
    if (!started.isString() || !out->started.isValid())
        return fail(problem, u"startedDateTime"_s, tr("must be an ISO 8601 date and time, e.g. 2024-05-01T10:00:00.000Z"));
    const QJsonValue requestValue = entry.value(u"request"_s);
    const QJsonValue responseValue = entry.value(u"response"_s);
    if (!requestValue.isObject())
        return fail(problem, u"request"_s, tr("missing, or not an object"));
    if (!responseValue.isObject())
        return fail(problem, u"response"_s, tr("missing, or not an object"));
    const QJsonObject request = requestValue.toObject();
    const QJsonObject response = responseValue.toObject();

    const QJsonValue method = request.value(u"method"_s);
    if (!method.isString() || method.toString().trimmed().isEmpty())
        return fail(problem, u"request.method"_s, tr("must be a method name such as \"GET\""));
    const QString urlText = request.value(u"url"_s).toString();
    out->url = QUrl(urlText, QUrl::StrictMode);
    if (!request.value(u"url"_s).isString() || !out->url.isValid() || out->url.scheme().isEmpty())
        return fail(problem, u"request.url"_s, tr("\"%1\" is not an absolute URL").arg(urlText.left(200)));
    const QString scheme = out->url.scheme().toLower();
    out->http = scheme == u"http"_s || scheme == u"https"_s;
    if (!out->http)
        return true;
    if (out->url.host().isEmpty())
        return fail(problem, u"request.url"_s, tr("\"%1\" has no host").arg(urlText.left(200)));
    e.method = method.toString().trimmed().toUpper().toLatin1();
    e.target = out->url.path(QUrl::FullyEncoded).toLatin1();
    if (e.target.isEmpty())
        e.target = "/";
    if (out->url.hasQuery())
        e.target += '?' + out->url.query(QUrl::FullyEncoded).toLatin1();
    QByteArray authority;
    if (!readHeaders(request.value(u"headers"_s), u"request.headers"_s, &e.requestHeaders, &authority, problem))
        return false;
    const QJsonValue postData = request.value(u"postData"_s);
    if (!postData.isUndefined() && !postData.isNull()) {
        if (!postData.isObject())
            return fail(problem, u"request.postData"_s, tr("must be an object"));
        const QJsonValue text = postData.toObject().value(u"text"_s);
        if (!text.isUndefined() && !text.isString())
            return fail(problem, u"request.postData.text"_s, tr("must be a string"));
        e.requestBody = text.toString().toUtf8();
    }
    const qint64 declared = request.value(u"bodySize"_s).toInteger(-1);
    e.requestBodySize = e.requestBody.isEmpty() && declared > 0 ? declared : e.requestBody.size();
    e.requestBodyTruncated = e.requestBody.size() != e.requestBodySize;
    e.requestBodySha256 = e.requestBodyTruncated ? QByteArray() : bodyHash(e.requestBody);
    e.minorVersion = 1;

    const QJsonValue status = response.value(u"status"_s);
    if (!status.isDouble() || status.toDouble() != std::floor(status.toDouble()) || status.toInt() < 0 || status.toInt() > 999
        || (status.toInt() > 0 && status.toInt() < 100))
        return fail(problem, u"response.status"_s, tr("must be an HTTP status from 100 to 999, or 0 for no answer"));
    e.status = status.toInt();
    if (!readHeaders(response.value(u"headers"_s), u"response.headers"_s, &e.responseHeaders, nullptr, problem))
        return false;
    const QJsonValue timingsValue = entry.value(u"timings"_s);
    if (!timingsValue.isUndefined() && !timingsValue.isObject())
        return fail(problem, u"timings"_s, tr("must be an object"));
    const QJsonObject timings = timingsValue.toObject();
    const QJsonValue time = entry.value(u"time"_s);
    if (!time.isUndefined() && (!time.isDouble() || !std::isfinite(time.toDouble())))
        return fail(problem, u"time"_s, tr("must be a number of milliseconds"));

    // Times from startedDateTime, as HAR's timings lay them end to end.
    const double sent = timing(timings, u"blocked"_s) + timing(timings, u"dns"_s) + timing(timings, u"connect"_s)
        + timing(timings, u"send"_s);
    const double head = sent + timing(timings, u"wait"_s);
    const double end = std::max(head + timing(timings, u"receive"_s), std::max(0.0, time.toDouble()));
    e.arrivedMs = 0;
    e.requestCompleteMs = qint64(std::llround(sent));
    const QJsonObject content = response.value(u"content"_s).toObject();
    if (e.status > 0) {
        e.responseStartedMs = qint64(std::llround(head));
        e.responseFinishedMs = qint64(std::llround(end));
        const qint64 size = content.value(u"size"_s).toInteger(-1);
        e.responseBodyBytes = size >= 0 ? size : std::max<qint64>(0, response.value(u"bodySize"_s).toInteger(0));
        e.outcome = u"answered"_s;
    } else {
        e.clientGoneMs = qint64(std::llround(end));
        e.outcome = outcomeOfError(response.value(u"_error"_s).toString());
        e.note = response.value(u"_error"_s).toString();
    }
    const QJsonValue connection = entry.value(u"connection"_s);
    out->connection = connection.isString() ? connection.toString() : connection.isDouble() ? QString::number(connection.toInteger()) : QString();
    e.stepKind = u"har"_s;
    return true;
}
