// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/hedgesummary.h"

#include "session/session.h"
#include "session/store/storedattempt.h"

#include <QCoreApplication>

QHash<int, int> operationsAppliedPerRun(const Session& s, std::optional<MonoTime> until)
{
    // The ids as the stores keep them (UTF-8 views of their pools, no string made per attempt or event, no
    // lab event rebuilt whole): the summary view asks four times a second while a batch grows, and at
    // 30 000 attempts making a QString of each id and a LabEvent of each event stalled it for tens of ms.
    QHash<QByteArrayView, int> runOfAttempt;
    runOfAttempt.reserve(s.attemptCount());
    for (qsizetype i = 0; i < s.attemptCount(); ++i) {
        const PackedAttemptHot& p = s.attempts.hot(i);
        runOfAttempt.insert(s.attempts.strings().view(p.attemptId), p.runId);
    }
    QHash<int, int> out;
    for (qsizetype i = 0; i < s.labEvents.size(); ++i) {
        if (until && MonoTime(s.labEvents.atMs(i) * 1000000) > *until)
            continue;
        if (s.labEvents.kind(i) == LabEvent::Kind::OperationApplied)
            out[runOfAttempt.value(s.labEvents.attemptIdUtf8(i), 0)] += 1;
    }
    return out;
}

HedgeSummary summarizeHedges(const Session& session, MonoTime end)
{
    HedgeSummary h;
    for (const SessionRun& run : session.runs) {
        bool hedged = false;
        for (qsizetype row : run.rows) {
            const StoredAttempt a(session.attempts, row);
            const std::optional<HedgeFacts> facts = a.hedge();
            if (!facts || a.began().value_or(MonoTime { 0 }) > end)
                continue;
            hedged = hedged || a.index() >= 2;
            if (a.index() < 2 || !a.started())
                continue; // the first copy, or a copy the pipeline refused (never sent)
            ++h.hedgesSent;
            if (facts->won && a.finished().value_or(MonoTime { 0 }) <= end)
                ++h.hedgesWon;
        }
        h.hedgedRequests += hedged;
    }
    h.hedgesWasted = h.hedgesSent - h.hedgesWon;
    if (!session.labEvents.isEmpty()) {
        h.appliedTwice = 0;
        const QHash<int, int> applied = operationsAppliedPerRun(session, end);
        for (auto it = applied.cbegin(); it != applied.cend(); ++it)
            h.appliedTwice += it.key() != 0 && it.value() > 1;
    }
    return h;
}

QString hedgeSummaryLine(const HedgeSummary& h)
{
    QString line = QCoreApplication::translate("HedgeSummary", "hedging: %1 requests hedged, %2 hedges sent, %3 won, %4 wasted")
                       .arg(h.hedgedRequests)
                       .arg(h.hedgesSent)
                       .arg(h.hedgesWon)
                       .arg(h.hedgesWasted);
    if (h.appliedTwice >= 0)
        line += QCoreApplication::translate("HedgeSummary", "; %1 operations applied twice (lab ledger)").arg(h.appliedTwice);
    return line;
}
