// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The waits of a live view in compact form: 96 bytes a wait, the decision's texts (reason, rule, hint
// header, redirect target) interned in a StringPool, in fixed chunks, instead of a WaitInfo of about 200
// bytes with its strings in a list that doubles. at() rebuilds the WaitInfo; the accessors read what the
// timeline draws without rebuilding it.

#include "engine/attemptrecord.h"
#include "session/store/attemptstore.h"
#include "session/store/chunkedrows.h"
#include "session/store/stringpool.h"

class WaitStore
{
public:
    qsizetype size() const { return m_rows.size(); }
    bool isEmpty() const { return m_rows.isEmpty(); }

    void append(const WaitInfo& wait);
    // The wait attempt ROW of ATTEMPTS says was taken around it (AttemptWaits::drawnWait): what append()
    // keeps of that WaitInfo. An engine's decided wait is read straight from the packed row (no texts built
    // on the way: a million-attempt session has most of a million of them). False, and nothing kept, for an
    // attempt that implies no wait.
    bool appendFor(const AttemptStore& attempts, qsizetype row);
    WaitInfo at(qsizetype i) const;

    int runId(qsizetype i) const { return m_rows[i].runId; }
    int nextIndex(qsizetype i) const { return m_rows[i].nextIndex; }
    MonoTime scheduledAt(qsizetype i) const { return MonoTime(m_rows[i].scheduledNs); }
    MonoTime dueAt(qsizetype i) const { return MonoTime(m_rows[i].dueNs); }
    DelaySource source(qsizetype i) const { return DelaySource(m_rows[i].source); }

    void clear();
    qsizetype memoryBytes() const { return m_rows.memoryBytes() + m_strings.memoryBytes(); }

    using const_iterator = RebuiltIterator<WaitStore, WaitInfo>; // by value: for (const WaitInfo& w : store)
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, size() }; }

private:
    struct Packed
    {
        qint64 scheduledNs;
        qint64 dueNs;
        qint64 delayMs;
        qint64 ceilingMs;
        qint64 delayLowMs;
        qint64 delayHighMs;
        qint64 serverAskedForMs; // kUnset: none
        qint32 runId;
        qint32 nextIndex;
        qint32 quotaCost;
        qint32 quotaTaken;
        quint32 hintHeader;
        quint32 ruleName;
        quint32 reason;
        quint32 redirectTo; // the URL's encoded text (with kRedirect; an empty URL is id 0 too)
        quint8 verdict;
        quint8 finalKind;
        quint8 source;
        quint8 flags; // kThrottling, kThrottlingFailure, kSuccess, kRedirect, kThrottleHold
    };
    static constexpr quint8 kThrottling = 1;
    static constexpr quint8 kThrottlingFailure = 2;
    static constexpr quint8 kSuccess = 4;
    static constexpr quint8 kRedirect = 8;
    static constexpr quint8 kThrottleHold = 16;

    ChunkedRows<Packed, 1024> m_rows; // 96 KiB a chunk
    StringPool m_strings;
};
