// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The runs of a live view in compact form: 72 bytes a run, its texts (the reason, an observed run's
// grouping rule and evidence) interned in a StringPool, in fixed chunks, instead of a RunProgress of about
// 180 bytes with its strings in a list that doubles. at() rebuilds the RunProgress; runId() and
// outcome() read one field. A run's facts change while it runs: replace() packs the newer ones in place.

#include "engine/runrecord.h"
#include "session/store/chunkedrows.h"
#include "session/store/stringpool.h"


class RunProgressStore
{
public:
    qsizetype size() const { return m_rows.size(); }
    bool isEmpty() const { return m_rows.isEmpty(); }

    void append(const RunProgress& run) { m_rows.append(pack(run)); }
    void replace(qsizetype i, const RunProgress& run) { m_rows[i] = pack(run); }
    RunProgress at(qsizetype i) const;
    RunProgress first() const { return at(0); }
    int runId(qsizetype i) const { return m_rows[i].runId; }
    FinalKind outcome(qsizetype i) const { return FinalKind(m_rows[i].outcome); }

    void clear();
    qsizetype memoryBytes() const { return m_rows.memoryBytes() + m_strings.memoryBytes(); }

    using const_iterator = RebuiltIterator<RunProgressStore, RunProgress>; // by value: for (const RunProgress& r : store)
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, size() }; }

private:
    struct Packed
    {
        qint64 submittedNs;
        qint64 startedNs; // kUnset: none
        qint64 finishedNs;
        qint64 serverAskedForMs;
        qint64 totalWaitMs;
        quint64 seed;
        qint32 runId;
        qint32 attemptCount;
        quint32 reason;
        quint32 groupingRule;
        quint32 groupingEvidence;
        quint8 outcome;
        quint8 flags; // kObserved, kHeuristic
    };
    static constexpr quint8 kObserved = 1;
    static constexpr quint8 kHeuristic = 2;
    Packed pack(const RunProgress& run);

    ChunkedRows<Packed, 1024> m_rows; // 72 KiB a chunk
    StringPool m_strings;
};
