// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One logical request as the user describes it. The engine turns it into attempts.

#include "http/httpfield.h"
#include "policy/retrypolicy.h"

#include <QByteArray>
#include <QList>
#include <QSslCertificate>
#include <QString>
#include <QUrl>

#include <optional>

enum class IdempotencyKeyMode {
    Auto, // as the policy says (idempotency.autoAdd and its methods)
    None, // never add one (a key the user put in `headers` is still sent)
    Value, // always send `idempotencyKey`
};

struct RequestSpec
{
    QString method = QStringLiteral("GET"); // upper-case
    QUrl url;
    HttpHeaderList headers; // the user's own, sent as given (after the engine's defaults)
    QByteArray body; // sent through a non-rewindable device; empty is fine

    IdempotencyKeyMode keyMode = IdempotencyKeyMode::Auto;
    QString idempotencyKey; // Value only

    // Overrides of the policy's limits; unset = the policy's value.
    std::optional<Millis> attemptTimeout;
    std::optional<Millis> connectTimeout;
    std::optional<Millis> deadline;
    std::optional<int> connectionsPerHost; // the client's pool limit (RetryPolicy::Limits::connectionsPerHost)

    // Off by default: deterministic HTTP/1.1 (Qt negotiates HTTP/2 over TLS and then multiplexes attempts).
    bool http2Allowed = false;
    bool followRedirects = false; // a 3xx is recorded; followed (as a new attempt) only when true
    bool attemptIdEnabled = true; // a unique attempt-id header on every attempt
    QByteArray attemptIdHeader = QByteArrayLiteral("X-Retrylab-Attempt");
    // Lower-case names of the engine's own headers (defaultRequestHeaders()) not to set. Accept is then not
    // sent at all; Qt adds Connection, Accept-Encoding, Accept-Language, User-Agent and Host itself when
    // they are missing, so for those Qt's own value goes out (and is recorded: qtOwnHeaderValue()).
    QList<QByteArray> omittedDefaults;
    qsizetype bodyExcerptCap = 64 * 1024; // response body bytes kept per attempt

    QList<QSslCertificate> extraCaCertificates; // trusted in addition to the system's (the lab's test CA)

    friend bool operator==(const RequestSpec&, const RequestSpec&) = default;
};
