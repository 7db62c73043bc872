// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/httpfield.h"

#include <QString>
#include <QStringList>

#include <optional>

// One quota as a response reports it, whatever the header dialect. Every number is optional: a value the
// fields do not state is absent, never guessed (headers.md §0).
struct RateLimitSnapshot
{
    // Which family of fields this came from: "ietf-draft-11" (the -08…-11 List syntax, r/t), "ietf-editors-copy"
    // (the unpublished a/w/c renaming), "ietf-draft-07" (Dictionary limit/remaining/reset), "ratelimit-legacy"
    // (RateLimit-Limit/-Remaining/-Reset, drafts -00…-06), "x-ratelimit", "github", "x", "discord", "reddit",
    // "shopify", "openai" or "gitlab".
    QString dialect;
    // The policy identifier when the dialect has one: an IETF policy name, the GitHub resource, the Discord
    // bucket, the GitLab RateLimit-Name, "requests"/"tokens" for OpenAI, a suffix such as "minute".
    QString policy;
    std::optional<qint64> limit; // quota units allowed in the window
    std::optional<qint64> remaining; // quota units still available
    std::optional<qint64> used; // quota units consumed, when stated (GitHub, GitLab "Observed", Reddit, Shopify)
    // Seconds from the caller's "now" until the quota is (at least partly) restored; 0 when the reset time has
    // passed. For the IETF List syntax this is the `t` parameter: -08…-10 call it the time until quota is
    // restored, -11 the "effective window"; it is the same number either way.
    std::optional<double> resetSeconds;
    std::optional<qint64> windowSeconds; // the policy's window length (IETF `w`, a "-minute" suffix…)
    QString quotaUnit; // "requests", "tokens", "content-bytes"…; empty when unstated
    QByteArray partitionKey; // IETF `pk`, decoded bytes
    std::optional<qint64> requestCost; // editor's copy `c`
    bool resetGuessed = false; // the reset unit came from the magnitude heuristic, not the dialect
    // The reset was stated as a point in time (epoch seconds, an HTTP-date) and resetSeconds measured from
    // the caller's "now": read against another "now", it reads differently. Relative resets (IETF `t`,
    // delay-seconds, Reset-After, Go durations) do not.
    bool resetAbsolute = false;
    HttpHeaderList fields; // the raw fields this snapshot was read from, as received
    QStringList warnings; // non-conformant or guessed readings that concern only this snapshot

    // remaining / limit in [0, 1] when both are known and limit > 0.
    std::optional<double> remainingRatio() const
    {
        if (!limit || !remaining || *limit <= 0)
            return std::nullopt;
        return double(*remaining) / double(*limit);
    }
};
