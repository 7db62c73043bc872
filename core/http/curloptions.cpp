// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/curloptions.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

using namespace Qt::StringLiterals;

namespace {

using E = CurlOptionEffect;

struct Entry
{
    char shortName;
    const char* name;
    bool takesValue;
    CurlOptionEffect effect;
};

// From `curl --help all` of curl 7.88.1 (Debian 12), in its (alphabetical) order.
constexpr Entry kOptions[] = {
    { '\0', "abstract-unix-socket", true, E::Connection },
    { '\0', "alt-svc", true, E::Connection },
    { '\0', "anyauth", false, E::Auth },
    { 'a', "append", false, E::OtherProtocol },
    { '\0', "aws-sigv4", true, E::Refused },
    { '\0', "basic", false, E::Request },
    { '\0', "cacert", true, E::Connection },
    { '\0', "capath", true, E::Connection },
    { 'E', "cert", true, E::Connection },
    { '\0', "cert-status", false, E::Connection },
    { '\0', "cert-type", true, E::Connection },
    { '\0', "ciphers", true, E::Connection },
    { '\0', "compressed", false, E::Request },
    { '\0', "compressed-ssh", false, E::OtherProtocol },
    { 'K', "config", true, E::Refused },
    { '\0', "connect-timeout", true, E::Request },
    { '\0', "connect-to", true, E::Connection },
    { 'C', "continue-at", true, E::Request },
    { 'b', "cookie", true, E::Request },
    { 'c', "cookie-jar", true, E::Output },
    { '\0', "create-dirs", false, E::Output },
    { '\0', "create-file-mode", true, E::Output },
    { '\0', "crlf", false, E::OtherProtocol },
    { '\0', "crlfile", true, E::Connection },
    { '\0', "curves", true, E::Connection },
    { 'd', "data", true, E::Request },
    { '\0', "data-ascii", true, E::Request },
    { '\0', "data-binary", true, E::Request },
    { '\0', "data-raw", true, E::Request },
    { '\0', "data-urlencode", true, E::Request },
    { '\0', "delegation", true, E::Auth },
    { '\0', "digest", false, E::Auth },
    { 'q', "disable", false, E::Output },
    { '\0', "disable-eprt", false, E::OtherProtocol },
    { '\0', "disable-epsv", false, E::OtherProtocol },
    { '\0', "disallow-username-in-url", false, E::Auth },
    { '\0', "dns-interface", true, E::Connection },
    { '\0', "dns-ipv4-addr", true, E::Connection },
    { '\0', "dns-ipv6-addr", true, E::Connection },
    { '\0', "dns-servers", true, E::Connection },
    { '\0', "doh-cert-status", false, E::Connection },
    { '\0', "doh-insecure", false, E::Connection },
    { '\0', "doh-url", true, E::Connection },
    { 'D', "dump-header", true, E::Output },
    { '\0', "egd-file", true, E::Connection },
    { '\0', "engine", true, E::Connection },
    { '\0', "etag-compare", true, E::Refused },
    { '\0', "etag-save", true, E::Output },
    { '\0', "expect100-timeout", true, E::Connection },
    { 'f', "fail", false, E::Output },
    { '\0', "fail-early", false, E::Output },
    { '\0', "fail-with-body", false, E::Output },
    { '\0', "false-start", false, E::Connection },
    { 'F', "form", true, E::Refused },
    { '\0', "form-escape", false, E::Output },
    { '\0', "form-string", true, E::Refused },
    { '\0', "ftp-account", true, E::OtherProtocol },
    { '\0', "ftp-alternative-to-user", true, E::OtherProtocol },
    { '\0', "ftp-create-dirs", false, E::OtherProtocol },
    { '\0', "ftp-method", true, E::OtherProtocol },
    { '\0', "ftp-pasv", false, E::OtherProtocol },
    { 'P', "ftp-port", true, E::OtherProtocol },
    { '\0', "ftp-pret", false, E::OtherProtocol },
    { '\0', "ftp-skip-pasv-ip", false, E::OtherProtocol },
    { '\0', "ftp-ssl-ccc", false, E::OtherProtocol },
    { '\0', "ftp-ssl-ccc-mode", true, E::OtherProtocol },
    { '\0', "ftp-ssl-control", false, E::OtherProtocol },
    { 'G', "get", false, E::Request },
    { 'g', "globoff", false, E::Request },
    { '\0', "happy-eyeballs-timeout-ms", true, E::Connection },
    { '\0', "haproxy-protocol", false, E::Connection },
    { 'I', "head", false, E::Request },
    { 'H', "header", true, E::Request },
    { 'h', "help", true, E::Refused },
    { '\0', "hostpubmd5", true, E::OtherProtocol },
    { '\0', "hostpubsha256", true, E::OtherProtocol },
    { '\0', "hsts", true, E::Connection },
    { '\0', "http0.9", false, E::Output },
    { '0', "http1.0", false, E::Connection },
    { '\0', "http1.1", false, E::Request },
    { '\0', "http2", false, E::Request },
    { '\0', "http2-prior-knowledge", false, E::Request },
    { '\0', "http3", false, E::Connection },
    { '\0', "http3-only", false, E::Connection },
    { '\0', "ignore-content-length", false, E::Output },
    { 'i', "include", false, E::Output },
    { 'k', "insecure", false, E::Connection },
    { '\0', "interface", true, E::Connection },
    { '4', "ipv4", false, E::Connection },
    { '6', "ipv6", false, E::Connection },
    { '\0', "json", true, E::Request },
    { 'j', "junk-session-cookies", false, E::Output },
    { '\0', "keepalive-time", true, E::Connection },
    { '\0', "key", true, E::Connection },
    { '\0', "key-type", true, E::Connection },
    { '\0', "krb", true, E::OtherProtocol },
    { '\0', "libcurl", true, E::Output },
    { '\0', "limit-rate", true, E::Connection },
    { 'l', "list-only", false, E::OtherProtocol },
    { '\0', "local-port", true, E::Connection },
    { 'L', "location", false, E::Request },
    { '\0', "location-trusted", false, E::Request },
    { '\0', "login-options", true, E::OtherProtocol },
    { '\0', "mail-auth", true, E::OtherProtocol },
    { '\0', "mail-from", true, E::OtherProtocol },
    { '\0', "mail-rcpt", true, E::OtherProtocol },
    { '\0', "mail-rcpt-allowfails", false, E::OtherProtocol },
    { 'M', "manual", false, E::Refused },
    { '\0', "max-filesize", true, E::Output },
    { '\0', "max-redirs", true, E::Output },
    { 'm', "max-time", true, E::Request },
    { '\0', "metalink", false, E::Output },
    { '\0', "negotiate", false, E::Auth },
    { 'n', "netrc", false, E::Auth },
    { '\0', "netrc-file", true, E::Auth },
    { '\0', "netrc-optional", false, E::Auth },
    { ':', "next", false, E::Refused },
    { '\0', "no-alpn", false, E::Connection },
    { 'N', "no-buffer", false, E::Output },
    { '\0', "no-clobber", false, E::Output },
    { '\0', "no-keepalive", false, E::Connection },
    { '\0', "no-npn", false, E::Connection },
    { '\0', "no-progress-meter", false, E::Output },
    { '\0', "no-sessionid", false, E::Connection },
    { '\0', "noproxy", true, E::Proxy },
    { '\0', "ntlm", false, E::Auth },
    { '\0', "ntlm-wb", false, E::Auth },
    { '\0', "oauth2-bearer", true, E::Request },
    { 'o', "output", true, E::Output },
    { '\0', "output-dir", true, E::Output },
    { 'Z', "parallel", false, E::Output },
    { '\0', "parallel-immediate", false, E::Output },
    { '\0', "parallel-max", true, E::Output },
    { '\0', "pass", true, E::Connection },
    { '\0', "path-as-is", false, E::Output },
    { '\0', "pinnedpubkey", true, E::Connection },
    { '\0', "post301", false, E::Output },
    { '\0', "post302", false, E::Output },
    { '\0', "post303", false, E::Output },
    { '\0', "preproxy", true, E::Proxy },
    { '#', "progress-bar", false, E::Output },
    { '\0', "proto", true, E::Connection },
    { '\0', "proto-default", true, E::Request },
    { '\0', "proto-redir", true, E::Connection },
    { 'x', "proxy", true, E::Proxy },
    { '\0', "proxy-anyauth", false, E::Proxy },
    { '\0', "proxy-basic", false, E::Proxy },
    { '\0', "proxy-cacert", true, E::Proxy },
    { '\0', "proxy-capath", true, E::Proxy },
    { '\0', "proxy-cert", true, E::Proxy },
    { '\0', "proxy-cert-type", true, E::Proxy },
    { '\0', "proxy-ciphers", true, E::Proxy },
    { '\0', "proxy-crlfile", true, E::Proxy },
    { '\0', "proxy-digest", false, E::Proxy },
    { '\0', "proxy-header", true, E::Proxy },
    { '\0', "proxy-insecure", false, E::Proxy },
    { '\0', "proxy-key", true, E::Proxy },
    { '\0', "proxy-key-type", true, E::Proxy },
    { '\0', "proxy-negotiate", false, E::Proxy },
    { '\0', "proxy-ntlm", false, E::Proxy },
    { '\0', "proxy-pass", true, E::Proxy },
    { '\0', "proxy-pinnedpubkey", true, E::Proxy },
    { '\0', "proxy-service-name", true, E::Proxy },
    { '\0', "proxy-ssl-allow-beast", false, E::Proxy },
    { '\0', "proxy-ssl-auto-client-cert", false, E::Proxy },
    { '\0', "proxy-tls13-ciphers", true, E::Proxy },
    { '\0', "proxy-tlsauthtype", true, E::Proxy },
    { '\0', "proxy-tlspassword", true, E::Proxy },
    { '\0', "proxy-tlsuser", true, E::Proxy },
    { '\0', "proxy-tlsv1", false, E::Proxy },
    { 'U', "proxy-user", true, E::Proxy },
    { '\0', "proxy1.0", true, E::Proxy },
    { 'p', "proxytunnel", false, E::Proxy },
    { '\0', "pubkey", true, E::OtherProtocol },
    { 'Q', "quote", true, E::OtherProtocol },
    { '\0', "random-file", true, E::Connection },
    { 'r', "range", true, E::Request },
    { '\0', "rate", true, E::Output },
    { '\0', "raw", false, E::Output },
    { 'e', "referer", true, E::Request },
    { 'J', "remote-header-name", false, E::Output },
    { 'O', "remote-name", false, E::Output },
    { '\0', "remote-name-all", false, E::Output },
    { 'R', "remote-time", false, E::Output },
    { '\0', "remove-on-error", false, E::Output },
    { 'X', "request", true, E::Request },
    { '\0', "request-target", true, E::Refused },
    { '\0', "resolve", true, E::Connection },
    { '\0', "retry", true, E::Retry },
    { '\0', "retry-all-errors", false, E::Retry },
    { '\0', "retry-connrefused", false, E::Retry },
    { '\0', "retry-delay", true, E::Retry },
    { '\0', "retry-max-time", true, E::Retry },
    { '\0', "sasl-authzid", true, E::OtherProtocol },
    { '\0', "sasl-ir", false, E::OtherProtocol },
    { '\0', "service-name", true, E::Auth },
    { 'S', "show-error", false, E::Output },
    { 's', "silent", false, E::Output },
    { '\0', "socks4", true, E::Proxy },
    { '\0', "socks4a", true, E::Proxy },
    { '\0', "socks5", true, E::Proxy },
    { '\0', "socks5-basic", false, E::Proxy },
    { '\0', "socks5-gssapi", false, E::Proxy },
    { '\0', "socks5-gssapi-nec", false, E::Proxy },
    { '\0', "socks5-gssapi-service", true, E::Proxy },
    { '\0', "socks5-hostname", true, E::Proxy },
    { 'Y', "speed-limit", true, E::Connection },
    { 'y', "speed-time", true, E::Connection },
    { '\0', "ssl", false, E::OtherProtocol },
    { '\0', "ssl-allow-beast", false, E::Connection },
    { '\0', "ssl-auto-client-cert", false, E::Connection },
    { '\0', "ssl-no-revoke", false, E::Connection },
    { '\0', "ssl-reqd", false, E::OtherProtocol },
    { '\0', "ssl-revoke-best-effort", false, E::Connection },
    { '2', "sslv2", false, E::Connection },
    { '3', "sslv3", false, E::Connection },
    { '\0', "stderr", true, E::Output },
    { '\0', "styled-output", false, E::Output },
    { '\0', "suppress-connect-headers", false, E::Output },
    { '\0', "tcp-fastopen", false, E::Connection },
    { '\0', "tcp-nodelay", false, E::Connection },
    { 't', "telnet-option", true, E::OtherProtocol },
    { '\0', "tftp-blksize", true, E::OtherProtocol },
    { '\0', "tftp-no-options", false, E::OtherProtocol },
    { 'z', "time-cond", true, E::Refused },
    { '\0', "tls-max", true, E::Connection },
    { '\0', "tls13-ciphers", true, E::Connection },
    { '\0', "tlsauthtype", true, E::Connection },
    { '\0', "tlspassword", true, E::Connection },
    { '\0', "tlsuser", true, E::Connection },
    { '1', "tlsv1", false, E::Connection },
    { '\0', "tlsv1.0", false, E::Connection },
    { '\0', "tlsv1.1", false, E::Connection },
    { '\0', "tlsv1.2", false, E::Connection },
    { '\0', "tlsv1.3", false, E::Connection },
    { '\0', "tr-encoding", false, E::Connection },
    { '\0', "trace", true, E::Output },
    { '\0', "trace-ascii", true, E::Output },
    { '\0', "trace-time", false, E::Output },
    { '\0', "unix-socket", true, E::Connection },
    { 'T', "upload-file", true, E::Request },
    { '\0', "url", true, E::Request },
    { '\0', "url-query", true, E::Request },
    { 'B', "use-ascii", false, E::OtherProtocol },
    { 'u', "user", true, E::Request },
    { 'A', "user-agent", true, E::Request },
    { 'v', "verbose", false, E::Output },
    { 'V', "version", false, E::Refused },
    { 'w', "write-out", true, E::Output },
    { '\0', "xattr", false, E::Output },
};

CurlOption toOption(const Entry& e)
{
    return CurlOption { e.shortName, QLatin1StringView(e.name), e.takesValue, e.effect };
}

// Built once: the table as CurlOption values, in the same order.
const QList<CurlOption>& options()
{
    static const QList<CurlOption> list = [] {
        QList<CurlOption> out;
        for (const Entry& e : kOptions)
            out.append(toOption(e));
        return out;
    }();
    return list;
}

} // namespace

