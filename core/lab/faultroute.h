// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultstep.h"
#include "lab/ratelimitspec.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

// Idempotency-Key handling for one route (draft-ietf-httpapi-idempotency-key-header, headers.md §6).
struct IdempotencySpec
{
    bool enabled = false;
    QByteArray header = "Idempotency-Key";
    bool required = false; // answer 400 when the key is missing
};

// Requests matching `method` and `path` play `steps`.
struct FaultRoute
{
    enum class Mode { Sequence, Loop, Random };

    QString name;
    QList<QByteArray> methods; // empty or "*": any method
    QString path; // "/v1/payments/*" (one segment), "/v1/**" (any rest)
    // The lab as a forward proxy: only requests to this host ("api.test", "*.example.com"); empty: any host.
    QString host;
    QString operation; // what an applied request is called in the ledger ("settlement"); default: name
    Mode mode = Mode::Sequence;
    QList<FaultStep> steps;
    IdempotencySpec idempotency;
    std::optional<RateLimitSpec> rateLimit;
};
