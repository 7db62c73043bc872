// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/sessionjudging.h"

#include "session/session.h"

#include <algorithm>

using namespace Qt::StringLiterals;

QList<CaseResult> judgeSession(const Session& session, const RetryPolicy& policy, const JudgeOptions& options)
{
    QList<RunRecord> runs = session.runRecords();
    const bool anyObserved = std::any_of(runs.cbegin(), runs.cend(), [](const RunRecord& r) { return r.observed.has_value(); });
    if (anyObserved)
        runs.removeIf([](const RunRecord& r) { return !r.observed.has_value(); });
    std::sort(runs.begin(), runs.end(), [](const RunRecord& a, const RunRecord& b) {
        const auto start = [](const RunRecord& r) {
            return r.attempts.isEmpty() ? r.startedAt.value_or(r.submittedAt) : r.attempts.first().at.started.value_or(r.submittedAt);
        };
        return start(a) < start(b);
    });
    // Until when anything more would have been seen: the session's last moment.
    MonoTime end { 0 };
    for (const RunRecord& r : std::as_const(runs)) {
        for (const AttemptRecord& a : r.attempts) {
            end = std::max(end, a.at.finished.value_or(a.at.started.value_or(end)));
        }
    }
    JudgeOptions judgeOptions = options;
    if (!judgeOptions.wallOrigin.isValid())
        judgeOptions.wallOrigin = session.meta.wallOriginUtc;
    judgeOptions.checkExitStatus = false;
    ConformanceJudge judge(policy, judgeOptions);
    QList<CaseResult> results;
    for (const RunRecord& r : std::as_const(runs)) {
        CaseResult c;
        c.suiteCase.name = u"run-%1"_s.arg(r.runId);
        if (!r.attempts.isEmpty()) {
            const AttemptRecord& first = r.attempts.first();
            c.suiteCase.method = first.method;
            c.suiteCase.description = first.method + u' ' + first.url.toString(QUrl::RemoveUserInfo);
            c.suiteCase.path = first.url.path();
        }
        c.run.record = r;
        c.run.observedUntil = end;
        c.judgement = judge.judge(c.run);
        if (!r.attempts.isEmpty() && r.attempts.first().at.started && r.attempts.last().at.finished)
            c.elapsed = std::chrono::duration_cast<Millis>(*r.attempts.last().at.finished - *r.attempts.first().at.started);
        results << c;
    }
    return results;
}
