// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/attemptwaits.h"

#include <QCoreApplication>

namespace AttemptWaits {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

MonoTime ns(qint64 value) { return MonoTime(value); }

bool observedWaitBefore(const PackedAttempt& p)
{
    return p.observed && p.index > 1 && p.clientWaitNs != PackedAttempt::kUnset
        && p.at[PackedAttempt::Started] != PackedAttempt::kUnset;
}

bool decidedWaitAfter(const PackedAttempt& p)
{
    return p.verdict == qint8(Verdict::Retry) && p.at[PackedAttempt::Finished] != PackedAttempt::kUnset;
}

} // namespace

bool honouredAsk(Millis waited, Millis asked)
{
    return waited * 10 >= asked * 9;
}

bool hasDrawnWait(const PackedAttempt& attempt)
{
    return decidedWaitAfter(attempt) || observedWaitBefore(attempt);
}

std::optional<WaitInfo> drawnWait(const AttemptStore& store, qsizetype row)
{
    const PackedAttempt p = store.packed(row);
    if (decidedWaitAfter(p)) {
        WaitInfo w;
        w.runId = p.runId;
        w.nextIndex = p.index + 1;
        w.decision = *store.decision(row);
        w.scheduledAt = ns(p.at[PackedAttempt::Finished]);
        w.dueAt = w.scheduledAt + w.decision.delay;
        return w;
    }
    if (!observedWaitBefore(p))
        return std::nullopt;
    const MonoTime started = ns(p.at[PackedAttempt::Started]);
    const MonoTime waited = ns(p.clientWaitNs);
    WaitInfo w;
    w.runId = p.runId;
    w.nextIndex = p.index;
    w.dueAt = started;
    w.scheduledAt = started - waited;
    RetryDecision& d = w.decision;
    d.verdict = Verdict::Retry;
    d.delay = std::chrono::duration_cast<Millis>(waited);
    d.delayLow = d.delayHigh = d.delay;
    d.source = DelaySource::Backoff;
    if (p.askedForMs != PackedAttempt::kUnset) {
        const Millis asked(p.askedForMs);
        const QByteArrayView by = store.strings().view(p.askedBy);
        d.serverAskedFor = asked;
        d.hintHeader = QString::fromUtf8(by);
        if (honouredAsk(d.delay, asked)) {
            d.source = by == "retry-after" ? DelaySource::RetryAfter
                : by == "retry-after-ms"   ? DelaySource::RetryAfterMs
                                           : DelaySource::ServerHint;
        }
    }
    d.reason = tr("the client waited %1 ms before attempt %2 (observed)").arg(d.delay.count()).arg(p.index);
    return w;
}

std::optional<WaitInfo> throttleHold(const AttemptStore& store, qsizetype row)
{
    const PackedAttempt p = store.packed(row);
    if (p.observed || p.throttleWaitMs <= 0 || p.at[PackedAttempt::Started] == PackedAttempt::kUnset)
        return std::nullopt;
    const MonoTime started = ns(p.at[PackedAttempt::Started]);
    const Millis held(p.throttleWaitMs);
    WaitInfo w;
    w.runId = p.runId;
    w.nextIndex = p.index;
    w.throttleHold = true;
    w.scheduledAt = started - held;
    w.dueAt = p.at[PackedAttempt::Scheduled] != PackedAttempt::kUnset ? ns(p.at[PackedAttempt::Scheduled]) : started;
    if (w.dueAt < w.scheduledAt)
        w.dueAt = w.scheduledAt;
    RetryDecision& d = w.decision;
    d.verdict = Verdict::Retry;
    d.delay = d.ceiling = d.delayLow = d.delayHigh = std::chrono::duration_cast<Millis>(w.dueAt - w.scheduledAt);
    d.source = DelaySource::Throttle;
    d.reason = tr("attempt %1 held back %2 for the host's rate-limit reset").arg(p.index).arg(formatMillis(held));
    return w;
}

} // namespace AttemptWaits
