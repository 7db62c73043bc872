// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay/replaycomparison.h"

#include "session/hedgesummary.h"

#include <QHash>

#include <algorithm>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace {

ReplaySide side(const Session& s, const SessionRun& run, const QHash<int, int>& applied)
{
    ReplaySide r;
    r.outcome = run.outcome;
    r.attempts = int(run.rows.size());
    r.waitingMs = run.totalWaitMs;
    // From the first attempt's start to the last one's end, whatever order they were stored in (a hedged
    // request's copies are stored as they ended).
    qint64 a = PackedAttempt::kUnset;
    qint64 b = PackedAttempt::kUnset;
    for (quint32 row : run.rows) {
        const PackedAttemptHot& p = s.attempts.hot(row);
        if (const qint64 started = p.at[PackedAttempt::Started]; started != PackedAttempt::kUnset)
            a = a == PackedAttempt::kUnset ? started : std::min(a, started);
        if (const qint64 finished = p.at[PackedAttempt::Finished]; finished != PackedAttempt::kUnset)
            b = std::max(b, finished);
    }
    if (a != PackedAttempt::kUnset && b != PackedAttempt::kUnset)
        r.totalMs = (b - a) / 1000000;
    r.operationsApplied = s.labEvents.isEmpty() ? -1 : applied.value(run.runId);
    return r;
}

ReplayTotals totals(const QList<ReplaySide>& sides, qint64 spanMs)
{
    ReplayTotals t;
    t.runs = int(sides.size());
    for (const ReplaySide& s : sides) {
        t.succeeded += s.outcome == FinalKind::Success;
        t.attempts += s.attempts;
        t.waitingMs += s.waitingMs;
        if (s.operationsApplied >= 0)
            t.operationsApplied = std::max(0, t.operationsApplied) + s.operationsApplied;
    }
    t.amplification = t.runs ? double(t.attempts) / t.runs : 0;
    t.totalMs = spanMs;
    return t;
}

// From the first attempt's start to the last attempt's end, over the first RUNS runs only (the ones paired):
// a session compared on its first 3 runs is not timed over all 20.
qint64 spanOf(const Session& s, qsizetype runs)
{
    qint64 lo = PackedAttempt::kUnset;
    qint64 hi = PackedAttempt::kUnset;
    for (qsizetype r = 0; r < runs && r < s.runs.size(); ++r) {
        for (const quint32 row : s.runs.at(r).rows) {
            const PackedAttemptHot& p = s.attempts.hot(row);
            if (p.at[PackedAttempt::Started] != PackedAttempt::kUnset && (lo == PackedAttempt::kUnset || p.at[PackedAttempt::Started] < lo))
                lo = p.at[PackedAttempt::Started];
            if (p.at[PackedAttempt::Finished] != PackedAttempt::kUnset && (hi == PackedAttempt::kUnset || p.at[PackedAttempt::Finished] > hi))
                hi = p.at[PackedAttempt::Finished];
        }
    }
    return lo == PackedAttempt::kUnset || hi == PackedAttempt::kUnset ? 0 : (hi - lo) / 1000000;
}

QJsonObject sideJson(const ReplaySide& s)
{
    return { { u"outcome"_s, finalKindName(s.outcome) }, { u"attempts"_s, s.attempts }, { u"total_ms"_s, s.totalMs },
        { u"waiting_ms"_s, s.waitingMs },
        { u"operations_applied"_s, s.operationsApplied < 0 ? QJsonValue() : QJsonValue(s.operationsApplied) } };
}

QJsonObject totalsJson(const ReplayTotals& t)
{
    return { { u"runs"_s, t.runs }, { u"succeeded"_s, t.succeeded }, { u"attempts"_s, t.attempts },
        { u"amplification"_s, t.amplification }, { u"total_ms"_s, t.totalMs }, { u"waiting_ms"_s, t.waitingMs },
        { u"operations_applied"_s, t.operationsApplied < 0 ? QJsonValue() : QJsonValue(t.operationsApplied) } };
}

QString ops(int n)
{
    return n < 0 ? u"?"_s : QString::number(n);
}

} // namespace

