// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <memory>
#include <optional>

class InterceptAuthority;

// `--map HOST[:PORT]=ADDRESS:PORT`: where the proxy really connects for a host the client names. The client,
// the Host field and the upstream's certificate check keep the name; only the socket goes elsewhere (tests
// reach local upstreams by name, and Go and Java never proxy a loopback name).
struct HostMapping
{
    QString host; // lower-case
    int port = -1; // -1: any port of HOST
    QString address;
    quint16 toPort = 0;

    // "api.test=127.0.0.1:8443", "api.test:443=[::1]:8443"; nullopt and *error when malformed.
    static std::optional<HostMapping> parse(const QString& text, QString* error);
    QString describe() const;
};

// The lab as a forward proxy (issue 31): absolute-form requests for http, CONNECT tunnels for https (and
// for http through CONNECT). A tunnel to an intercepted host is decrypted with a leaf the authority mints
// for that host, and every request in it is handled as the reverse proxy handles its own; any other tunnel
// is relayed untouched, byte for byte, and counted as such.
struct ForwardProxyOptions
{
    bool enabled = false;
    QStringList intercept; // host patterns ("api.test", "*.example.com", "10.0.0.7"); empty: every host
    QStringList passThrough; // hosts never intercepted, whatever INTERCEPT says (the window's unticked hosts)
    QList<HostMapping> map;
    std::shared_ptr<InterceptAuthority> authority; // null: CONNECT tunnels are relayed untouched
    std::chrono::milliseconds handshakeTimeout { 10000 }; // CONNECT to the end of the client's TLS handshake

    bool intercepts(const QString& host) const;
    // The mapping for HOST:PORT, if any.
    const HostMapping* mappingFor(const QString& host, quint16 port) const;
};

// A host pattern: an exact name or address, "*" (any host), or "*.example.com" (any name under it, not the
// name itself). Case-insensitive.
bool hostPatternMatches(const QString& pattern, const QString& host);

struct LabRequest;
// The host REQUEST was meant for: its origin's (the lab as a forward proxy), else its Host field's, without
// the port; lower-case.
QString requestHost(const LabRequest& request);
