// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every command-line option of curl 7.88.1 (Debian 12's curl, `curl --help all`): its names, whether it
// takes a value (the next word), and what it means for the one HTTP request Retrylab takes from a pasted
// command. Knowing every option is what lets the parser never take an option's value for a URL, and
// report each option it does not apply instead of dropping it.

#include <QLatin1StringView>
#include <QString>

enum class CurlOptionEffect : quint8 {
    Request, // shapes the request (method, URL, headers, body, redirects, timeouts): applied
    Retry, // the --retry family: fills the curl preset's knobs
    Output, // what curl prints or saves, or how it reports: nothing on the wire changes
    Connection, // a connection, TLS or DNS setting Retrylab does not take over
    Proxy, // a proxy: Retrylab sends directly
    Auth, // an authentication scheme other than Basic (Digest, NTLM, Negotiate, .netrc)
    OtherProtocol, // FTP, SMTP, TFTP, TELNET, SSH…: not HTTP
    Refused, // cannot be represented (multipart forms, config files, several requests, signatures…)
};

struct CurlOption
{
    char shortName = 0; // 'X' for -X; 0 when it has none
    QLatin1StringView name; // "request" for --request
    bool takesValue = false;
    CurlOptionEffect effect = CurlOptionEffect::Output;

    QString display() const; // "-X/--request" or "--compressed"
};

namespace CurlOptions {
const CurlOption* byName(QStringView longName); // without the leading "--"
const CurlOption* byShort(QChar shortName);
int count();
// Why an option of EFFECT is not applied, in one clause ("changes only what curl prints or saves").
QString whyNotApplied(CurlOptionEffect effect);
}
