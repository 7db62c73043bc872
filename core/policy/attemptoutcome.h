// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/httpfield.h"
#include "policy/errorclass.h"

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <chrono>
#include <optional>

// What one attempt ended with, as the decision function sees it: an HTTP answer (any status — a 503 is an
// answer, not an error) or a failure classified by the phase it reached.
struct AttemptOutcome
{
    std::optional<int> status; // set when a status line and headers arrived
    HttpHeaderList headers; // response headers, duplicates kept
    QByteArray body; // the body (or its excerpt) for body-code rules
    std::optional<ErrorClass> error; // set when no complete answer arrived
    QString errorDetail; // the transport's own words (Qt's errorString), for reasons and logs
    bool deadlinePassed = false; // the run's overall deadline ended this attempt
    std::optional<QUrl> redirectTarget; // a 3xx's Location, resolved against the request URL
    // Never sent: the pipeline's circuit breaker refused the call (neither a status nor an error: rules match
    // it with the outcome `circuit-open`). How long until the break ends, as the breaker said.
    bool circuitOpen = false;
    std::chrono::milliseconds circuitRetryIn { 0 };

    static AttemptOutcome answered(int status, HttpHeaderList headers = {}, QByteArray body = {})
    {
        AttemptOutcome o;
        o.status = status;
        o.headers = std::move(headers);
        o.body = std::move(body);
        return o;
    }
    static AttemptOutcome failed(ErrorClass error, QString detail = {})
    {
        AttemptOutcome o;
        o.error = error;
        o.errorDetail = std::move(detail);
        return o;
    }
    static AttemptOutcome refusedByBreaker(std::chrono::milliseconds retryIn)
    {
        AttemptOutcome o;
        o.circuitOpen = true;
        o.circuitRetryIn = retryIn;
        return o;
    }
    // A truncated body after headers has both a status and an error: the error wins for the policy.
    bool isError() const { return error.has_value(); }
};

// What the decision function knows about the logical request, apart from the attempt's outcome.
struct RequestFacts
{
    QString method = QStringLiteral("GET"); // upper-case
    bool hasIdempotencyKey = false;
    bool bodyRewindable = true; // false: the body can be sent only once
    bool answerLostEarlier = false; // an earlier attempt's answer was lost (timeout, connection lost…)
};
