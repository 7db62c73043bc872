// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/phasespans.h"

#include <QCoreApplication>

QList<PhaseSpan> attemptPhaseSpans(const AttemptTimestamps& at, std::optional<double> nowMs)
{
    const PhaseSpanArray array = attemptPhaseSpanArray(at, nowMs);
    return QList<PhaseSpan>(array.begin(), array.end());
}

PhaseSpanArray attemptPhaseSpanArray(const AttemptTimestamps& at, std::optional<double> nowMs)
{
    PhaseSpanArray spans;
    if (!at.started) {
        // Refused after waiting for the verdict (or still waiting, in flight): the wait, and nothing on the wire.
        const std::optional<double> until = at.finished ? std::optional<double>(toMs(*at.finished)) : nowMs;
        if (at.verdictWait && until && *until > toMs(*at.verdictWait))
            spans.spans[spans.count++] = PhaseSpan { TimelinePhase::VerdictWait, toMs(*at.verdictWait), *until };
        return spans;
    }
    const double start = toMs(*at.started);
    const std::optional<double> finished = at.finished ? std::optional<double>(toMs(*at.finished)) : nowMs;
    if (!finished)
        return spans;
    const double end = std::max(start, *finished);
    const auto clampMs = [&](const std::optional<MonoTime>& t, double fallback) {
        return t ? std::clamp(toMs(*t), start, end) : fallback;
    };
    const auto add = [&](TimelinePhase phase, double from, double to) {
        if (to > from) // each phase once at most: never more than kTimelinePhaseCount
            spans.spans[spans.count++] = PhaseSpan { phase, from, to };
    };

    if (at.verdictWait) {
        const double verdict = at.queued ? std::min(toMs(*at.queued), start) : start;
        add(TimelinePhase::VerdictWait, std::min(toMs(*at.verdictWait), verdict), verdict);
    }
    if (at.queued)
        add(TimelinePhase::Queued, std::min(toMs(*at.queued), start), start);
    double cursor = start;
    if (at.tlsDone) {
        const double connecting = clampMs(at.connecting, start);
        const double tls = clampMs(at.tlsDone, end);
        add(TimelinePhase::Connect, start, connecting);
        add(TimelinePhase::Tls, connecting, tls);
        cursor = tls;
    } else if (at.connecting) {
        const double sent = clampMs(at.requestSent, clampMs(at.headersReceived, end));
        add(TimelinePhase::Connect, start, sent);
        cursor = sent;
    }
    const std::optional<MonoTime> answer = at.headersReceived ? at.headersReceived : at.firstByte;
    const double firstByte = std::max(cursor, clampMs(answer, end));
    add(TimelinePhase::FirstByte, cursor, firstByte);
    if (answer)
        add(TimelinePhase::Download, firstByte, end);
    // An attempt that ended within the clock's resolution (the lab stamps a watched client's exchanges to
    // the millisecond) is still an attempt: one span of no length, which the timeline draws at its least
    // width, in the phase it ended in.
    if (spans.count == 0 && at.finished)
        spans.spans[spans.count++] = PhaseSpan { at.connecting && !answer ? TimelinePhase::Connect : TimelinePhase::FirstByte, start, start };
    return spans;
}

QString timelinePhaseName(TimelinePhase phase)
{
    switch (phase) {
    case TimelinePhase::Connect:
        return QCoreApplication::translate("TimelinePhase", "Connect");
    case TimelinePhase::Tls:
        return QCoreApplication::translate("TimelinePhase", "TLS handshake");
    case TimelinePhase::FirstByte:
        return QCoreApplication::translate("TimelinePhase", "Waiting for first byte");
    case TimelinePhase::Download:
        return QCoreApplication::translate("TimelinePhase", "Download");
    case TimelinePhase::Queued:
        return QCoreApplication::translate("TimelinePhase", "Waiting for a connection");
    case TimelinePhase::VerdictWait:
        return QCoreApplication::translate("TimelinePhase", "Waiting for the half-open verdict");
    }
    return {};
}
