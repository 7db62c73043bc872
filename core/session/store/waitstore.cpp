// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/waitstore.h"

#include "session/attemptwaits.h"

void WaitStore::append(const WaitInfo& w)
{
    const RetryDecision& d = w.decision;
    Packed p;
    p.scheduledNs = w.scheduledAt.count();
    p.dueNs = w.dueAt.count();
    p.delayMs = d.delay.count();
    p.ceilingMs = d.ceiling.count();
    p.delayLowMs = d.delayLow.count();
    p.delayHighMs = d.delayHigh.count();
    p.serverAskedForMs = countOrUnset(d.serverAskedFor);
    p.runId = w.runId;
    p.nextIndex = w.nextIndex;
    p.quotaCost = d.quotaCost;
    p.quotaTaken = d.effects.quotaTaken;
    p.hintHeader = m_strings.intern(d.hintHeader);
    p.ruleName = m_strings.intern(d.ruleName);
    p.reason = m_strings.intern(d.reason);
    p.redirectTo = d.redirectTo ? m_strings.intern(QByteArrayView(d.redirectTo->toEncoded())) : 0;
    p.verdict = quint8(d.verdict);
    p.finalKind = quint8(d.finalKind);
    p.source = quint8(d.source);
    p.flags = quint8((d.throttling ? kThrottling : 0) | (d.effects.throttlingFailure ? kThrottlingFailure : 0)
        | (d.effects.success ? kSuccess : 0) | (d.redirectTo ? kRedirect : 0) | (w.throttleHold ? kThrottleHold : 0));
    m_rows.append(p);
}

bool WaitStore::appendFor(const AttemptStore& attempts, qsizetype row)
{
    if (const PackedAttemptHot& h = attempts.hot(row); h.verdict != qint8(Verdict::Retry) && !h.observed)
        return false; // most attempts: read no further than the hot part
    const PackedAttempt a = attempts.packed(row);
    if (!AttemptWaits::hasDrawnWait(a))
        return false;
    if (a.verdict < 0) { // a client's wait before its attempt: built by the rule itself
        append(*AttemptWaits::drawnWait(attempts, row));
        return true;
    }
    // As AttemptWaits::drawnWait builds it (the decision as AttemptStore::decisionOf rebuilds it: no effects
    // and no redirect are kept in a row), from the attempt's end.
    const StringPool& texts = attempts.strings();
    Packed p;
    p.delayMs = a.delayMs == PackedAttempt::kUnset ? 0 : a.delayMs;
    p.scheduledNs = a.at[PackedAttempt::Finished];
    p.dueNs = p.scheduledNs + p.delayMs * 1000000;
    p.ceilingMs = a.ceilingMs;
    p.delayLowMs = a.delayLowMs;
    p.delayHighMs = a.delayHighMs;
    p.serverAskedForMs = a.serverAskedForMs == PackedAttempt::kUnset ? kUnsetCount : a.serverAskedForMs;
    p.runId = a.runId;
    p.nextIndex = a.index + 1;
    p.quotaCost = a.quotaCost;
    p.quotaTaken = 0;
    p.hintHeader = m_strings.intern(texts.view(a.hintHeader));
    p.ruleName = m_strings.intern(texts.view(a.ruleName));
    p.reason = m_strings.intern(texts.view(a.reason));
    p.redirectTo = 0;
    p.verdict = quint8(a.verdict);
    p.finalKind = quint8(a.finalKind);
    p.source = quint8(a.delaySource);
    p.flags = a.throttling ? kThrottling : 0;
    m_rows.append(p);
    return true;
}

WaitInfo WaitStore::at(qsizetype i) const
{
    const Packed& p = m_rows[i];
    WaitInfo w;
    w.runId = p.runId;
    w.nextIndex = p.nextIndex;
    w.scheduledAt = MonoTime(p.scheduledNs);
    w.dueAt = MonoTime(p.dueNs);
    w.throttleHold = (p.flags & kThrottleHold) != 0;
    RetryDecision& d = w.decision;
    d.verdict = Verdict(p.verdict);
    d.finalKind = FinalKind(p.finalKind);
    d.delay = Millis(p.delayMs);
    d.ceiling = Millis(p.ceilingMs);
    d.delayLow = Millis(p.delayLowMs);
    d.delayHigh = Millis(p.delayHighMs);
    d.source = DelaySource(p.source);
    d.hintHeader = m_strings.string(p.hintHeader);
    d.serverAskedFor = unlessUnset<Millis>(p.serverAskedForMs);
    d.ruleName = m_strings.string(p.ruleName);
    d.throttling = (p.flags & kThrottling) != 0;
    d.quotaCost = p.quotaCost;
    d.reason = m_strings.string(p.reason);
    if (p.flags & kRedirect)
        d.redirectTo = QUrl::fromEncoded(m_strings.view(p.redirectTo).toByteArray());
    d.effects.throttlingFailure = (p.flags & kThrottlingFailure) != 0;
    d.effects.quotaTaken = p.quotaTaken;
    d.effects.success = (p.flags & kSuccess) != 0;
    return w;
}

void WaitStore::clear()
{
    m_rows.clear();
    m_strings.clear();
}
