// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The retry policy as data: a plain, copyable, comparable value with its defaults in one place.
// Its JSON form is documented in docs/policy-format.md and resources/schemas/policy.schema.json.
// No behaviour lives here: backoff.h computes delays, decide.h makes decisions.

#include "policy/resilience/pipeline.h"
#include "policy/rulecondition.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>


// ---- Limits ------------------------------------------------------------------------------------------

// How the source of a policy states its limit. The policy stores total attempts; this only decides how
// the limit is shown ("3 attempts" vs "2 retries") and written back to JSON.
enum class AttemptCounting { Attempts, Retries };

// What the overall deadline does with a wait that would cross it.
enum class DeadlineMode {
    StopBeforeWait, // a wait that would end past the deadline ends the request now (tenacity stop_before_delay)
    StopAfterWait, // only checked before each attempt: may overshoot by one wait (tenacity stop_after_delay)
};

struct Limits
{
    int maxAttempts = 3; // total attempts including the first; ≥ 1
    AttemptCounting countedAs = AttemptCounting::Attempts;
    std::optional<Millis> deadline; // overall, waits included
    DeadlineMode deadlineMode = DeadlineMode::StopBeforeWait;
    std::optional<Millis> attemptTimeout; // one attempt, connect to last byte
    std::optional<Millis> connectTimeout; // until the connection is open
    // The client's connection pool: at most this many attempts on the wire to one host at once; an attempt
    // beyond it waits for a connection (phase `queued`). None: one connection per attempt in flight (Node's
    // agent, Go's transport and .NET's handler by default).
    std::optional<int> connectionsPerHost;
    friend bool operator==(const Limits&, const Limits&) = default;
};

// ---- Backoff and jitter ------------------------------------------------------------------------------

enum class BackoffKind {
    None, // no wait at all
    Constant, // base
    Linear, // base + (n−1)·increment
    Exponential, // base · multiplier^(n−1+exponentOffset)
    Decorrelated, // AWS: min(cap, U(base, prev·3)), prev starts at base
    DecorrelatedV2, // Polly DecorrelatedJitterBackoffV2 (stateful, tanh)
};

// Where the exponent starts. n is the retry index (1 = the wait after the first failed attempt).
enum class ExponentOrigin {
    FirstRetryIsBase, // n = 1 → base · multiplier^(0 + offset)
    FirstRetryIsZero, // urllib3: the first retry waits 0, the n-th (n ≥ 2) waits base · multiplier^(n−1+offset)
};

enum class JitterKind {
    None,
    Full, // U(0, x)
    Equal, // x/2 + U(0, x/2)
    Proportional, // U(x·(1−f), x·(1+f)), e.g. Slen ±25 %, cenkalti ±50 %
    Multiplicative, // x · U(low, high), e.g. gRPC 0.8–1.2, Stripe 0.5–1
    Additive, // x + U(0, j), e.g. urllib3 backoff_jitter, tenacity wait_exponential_jitter
};

// Whether the cap bounds the ceiling before jitter is applied (cenkalti, AWS 2026: delays may exceed the
// cap when jitter can scale up) or bounds the final delay (resilience4j, urllib3: a hard cap).
enum class CapOrder { BeforeJitter, AfterJitter };

struct Backoff
{
    BackoffKind kind = BackoffKind::Exponential;
    Millis base { 1000 };
    double multiplier = 2.0; // Exponential only
    Millis increment { 1000 }; // Linear only
    std::optional<Millis> cap; // none = uncapped
    ExponentOrigin origin = ExponentOrigin::FirstRetryIsBase;
    int exponentOffset = 0; // Go v2 classic: +1 (first retry U(0, 2·base)); stripe-node: −1
    std::optional<Millis> throttlingBase; // AWS 2026: a different base after throttling errors
    friend bool operator==(const Backoff&, const Backoff&) = default;
};

struct Jitter
{
    JitterKind kind = JitterKind::None;
    double factor = 0.25; // Proportional
    double low = 1.0; // Multiplicative
    double high = 1.0; // Multiplicative
    Millis additive { 0 }; // Additive: U(0, additive)
    CapOrder capOrder = CapOrder::AfterJitter;
    Millis floor { 0 }; // the delay never goes below this (Stripe 500 ms, resilience4j 1 ms)
    friend bool operator==(const Jitter&, const Jitter&) = default;
};

// ---- Server hints ------------------------------------------------------------------------------------

// How a header's value is read.
enum class HintFormat {
    RetryAfter, // delta-seconds or an HTTP-date (RFC 9110 §10.2.3)
    Milliseconds, // integer milliseconds (retry-after-ms, x-amz-retry-after, grpc-retry-pushback-ms)
    Seconds, // integer seconds only, no dates (Envoy reset headers)
};

// How a server-asked delay combines with the computed backoff t.
enum class HintCombine {
    Replace, // wait exactly what the server asked
    AtLeastBackoff, // max(t, hint)
    ClampAroundBackoff, // AWS 2026: max(t, min(hint, t + window))
};

// What happens when the server asks for more than `max`.
enum class HintOverMax {
    GiveUp, // stop at once, reporting how long the server asked for (Slen, seed 002, curl)
    Clamp, // wait `max` instead (urllib3, curl 6 h)
    Ignore, // discard the hint, use the backoff (Envoy)
};

