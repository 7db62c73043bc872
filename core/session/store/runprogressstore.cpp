// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/runprogressstore.h"

RunProgressStore::Packed RunProgressStore::pack(const RunProgress& run)
{
    Packed p;
    p.submittedNs = run.submittedAt.count();
    p.startedNs = countOrUnset(run.startedAt);
    p.finishedNs = countOrUnset(run.finishedAt);
    p.serverAskedForMs = countOrUnset(run.serverAskedFor);
    p.totalWaitMs = run.totalWait.count();
    p.seed = run.seed;
    p.runId = run.runId;
    p.attemptCount = run.attemptCount;
    p.reason = m_strings.intern(run.reason);
    p.groupingRule = run.observed ? m_strings.intern(run.observed->rule) : 0;
    p.groupingEvidence = run.observed ? m_strings.intern(run.observed->evidence) : 0;
    p.outcome = quint8(run.outcome);
    p.flags = quint8((run.observed ? kObserved : 0) | (run.observed && run.observed->heuristic ? kHeuristic : 0));
    return p;
}

RunProgress RunProgressStore::at(qsizetype i) const
{
    const Packed& p = m_rows[i];
    RunProgress run;
    run.runId = p.runId;
    run.seed = p.seed;
    run.submittedAt = MonoTime(p.submittedNs);
    run.startedAt = unlessUnset<MonoTime>(p.startedNs);
    run.finishedAt = unlessUnset<MonoTime>(p.finishedNs);
    run.attemptCount = p.attemptCount;
    run.outcome = FinalKind(p.outcome);
    run.reason = m_strings.string(p.reason);
    run.serverAskedFor = unlessUnset<Millis>(p.serverAskedForMs);
    run.totalWait = Millis(p.totalWaitMs);
    if (p.flags & kObserved)
        run.observed = ObservedGrouping { m_strings.string(p.groupingRule), m_strings.string(p.groupingEvidence), (p.flags & kHeuristic) != 0 };
    return run;
}

void RunProgressStore::clear()
{
    m_rows.clear();
    m_strings.clear();
}
