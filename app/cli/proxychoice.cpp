// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/proxychoice.h"

#include "cli/cliargs.h"
#include "intercept/interceptauthority.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSslCertificate>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace ProxyChoice {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("cli", text);
}

} // namespace

QStringList proxyOnlyOptions()
{
    return { u"intercept"_s, u"map"_s, u"ca-dir"_s };
}

void declare(CliArgs& cli)
{
    cli.flag(u"proxy"_s).option(u"intercept"_s, true).option(u"map"_s, true).option(u"ca-dir"_s);
}

bool read(CliArgs& cli, FaultServerOptions& options, QString* error)
{
    if (!cli.isSet(u"proxy"_s)) {
        for (const QString& name : proxyOnlyOptions()) {
            if (cli.isSet(name)) {
                *error = tr("--%1 needs --proxy").arg(name);
                return false;
            }
        }
        return true;
    }
    for (const QString& other : { u"upstream"_s, u"upstream-insecure"_s, u"tls"_s, u"forwarded-headers"_s }) {
        if (cli.isSet(other)) {
            *error = other == u"upstream"_s
                ? tr("--proxy forwards to the hosts the client names; --upstream is for the reverse proxy")
                : tr("--proxy does not take --%1").arg(other);
            return false;
        }
    }
    ForwardProxyOptions proxy;
    proxy.enabled = true;
    for (const QString& pattern : cli.values(u"intercept"_s)) {
        for (const QString& one : pattern.split(u',', Qt::SkipEmptyParts)) {
            const QString p = one.trimmed().toLower();
            const QString bare = p.startsWith(u"*."_s) ? p.mid(2) : p;
            const bool ok = p == u"*"_s
                || (!bare.isEmpty() && !bare.contains(u'*') && !bare.contains(u'/') && !bare.contains(u' '));
            if (!ok) {
                *error = tr("--intercept %1: expected a host, an address, \"*\" or \"*.domain\"").arg(one);
                return false;
            }
            proxy.intercept << p;
        }
    }
    for (const QString& text : cli.values(u"map"_s)) {
        QString why;
        const std::optional<HostMapping> mapping = HostMapping::parse(text, &why);
        if (!mapping) {
            *error = why;
            return false;
        }
        proxy.map << *mapping;
    }
    if (const std::optional<QString> ca = cli.value(u"upstream-ca"_s)) {
        const QFileInfo file(*ca);
        if (!file.isFile() || !file.isReadable() || QSslCertificate::fromPath(*ca, QSsl::Pem).isEmpty()) {
            *error = tr("--upstream-ca %1: not a readable file of PEM certificates").arg(*ca);
            return false;
        }
        options.upstream.caFile = *ca;
    }
    if (cli.isSet(u"upstream-timeout"_s)) {
        const std::optional<qint64> ms = cli.secondsAsMillis(u"upstream-timeout"_s);
        if (!ms) {
            *error = cli.error();
            return false;
        }
        options.upstream.timeout = std::chrono::milliseconds(*ms);
    }
    const QString dir = cli.value(u"ca-dir"_s).value_or(InterceptAuthority::defaultDirectory());
    QString why;
    proxy.authority = InterceptAuthority::open(dir, true, &why);
    if (!proxy.authority) {
        *error = tr("the Retrylab CA in %1: %2").arg(dir, why);
        return false;
    }
    options.proxy = proxy;
    return true;
}

void describe(QTextStream& out, const FaultServerOptions& options, const QString& proxyUrl)
{
    const ForwardProxyOptions& proxy = options.proxy;
    out << tr("proxy at %1 (HTTP/1.1: absolute-form for http, CONNECT for https)").arg(proxyUrl) << '\n';
    if (proxy.authority) {
        out << tr("CA %1 (SHA-256 %2)").arg(proxy.authority->certificatePath(), proxy.authority->fingerprintSha256())
            << '\n';
    }
    out << tr("intercepting %1; other hosts' tunnels are relayed untouched")
               .arg(proxy.intercept.isEmpty() ? tr("every host") : proxy.intercept.join(u", "_s))
        << '\n';
    for (const HostMapping& m : proxy.map)
        out << tr("mapping %1").arg(m.describe()) << '\n';
    if (!options.upstream.caFile.isEmpty())
        out << tr("upstream certificates checked against the system's CAs and %1").arg(options.upstream.caFile) << '\n';
    else
        out << tr("upstream certificates checked against the system's CAs") << '\n';
}

} // namespace ProxyChoice