struct DelayHint
{
    QString header; // case-insensitive field name
    HintFormat format = HintFormat::RetryAfter;
    QList<StatusRange> statuses; // honoured only on these; empty = on any retried response
    HintCombine combine = HintCombine::Replace;
    Millis window { 5000 }; // ClampAroundBackoff only
    std::optional<Millis> max;
    HintOverMax overMax = HintOverMax::GiveUp;
    bool zeroFallsBackToBackoff = false; // urllib3, curl: "Retry-After: 0" uses the backoff
    bool resetsExponent = false; // gRPC pushback, cenkalti v5
    bool negativeMeansStop = false; // gRPC pushback: a negative value means "don't retry"
    bool cappedByBackoffCap = false; // also bound by Backoff::cap (most SDKs: no)
    bool alsoRetryAfterMs = false; // a Retry-After hint also reads retry-after-ms when Retry-After is absent (seed 002)
    bool invalidMeansStop = false; // an unparseable value, or several differing values, means "don't retry" (gRPC)
    bool jittered = false; // the policy's jitter shifts the asked delay too (Slen: "every pause is shifted")
    bool advancesBackoff = true; // false: a hint-driven wait leaves the backoff sequence where it was (curl)
    friend bool operator==(const DelayHint&, const DelayHint&) = default;
};

// ---- What is retried ---------------------------------------------------------------------------------

enum class RuleAction {
    Retry,
    Stop,
    Success, // treat as success (e.g. DELETE answered 404 after a lost answer counts as deleted)
};


struct RetryRule
{
    QString name; // shown in reasons: "503 on GET is retried (rule: transient-5xx)"
    RuleCondition when;
    RuleAction action = RuleAction::Retry;
    bool throttling = false; // the outcome is a throttling error (budgets and throttlingBase care)
    QString note; // where the rule comes from, shown in policy show/table
    friend bool operator==(const RetryRule&, const RetryRule&) = default;
};

// ---- Idempotency keys --------------------------------------------------------------------------------

enum class KeyFormat {
    Quoted, // sf-string, as draft-ietf-httpapi-idempotency-key-header says: "8e03978e-…"
    Bare, // a bare token, as Stripe takes
};

struct IdempotencyPolicy
{
    bool autoAdd = false; // add a key to requests whose method is in `methods`
    QStringList methods { QStringLiteral("POST") };
    QString header = QStringLiteral("Idempotency-Key");
    KeyFormat format = KeyFormat::Quoted;
    QString prefix; // prepended to a generated UUID (stripe-node: "stripe-node-retry-")
    friend bool operator==(const IdempotencyPolicy&, const IdempotencyPolicy&) = default;
};

// ---- Budgets and throttling (state shared across requests; see budgetstate.h) ---------------------------

enum class BudgetScope { Client, Host };

// AWS-style retry quota: a token bucket retries draw from.
struct RetryQuota
{
    bool enabled = false;
    int capacity = 500;
    int retryCost = 5;
    int timeoutRetryCost = 10;
    std::optional<int> throttlingRetryCost; // AWS 2026: 5 (and retryCost 14)
    int successReward = 1; // a success with no retries adds this
    bool refundOnSuccess = true; // a success after retries gives back what it took
    BudgetScope scope = BudgetScope::Client;
    friend bool operator==(const RetryQuota&, const RetryQuota&) = default;
};

// gRPC retryThrottling: −1 per retryable failure, +tokenRatio per success, retry only while tokens > max/2.
struct RetryThrottling
{
    bool enabled = false;
    double maxTokens = 10.0;
    double tokenRatio = 0.1;
    BudgetScope scope = BudgetScope::Host;
    friend bool operator==(const RetryThrottling&, const RetryThrottling&) = default;
};

// Waits for a reported rate-limit reset before sending; fails fast when the reset is beyond maxWait.
struct HostThrottle
{
    bool enabled = false;
    Millis maxWait { 30000 };
    friend bool operator==(const HostThrottle&, const HostThrottle&) = default;
};

// ---- The policy --------------------------------------------------------------------------------------

struct RetryPolicy
{
    // The newest policy format; version 1 (no pipeline) is read as before and written for a policy
    // without one, so its files stay as they were.
    static constexpr int kFormatVersion = 2;
    int formatVersion() const { return pipeline.isEmpty() ? 1 : 2; }

    QString name; // preset id or the user's name
    QString description;
    QString source; // citation: where every rule of it comes from (files, sections, versions)
    QString sourceTitle; // the cited document as a reader knows it: "Slen SDK docs — What the SDK sends again…"

    Limits limits;
    Backoff backoff;
    Jitter jitter;
    QList<DelayHint> hints; // in order; the first present and valid one sets the delay
    QList<RetryRule> rules; // in order; the first match wins
    // When no rule matches: 1xx–3xx are a success, everything else stops with "not retryable".
    IdempotencyPolicy idempotency;
    RetryQuota quota;
    RetryThrottling throttling;
    HostThrottle hostThrottle;
    // Outermost first, the retry itself among them; empty = the retry alone (policy format 1).
    QList<ResilienceStrategy> pipeline;

    friend bool operator==(const RetryPolicy&, const RetryPolicy&) = default;

    int maxRetries() const { return limits.maxAttempts - 1; }
};

// One problem found by validate(): the JSON path of the field and what is wrong with it.
struct PolicyProblem
{
    QString path; // e.g. "backoff.cap", "rules[2].when.statuses[0]"
    QString message;
    friend bool operator==(const PolicyProblem&, const PolicyProblem&) = default;
};

// Every problem at once; empty when the policy is usable. Nothing is clamped or corrected.
QList<PolicyProblem> validate(const RetryPolicy& policy);
