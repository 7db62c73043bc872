// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The few answers a simulated server gives, read once for the policy (readAnswer): decide() then works from
// these facts for every one of the millions of attempts, as the engine's decideOn() works from an answer it
// read once. What the breaker counts as a failure is its pipeline's conditions, matched as rules match.

#include "policy/answerfacts.h"
#include "policy/retrypolicy.h"
#include "sim/herdexperiment.h"

#include <array>
#include <optional>

class HerdVerdicts
{
public:
    enum class Code : quint8 {
        Ok, // 200
        Conflict, // 412: the optimistic row's conditional write lost a race
        Error, // server.errorStatus (the error rate)
        Outage, // server.outageStatus
        Overload, // server.overloadStatus: the queue is full, or a request waited past the queue timeout
        Reset, // connection-lost
        Refused, // refused
        Timeout, // response-timeout: the client's attempt timeout
        Deadline, // response-timeout when the deadline ended it
        CircuitOpen, // the breaker refused it: never sent
    };
    static constexpr int kCodes = 10;

    HerdVerdicts(const RetryPolicy& policy, const HerdExperiment& experiment);

    const AnswerFacts& facts(Code code, bool answerLost);
    const AnswerFacts& refusal(Millis retryIn, bool answerLost);
    bool breakerFailure(Code code, bool answerLost, double durationMs);
    int status(Code code) const;
    QString errorName(Code code) const;
    // An answer lost after the server may have acted on it.
    bool serverCouldHaveActed(Code code) const { return m_couldHaveActed[std::size_t(code)]; }
    bool appliesEachCopy() const { return m_appliesEachCopy; } // the server applies every copy (no key, not idempotent)
    const RequestFacts& request() const { return m_request; }

private:
    AttemptOutcome outcome(Code code) const;

    const RetryPolicy& m_policy;
    const HerdServerModel& m_server;
    RequestFacts m_request;
    bool m_appliesEachCopy = false;
    const ResilienceStrategy* m_breaker = nullptr;
    std::array<std::optional<AnswerFacts>, 2 * kCodes> m_facts;
    std::array<std::optional<bool>, 2 * kCodes> m_breakerFailures;
    std::array<bool, kCodes> m_couldHaveActed {};
    AnswerFacts m_refusal;
};
