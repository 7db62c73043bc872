// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Value readers shared by the rate-limit dialects (core/http/ratelimit*.cpp). They are strict: surrounding
// SP/HTAB is ignored, anything else that is not the grammar gives std::nullopt.

#include "http/httpfield.h"

#include <QByteArrayView>
#include <QDateTime>
#include <QString>

#include <optional>

// 1*DIGIT, at most 18 digits (no sign, no fraction).
std::optional<qint64> parseRateLimitInteger(QByteArrayView text);
// 1*DIGIT [ "." 1*DIGIT ], at most 18 integer digits (Discord's "64.57", "1470173023.123").
std::optional<double> parseRateLimitDecimal(QByteArrayView text);
// A Go time.Duration string as OpenAI sends: "6m0s", "1s", "20ms", "1h2m3.5s", "0"; in seconds. No sign.
std::optional<double> parseGoDuration(QByteArrayView text);

// How a dialect defines its reset field.
enum class ResetUnit {
    DelaySeconds, // seconds from the response (IETF, Discord Reset-After, Reddit)
    EpochSeconds, // Unix time in seconds, maybe fractional (GitHub, X, Discord Reset, GitLab)
    Unstated, // the dialect does not say (generic X-RateLimit-Reset): only the magnitude heuristic is left
};

// A reset field read against NOW.
struct ResetReading
{
    std::optional<double> seconds; // from NOW, never negative; absent when the value is unreadable
    bool guessed = false; // the unit came from the magnitude heuristic (> 1e9 epoch s, > 1e12 epoch ms)
    bool absolute = false; // read as a point in time (epoch, HTTP-date), so measured from NOW
    QString note; // why it was guessed, clamped or rejected; empty when read as the dialect defines it
};

// Reads a reset value in UNIT. The magnitude heuristic is used only when UNIT is Unstated, or when the
// value contradicts UNIT (a "delay" above 1e9 s, an "epoch" below 1e9 s); the note then says so. With
// Unstated, a value with letters is tried as an HTTP-date. FIELD names the field in the note. A point in
// time read against an invalid NOW (nobody knows when the answer came) gives no seconds, and a note.
ResetReading readRateLimitReset(QByteArrayView text, ResetUnit unit, const QDateTime& now, const QString& field);

// The value of the non-SF singleton field NAME: absent when the field is absent; when it is sent on several
// lines with different values it is malformed, *conflict is set and the result is absent.
std::optional<QByteArray> rateLimitSingleton(const HttpHeaderList& headers, QByteArrayView name, bool* conflict);
