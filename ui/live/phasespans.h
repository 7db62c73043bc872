// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How one attempt's bar on the timeline is split into phases, from the timestamps the engine recorded.
// QNetworkAccessManager reports when a new connection starts (connecting), when TLS completes (tlsDone),
// when the request was written (requestSent) and when headers and the first body byte arrived; it does
// not report when TCP itself was established, so with TLS the TLS span starts at `connecting` and holds
// the TCP handshake too. An attempt on a reused connection has no connect phase at all.
//
//   TLS      started → connecting = Connect, connecting → tlsDone = TLS, then FirstByte from tlsDone
//   no TLS   started → requestSent = Connect (when a new connection was opened), then FirstByte
//   reused   FirstByte from started
//   FirstByte ends at headersReceived (else firstByte, else the end); Download runs from there to the end.
// The end is `finished`, or NOW_MS for an attempt still in flight. Empty spans are left out. An attempt that
// waited for one of the client's connections per host starts with a Queued span, queued → started. One that
// waited for a half-open circuit's verdict starts with a VerdictWait span, verdictWait → queued, else
// started; a call the breaker then refused never started: its VerdictWait span ends when it was refused
// (`finished`) and it has no other span (nothing of it reached the wire).

#include "engine/attemptrecord.h"

#include <QList>
#include <QString>

#include <optional>

enum class TimelinePhase : quint8 { Connect, Tls, FirstByte, Download, Queued, VerdictWait };

struct PhaseSpan
{
    TimelinePhase phase = TimelinePhase::FirstByte;
    double startMs = 0;
    double endMs = 0;
    friend bool operator==(const PhaseSpan&, const PhaseSpan&) = default;
};

inline constexpr int kTimelinePhaseCount = 6;

// At most one span a phase: the spans of one attempt without an allocation (the timeline rebuilds them
// from the attempt store every time it reads a lane).
struct PhaseSpanArray
{
    PhaseSpan spans[kTimelinePhaseCount];
    int count = 0;
    const PhaseSpan* begin() const { return spans; }
    const PhaseSpan* end() const { return spans + count; }
};

PhaseSpanArray attemptPhaseSpanArray(const AttemptTimestamps& at, std::optional<double> nowMs = {});
QList<PhaseSpan> attemptPhaseSpans(const AttemptTimestamps& at, std::optional<double> nowMs = {});
inline QList<PhaseSpan> attemptPhaseSpans(const AttemptRecord& attempt, std::optional<double> nowMs = {})
{
    return attemptPhaseSpans(attempt.at, nowMs);
}

QString timelinePhaseName(TimelinePhase phase); // translated: "Connect", "TLS handshake", …
// Whether PHASE is time on the wire (connect, TLS, waiting for the answer, download), not a wait before it.
constexpr bool isWirePhase(TimelinePhase phase)
{
    return phase != TimelinePhase::Queued && phase != TimelinePhase::VerdictWait;
}
