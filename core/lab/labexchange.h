// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One exchange as the lab saw it, whole: who sent what, which step answered (or whether it was forwarded
// upstream), what went back, and when each thing happened. FaultServer emits one when the exchange ends (the
// answer finished, the connection broke, or the client hung up), for the ledger, `retrylab serve --json`,
// sessions and the inference of a client's retries (core/observe). Times are milliseconds on the lab's axis
// (FaultServer::nowMs()); an unset optional means the moment did not happen.
//
// Request headers are kept as received: whoever writes them out (ledger, JSON lines, sessions, views)
// redacts the secret ones with the project's one list (http/secretheaders.h).

#include "http/httpfield.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>

#include <optional>

struct LabExchange
{
    // ---- who and when
    quint64 requestId = 0; // unique per server run, as in LabEvent / LabReceipt
    quint64 connectionId = 0;
    QString clientAddress; // e.g. "127.0.0.1"
    quint16 clientPort = 0;
    int requestOnConnection = 1; // 1 = the first request of its connection
    qint64 arrivedMs = 0; // the request line and headers had arrived
    std::optional<qint64> requestCompleteMs; // the whole body had arrived

    // ---- the request, as received
    QByteArray method;
    QByteArray target; // request-target as sent (path?query)
    QString origin; // the lab as a forward proxy: the origin the client addressed ("https://api.test:443")
    int minorVersion = 1; // HTTP/1.<minorVersion>
    HttpHeaderList requestHeaders;
    qint64 requestBodySize = 0;
    QByteArray requestBodySha256; // hex
    QByteArray requestBody; // kept only up to the server's configured limit (empty when not asked)
    bool requestBodyTruncated = false;

    // ---- what the lab did
    QString route; // the matched route, empty when none
    QString stepKind; // respond, late, close, reset, truncate, garbage, hang, refuse, rate-limit, replay, forward…
    bool applied = false; // the operation was applied (ledger)
    QString note; // the step's note, a limit that was broken…

    // ---- upstream, when the step forwarded the request (proxy mode)
    QString upstream; // the upstream's base URL; empty when not forwarded
    std::optional<qint64> upstreamConnectedMs;
    std::optional<qint64> upstreamTlsMs;
    std::optional<qint64> upstreamFirstByteMs;
    std::optional<qint64> upstreamEndMs;
    QString upstreamError; // refused, reset, TLS, garbage, timeout… (the lab then answered 502/504)
    std::optional<bool> upstreamTlsVerified; // https upstream: false when told not to verify (--upstream-insecure)

    // ---- the answer
    int status = 0; // 0: no status line was written
    HttpHeaderList responseHeaders; // as written
    qint64 responseBodyBytes = 0; // body bytes written
    // The first bytes of the body as written (up to responseExcerptCap), so a policy's body rules
    // ("error.code") can be read off an observed answer. Not part of the exchange JSON.
    QByteArray responseBodyExcerpt;
    static constexpr qsizetype responseExcerptCap = 4096;
    std::optional<qint64> responseStartedMs; // the status line and headers were written
    std::optional<qint64> responseFinishedMs; // the whole answer was written
    std::optional<qint64> clientGoneMs; // the client closed or reset before the answer finished
    std::optional<qint64> labClosedMs; // the lab closed or reset the connection instead of (or after part of) an answer
    // How it ended: "answered", "truncated", "closed" (FIN before an answer), "reset", "hang", "garbage",
    // "client-gone", "rejected" (a broken limit or malformed request, answered 4xx/5xx), "stopped" (the lab
    // stopped while it was in progress).
    QString outcome;
};

Q_DECLARE_METATYPE(LabExchange)
