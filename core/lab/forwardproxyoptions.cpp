// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/forwardproxyoptions.h"

#include "lab/labrequest.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("HostMapping", text);
}

// "host:port" or "[v6]:port" → (host, port); port -1 when absent and allowed.
bool splitHostPort(const QString& text, bool portRequired, QString* host, int* port)
{
    QString h = text;
    QString p;
    if (text.startsWith(u'[')) {
        const qsizetype close = text.indexOf(u']');
        if (close < 0)
            return false;
        h = text.mid(1, close - 1);
        const QString rest = text.mid(close + 1);
        if (!rest.isEmpty()) {
            if (!rest.startsWith(u':'))
                return false;
            p = rest.mid(1);
        }
    } else {
        const qsizetype colon = text.lastIndexOf(u':');
        if (colon >= 0) {
            if (text.indexOf(u':') != colon)
                return false; // a bare IPv6 address needs brackets
            h = text.left(colon);
            p = text.mid(colon + 1);
        }
    }
    if (h.isEmpty())
        return false;
    *host = h;
    *port = -1;
    if (p.isNull())
        return !portRequired;
    bool ok = false;
    const int n = p.toInt(&ok);
    if (!ok || n < 1 || n > 65535 || p.startsWith(u'+'))
        return false;
    *port = n;
    return true;
}

bool validHostName(const QString& host)
{
    if (!QHostAddress(host).isNull())
        return true;
    const QString ace = QString::fromLatin1(QUrl::toAce(host));
    if (ace.isEmpty() || ace.size() > 253)
        return false;
    for (const QString& label : ace.split(u'.')) {
        if (label.isEmpty() || label.size() > 63)
            return false;
        for (QChar c : label) {
            if (!(c.isLetterOrNumber() || c == u'-' || c == u'_'))
                return false;
        }
    }
    return true;
}

} // namespace

std::optional<HostMapping> HostMapping::parse(const QString& text, QString* error)
{
    const qsizetype eq = text.indexOf(u'=');
    auto fail = [&](const QString& why) -> std::optional<HostMapping> {
        if (error)
            *error = tr("--map %1: %2 (expected HOST[:PORT]=ADDRESS:PORT, e.g. api.test=127.0.0.1:8443)").arg(text, why);
        return std::nullopt;
    };
    if (eq <= 0)
        return fail(tr("no '='"));
    HostMapping m;
    QString host = text.left(eq);
    int port = -1;
    if (!splitHostPort(host, false, &host, &port))
        return fail(tr("malformed host"));
    if (!validHostName(host))
        return fail(tr("\"%1\" is not a host name or address").arg(host));
    QString address;
    int toPort = -1;
    if (!splitHostPort(text.mid(eq + 1), true, &address, &toPort) || toPort < 0)
        return fail(tr("the target needs ADDRESS:PORT"));
    if (!validHostName(address))
        return fail(tr("\"%1\" is not a host name or address").arg(address));
    m.host = host.toLower();
    m.port = port;
    m.address = address;
    m.toPort = quint16(toPort);
    return m;
}

QString HostMapping::describe() const
{
    const QString from = port < 0 ? host : host + u':' + QString::number(port);
    const QString to = address.contains(u':') ? u'[' + address + u']' : address;
    return from + u" → "_s + to + u':' + QString::number(toPort);
}

bool hostPatternMatches(const QString& pattern, const QString& host)
{
    if (pattern == u"*"_s)
        return true;
    if (pattern.startsWith(u"*."_s)) {
        const QString suffix = pattern.mid(1);
        return host.size() > suffix.size() && host.endsWith(suffix, Qt::CaseInsensitive);
    }
    return pattern.compare(host, Qt::CaseInsensitive) == 0;
}

bool ForwardProxyOptions::intercepts(const QString& host) const
{
    for (const QString& pattern : passThrough) {
        if (hostPatternMatches(pattern, host))
            return false;
    }
    if (intercept.isEmpty())
        return true;
    for (const QString& pattern : intercept) {
        if (hostPatternMatches(pattern, host))
            return true;
    }
    return false;
}

const HostMapping* ForwardProxyOptions::mappingFor(const QString& host, quint16 port) const
{
    const HostMapping* anyPort = nullptr;
    for (const HostMapping& m : map) {
        if (m.host.compare(host, Qt::CaseInsensitive) != 0)
            continue;
        if (m.port == port)
            return &m; // HOST:PORT before HOST
        if (m.port < 0 && !anyPort)
            anyPort = &m;
    }
    return anyPort;
}

QString requestHost(const LabRequest& request)
{
    if (!request.origin.isEmpty())
        return QUrl(request.origin).host().toLower();
    QString host = QString::fromLatin1(combinedHeader(request.headers, "Host")).trimmed();
    if (host.startsWith(u'[')) {
        const qsizetype close = host.indexOf(u']');
        return close > 0 ? host.mid(1, close - 1).toLower() : QString();
    }
    const qsizetype colon = host.indexOf(u':');
    return (colon >= 0 ? host.left(colon) : host).toLower();
}
