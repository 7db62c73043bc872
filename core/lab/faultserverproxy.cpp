// SPDX-License-Identifier: GPL-3.0-or-later
// FaultServer as a forward proxy (issue 31 §1): CONNECT tunnels (RFC 9110 §9.3.6) and absolute-form requests.
// A tunnel to a host the lab intercepts is decrypted with a leaf minted for that host and read as a lab
// connection whose requests carry their origin; a request's `forward` step then goes to that origin (or its
// --map address). A tunnel to any other host is relayed untouched and counted. Plain-http requests to a host
// the lab does not intercept are refused: the lab forwards only where it was allowed.
#include "lab/faultserver.h"

#include "intercept/interceptauthority.h"
#include "lab/labconnection.h"
#include "lab/labrequest.h"
#include "lab/labresponse.h"
#include "lab/proxytunnel.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSslSocket>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

// "host:port" or "[v6]:port" (authority-form, RFC 9112 §3.2.3); the port is required.
bool parseAuthority(const QByteArray& target, QString* host, quint16* port)
{
    QByteArray h;
    QByteArray p;
    if (target.startsWith('[')) {
        const qsizetype close = target.indexOf(']');
        if (close < 0 || target.mid(close + 1, 1) != ":")
            return false;
        h = target.mid(1, close - 1);
        p = target.mid(close + 2);
        if (QHostAddress(QString::fromLatin1(h)).protocol() != QAbstractSocket::IPv6Protocol)
            return false;
    } else {
        const qsizetype colon = target.lastIndexOf(':');
        if (colon <= 0 || target.indexOf(':') != colon)
            return false;
        h = target.left(colon);
        p = target.mid(colon + 1);
        for (char c : std::as_const(h)) {
            if (!(QChar::isLetterOrNumber(uchar(c)) || c == '-' || c == '.' || c == '_'))
                return false;
        }
    }
    bool ok = false;
    const uint n = p.toUInt(&ok);
    if (!ok || n == 0 || n > 65535 || h.isEmpty() || h.size() > 253)
        return false;
    *host = QString::fromLatin1(h).toLower();
    *port = quint16(n);
    return true;
}

QByteArray proxyAnswer(int status, const QString& error, const QString& detail)
{
    LabResponse response = LabResponse::json(status,
        QJsonDocument(QJsonObject { { u"error"_s, error }, { u"detail"_s, detail } }).toJson(QJsonDocument::Compact));
    response.setHeader("Connection", "close");
    return response.serializeHead(false) + response.body;
}

} // namespace

QList<ProxyHost> FaultServer::proxyHosts() const
{
    return m_proxyHosts;
}

void FaultServer::setProxyPassThrough(const QStringList& hosts)
{
    m_options.proxy.passThrough = hosts;
    for (ProxyHost& known : m_proxyHosts) {
        const QString host = QUrl(u"//"_s + known.authority).host();
        known.intercepted = m_options.proxy.intercepts(host);
    }
    emit proxyHostsChanged();
}

UpstreamTarget FaultServer::upstreamFor(const LabRequest& request) const
{
    if (!m_options.proxy.enabled || request.origin.isEmpty())
        return upstream();
    UpstreamTarget target = m_options.upstream; // its trust (--upstream-ca), timeout and body cap
    target.base = QUrl(request.origin);
    if (!target.isTls())
        target.caFile.clear(); // --upstream-ca is for the https origins
    target.forwardedHeaders = target.forwardedHeaders || m_scenario.forwardedHeaders;
    if (const HostMapping* m = m_options.proxy.mappingFor(target.base.host(), target.port())) {
        target.connectHost = m->address;
        target.connectPort = m->toPort;
    }
    return target;
}

ProxyHost& FaultServer::proxyHost(const QString& host, quint16 port)
{
    const QString authority = (host.contains(u':') ? u'[' + host + u']' : host) + u':' + QString::number(port);
    for (ProxyHost& known : m_proxyHosts) {
        if (known.authority == authority)
            return known;
    }
    ProxyHost added;
    added.authority = authority;
    added.intercepted = m_options.proxy.intercepts(host);
    if (const HostMapping* m = m_options.proxy.mappingFor(host, port))
        added.mappedTo = (m->address.contains(u':') ? u'[' + m->address + u']' : m->address) + u':' + QString::number(m->toPort);
    m_proxyHosts << added;
    return m_proxyHosts.last();
}

void FaultServer::noteProxyProblem(const QString& authority, const QString& problem)
{
    for (ProxyHost& known : m_proxyHosts) {
        if (known.authority == authority) {
            ++known.failures;
            known.lastProblem = problem;
        }
    }
    emit proxyHostsChanged();
}

