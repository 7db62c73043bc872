// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/httpfield.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <chrono>

struct LabRequest;

// Who the lab forwards a request for: what Via / X-Forwarded-* say about the client.
struct ForwardedClient
{
    QString address; // the client's IP address, as the lab saw it
    bool tls = false; // it reached the lab over TLS
};

// The one upstream a lab forwards to (issue 12 §1): its base URL (http:// or https://, an optional path
// prefix), how its certificate is checked, how long one forwarded request may take and how much of its
// answer is held. The lab forwards
// only here, whatever the request-target says: it is never an open proxy.
struct UpstreamTarget
{
    QUrl base;
    QString caFile; // PEM certificates trusted besides the system's (--upstream-ca)
    bool insecure = false; // no certificate check at all (--upstream-insecure); shown as such everywhere
    std::chrono::milliseconds timeout { 30000 }; // connect to end of answer; beyond it: 504
    // The longest answer body read and held (--upstream-max-body); a longer one: 502 too_large. Each answer
    // in flight may hold this much, so it bounds the proxy's memory per forwarded request.
    qint64 maxBodyBytes = qint64(64) << 20;
    static constexpr qint64 kMaxBodyLimit = qint64(1) << 30; // what --upstream-max-body accepts at most
    // Via and X-Forwarded-* on each forwarded request (--forwarded-headers, or the scenario's
    // "forwarded_headers"); off by default: the upstream sees the client's fields only.
    bool forwardedHeaders = false;
    // `--map`: the socket goes to CONNECTHOST:CONNECTPORT instead of the base's host and port; the Host field,
    // SNI and the certificate check keep the base's name. Empty: no mapping.
    QString connectHost;
    quint16 connectPort = 0;

    bool isSet() const { return !base.isEmpty(); }
    bool isTls() const { return base.scheme() == QLatin1String("https"); }
    quint16 port() const { return quint16(base.port(isTls() ? 443 : 80)); }
    // "https://api.example.com (TLS not verified: --upstream-insecure)"…
    QString describe() const;
    // Empty when usable, otherwise one line saying what is wrong (scheme, host, query, CA file).
    QString problem() const;

    // The request to send upstream, head and body: the path under the base's path, Host rewritten to the
    // upstream, hop-by-hop fields removed (RFC 9110 §7.6.1: Connection and every field it names,
    // Proxy-Connection, Keep-Alive, TE, Transfer-Encoding, Upgrade), Content-Length set from the
    // (de-chunked) body, and "Connection: keep-alive" (KEEPALIVE: the connection may carry the next
    // forwarded request) or "Connection: close".
    // With forwardedHeaders: "Via: 1.1 retrylab" appended to any Via (RFC 9110 §7.6.3), CLIENT's address
    // appended to any X-Forwarded-For chain, and X-Forwarded-Host (the client's Host) and X-Forwarded-Proto
    // (http or https) set unless an earlier proxy set them.
    // A 100-continue expectation is not passed on: the lab answers it (LabConnection).
    QByteArray requestBytes(const LabRequest& request, bool keepAlive = false, const ForwardedClient& client = {}) const;
    // The head alone, for a body that is relayed as it arrives (request.bodyStreamed): framed by the client's
    // Content-Length, or "Transfer-Encoding: chunked" for a chunked one (whose trailer fields are dropped).
    QByteArray requestHead(const LabRequest& request, bool keepAlive = false, const ForwardedClient& client = {}) const;
    // The upstream path for REQUEST's target: base path + the target's path and query (an absolute-form
    // target contributes only its path and query).
    QByteArray upstreamTarget(const LabRequest& request) const;
};

// RFC 9110 §7.6.1: the fields a proxy removes from a message it forwards (either direction): the
// Connection field, every field it names, and the listed hop-by-hop fields.
HttpHeaderList withoutHopByHop(const HttpHeaderList& headers);
