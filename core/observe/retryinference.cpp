// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/retryinference.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

const QString kAttemptHeader = u"attempt-header"_s;
const QString kIdempotencyKey = u"idempotency-key"_s;
const QString kFingerprint = u"fingerprint"_s;

} // namespace

bool failedExchange(const LabExchange& e)
{
    if (e.status == 0 || (e.clientGoneMs && !e.responseFinishedMs))
        return true;
    if (!e.outcome.isEmpty() && e.outcome != u"answered"_s && e.outcome != u"rejected"_s)
        return true; // truncated, closed, reset, hang, garbage, client-gone
    return e.status == 408 || e.status == 409 || e.status == 425 || e.status == 429 || e.status >= 500;
}

qint64 exchangeEndMs(const LabExchange& e)
{
    if (e.responseFinishedMs)
        return *e.responseFinishedMs;
    if (e.clientGoneMs)
        return *e.clientGoneMs;
    if (e.labClosedMs)
        return *e.labClosedMs; // a reset, a FIN, a truncated answer: the client saw the end then
    qint64 last = e.arrivedMs;
    for (const std::optional<qint64>& t : { e.requestCompleteMs, e.responseStartedMs, e.upstreamEndMs })
        last = t ? std::max(last, *t) : last;
    return last;
}

RetryInference::RetryInference(InferenceOptions options)
    : m_options(std::move(options))
{
}

QString RetryInference::fingerprintOf(const LabExchange& e) const
{
    return e.clientAddress + u' ' + QString::fromUtf8(combinedHeader(e.requestHeaders, "user-agent")) + u' '
        + QString::fromLatin1(e.method) + u' ' + e.origin + QString::fromUtf8(e.target) + u" body "
        + QString::fromLatin1(e.requestBodySha256.left(12));
}

bool RetryInference::withinWindow(const ObservedRun& run, qint64 arrivedMs) const
{
    const LabExchange& last = run.attempts.last().exchange;
    return arrivedMs >= last.arrivedMs && arrivedMs - exchangeEndMs(last) <= m_options.window.count();
}

qsizetype RetryInference::findByCount(const AttemptEvidence& evidence, const QString& fingerprint, qint64 arrivedMs) const
{
    const QList<qsizetype> candidates = m_byFingerprint.value(fingerprint);
    for (auto it = candidates.crbegin(); it != candidates.crend(); ++it) {
        const ObservedRun& run = m_runs.at(*it);
        if (!withinWindow(run, arrivedMs))
            continue;
        const ObservedAttempt& last = run.attempts.last();
        if (last.evidence && last.evidence->header == evidence.header && last.evidence->runId.isEmpty()
            && last.evidence->attempt && evidence.attempt && *last.evidence->attempt == *evidence.attempt - 1)
            return *it;
        // Sent on retries only: the first retry follows an attempt that carried nothing.
        if (evidence.absentOnFirst && evidence.attempt == 2 && !last.evidence && run.attempts.size() == 1
            && run.grouping.rule == kFingerprint)
            return *it;
    }
    return -1;
}

qsizetype RetryInference::findByFingerprint(const QString& fingerprint, qint64 arrivedMs) const
{
    const QList<qsizetype> candidates = m_byFingerprint.value(fingerprint);
    for (auto it = candidates.crbegin(); it != candidates.crend(); ++it) {
        const ObservedRun& run = m_runs.at(*it);
        if (run.grouping.rule == kFingerprint && run.attempts.last().failed && withinWindow(run, arrivedMs))
            return *it;
    }
    return -1;
}

