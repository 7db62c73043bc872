// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet/fleetsession.h"

#include "observe/serverask.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QTimeZone>
#include <QUrl>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fleet", text);
}

MonoTime monoAt(double wallS, double originS)
{
    return MonoTime(qint64(std::llround((wallS - originS) * 1e9)));
}

FinalKind outcomeOf(const FleetAttempt& last)
{
    if (last.decision == u"cut"_s)
        return FinalKind::Cancelled;
    if (!last.status)
        return FinalKind::Network;
    const int s = *last.status;
    if (last.decision == u"success"_s || (last.decision.isEmpty() && s < 400))
        return FinalKind::Success;
    if (s == 429)
        return FinalKind::RateLimited;
    if (s >= 500)
        return FinalKind::ServerError;
    return s >= 400 ? FinalKind::ClientError : FinalKind::Success;
}

AttemptRecord attemptRecord(const FleetAttempt& a, const FleetAttempt* previous, int runId, double originS,
    const RetryPolicy& policy, const QDateTime& wallOrigin)
{
    AttemptRecord r;
    r.runId = runId;
    r.index = a.attempt;
    r.at.scheduled = monoAt(a.startS, originS);
    r.at.started = r.at.scheduled;
    r.at.finished = monoAt(a.endS, originS);
    r.phaseReached = AttemptPhase::Finished;
    r.method = a.method;
    r.url = QUrl(a.url);
    const QByteArray attemptId = a.logical.toLatin1() + ";attempt=" + QByteArray::number(a.attempt);
    r.requestHeaders.append({ policy.idempotency.header.toLatin1(), a.key.toLatin1(), false });
    r.requestHeaders.append({ QByteArrayLiteral("X-Retrylab-Attempt"), attemptId, false });
    r.idempotencyKey = a.key;
    r.attemptId = QString::fromLatin1(attemptId);
    r.status = a.status;
    r.responseHeaders = a.responseHeaders;
    r.bytesDown = a.bytes;
    if (!a.status)
        r.error = errorClassFromName(a.error).value_or(ErrorClass::Protocol);
    ObservedAttemptFacts facts;
    if (previous) {
        facts.clientWait = monoAt(a.startS, originS) - monoAt(previous->endS, originS);
        if (previous->status) {
            const QDateTime answered = wallOrigin.addMSecs(qint64((previous->endS - originS) * 1000));
            if (const std::optional<ServerAsk> ask = serverAsk(previous->responseHeaders, answered)) {
                facts.askedFor = ask->delay;
                facts.askedBy = ask->by;
            }
        }
    }
    r.observed = facts;
    return r;
}

} // namespace

namespace FleetSession {

Session build(
    const QList<FleetAttempt>& attempts, const RetryPolicy& policy, const QString& notes, FleetGrouping* grouping)
{
    // Group by the logical id, in the order the logical requests began.
    QHash<QString, QList<const FleetAttempt*>> byLogical;
    double originS = attempts.isEmpty() ? 0 : attempts.first().startS;
    for (const FleetAttempt& a : attempts) {
        byLogical[a.logical].append(&a);
        originS = std::min(originS, a.startS);
    }
    QList<QList<const FleetAttempt*>> runs;
    runs.reserve(byLogical.size());
    for (auto it = byLogical.begin(); it != byLogical.end(); ++it) {
        QList<const FleetAttempt*>& list = it.value();
        std::sort(list.begin(), list.end(),
            [](const FleetAttempt* x, const FleetAttempt* y) { return x->attempt < y->attempt; });
        runs.append(list);
    }
    std::sort(runs.begin(), runs.end(), [](const auto& x, const auto& y) {
        return x.first()->startS != y.first()->startS ? x.first()->startS < y.first()->startS
                                                      : x.first()->logical < y.first()->logical;
    });

    Session session;
    session.meta = SessionMeta::current();
    session.meta.source = u"fleet"_s;
    session.meta.notes = notes;
    const qint64 originMs = qint64(std::floor(originS * 1000));
    session.meta.wallOriginUtc = QDateTime::fromMSecsSinceEpoch(originMs, QTimeZone::utc());
    originS = double(originMs) / 1000.0;
    session.redaction.salt = RedactionSettings::newSalt();
    session.addPolicy(policy);
    FleetGrouping g;
    int runId = 0;
    for (const QList<const FleetAttempt*>& list : std::as_const(runs)) {
        ++runId;
        bool exact = true;
        for (qsizetype i = 0; i < list.size(); ++i)
            exact = exact && list.at(i)->attempt == i + 1 && list.at(i)->key == list.first()->key;
        if (!exact)
            ++g.broken;
        const FleetAttempt& first = *list.first();
        const FleetAttempt& last = *list.last();
        RunRecord r;
        r.runId = runId;
        r.policy = policy;
        r.observed = ObservedGrouping { u"attempt-header"_s, u"x-retrylab-attempt: "_s + first.logical, false };
        r.request.method = first.method;
        r.request.url = QUrl(first.url);
        r.submittedAt = monoAt(first.startS, originS);
        r.startedAt = r.submittedAt;
        r.finishedAt = monoAt(last.endS, originS);
        r.attemptCount = int(list.size());
        r.outcome = outcomeOf(last);
        qint64 waited = 0;
        for (qsizetype i = 0; i < list.size(); ++i) {
            const FleetAttempt* previous = i > 0 ? list.at(i - 1) : nullptr;
            r.attempts.append(attemptRecord(*list.at(i), previous, runId, originS, policy, session.meta.wallOriginUtc));
            if (previous)
                waited += qint64(std::llround((list.at(i)->startS - previous->endS) * 1000));
        }
        r.totalWait = Millis(std::max<qint64>(0, waited));
        const QString answer = last.status ? QString::number(*last.status) : last.error;
        r.reason = last.decision == u"cut"_s
            ? tr("fleet: cut when the run's time was up, after %1 attempts").arg(list.size())
            : tr("fleet: %1 attempts, the last answered %2, the policy said %3")
                  .arg(list.size())
                  .arg(answer, last.decision.isEmpty() ? u"nothing"_s : last.decision);
        if (last.status) {
            const QDateTime answered = session.meta.wallOriginUtc.addMSecs(qint64((last.endS - originS) * 1000));
            if (const std::optional<ServerAsk> ask = serverAsk(last.responseHeaders, answered))
                r.serverAskedFor = ask->delay;
        }
        g.attempts += list.size();
        session.addRun(r);
    }
    g.runs = runs.size();
    session.meta.concurrency = 1;
    if (grouping)
        *grouping = g;
    return session;
}

} // namespace FleetSession
