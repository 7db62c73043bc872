// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a rule matches an attempt's outcome on (status ranges, error classes, methods, headers, body), as
// data: the retry policy's rules and a circuit breaker's failures (resilience/pipeline.h) share it.

#include "policy/errorclass.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <optional>

using Millis = std::chrono::milliseconds;

// An inclusive range of HTTP status codes ("503", "500-599").
struct StatusRange
{
    int low = 0;
    int high = 0;
    bool contains(int status) const { return status >= low && status <= high; }
    friend bool operator==(const StatusRange&, const StatusRange&) = default;
};

// Which kind of outcome a rule looks at: an HTTP answer, an error, or a call the pipeline's circuit breaker
// refused before it was sent (`any` matches that too).
enum class OutcomeKind { Any, Status, Error, CircuitOpen };

// "errors[0].code == rate_limited": a JSON path into the response body and the values that match.
struct BodyMatch
{
    QString path; // dotted path with [index] steps, e.g. "errors[0].code", "error.type"
    QStringList values; // any of these; empty = the path exists
    friend bool operator==(const BodyMatch&, const BodyMatch&) = default;
};

// A response header that must be present, optionally with one of these values (case-insensitive).
struct HeaderMatch
{
    QString name;
    QStringList values; // empty = present with any value
    bool absent = false; // true: matches when the header is missing
    friend bool operator==(const HeaderMatch&, const HeaderMatch&) = default;
};

// Every set condition must hold (AND); an unset one matches anything.
struct RuleCondition
{
    OutcomeKind outcome = OutcomeKind::Any;
    QStringList methods; // upper-case; empty = any method
    std::optional<bool> idempotencyKey; // Idempotency-Key present on the request
    QList<StatusRange> statuses; // any of these; empty = any status (only for Status outcomes)
    QList<ErrorClass> errors; // any of these; empty = any error class (only for Error outcomes)
    std::optional<bool> serverCouldHaveActed; // by error class
    std::optional<BodyMatch> body;
    QList<HeaderMatch> headers; // all must match
    std::optional<bool> afterLostAnswer; // an earlier attempt of this request lost its answer
    friend bool operator==(const RuleCondition& a, const RuleCondition& b)
    {
        // Not defaulted: Qt 6.4's QList<enum>::operator== calls memcmp with a null pointer when one empty
        // list has storage and the other none (undefined behaviour, reported by UBSan).
        return a.outcome == b.outcome && a.methods == b.methods && a.idempotencyKey == b.idempotencyKey
            && a.statuses == b.statuses
            && std::equal(a.errors.cbegin(), a.errors.cend(), b.errors.cbegin(), b.errors.cend())
            && a.serverCouldHaveActed == b.serverCouldHaveActed && a.body == b.body && a.headers == b.headers
            && a.afterLostAnswer == b.afterLostAnswer;
    }
};