RetryInference::Placement RetryInference::append(qsizetype r, const LabExchange& e, std::optional<AttemptEvidence> evidence)
{
    ObservedRun& run = m_runs[r];
    const LabExchange& previous = run.attempts.last().exchange;
    ObservedAttempt a;
    a.exchange = e;
    a.index = int(run.attempts.size()) + 1;
    a.evidence = std::move(evidence);
    a.failed = failedExchange(e);
    a.clientWait = MonoTime(std::chrono::milliseconds(e.arrivedMs - exchangeEndMs(previous)));
    const qint64 answeredMs = previous.responseStartedMs.value_or(exchangeEndMs(previous));
    const QDateTime answeredAt = m_options.wallOrigin.isValid() ? m_options.wallOrigin.addMSecs(answeredMs)
                                                                : QDateTime::currentDateTimeUtc();
    if (previous.status > 0)
        a.askedBefore = serverAsk(previous.responseHeaders, answeredAt);
    run.attempts.append(a);
    ++m_attempts;
    return Placement { r, a.index, false };
}

RetryInference::Placement RetryInference::start(ObservedGrouping grouping, const LabExchange& e,
    std::optional<AttemptEvidence> evidence)
{
    ObservedRun run;
    run.id = int(m_runs.size()) + 1;
    run.grouping = std::move(grouping);
    ObservedAttempt a;
    a.exchange = e;
    a.evidence = std::move(evidence);
    a.failed = failedExchange(e);
    run.attempts.append(a);
    m_runs.append(run);
    ++m_attempts;
    const qsizetype r = m_runs.size() - 1;
    const QString fingerprint = fingerprintOf(e);
    m_byFingerprint[fingerprint].append(r);
    return Placement { r, 1, true };
}

RetryInference::Placement RetryInference::add(const LabExchange& e)
{
    const QString fingerprint = fingerprintOf(e);
    std::optional<AttemptEvidence> evidence = readAttemptEvidence(e.requestHeaders);
    if (evidence && !evidence->runId.isEmpty()) {
        const QByteArray id = evidence->header + '\n' + evidence->runId;
        if (const auto it = m_byId.constFind(id); it != m_byId.constEnd())
            return append(*it, e, std::move(evidence));
        ObservedGrouping grouping { kAttemptHeader, QString::fromLatin1(evidence->header) + u' ' + QString::fromUtf8(evidence->runId), false };
        const Placement p = start(std::move(grouping), e, std::move(evidence));
        m_byId.insert(id, p.run);
        return p;
    }
    if (evidence) {
        const QString header = QString::fromLatin1(evidence->header);
        const qsizetype r = evidence->attempt == 1 ? -1 : findByCount(*evidence, fingerprint, e.arrivedMs);
        if (r < 0)
            return start(ObservedGrouping { kAttemptHeader, header, false }, e, std::move(evidence));
        if (m_runs.at(r).grouping.rule != kAttemptHeader) // the unmarked first attempt of a retries-only header
            m_runs[r].grouping = ObservedGrouping { kAttemptHeader, header, false };
        return append(r, e, std::move(evidence));
    }
    if (const QByteArray key = idempotencyKeyOf(e.requestHeaders); !key.isEmpty()) {
        if (const auto it = m_byKey.constFind(key); it != m_byKey.constEnd())
            return append(*it, e, std::nullopt);
        const Placement p = start(ObservedGrouping { kIdempotencyKey, u"Idempotency-Key "_s + QString::fromUtf8(key), false }, e, std::nullopt);
        m_byKey.insert(key, p.run);
        return p;
    }
    if (const qsizetype r = findByFingerprint(fingerprint, e.arrivedMs); r >= 0)
        return append(r, e, std::nullopt);
    return start(ObservedGrouping { kFingerprint, fingerprint.simplified(), true }, e, std::nullopt);
}

QList<ObservedRun> RetryInference::infer(QList<LabExchange> exchanges, const InferenceOptions& options)
{
    std::stable_sort(exchanges.begin(), exchanges.end(), [](const LabExchange& a, const LabExchange& b) {
        return a.arrivedMs != b.arrivedMs ? a.arrivedMs < b.arrivedMs : a.requestId < b.requestId;
    });
    RetryInference inference(options);
    for (const LabExchange& e : std::as_const(exchanges))
        inference.add(e);
    return inference.runs();
}
