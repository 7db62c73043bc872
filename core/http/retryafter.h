// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Server-asked delays: Retry-After (RFC 9110 §10.2.3) and the non-standard hint fields in integer
// milliseconds or seconds (retry-after-ms, x-amz-retry-after, grpc-retry-pushback-ms, Envoy reset headers).
//
// Only reading lives here; how a hint combines with the computed backoff is the policy's business
// (DelayHint in core/policy/retrypolicy.h maps its HintFormat onto HintValueFormat).

#include "http/httpfield.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

// How a hint field's value is read.
enum class HintValueFormat {
    RetryAfter, // delay-seconds (1*DIGIT) or an HTTP-date; never negative
    Milliseconds, // a signed decimal integer of milliseconds; the sign is kept (gRPC pushback: < 0 = stop)
    Seconds, // a signed decimal integer of seconds, no dates; the sign is kept
};

// Hint delays saturate here (about 100 years): huge digit strings and far dates never overflow, and
// the result can still be added to a QDateTime or a steady clock.
inline constexpr std::chrono::milliseconds kMaxHintDelay = std::chrono::hours(24 * 365 * 100);

// One hint field as read from a response.
struct RetryAfterValue
{
    // The delay from NOW, in whole milliseconds; empty when the value is invalid (then it must be ignored,
    // and `warnings` says why). Negative only for the Milliseconds and Seconds formats (a negative value).
    std::optional<std::chrono::milliseconds> delay;
    QString source; // the field name, lower case: "retry-after", "retry-after-ms", "x-amz-retry-after"…
    QByteArray raw; // the value as received (the first field line when there were several)
    bool conformant = false; // exactly the field's grammar; false for every lenient or invalid reading
    // How the value was read: "delay-seconds", "imf-fixdate", "rfc850", "asctime", "fraction",
    // "milliseconds", "seconds", or "invalid".
    QString form;
    bool saturated = false; // the value exceeded kMaxHintDelay and was clamped to it
    bool past = false; // an HTTP-date at or before NOW: the delay is 0
    QStringList warnings; // every lenient reading or the reason it is invalid, in English

    bool isValid() const { return delay.has_value(); }
};

// Retry-After from HEADERS, or, only when it is absent, retry-after-ms (openai-python's field; read as
// Milliseconds, fractions tolerated but flagged). nullopt when neither field is present.
// Several Retry-After field lines: identical values are read once and flagged non-conformant; differing
// values make the field invalid (a singleton field, RFC 9110 §5.5; gRPC treats several pushbacks alike).
std::optional<RetryAfterValue> parseRetryAfter(const HttpHeaderList& headers, const QDateTime& now);

// Any hint field NAME (case-insensitive) read in FORMAT, with the same several-lines rule.
// nullopt when NAME is absent.
std::optional<RetryAfterValue> parseHintHeader(const HttpHeaderList& headers, QByteArrayView name,
                                               HintValueFormat format, const QDateTime& now);

// One field value, already taken from its field line; SOURCE is copied into the result.
RetryAfterValue parseHintValue(QByteArrayView value, HintValueFormat format, const QDateTime& now,
                               const QString& source = QStringLiteral("retry-after"));
