// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/upstreamtarget.h"

#include "lab/labrequest.h"

#include <QCoreApplication>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("lab", text); }

bool isHopByHopName(QByteArrayView name, const QList<QByteArray>& named)
{
    static constexpr QByteArrayView fixed[]
        = { "Connection", "Proxy-Connection", "Keep-Alive", "TE", "Transfer-Encoding", "Upgrade" };
    for (QByteArrayView f : fixed) {
        if (name.compare(f, Qt::CaseInsensitive) == 0)
            return true;
    }
    for (const QByteArray& n : named) {
        if (name.compare(n, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

} // namespace

HttpHeaderList withoutHopByHop(const HttpHeaderList& headers)
{
    QList<QByteArray> named; // connection-options (RFC 9110 §7.6.1), comma-separated tokens
    for (const QByteArray& value : headerValues(headers, "Connection")) {
        for (const QByteArray& option : value.split(',')) {
            const QByteArray token = option.trimmed();
            if (!token.isEmpty())
                named << token;
        }
    }
    HttpHeaderList kept;
    kept.reserve(headers.size());
    for (const auto& field : headers) {
        if (!isHopByHopName(field.first, named))
            kept.append(field);
    }
    return kept;
}

QString UpstreamTarget::describe() const
{
    QString text = base.toString(QUrl::RemoveUserInfo);
    if (isTls() && insecure)
        text += tr(" (TLS NOT VERIFIED: --upstream-insecure)");
    else if (isTls() && !caFile.isEmpty())
        text += tr(" (TLS verified against the system CAs and %1)").arg(caFile);
    else if (isTls())
        text += tr(" (TLS verified against the system CAs)");
    return text;
}

QString UpstreamTarget::problem() const
{
    if (!base.isValid() || base.scheme().isEmpty())
        return tr("the upstream must be an http:// or https:// URL, not \"%1\"").arg(base.toString());
    if (base.scheme() != u"http"_s && base.scheme() != u"https"_s)
        return tr("the upstream must be http:// or https://, not %1://").arg(base.scheme());
    if (base.host().isEmpty())
        return tr("the upstream URL \"%1\" has no host").arg(base.toString());
    if (base.hasQuery() || base.hasFragment())
        return tr("the upstream URL \"%1\" must not have a query or fragment").arg(base.toString());
    if (!base.userInfo().isEmpty())
        return tr("the upstream URL must not carry credentials (the client's own headers are forwarded)");
    if (!caFile.isEmpty() && !QFileInfo(caFile).isReadable())
        return tr("--upstream-ca %1: no such readable file").arg(caFile);
    if (insecure && !isTls())
        return tr("--upstream-insecure applies to an https:// upstream only");
    if (!caFile.isEmpty() && !isTls())
        return tr("--upstream-ca applies to an https:// upstream only");
    return {};
}

QByteArray UpstreamTarget::upstreamTarget(const LabRequest& request) const
{
    QByteArray pathAndQuery = request.target;
    if (!pathAndQuery.startsWith('/')) { // absolute-form or asterisk: only its path and query count
        const QUrl url = QUrl::fromEncoded(request.target);
        pathAndQuery = url.path(QUrl::FullyEncoded).toLatin1();
        if (pathAndQuery.isEmpty())
            pathAndQuery = "/";
        if (url.hasQuery())
            pathAndQuery += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    }
    QByteArray prefix = base.path(QUrl::FullyEncoded).toLatin1();
    while (prefix.endsWith('/'))
        prefix.chop(1);
    return prefix + pathAndQuery;
}

QByteArray UpstreamTarget::requestBytes(const LabRequest& request, bool keepAlive, const ForwardedClient& client) const
{
    return requestHead(request, keepAlive, client) + request.body;
}

QByteArray UpstreamTarget::requestHead(const LabRequest& request, bool keepAlive, const ForwardedClient& client) const
{
    const bool defaultPort = base.port() < 0 || base.port() == (isTls() ? 443 : 80);
    QByteArray host = base.host(QUrl::FullyEncoded).toLatin1();
    if (host.contains(':'))
        host = '[' + host + ']';
    if (!defaultPort)
        host += ':' + QByteArray::number(base.port());

    QByteArray out = request.method + ' ' + upstreamTarget(request) + " HTTP/1.1\r\nHost: " + host + "\r\n";
    const HttpHeaderList fields = withoutHopByHop(request.headers);
    for (const auto& [name, value] : fields) {
        if (name.compare("Host", Qt::CaseInsensitive) == 0 || name.compare("Content-Length", Qt::CaseInsensitive) == 0)
            continue;
        // The lab met a 100-continue expectation itself (LabConnection sends 100 once it reads the body).
        if (name.compare("Expect", Qt::CaseInsensitive) == 0 && value.trimmed().compare("100-continue", Qt::CaseInsensitive) == 0)
            continue;
        if (forwardedHeaders
            && (name.compare("Via", Qt::CaseInsensitive) == 0 || name.compare("X-Forwarded-For", Qt::CaseInsensitive) == 0))
            continue; // written once below, with this hop appended
        out += name + ": " + value + "\r\n";
    }
    if (forwardedHeaders) {
        const auto appended = [&](QByteArrayView name, const QByteArray& hop) {
            const QByteArray before = combinedHeader(fields, name);
            return before.isEmpty() ? hop : before + ", " + hop;
        };
        out += "Via: " + appended("Via", "1.1 retrylab") + "\r\n";
        if (!client.address.isEmpty())
            out += "X-Forwarded-For: " + appended("X-Forwarded-For", client.address.toLatin1()) + "\r\n";
        const QByteArray clientHost = combinedHeader(request.headers, "Host");
        if (!hasHeader(fields, "X-Forwarded-Host") && !clientHost.isEmpty())
            out += "X-Forwarded-Host: " + clientHost + "\r\n";
        if (!hasHeader(fields, "X-Forwarded-Proto"))
            out += QByteArray("X-Forwarded-Proto: ") + (client.tls ? "https" : "http") + "\r\n";
    }
    if (request.bodyStreamed) {
        // Relayed as it arrives: with the client's length, or re-chunked (RFC 9112 §7.1) when it had none.
        out += request.contentLength >= 0 ? "Content-Length: " + QByteArray::number(request.contentLength) + "\r\n"
                                          : QByteArray("Transfer-Encoding: chunked\r\n");
    } else if (!request.body.isEmpty() || hasHeader(request.headers, "Content-Length") || request.chunked) {
        // The body was de-chunked on arrival: it goes upstream with its length (RFC 9112 §6.2), and a request
        // that came with framing keeps it even when empty.
        out += "Content-Length: " + QByteArray::number(request.body.size()) + "\r\n";
    }
    out += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
    return out;
}
