// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hedging of one logical request, as a pure state machine on the caller's clock (issue 28 §1): when the
// next copy goes, which answer wins, which copies are cancelled. Polly 8's HedgingStrategyOptions
// (resilience-fleets.md §1.3: latency, parallel and fallback modes), gRPC's hedgingPolicy (gRFC A6, §1.7:
// a non-fatal status sends the next copy at once, a fatal one ends the call) and Envoy's hedge on a per-try
// timeout (§1.7: latency mode whose delay is the per-try timeout; the slow try is not cancelled) are the
// same machine. Whether an answer is acceptable is not decided here: the pipeline's rules say it (an
// answer that ends the call — a success, or a fatal status — is Accepted; one that may be hedged is Failed).

#include "policy/rulecondition.h" // Millis

#include <QList>
#include <QString>

#include <optional>

struct HedgingOptions
{
    int maxHedges = 1; // copies beyond the first (Polly MaxHedgedAttempts: 1–10; gRPC maxAttempts − 1, ≤ 4)
    // > 0: latency mode, the next copy when the newest has gone DELAY without an accepted answer;
    // 0: parallel, every copy at once; kFallback (Polly's −1 ms): the next copy only after a failure.
    Millis delay { 2000 };
    static constexpr Millis kFallback { -1 };

    friend bool operator==(const HedgingOptions&, const HedgingOptions&) = default;
};

struct HedgingProblem
{
    QString path; // relative to the hedging object: "max_hedges", "delay_ms"
    QString message;
};
QList<HedgingProblem> validate(const HedgingOptions& options);

class Hedging
{
public:
    enum class Answer : quint8 {
        Accepted, // ends the logical request: it wins, the copies still in flight are cancelled
        Failed, // a failure the hedge may answer with another copy
    };
    struct Verdict
    {
        bool done = false; // the logical request has its result
        int result = 0; // when done: the copy whose answer is the result (1 = the first)
        QList<int> cancel; // copies in flight to cancel now
        bool startNow = false; // a failure with copies left: start the next one now (startDue says so too)
    };

    // The first copy goes at START.
    Hedging(HedgingOptions options, Millis start);

    const HedgingOptions& options() const { return m_options; }
    // When the next copy is due by time alone (latency mode; parallel: now), if one will be.
    std::optional<Millis> nextStartAt() const;
    // Whether a copy should go at NOW; if so it counts as started and its number is returned.
    std::optional<int> startDue(Millis now);
    // Copy N answered at NOW.
    Verdict answered(int copy, Answer answer, Millis now);

    int started() const { return int(m_startedAt.size()); }
    bool inFlight(int copy) const;
    bool done() const { return m_done; }
    Millis startedAt(int copy) const { return m_startedAt.at(copy - 1); }

private:
    enum class Mode : quint8 { Latency, Parallel, Fallback };
    Mode mode() const;
    bool copiesLeft() const { return started() < 1 + m_options.maxHedges; }

    HedgingOptions m_options;
    QList<Millis> m_startedAt;
    QList<bool> m_answered;
    int m_failuresWaiting = 0; // failures that asked for a copy not yet started
    Millis m_lastFailureAt { 0 };
    bool m_done = false;
    int m_result = 0;
};
