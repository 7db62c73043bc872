// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A circuit breaker's state machine, pure: no clock of its own and no timers. Every call says when it
// happens (milliseconds on the caller's monotonic axis), so the engine runs it on real time and the herd
// simulator on virtual time, the same code (issue 28 §1). Its rules are resilience-fleets.md §1.1–1.6,
// chosen by CircuitBreakerOptions.
//
// A call asks admit(now) first and, when it was let through, says how it ended with record(ticket, …).
// Calls count when they end (the libraries count a result when it comes; opossum also counts every call
// made, refused ones included: countRejected). Results that come while the breaker is open are counted in
// the window but never move it; any result that comes while it is half-open is part of the verdict
// (Polly and opossum close on any success and reopen on any failure there; resilience4j counts them all).

#include "policy/resilience/circuitbreakeroptions.h"

#include <QList>

#include <deque>
#include <vector>

class CircuitBreaker
{
public:
    enum class State : quint8 { Closed, Open, HalfOpen };
    enum class Admission : quint8 {
        Allowed, // closed: the call goes
        Probe, // half-open: the call goes, and its result is the verdict (or part of it)
        Rejected, // open, or half-open with every probe taken and callers refused: never reaches the wire
        Wait, // half-open with every probe taken, callers held (cockatiel): ask again after the verdict
    };
    struct Ticket
    {
        Admission admission = Admission::Allowed;
        State state = State::Closed; // the state the call met
        Millis retryIn { 0 }; // Rejected while open: how long until the break ends
        bool sent() const { return admission == Admission::Allowed || admission == Admission::Probe; }
    };
    struct Counts
    {
        int calls = 0;
        int failures = 0;
        friend bool operator==(const Counts&, const Counts&) = default;
    };
    // One change of state: when, from what, to what, the window's counts when it happened (an opening's
    // evidence), and for an opening how long the break is.
    struct Change
    {
        Millis at { 0 };
        State from = State::Closed;
        State to = State::Closed;
        Counts window;
        Millis breakFor { 0 };
    };

    // EPOCH: when the breaker was made, on the callers' axis (opossum's buckets turn from then).
    explicit CircuitBreaker(CircuitBreakerOptions options, Millis epoch = Millis { 0 });

    const CircuitBreakerOptions& options() const { return m_options; }

    Ticket admit(Millis now);
    void record(const Ticket& ticket, bool failure, Millis now);

    // The state at NOW, a timer-driven half-open included (opossum: the break ends whether or not a call
    // comes). Not const: that transition is recorded when it is due.
    State state(Millis now);
    // What the window holds at NOW (calls and failures counted toward opening).
    Counts window(Millis now) const;
    // When the current break ends (meaningful while open).
    Millis openUntil() const { return m_openedAt + m_breakFor; }
    // Half-open periods since the breaker last closed (what grows the break).
    int halfOpenCount() const { return m_halfOpens; }

    const QList<Change>& changes() const { return m_changes; }

private:
    struct Bucket
    {
        Millis start { 0 };
        Counts counts;
    };

    void advance(Millis now); // a timer-driven half-open that is due
    void count(bool failure, Millis now); // into the closed-state window
    void countCall(Millis now); // a refused call, when refused calls count (opossum)
    void rollTo(Millis now); // the time window's buckets at NOW
    bool bucketLive(const Bucket& bucket, Millis now) const;
    bool trips(const Counts& counts) const;
    bool ratioTrips(const Counts& counts) const;
    void halfOpenResult(bool failure, Millis now);
    void open(Millis now);
    void halfOpen(Millis at);
    void close(Millis now);
    void clearWindow();
    void change(Millis at, State to, Millis breakFor = Millis { 0 });

    CircuitBreakerOptions m_options;
    Millis m_epoch;
    Millis m_bucketLength;
    State m_state = State::Closed;
    Millis m_openedAt { 0 };
    Millis m_breakFor { 0 };
    int m_halfOpens = 0;
    int m_probesOut = 0; // probes let through in this half-open period
    Counts m_probeResults; // results heard in this half-open period
    int m_consecutive = 0; // Consecutive: failures in a row
    std::vector<bool> m_ring; // Count: the last windowCalls results (true = failure)
    int m_ringNext = 0;
    Counts m_ringCounts;
    std::deque<Bucket> m_buckets; // Time: oldest first
    QList<Change> m_changes;
};

QString stateName(CircuitBreaker::State state); // "closed", "open", "half-open"
QString admissionName(CircuitBreaker::Admission admission); // "allowed", "probe", "rejected", "wait"
