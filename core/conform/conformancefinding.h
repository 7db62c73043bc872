// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One thing the judge found about an observed run: which rule of the policy the client kept or broke, on
// which attempt, what was observed and what the policy expects, in one sentence a reader can check by hand.

#include "policy/retrypolicy.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <string_view>

// The rules a run is judged by. The names (enumText below) are part of the JSON and JUnit reports: never
// rename them.
enum class FindingRule {
    NoRequest, // "no-request": the command sent nothing to the lab
    RetriedNotRetryable, // "retried-not-retryable": sent again after an answer the policy does not retry
    RetriedAfterSuccess, // "retried-after-success": sent again after an answer the policy counts as a success
    AttemptLimit, // "attempt-limit": sent again after the policy's last attempt
    Deadline, // "deadline": sent again where the policy's deadline ends the request
    RetryAfterCap, // "retry-after-cap": sent again where the server asked for longer than the policy waits
    Budget, // "budget": sent again where the retry quota or retry throttling refuses
    NotRetried, // "not-retried": stopped where the policy sends again
    Wait, // "wait": a wait outside the policy's range for that answer
    KeyChanged, // "key-changed": attempts of one request carried different idempotency keys
    KeyMissing, // "key-missing": the policy adds an idempotency key and the request carried none
    FinalError, // "final-error": the exit status does not report how the request ended
    // A case with many calls (calls/callsjudge.h): the policy's circuit breaker and hedging along the calls.
    BreakerSentWhileOpen, // "breaker-sent-while-open": a call reached the server while the policy's breaker was open
    BreakerOpenedEarly, // "breaker-opened-early": the client refused calls while the policy's breaker was closed
    BreakerOpenedLate, // "breaker-opened-late": the client kept sending after the policy's breaker opened
    BreakerTooManyProbes, // "breaker-too-many-probes": more calls went while half-open than the policy's probes
    BreakerTooFewProbes, // "breaker-too-few-probes": the client refused calls the policy sends as probes
    HedgeEarly, // "hedge-early": a hedged copy went before the policy's delay
    HedgeBeyondMax, // "hedge-beyond-max": more copies of one call than the policy sends
    // Notes: facts that could not be judged; they never fail a run.
    NotObserved, // "not-observed": the observation ended before the policy's next attempt was due
    Unfinished, // "unfinished": an attempt was still open when the observation ended
    Unplaced, // "unplaced": a request that names no call of the case's plan (not judged)
};

constexpr std::string_view enumText(FindingRule rule)
{
    switch (rule) {
    case FindingRule::NoRequest: return "no-request";
    case FindingRule::RetriedNotRetryable: return "retried-not-retryable";
    case FindingRule::RetriedAfterSuccess: return "retried-after-success";
    case FindingRule::AttemptLimit: return "attempt-limit";
    case FindingRule::Deadline: return "deadline";
    case FindingRule::RetryAfterCap: return "retry-after-cap";
    case FindingRule::Budget: return "budget";
    case FindingRule::NotRetried: return "not-retried";
    case FindingRule::Wait: return "wait";
    case FindingRule::KeyChanged: return "key-changed";
    case FindingRule::KeyMissing: return "key-missing";
    case FindingRule::FinalError: return "final-error";
    case FindingRule::BreakerSentWhileOpen: return "breaker-sent-while-open";
    case FindingRule::BreakerOpenedEarly: return "breaker-opened-early";
    case FindingRule::BreakerOpenedLate: return "breaker-opened-late";
    case FindingRule::BreakerTooManyProbes: return "breaker-too-many-probes";
    case FindingRule::BreakerTooFewProbes: return "breaker-too-few-probes";
    case FindingRule::HedgeEarly: return "hedge-early";
    case FindingRule::HedgeBeyondMax: return "hedge-beyond-max";
    case FindingRule::NotObserved: return "not-observed";
    case FindingRule::Unfinished: return "unfinished";
    case FindingRule::Unplaced: return "unplaced";
    }
    return {};
}

QString findingRuleName(FindingRule rule);
std::optional<FindingRule> findingRuleFromName(const QString& name);
QStringList findingRuleNames();
// Whether RULE records a fact that could not be judged rather than a deviation.
bool findingRuleIsNote(FindingRule rule);

struct ConformanceFinding
{
    FindingRule rule = FindingRule::Wait;
    int attempt = 0; // the attempt it is about (1 = the first); 0 = the run as a whole
    // In a case with many calls: the calls it is about (first and last, 1 = the first call), and how many.
    int firstCall = 0;
    int lastCall = 0;
    int callCount = 0;
    QString observed; // what the client did: "attempt 2 came 210 ms after 429 on GET (Retry-After: 2)"
    QString expected; // what the policy says: "slen waits 1.5–2.5 s: Retry-After 2 s honoured …"
    // A wait judged against a range: the observed wait, the policy's range and the tolerance applied.
    std::optional<Millis> observedWait;
    std::optional<Millis> expectedLow;
    std::optional<Millis> expectedHigh;
    std::optional<Millis> toleranceEarly;
    std::optional<Millis> toleranceLate;

    // "wait: attempt 2 came 210 ms after 429 on GET (Retry-After: 2); slen waits 1.5–2.5 s …"
    QString sentence() const;
    friend bool operator==(const ConformanceFinding&, const ConformanceFinding&) = default;
};
