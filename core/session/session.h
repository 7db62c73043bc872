// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A recorded session: runs (request spec, policy snapshot, seed, attempts), the fault lab's events and
// scenario when the lab was used, metadata and the redaction choice. Files: resources/docs/session-format.md.

#include "engine/breakerchange.h"
#include "engine/requestspec.h"
#include "engine/runrecord.h"
#include "lab/labevent.h"
#include "policy/retrypolicy.h"
#include "policy/settings/policychanges.h"
#include "session/store/attemptstore.h"
#include "session/store/labeventstore.h"
#include "session/export/redaction.h"
#include "session/sessionmeta.h"
#include "session/sessionrun.h"

#include <QHash>
#include <QMap>

#include <limits>
#include <vector>
#include <QJsonObject>
#include <QList>
#include <QSet>

class Session
{
public:
    static constexpr int currentVersion = 1;

    SessionMeta meta;
    RedactionSettings redaction;
    QJsonObject scenario; // the fault-lab scenario document; empty when the lab was not used
    LabEventStore labEvents; // packed: two or more events an attempt when the lab was used
    QList<RetryPolicy> policies;
    // By index into policies: what was changed in a preset or policy file to make that policy (`--set`),
    // for the policies that were made so. Reports of the session say "preset X, changed: …" from it.
    QMap<qsizetype, PolicyChanges> policyChanges;
    QList<RequestSpec> requests;
    QList<SessionRun> runs; // in run id order as recorded
    AttemptStore attempts;
    // The pipeline circuit breakers' changes of state, in the order they happened (issue 28 §2).
    QList<BreakerChange> breakerChanges;

    qsizetype attemptCount() const { return attempts.size(); }
    qsizetype addPolicy(const RetryPolicy& policy); // index of an equal one, or a new one
    qsizetype addRequest(const RequestSpec& request);

    // Run bookkeeping (the recorder and the readers use these).
    SessionRun& run(int runId); // created when missing
    const SessionRun* findRun(int runId) const;
    qsizetype runIndex(int runId) const; // -1: none
    void setRunFacts(const RunSummary& run); // everything but the attempts
    qsizetype appendAttempt(const AttemptRecord& attempt); // to its run, as it finished; returns its row
    void addAttempt(const AttemptRecord& attempt); // the same, unless its run has it already (a journal read twice)
    void addRun(const RunRecord& run); // facts and attempts
    void rebuildIndex();
    SessionRun& appendRun(const SessionRun& run); // a run not in the session yet
    SessionRun& appendRun(SessionRun&& run); // the same, without copying its rows

    // For each lab event, the id of the run whose one attempt its attempt id names; kNoRun when it names
    // none, or more than one. What a view of the shown session draws each lab event beside, worked out in
    // one pass (and off the GUI thread: a million attempts' ids take a few hundred milliseconds).
    static constexpr qint32 kNoRun = std::numeric_limits<qint32>::min();
    std::vector<qint32> labEventRuns() const;

    RunRecord runRecord(qsizetype runIndex, bool withAttempts = true) const;
    QList<RunRecord> runRecords() const;
    AttemptRecord attempt(qsizetype runIndex, qsizetype i) const { return attempts.record(runs.at(runIndex).rows.at(i)); }

private:
    void indexLastRun(); // after appending to runs
    // Run id → index, only once the runs are not in ascending id order (else: binary search over runs).
    QHash<int, qsizetype> m_runIndex;
    bool m_runsUnordered = false;
    // Run reasons repeat ("201 is a success" on most runs of a batch): a reason equal to one held already
    // shares its text instead of a copy per run. Up to kSharedTexts distinct ones are remembered.
    void share(QString& text);
    static constexpr qsizetype kSharedTexts = 4096;
    QSet<QString> m_sharedTexts;
};
