// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <optional>

// The name a leaf certificate is minted for: a DNS name (lower case, without a trailing dot, IDNs in
// their ASCII form) or an IP literal (IPv4 dotted quad or IPv6, without brackets), as its subjectAltName
// entry spells it. parse() is strict because the name goes into the certificate: a comma, space or
// wildcard never reaches OpenSSL's extension syntax.
struct LeafHost
{
    QString name;
    bool isIpAddress = false;

    // "DNS:api.test" or "IP:127.0.0.1", OpenSSL's subjectAltName syntax.
    QString subjectAltName() const;

    // HOST as a client names it (CONNECT's authority without the port, an SNI name, "[::1]");
    // nullopt and *ERROR one line when it is not a host a certificate can be minted for.
    static std::optional<LeafHost> parse(const QString& host, QString* error);
};
