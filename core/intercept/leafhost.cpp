// SPDX-License-Identifier: GPL-3.0-or-later
#include "intercept/leafhost.h"
#include "intercept/interceptwords.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>
#include <QStringList>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

using InterceptWords::tr;
using InterceptWords::refuse;

// RFC 1035 §2.3.4 lengths, RFC 952/1123 letters, digits and hyphens; underscores are accepted because
// real service names carry them (_dmarc, some CDNs) and clients look such hosts up.
bool isDnsName(const QString& name, const QString& shown, QString* error)
{
    if (name.size() > 253)
        return refuse(error, tr("host \"%1\" is longer than 253 characters").arg(shown));
    static const QRegularExpression label(u"^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$"_s);
    const QStringList labels = name.split(u'.');
    for (const QString& l : labels) {
        if (l.isEmpty())
            return refuse(error, tr("host \"%1\" has an empty label").arg(shown));
        if (l.size() > 63)
            return refuse(error, tr("host \"%1\" has a label longer than 63 characters").arg(shown));
        if (!label.match(l).hasMatch())
            return refuse(error, tr("host \"%1\" is not a DNS name (letters, digits, hyphens and dots)").arg(shown));
    }
    return true;
}

} // namespace

QString LeafHost::subjectAltName() const
{
    return (isIpAddress ? u"IP:"_s : u"DNS:"_s) + name;
}

std::optional<LeafHost> LeafHost::parse(const QString& host, QString* error)
{
    if (host.isEmpty()) {
        refuse(error, tr("no host name given"));
        return std::nullopt;
    }
    if (host.contains(u'*')) {
        refuse(error, tr("host \"%1\" is a wildcard: leaves are minted for the name a client asked for").arg(host));
        return std::nullopt;
    }
    for (const QChar c : host) {
        if (c.unicode() < 0x80 && !c.isLetterOrNumber() && !u".-_:[]"_s.contains(c)) {
            refuse(error, tr("host \"%1\" contains \"%2\", which no host name has").arg(host, c));
            return std::nullopt;
        }
    }
    // IPv6, with or without the brackets of a URL's authority (a zone such as "%eth0" was refused above:
    // it names no certificate entry).
    QString literal = host;
    if (literal.startsWith(u'[') && literal.endsWith(u']'))
        literal = literal.mid(1, literal.size() - 2);
    if (literal.count(u':') == 1 && literal == host) {
        refuse(error, tr("host \"%1\" has a port: give the host alone").arg(host));
        return std::nullopt;
    }
    if (literal.contains(u':')) {
        QHostAddress address;
        if (!address.setAddress(literal) || address.protocol() != QAbstractSocket::IPv6Protocol) {
            refuse(error, tr("host \"%1\" is not an IPv6 address").arg(host));
            return std::nullopt;
        }
        return LeafHost { address.toString(), true };
    }
    static const QRegularExpression dottedQuad(u"^[0-9]{1,3}(\\.[0-9]{1,3}){3}$"_s);
    if (dottedQuad.match(host).hasMatch()) {
        QHostAddress address;
        if (!address.setAddress(host) || address.protocol() != QAbstractSocket::IPv4Protocol) {
            refuse(error, tr("host \"%1\" is not an IPv4 address").arg(host));
            return std::nullopt;
        }
        return LeafHost { address.toString(), true };
    }
    QString name = host.toLower();
    if (name.endsWith(u'.'))
        name.chop(1);
    bool ascii = true;
    for (const QChar c : name)
        ascii = ascii && c.unicode() < 0x80;
    if (!ascii) {
        name = QString::fromLatin1(QUrl::toAce(name, QUrl::AceTransitionalProcessing));
        if (name.isEmpty()) {
            refuse(error, tr("host \"%1\" is not a valid internationalised domain name").arg(host));
            return std::nullopt;
        }
    }
    static const QRegularExpression numeric(u"^[0-9.]+$"_s);
    if (numeric.match(name).hasMatch()) {
        refuse(error, tr("host \"%1\" is neither an IPv4 address nor a DNS name").arg(host));
        return std::nullopt;
    }
    if (!isDnsName(name, host, error))
        return std::nullopt;
    return LeafHost { name, false };
}
