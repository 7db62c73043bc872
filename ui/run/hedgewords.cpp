// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/hedgewords.h"

#include "engine/attemptrecord.h"
#include "session/session.h"
#include "session/store/storedattempt.h"

#include <QCoreApplication>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("HedgeWords", text);
}

// How the copy ended, after the dash; empty when there is nothing to say yet.
QString ending(const AttemptRecord& a, const HedgeWords::CopyContext& c, bool longForm)
{
    if (a.hedge->won)
        return tr("won");
    if (HedgeWords::isLost(a)) {
        if (c.winner <= 0)
            return tr("lost");
        return longForm ? tr("lost to copy %1, cancelled in flight").arg(c.winner) : tr("lost to copy %1").arg(c.winner);
    }
    if (a.refused)
        return tr("not sent");
    if (!a.at.finished)
        return tr("in flight");
    return tr("failed");
}

} // namespace

namespace HedgeWords {

bool isLost(const AttemptRecord& a)
{
    return a.hedge && !a.hedge->won && a.abortReason == AbortReason::HedgeLost;
}

CopyContext contextOf(const Session* session, const AttemptRecord& a)
{
    CopyContext c;
    if (!session || !a.hedge)
        return c;
    const qsizetype run = session->runIndex(a.runId);
    if (run < 0 || run >= session->runs.size())
        return c;
    const SessionRun& r = session->runs.at(run);
    for (const quint32 row : r.rows) {
        if (row >= quint32(session->attempts.size()))
            continue;
        const StoredAttempt other(session->attempts, row);
        const std::optional<HedgeFacts> facts = other.hedge();
        if (other.index() == a.index || !facts || !facts->won)
            continue;
        // Only a winner that had answered when this copy ended (a recording played back shows no later one).
        const std::optional<MonoTime> end = other.finished();
        if (!a.at.finished || (end && *end <= *a.at.finished))
            c.winner = other.index();
    }
    if (r.policy >= 0 && r.policy < session->policies.size()) {
        for (const ResilienceStrategy& s : session->policies.at(r.policy).pipeline) {
            if (s.kind == ResilienceStrategy::Kind::Hedging && s.hedging.delay.count() > 0)
                c.delay = s.hedging.delay;
        }
    }
    return c;
}

QString label(const AttemptRecord& a, const CopyContext& context)
{
    if (!a.hedge)
        return {};
    QString what;
    switch (a.hedge->trigger) {
    case HedgeFacts::Trigger::First:
        what = tr("copy %1").arg(a.index);
        break;
    case HedgeFacts::Trigger::Delay:
        what = tr("copy %1 (after the delay)").arg(a.index);
        break;
    case HedgeFacts::Trigger::Failure:
        what = tr("copy %1 (after a failure)").arg(a.index);
        break;
    case HedgeFacts::Trigger::Parallel:
        what = tr("copy %1 (in parallel)").arg(a.index);
        break;
    }
    if (what.isEmpty())
        what = tr("copy %1").arg(a.index);
    const QString end = ending(a, context, false);
    return end.isEmpty() ? what : tr("%1 — %2").arg(what, end);
}

QString sentence(const AttemptRecord& a, const CopyContext& context)
{
    if (!a.hedge)
        return {};
    QString why;
    switch (a.hedge->trigger) {
    case HedgeFacts::Trigger::First:
        why = tr("the request's first copy");
        break;
    case HedgeFacts::Trigger::Delay:
        why = context.delay ? tr("sent after the %1 hedging delay").arg(formatMillis(*context.delay))
                            : tr("sent after the hedging delay");
        break;
    case HedgeFacts::Trigger::Failure:
        why = tr("sent at once after a copy failed");
        break;
    case HedgeFacts::Trigger::Parallel:
        why = tr("sent at once, in parallel with the others");
        break;
    }
    if (why.isEmpty())
        why = tr("a copy of the request");
    const QString end = ending(a, context, true);
    const QString head = tr("copy %1: %2").arg(a.index).arg(why);
    return end.isEmpty() ? head : tr("%1 — %2").arg(head, end);
}

QString lostReason(const AttemptRecord& a, const CopyContext& context)
{
    if (!isLost(a))
        return {};
    if (context.winner > 0)
        return tr("cancelled in flight when copy %1's answer won: nothing was decided on it").arg(context.winner);
    return tr("cancelled in flight when another copy's answer won: nothing was decided on it");
}

} // namespace HedgeWords