bool FaultServer::takeProxyRequest(LabConnection* connection, LabRequest& request)
{
    if (request.method == "CONNECT") {
        openTunnel(connection, request);
        return true;
    }
    const bool absolute = request.target.startsWith("http://") || request.target.startsWith("https://");
    if (request.origin.isEmpty() && absolute) {
        const QUrl url = QUrl::fromEncoded(request.target, QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty()) {
            connection->write(proxyAnswer(400, u"bad_request"_s, tr("malformed absolute-form target")));
            connection->closeGracefully();
            return true;
        }
        const bool tls = url.scheme() == u"https"_s;
        const quint16 port = quint16(url.port(tls ? 443 : 80));
        const QString host = url.host().toLower();
        ProxyHost& seen = proxyHost(host, port);
        if (!seen.intercepted) {
            // Plain http is never relayed blind: the lab forwards only where it was allowed.
            LabEvent event;
            event.kind = LabEvent::Kind::Tunnel;
            event.connectionId = connection->id();
            event.status = 403;
            event.detail = tr("%1: not an intercepted host (--intercept); refused").arg(seen.authority);
            report(event);
            noteProxyProblem(seen.authority, event.detail);
            connection->write(proxyAnswer(403, u"not_intercepted"_s,
                tr("retrylab intercepts only the hosts it was given (--intercept); %1 is not one").arg(seen.authority)));
            connection->closeGracefully();
            return true;
        }
        ++seen.requests;
        emit proxyHostsChanged();
        request.origin = url.scheme() + u"://"_s + seen.authority;
        return false;
    }
    if (!request.origin.isEmpty()) {
        const QUrl origin(request.origin);
        ++proxyHost(origin.host(), quint16(origin.port())).requests;
        emit proxyHostsChanged();
    }
    return false;
}

void FaultServer::openTunnel(LabConnection* connection, const LabRequest& request)
{
    LabEvent event;
    event.kind = LabEvent::Kind::Tunnel;
    event.connectionId = connection->id();
    event.method = request.method;
    QString host;
    quint16 port = 0;
    auto refuse = [&](int status, const QString& error, const QString& why) {
        event.status = status;
        event.detail = why;
        report(event);
        connection->write(proxyAnswer(status, error, why));
        connection->closeGracefully();
    };
    if (!request.origin.isEmpty()) {
        refuse(400, u"bad_request"_s, tr("CONNECT inside a tunnel"));
        return;
    }
    if (!parseAuthority(request.target, &host, &port)) {
        refuse(400, u"bad_request"_s,
            tr("CONNECT needs an authority-form target, host:port (RFC 9110 §9.3.6), not \"%1\"")
                .arg(QString::fromLatin1(request.target.left(200))));
        return;
    }
    ProxyHost& seen = proxyHost(host, port);
    const QString authority = seen.authority;
    const bool intercept = seen.intercepted && m_options.proxy.authority;
    ProxyTunnel::Leaf leaf;
    if (intercept) {
        QString error;
        const MintedLeaf minted = m_options.proxy.authority->leafFor(host, &error);
        if (minted.certificate.isNull()) {
            noteProxyProblem(authority, error);
            refuse(502, u"no_certificate"_s, tr("cannot make a certificate for %1: %2").arg(host, error));
            return;
        }
        leaf = { minted.certificate, minted.key, m_options.proxy.authority->certificate() };
    }
    ++seen.tunnels;
    emit proxyHostsChanged();
    QByteArray unread;
    auto* socket = qobject_cast<QSslSocket*>(connection->releaseSocket(&unread));
    m_connections.remove(connection->id());
    connection->deleteLater();
    if (!socket)
        return;
    auto* tunnel = new ProxyTunnel(socket, unread, host, port, this);
    m_tunnels << tunnel;
    connect(tunnel, &QObject::destroyed, this, [this] { m_tunnels.removeAll(nullptr); });
    connect(tunnel, &ProxyTunnel::failed, this, [this, event, authority](const QString& why) {
        LabEvent failed = event;
        failed.detail = authority + u": "_s + why;
        report(failed);
        noteProxyProblem(authority, why);
    });
    if (intercept) {
        event.detail = authority + tr(": intercepted");
        report(event);
        connect(tunnel, &ProxyTunnel::intercepted, this, [this](QSslSocket* s, const QString& origin) {
            if (!m_started) {
                s->abort();
                s->deleteLater();
                return;
            }
            if (LabConnection* c = adopt(s, LabTlsMode::Off))
                c->setOrigin(origin);
        });
        tunnel->intercept(leaf, int(m_options.proxy.handshakeTimeout.count()));
        return;
    }
    const HostMapping* mapping = m_options.proxy.mappingFor(host, port);
    event.detail = authority + (m_options.proxy.authority ? tr(": relayed untouched (not an intercepted host)")
                                                          : tr(": relayed untouched (no CA to intercept with)"));
    report(event);
    connect(tunnel, &ProxyTunnel::relayed, this, [this, authority](qint64 up, qint64 down) {
        for (ProxyHost& known : m_proxyHosts) {
            if (known.authority == authority)
                known.relayedBytes += up + down;
        }
        emit proxyHostsChanged();
    });
    tunnel->relay(mapping ? mapping->address : host, mapping ? mapping->toPort : port,
        int(m_options.upstream.timeout.count()));
}
