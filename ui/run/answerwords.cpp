// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/answerwords.h"

#include "engine/attemptrecord.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("AnswerWords", text);
}

} // namespace

namespace AnswerWords {

QString notSent(const AttemptRecord& a)
{
    if (!a.refused)
        return {};
    const StrategyRefusal& r = *a.refused;
    if (r.by == StrategyRefusal::By::RateLimiter)
        return tr("not sent — limiter full");
    if (r.state == CircuitBreaker::State::HalfOpen)
        return tr("not sent — circuit half-open (its probe is under way)");
    if (r.retryIn.count() > 0)
        return tr("not sent — circuit open (%1 left)").arg(formatMillis(r.retryIn));
    return tr("not sent — circuit open");
}

QString verdictWait(const AttemptRecord& a)
{
    if (!a.at.verdictWait)
        return {};
    const std::optional<MonoTime> until = a.at.queued ? a.at.queued : a.at.started ? a.at.started : a.at.finished;
    if (!until || *until < *a.at.verdictWait)
        return tr("waited for the half-open circuit's verdict");
    const auto waited = std::chrono::duration_cast<Millis>(*until - *a.at.verdictWait);
    return a.refused ? tr("waited %1 for the half-open circuit's verdict, then was refused").arg(formatMillis(waited))
                     : tr("waited %1 for the half-open circuit's verdict").arg(formatMillis(waited));
}

QString answer(const AttemptRecord& a)
{
    if (a.refused)
        return notSent(a);
    if (a.status && !a.error)
        return a.reasonPhrase.isEmpty() ? QString::number(*a.status) : u"%1 %2"_s.arg(*a.status).arg(a.reasonPhrase);
    if (a.error) {
        const QString cls = errorClassName(*a.error);
        if (a.status) // an answer that began but did not complete
            return tr("%1, then %2").arg(*a.status).arg(cls);
        return a.qtError.isEmpty() ? cls : u"%1: %2"_s.arg(cls, a.qtError);
    }
    if (a.abortReason == AbortReason::HedgeLost) // a hedged copy still in flight when another copy won
        return tr("no answer (cancelled: another copy won)");
    if (a.abortReason != AbortReason::None)
        return tr("no answer (%1)").arg(abortReasonName(a.abortReason));
    return tr("no answer");
}

QString transportError(const AttemptRecord& a)
{
    // For a complete HTTP answer Qt still sets an error (429 → UnknownContentError, 503 → ServiceUnavailable)
    // with a text about the status: that is the answer itself, already said.
    if (a.qtError.isEmpty() || (a.status && !a.error))
        return {};
    return a.qtError;
}

QString unreadRetryAfter(const AttemptRecord& a)
{
    if (!a.retryAfter || !a.retryAfter->delay || !a.decision || a.decision->serverAskedFor)
        return {};
    const QString field = a.retryAfter->source.isEmpty() ? u"retry-after"_s : a.retryAfter->source;
    const QString said = u"%1: %2"_s.arg(field, QString::fromLatin1(a.retryAfter->raw));
    if (a.decision->verdict == Verdict::Retry)
        return tr("The answer said %1 (%2); this policy does not read it, so the wait (%3) is its %4.")
            .arg(said, formatMillis(*a.retryAfter->delay), formatMillis(a.decision->delay),
                delaySourceName(a.decision->source));
    return tr("The answer said %1 (%2); this policy does not read it.").arg(said, formatMillis(*a.retryAfter->delay));
}

QString observedWait(const AttemptRecord& attempt)
{
    if (!attempt.observed || !attempt.observed->clientWait)
        return {};
    return formatMillis(std::chrono::duration_cast<Millis>(*attempt.observed->clientWait));
}

QString observedReason(const AttemptRecord& attempt)
{
    if (!attempt.observed)
        return {};
    const ObservedAttemptFacts& o = *attempt.observed;
    if (!o.clientWait)
        return tr("Sent by the client, seen by the lab: its first attempt.");
    if (!o.askedFor) {
        return tr("The client sent it again %1 after the previous answer, which asked for no wait.")
            .arg(observedWait(attempt));
    }
    return tr("The client sent it again %1 after the previous answer, which asked for %2 (%3).")
        .arg(observedWait(attempt), formatMillis(*o.askedFor), o.askedBy);
}

} // namespace AnswerWords
