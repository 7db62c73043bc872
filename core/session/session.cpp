// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/session.h"

#include <QSysInfo>

SessionMeta SessionMeta::current()
{
    SessionMeta m;
    m.appVersion = QStringLiteral(RETRYLAB_VERSION);
    m.createdUtc = QDateTime::currentDateTimeUtc();
    m.wallOriginUtc = m.createdUtc;
    m.host = QSysInfo::machineHostName();
    return m;
}

qsizetype Session::addPolicy(const RetryPolicy& policy)
{
    for (qsizetype i = policies.size() - 1; i >= 0; --i) {
        if (policies.at(i) == policy)
            return i;
    }
    policies.append(policy);
    return policies.size() - 1;
}

qsizetype Session::addRequest(const RequestSpec& request)
{
    for (qsizetype i = requests.size() - 1; i >= 0; --i) {
        if (requests.at(i) == request)
            return i;
    }
    requests.append(request);
    return requests.size() - 1;
}

qsizetype Session::runIndex(int runId) const
{
    if (m_runsUnordered)
        return m_runIndex.value(runId, -1);
    // Runs in ascending id order (as a batch numbers and records them): a binary search over their ids,
    // no hash entry per run.
    qsizetype lo = 0;
    qsizetype hi = runs.size();
    while (lo < hi) {
        const qsizetype mid = lo + (hi - lo) / 2;
        if (runs.at(mid).runId < runId)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < runs.size() && runs.at(lo).runId == runId ? lo : -1;
}

void Session::indexLastRun()
{
    const qsizetype i = runs.size() - 1;
    if (m_runsUnordered)
        m_runIndex.insert(runs.at(i).runId, i);
    else if (i > 0 && runs.at(i).runId <= runs.at(i - 1).runId)
        rebuildIndex(); // out of order (or an id twice): a hash from now on
}

SessionRun& Session::run(int runId)
{
    const qsizetype i = runIndex(runId);
    if (i >= 0)
        return runs[i];
    SessionRun r;
    r.runId = runId;
    runs.append(r);
    indexLastRun();
    return runs.last();
}

const SessionRun* Session::findRun(int runId) const
{
    const qsizetype i = runIndex(runId);
    return i >= 0 ? &runs.at(i) : nullptr;
}

void Session::rebuildIndex()
{
    m_runIndex.clear();
    m_runsUnordered = false;
    for (qsizetype i = 1; i < runs.size() && !m_runsUnordered; ++i)
        m_runsUnordered = runs.at(i).runId <= runs.at(i - 1).runId;
    if (!m_runsUnordered)
        return;
    for (qsizetype i = 0; i < runs.size(); ++i)
        m_runIndex.insert(runs.at(i).runId, i); // an id twice: the later run, as before
}

SessionRun& Session::appendRun(const SessionRun& r)
{
    runs.append(r);
    share(runs.last().reason);
    indexLastRun();
    return runs.last();
}

SessionRun& Session::appendRun(SessionRun&& r)
{
    share(r.reason);
    runs.append(std::move(r));
    indexLastRun();
    return runs.last();
}

void Session::share(QString& text)
{
    if (text.isEmpty())
        return;
    const auto held = m_sharedTexts.constFind(text);
    if (held != m_sharedTexts.cend())
        text = *held;
    else if (m_sharedTexts.size() < kSharedTexts)
        m_sharedTexts.insert(text);
}

void Session::setRunFacts(const RunSummary& r)
{
    SessionRun& s = run(r.runId);
    s.policy = r.observed ? -1 : addPolicy(r.policy);
    s.request = addRequest(r.request);
    s.seed = r.seed;
    s.submittedNs = r.submittedAt.count();
    s.startedNs = r.startedAt ? r.startedAt->count() : PackedAttempt::kUnset;
    s.finishedNs = r.finishedAt ? r.finishedAt->count() : PackedAttempt::kUnset;
    s.outcome = r.outcome;
    s.reason = r.reason;
    share(s.reason);
    s.serverAskedForMs = r.serverAskedFor ? r.serverAskedFor->count() : PackedAttempt::kUnset;
    s.totalWaitMs = r.totalWait.count();
    s.observed = r.observed;
}

qsizetype Session::appendAttempt(const AttemptRecord& a)
{
    SessionRun& s = run(a.runId);
    const qsizetype row = attempts.append(a);
    s.rows.append(quint32(row));
    return row;
}

void Session::addAttempt(const AttemptRecord& a)
{
    SessionRun& s = run(a.runId);
    for (quint32 row : std::as_const(s.rows)) {
        if (attempts.hot(row).index == a.index)
            return; // already recorded (a journal replayed twice)
    }
    s.rows.append(quint32(attempts.append(a)));
}

void Session::addRun(const RunRecord& r)
{
    setRunFacts(r);
    for (const AttemptRecord& a : r.attempts)
        addAttempt(a);
}

RunRecord Session::runRecord(qsizetype i, bool withAttempts) const
{
    const SessionRun& s = runs.at(i);
    RunRecord r;
    r.runId = s.runId;
    if (s.request >= 0 && s.request < requests.size())
        r.request = requests.at(s.request);
    if (s.policy >= 0 && s.policy < policies.size())
        r.policy = policies.at(s.policy);
    r.seed = s.seed;
    r.submittedAt = MonoTime(s.submittedNs);
    if (s.startedNs != PackedAttempt::kUnset)
        r.startedAt = MonoTime(s.startedNs);
    if (s.finishedNs != PackedAttempt::kUnset)
        r.finishedAt = MonoTime(s.finishedNs);
    r.attemptCount = int(s.rows.size());
    r.outcome = s.outcome;
    r.reason = s.reason;
    if (s.serverAskedForMs != PackedAttempt::kUnset)
        r.serverAskedFor = Millis(s.serverAskedForMs);
    r.totalWait = Millis(s.totalWaitMs);
    r.observed = s.observed;
    if (withAttempts) {
        for (quint32 row : s.rows)
            r.attempts.append(attempts.record(row));
    }
    return r;
}

QList<RunRecord> Session::runRecords() const
{
    QList<RunRecord> out;
    for (qsizetype i = 0; i < runs.size(); ++i)
        out.append(runRecord(i));
    return out;
}

std::vector<qint32> Session::labEventRuns() const
{
    std::vector<qint32> out(size_t(labEvents.size()), kNoRun);
    if (labEvents.isEmpty() || attempts.size() == 0)
        return out;
    // The attempts' ids by row + 1, and whether a second attempt had that id.
    size_t width = 1024;
    while (width < size_t(attempts.size()) * 2)
        width *= 2;
    KeyedSlots rows(width);
    std::vector<bool> twice(width, false);
    const StringPool& texts = attempts.strings();
    const auto idOf = [&](quint32 slot) { return texts.view(attempts.hot(qsizetype(slot) - 1).attemptId); };
    for (qsizetype row = 0; row < attempts.size(); ++row) {
        const QByteArrayView id = texts.view(attempts.hot(row).attemptId);
        if (id.isEmpty())
            continue;
        const size_t hash = KeyedSlots::hash(id);
        const size_t i = rows.probe(id, hash, idOf);
        if (rows.value(i))
            twice[i] = true;
        else
            rows.set(i, quint32(row + 1), hash);
    }
    for (qsizetype e = 0; e < labEvents.size(); ++e) {
        const QByteArrayView id = labEvents.attemptIdUtf8(e);
        if (id.isEmpty())
            continue;
        const size_t i = rows.probe(id, KeyedSlots::hash(id), idOf);
        if (const quint32 row = rows.value(i); row && !twice[i])
            out[size_t(e)] = attempts.hot(qsizetype(row) - 1).runId;
    }
    return out;
}
