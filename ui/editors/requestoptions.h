// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The request choices beyond method, URL, headers and body: which of Retrylab's own headers go out, the
// attempt-id header (its name, and whether it is sent — by default only to the built-in lab, where it
// ties the lab's events to attempts), redirects and HTTP/2. A plain value the request editor keeps.

#include <QByteArray>
#include <QList>
#include <QStringList>

#include <optional>

struct RequestSpec;
class QUrl;

struct RequestOptions
{
    QList<QByteArray> omittedDefaults; // lower-case names (RequestSpec::omittedDefaults)
    std::optional<bool> attemptId; // unset: on for the built-in lab, off for another server
    QByteArray attemptIdHeader = QByteArrayLiteral("X-Retrylab-Attempt");
    bool followRedirects = false;
    bool http2Allowed = false;

    bool attemptIdFor(bool targetLab) const { return attemptId.value_or(targetLab); }
    void applyTo(RequestSpec& spec, bool targetLab) const;
    // "User-Agent, Accept, …, X-Retrylab-Attempt": what goes out besides the user's headers.
    QStringList sentNames(bool targetLab) const;
    friend bool operator==(const RequestOptions&, const RequestOptions&) = default;
};
