// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/http: one reader per family of rate-limit fields, called by parseRateLimits().
// Each appends its snapshots and warnings to OUT and never half-reads a malformed field.

#include "http/httpfield.h"
#include "http/ratelimitparse.h"

#include <QDateTime>
#include <QHash>
#include <QList>

#include <optional>

// One member of a draft-08+ RateLimit-Policy, or of a draft-04…-07 Integer one.
struct RateLimitPolicyMember
{
    QString name;
    std::optional<qint64> quota;
    std::optional<qint64> window;
    QString unit;
    QByteArray partitionKey;
};

// RateLimit-Policy, read once per response and shared by the readers that need it.
struct RateLimitPolicyField
{
    QList<RateLimitPolicyMember> named; // draft-08+
    QList<RateLimitPolicyMember> integer; // draft-04…-07
    QHash<QString, qsizetype> byName; // lower-cased name → the first member in `named` with it
    // The names were Tokens: the editor's copy's branch. Draft-11 requires Strings, so beside a draft-11
    // RateLimit (or alone) such a field is malformed and the IETF reader ignores it whole.
    bool tokenNames = false;

    // The named member NAME (case-insensitive), or null: constant time, so N RateLimit members against N
    // policies stay linear.
    const RateLimitPolicyMember* find(const QString& name) const;
    // The `w` of the Integer member whose quota equals QUOTA (or of the only member); absent when there is
    // no such member or parameter.
    std::optional<qint64> integerWindow(qint64 quota) const;
};
// Malformed fields are ignored whole, with a warning in WARNINGS.
RateLimitPolicyField readRateLimitPolicy(const HttpHeaderList& headers, QStringList* warnings);

// RateLimit + RateLimit-Policy: the draft-08…-11 Lists, the editor's copy (a/w/c), the draft-07 Dictionary.
void readIetfRateLimit(const HttpHeaderList& headers, const RateLimitPolicyField& policies, RateLimitParse& out);
// RateLimit-Limit/-Remaining/-Reset (drafts -00…-06, express-rate-limit draft-6) and GitLab's variant.
void readLegacyRateLimit(const HttpHeaderList& headers, const QDateTime& now, const RateLimitPolicyField& policies,
    RateLimitParse& out);
// X-RateLimit-* (generic, GitHub, Discord, Reddit, OpenAI, suffixed), X-Rate-Limit-* (X), Shopify.
void readVendorRateLimits(const HttpHeaderList& headers, const QDateTime& now, RateLimitParse& out);

// Adds SNAPSHOT to OUT, copying its warnings into the response-level list.
void appendSnapshot(RateLimitParse& out, RateLimitSnapshot snapshot);
// The fields of HEADERS whose names are in NAMES (case-insensitive), as received.
HttpHeaderList rateLimitFields(const HttpHeaderList& headers, std::initializer_list<QByteArrayView> names);