ReplayComparison ReplayComparison::compare(const Session& a, const Session& b)
{
    ReplayComparison c;
    const QHash<int, int> appliedA = operationsAppliedPerRun(a);
    const QHash<int, int> appliedB = operationsAppliedPerRun(b);
    QList<ReplaySide> sidesA;
    QList<ReplaySide> sidesB;
    const qsizetype n = std::min(a.runs.size(), b.runs.size());
    for (qsizetype i = 0; i < n; ++i) {
        ReplayRunRow row;
        row.recordedRunId = a.runs.at(i).runId;
        row.replayedRunId = b.runs.at(i).runId;
        row.recorded = side(a, a.runs.at(i), appliedA);
        row.replayed = side(b, b.runs.at(i), appliedB);
        sidesA << row.recorded;
        sidesB << row.replayed;
        c.runs << row;
    }
    c.recorded = totals(sidesA, spanOf(a, n));
    c.replayed = totals(sidesB, spanOf(b, n));
    return c;
}

QString ReplayComparison::firstDecisionDifference(const Session& a, const Session& b)
{
    if (a.runs.size() != b.runs.size())
        return u"%1 runs recorded, %2 replayed"_s.arg(a.runs.size()).arg(b.runs.size());
    for (qsizetype r = 0; r < a.runs.size(); ++r) {
        const SessionRun& ra = a.runs.at(r);
        const SessionRun& rb = b.runs.at(r);
        if (ra.rows.size() != rb.rows.size())
            return u"run %1: %2 attempts recorded, %3 replayed"_s.arg(ra.runId).arg(ra.rows.size()).arg(rb.rows.size());
        for (qsizetype i = 0; i < ra.rows.size(); ++i) {
            const PackedAttempt& pa = a.attempts.packed(ra.rows.at(i));
            const PackedAttempt& pb = b.attempts.packed(rb.rows.at(i));
            if (pa.verdict != pb.verdict || pa.finalKind != pb.finalKind || pa.delaySource != pb.delaySource
                || (pa.verdict == qint8(Verdict::Retry) && pa.delayMs != pb.delayMs))
                return u"run %1 attempt %2: recorded %3 after %4 ms (%5), replayed %6 after %7 ms (%8)"_s
                    .arg(ra.runId).arg(pa.index)
                    .arg(pa.verdict >= 0 ? verdictName(Verdict(pa.verdict)) : u"cancelled"_s).arg(pa.delayMs)
                    .arg(delaySourceName(DelaySource(pa.delaySource)))
                    .arg(pb.verdict >= 0 ? verdictName(Verdict(pb.verdict)) : u"cancelled"_s).arg(pb.delayMs)
                    .arg(delaySourceName(DelaySource(pb.delaySource)));
        }
    }
    return QString();
}

QJsonObject ReplayComparison::toJson() const
{
    QJsonArray list;
    for (const ReplayRunRow& r : runs)
        list.append(QJsonObject { { u"recorded_run"_s, r.recordedRunId }, { u"replayed_run"_s, r.replayedRunId },
            { u"recorded"_s, sideJson(r.recorded) }, { u"replayed"_s, sideJson(r.replayed) } });
    return { { u"runs"_s, list }, { u"recorded"_s, totalsJson(recorded) }, { u"replayed"_s, totalsJson(replayed) } };
}

QString ReplayComparison::toText() const
{
    QString out = u"run   recorded: outcome        att  total ms  wait ms  ops | replayed: outcome        att  total ms  wait ms  ops\n"_s;
    const auto cells = [](const ReplaySide& s) {
        return u"%1 %2 %3 %4 %5"_s.arg(finalKindName(s.outcome), -22).arg(s.attempts, 3).arg(s.totalMs, 9)
            .arg(s.waitingMs, 8).arg(ops(s.operationsApplied), 4);
    };
    for (const ReplayRunRow& r : runs)
        out += u"%1 %2 | %3\n"_s.arg(r.recordedRunId, 5).arg(cells(r.recorded), cells(r.replayed));
    const auto total = [](const ReplayTotals& t) {
        return u"%1/%2 succeeded, %3 attempts, amplification %4, %5 ms total, %6 ms waiting, %7 operations applied"_s
            .arg(t.succeeded).arg(t.runs).arg(t.attempts).arg(t.amplification, 0, 'f', 2).arg(t.totalMs).arg(t.waitingMs)
            .arg(ops(t.operationsApplied));
    };
    out += u"recorded: "_s + total(recorded) + u"\nreplayed: "_s + total(replayed) + u'\n';
    return out;
}
