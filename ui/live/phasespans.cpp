// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/phasespans.h"

#include <QCoreApplication>

QList<PhaseSpan> attemptPhaseSpans(const AttemptRecord& a, std::optional<double> nowMs)
{
    QList<PhaseSpan> spans;
    if (!a.at.started)
        return spans;
    const double start = toMs(*a.at.started);
    const std::optional<double> finished = a.at.finished ? std::optional<double>(toMs(*a.at.finished)) : nowMs;
    if (!finished)
        return spans;
    const double end = std::max(start, *finished);
    const auto clampMs = [&](const std::optional<MonoTime>& t, double fallback) {
        return t ? std::clamp(toMs(*t), start, end) : fallback;
    };
    const auto add = [&](TimelinePhase phase, double from, double to) {
        if (to > from)
            spans.append(PhaseSpan { phase, from, to });
    };

    if (a.at.queued)
        add(TimelinePhase::Queued, std::min(toMs(*a.at.queued), start), start);
    double cursor = start;
    if (a.at.tlsDone) {
        const double connecting = clampMs(a.at.connecting, start);
        const double tls = clampMs(a.at.tlsDone, end);
        add(TimelinePhase::Connect, start, connecting);
        add(TimelinePhase::Tls, connecting, tls);
        cursor = tls;
    } else if (a.at.connecting) {
        const double sent = clampMs(a.at.requestSent, clampMs(a.at.headersReceived, end));
        add(TimelinePhase::Connect, start, sent);
        cursor = sent;
    }
    const std::optional<MonoTime> answer = a.at.headersReceived ? a.at.headersReceived : a.at.firstByte;
    const double firstByte = std::max(cursor, clampMs(answer, end));
    add(TimelinePhase::FirstByte, cursor, firstByte);
    if (answer)
        add(TimelinePhase::Download, firstByte, end);
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
    }
    return {};
}
