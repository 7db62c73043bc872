// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labresponse.h"

#include "lab/httpdateformat.h"

#include <QDateTime>

void LabResponse::setHeader(const QByteArray& name, const QByteArray& value)
{
    headers.removeIf([&](const auto& entry) { return entry.first.compare(name, Qt::CaseInsensitive) == 0; });
    headers.append(qMakePair(name, value));
}

QByteArray LabResponse::header(QByteArrayView name) const
{
    return combinedHeader(headers, name);
}

QByteArray LabResponse::serializeHead(bool keepAlive, qsizetype contentLength) const
{
    return serializeHead(status, headFields(keepAlive, contentLength));
}

HttpHeaderList LabResponse::headFields(bool keepAlive, qsizetype contentLength) const
{
    HttpHeaderList fields;
    fields.reserve(headers.size() + 3);
    if (!hasHeader(headers, "Date"))
        fields.append({ "Date", HttpDateFormat::format(QDateTime::currentDateTimeUtc(), HttpDateFormat::Form::ImfFixdate) });
    for (const auto& field : headers) {
        if (field.first.compare("Content-Length", Qt::CaseInsensitive) == 0
            || field.first.compare("Connection", Qt::CaseInsensitive) == 0)
            continue;
        fields.append(field);
    }
    if (status >= 200 && status != 204 && status != 304)
        fields.append({ "Content-Length", QByteArray::number(contentLength < 0 ? body.size() : contentLength) });
    fields.append({ "Connection", keepAlive ? QByteArray("keep-alive") : QByteArray("close") });
    return fields;
}

QByteArray LabResponse::serializeHead(int status, const HttpHeaderList& fields)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    for (const auto& [name, value] : fields)
        head += name + ": " + value + "\r\n";
    head += "\r\n";
    return head;
}

QByteArray LabResponse::reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 422: return "Unprocessable Content";
    case 425: return "Too Early";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    case 505: return "HTTP Version Not Supported";
    default: return "Status";
    }
}

LabResponse LabResponse::json(int status, const QByteArray& jsonBody)
{
    LabResponse response;
    response.status = status;
    response.addHeader("Content-Type", "application/json");
    response.body = jsonBody;
    return response;
}
