// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to core/http: one reader per family of rate-limit fields, called by parseRateLimits().
// Each appends its snapshots and warnings to OUT and never half-reads a malformed field.

#include "http/httpfield.h"
#include "http/ratelimitparse.h"

#include <QDateTime>

#include <optional>

// RateLimit + RateLimit-Policy: the draft-08…-11 Lists, the editor's copy (a/w/c), the draft-07 Dictionary.
void readIetfRateLimit(const HttpHeaderList& headers, const QDateTime& now, RateLimitParse& out);
// RateLimit-Limit/-Remaining/-Reset (drafts -00…-06, express-rate-limit draft-6) and GitLab's variant.
void readLegacyRateLimit(const HttpHeaderList& headers, const QDateTime& now, RateLimitParse& out);
// X-RateLimit-* (generic, GitHub, Discord, Reddit, OpenAI, suffixed), X-Rate-Limit-* (X), Shopify.
void readVendorRateLimits(const HttpHeaderList& headers, const QDateTime& now, RateLimitParse& out);

// The `w` of the draft-04…-07 RateLimit-Policy member whose Integer quota equals QUOTA (or of the only
// member); absent when there is no such field, member or parameter, or the field is malformed.
std::optional<qint64> integerPolicyWindow(const HttpHeaderList& headers, qint64 quota);

// Adds SNAPSHOT to OUT, copying its warnings into the response-level list.
void appendSnapshot(RateLimitParse& out, RateLimitSnapshot snapshot);
// The fields of HEADERS whose names are in NAMES (case-insensitive), as received.
HttpHeaderList rateLimitFields(const HttpHeaderList& headers, std::initializer_list<QByteArrayView> names);