QString CurlOption::display() const
{
    const QString longName = u"--"_s + name;
    return shortName ? u"-"_s + QLatin1Char(shortName) + u'/' + longName : longName;
}

namespace CurlOptions {

const CurlOption* byName(QStringView longName)
{
    const QList<CurlOption>& list = options();
    const auto it = std::find_if(list.begin(), list.end(), [&](const CurlOption& o) { return o.name == longName; });
    return it == list.end() ? nullptr : &*it;
}

const CurlOption* byShort(QChar shortName)
{
    if (shortName.unicode() > 127)
        return nullptr;
    const QList<CurlOption>& list = options();
    const auto it = std::find_if(list.begin(), list.end(),
        [&](const CurlOption& o) { return o.shortName && QLatin1Char(o.shortName) == shortName; });
    return it == list.end() ? nullptr : &*it;
}

int count()
{
    return int(std::size(kOptions));
}

QString whyNotApplied(CurlOptionEffect effect)
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("CurlOptions", text); };
    switch (effect) {
    case E::Output:
        return tr("changes only what curl prints, saves or reports, not the request");
    case E::Connection:
        return tr("a connection, TLS or DNS setting of curl that Retrylab does not take over");
    case E::Proxy:
        return tr("a proxy setting: Retrylab sends directly, without a proxy");
    case E::Auth:
        return tr("an authentication scheme other than Basic: Retrylab sends -u as Basic only");
    case E::OtherProtocol:
        return tr("not an HTTP option (FTP, mail, TFTP, TELNET or SSH)");
    case E::Refused:
        return tr("cannot be taken into one Retrylab request");
    case E::Request:
    case E::Retry:
        break;
    }
    return {};
}

} // namespace CurlOptions
