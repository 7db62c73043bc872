// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/attemptstore.h"

#include "engine/requestheaders.h"

#include <algorithm>
#include <cmath>

namespace {

qint64 ns(const std::optional<MonoTime>& t)
{
    return t ? qint64(t->count()) : PackedAttempt::kUnset;
}

std::optional<MonoTime> mono(qint64 v)
{
    if (v == PackedAttempt::kUnset)
        return std::nullopt;
    return MonoTime(v);
}

} // namespace

AttemptStore::AttemptStore()
{
    clear();
}

void AttemptStore::clear()
{
    m_chunks.clear();
    m_size = 0;
    m_cold.clear();
    m_valueStats.clear();
    m_recentBlocks.clear();
    m_bases.clear();
    m_headerArena.clear();
    m_headerArena.append(0u); // offset 0 = no headers
    m_strings.clear();
}

bool AttemptStore::blockEquals(quint32 offset, const std::vector<quint32>& ids) const
{
    if (!offset || size_t(headerCount(offset)) * 2 != ids.size())
        return false;
    for (size_t i = 0; i < ids.size() / 2; ++i) {
        if (headerNameId(offset, int(i)) != ids[2 * i] || headerValueIdAt(offset, int(i)) != ids[2 * i + 1])
            return false;
    }
    return true;
}

quint32 AttemptStore::addHeaderIds(const std::vector<quint32>& ids)
{
    if (ids.empty())
        return 0;
    // Recent blocks by a hash of their ids, two to a set: a block seen again moves to the set's first
    // place and stays there, while blocks seen once (a request's, with its unique attempt id) only ever
    // replace the second. One place a hash let those evict the block every answer shares.
    static constexpr size_t kSets = 1024;
    size_t hash = ids.size();
    size_t names = ids.size();
    for (size_t i = 0; i < ids.size(); ++i) {
        hash = hash * 1000003u ^ ids[i];
        if (i % 2 == 0)
            names = names * 1000003u ^ ids[i];
    }
    const size_t set = 2 * ((hash ^ (hash >> 17)) & (kSets - 1));
    if (m_recentBlocks.empty()) {
        m_recentBlocks.assign(2 * kSets, 0u);
        m_bases.assign(kSets, 0u);
    }
    if (blockEquals(m_recentBlocks[set], ids))
        return m_recentBlocks[set];
    if (const quint32 second = m_recentBlocks[set + 1]; blockEquals(second, ids)) {
        std::swap(m_recentBlocks[set], m_recentBlocks[set + 1]);
        return second;
    }
    const auto offset = quint32(m_headerArena.size());
    m_recentBlocks[set + 1] = offset;

    // A whole block with the same names and at most kMaxChanges other values: store the changes alone.
    const quint32 count = quint32(ids.size() / 2);
    quint32& base = m_bases[(names ^ (names >> 17)) & (kSets - 1)];
    if (base && headerCount(base) == int(count)) {
        quint32 changed[kMaxChanges];
        quint32 changes = 0;
        bool sameNames = true;
        for (quint32 i = 0; sameNames && changes <= kMaxChanges && i < count; ++i) {
            sameNames = m_headerArena[base + 1 + 2 * size_t(i)] == ids[2 * i];
            if (m_headerArena[base + 2 + 2 * size_t(i)] != ids[2 * i + 1]) {
                if (changes < kMaxChanges)
                    changed[changes] = i;
                ++changes;
            }
        }
        if (sameNames && changes <= kMaxChanges && 3 + 2 * changes < 1 + 2 * count) {
            m_headerArena.append(kPatch | count);
            m_headerArena.append(base);
            m_headerArena.append(changes);
            for (quint32 k = 0; k < changes; ++k) {
                m_headerArena.append(changed[k]);
                m_headerArena.append(ids[2 * changed[k] + 1]);
            }
            return offset;
        }
    }
    base = offset;
    m_headerArena.append(count);
    for (const quint32 id : ids)
        m_headerArena.append(id);
    return offset;
}

quint32 AttemptStore::addHeaders(const HttpHeaderList& headers)
{
    std::vector<quint32> ids;
    ids.reserve(size_t(headers.size()) * 2);
    for (const auto& [name, value] : headers) {
        const quint32 nameId = m_strings.intern(QByteArrayView(name));
        ids.push_back(nameId);
        ids.push_back(headerValueId(nameId, QByteArrayView(value)));
    }
    return addHeaderIds(ids);
}

HttpHeaderList AttemptStore::headers(quint32 offset) const
{
    HttpHeaderList out;
    const int n = headerCount(offset);
    out.reserve(n);
    for (int i = 0; i < n; ++i)
        out.append({ headerName(offset, i).toByteArray(), headerValue(offset, i).toByteArray() });
    return out;
}

quint32 AttemptStore::headerValueId(quint32 nameId, QByteArrayView value)
{
    // Judged on the first values seen: when three in four were new, the rest are taken to be new too.
    static constexpr quint32 kSample = 256;
    static constexpr quint32 kMaxTrackedNames = 1 << 16;
    if (nameId >= kMaxTrackedNames)
        return m_strings.intern(value);
    if (nameId >= m_valueStats.size())
        m_valueStats.resize(size_t(nameId) + 1);
    ValueStats& stats = m_valueStats[nameId];
    if (stats.unique)
        return m_strings.add(value);
    bool added = false;
    const quint32 id = m_strings.intern(value, &added);
    ++stats.seen;
    stats.fresh += added ? 1 : 0;
    if (stats.seen == kSample && stats.fresh * 4 >= stats.seen * 3)
        stats.unique = true;
    return id;
}

qsizetype AttemptStore::append(const PackedAttempt& attempt)
{
    if (m_chunks.empty() || m_chunks.back().size() >= capacity(m_chunks.size() - 1)) {
        m_chunks.emplace_back();
        m_chunks.back().reserve(capacity(m_chunks.size() - 1));
    }
    PackedAttemptHot& hot = m_chunks.back().emplace_back(attempt);
    hot.coldRow = 0;
    if (!attempt.isDefault()) {
        m_cold.append(attempt);
        hot.coldRow = quint32(m_cold.size());
    }
    return m_size++;
}

void AttemptStore::append(AttemptStore&& other)
{
    std::vector<quint32> ids;
    m_strings.append(other.m_strings, ids);
    // Its header blocks after ours, as they were laid out there: whole ones [count, (name, value)...] and
    // patches [kPatch | count, base, changes, (index, value)...], with texts and bases translated.
    const auto shift = quint32(m_headerArena.size() - 1); // its offset 0 means "no headers"
    const auto& arena = other.m_headerArena;
    for (qsizetype at = 1; at < arena.size();) {
        const quint32 head = arena[at];
        m_headerArena.append(head);
        if (head & kPatch) {
            const quint32 changes = arena[at + 2];
            m_headerArena.append(arena[at + 1] + shift);
            m_headerArena.append(changes);
            for (quint32 k = 0; k < changes; ++k) {
                m_headerArena.append(arena[at + 3 + 2 * qsizetype(k)]);
                m_headerArena.append(ids[arena[at + 4 + 2 * qsizetype(k)]]);
            }
            at += 3 + 2 * qsizetype(changes);
        } else {
            for (qsizetype k = 1; k <= 2 * qsizetype(head); ++k)
                m_headerArena.append(ids[arena[at + k]]);
            at += 1 + 2 * qsizetype(head);
        }
    }
    const auto block = [shift](quint32 offset) { return offset ? offset + shift : 0u; };
    reserve(m_size + other.m_size);
    for (qsizetype row = 0; row < other.m_size; ++row) {
        if (row > 0 && locate(size_t(row)).offset == 0) // the chunk before is copied: freed now
            Chunk().swap(other.m_chunks[locate(size_t(row - 1)).chunk]);
        PackedAttempt p = other.packed(row);
        for (quint32* text : { &p.method, &p.url, &p.reasonPhrase, &p.reason, &p.ruleName, &p.idempotencyKey, &p.attemptId,
                 &p.bodySha256, &p.bodyExcerpt, &p.qtError, &p.hintHeader, &p.redirectTarget, &p.retryAfterRaw,
                 &p.retryAfterSource, &p.askedBy, &p.refusedScope })
            *text = ids[*text];
        p.requestHeaders = block(p.requestHeaders);
        p.responseHeaders = block(p.responseHeaders);
        p.rateLimitHeaders = block(p.rateLimitHeaders);
        append(p);
    }
    other.clear();
}

qsizetype AttemptStore::append(const AttemptRecord& a)
{
    PackedAttempt p;
    StringPool& s = m_strings;
    const std::optional<MonoTime>* times[] = { &a.at.scheduled, &a.at.queued, &a.at.started, &a.at.connecting, &a.at.tlsDone,
        &a.at.requestSent, &a.at.headersReceived, &a.at.firstByte, &a.at.finished };
    for (int i = 0; i < PackedAttempt::SlotCount; ++i)
        p.at[i] = ns(*times[i]);
    p.runId = a.runId;
    p.index = a.index;
    p.phaseReached = qint8(a.phaseReached);
    p.method = s.intern(a.method);
    p.url = s.intern(a.url.toString(QUrl::FullyEncoded));
    // Unique per attempt: not worth a table entry. The attempt-id header sends the same text: one copy.
    const QByteArray attemptId = a.attemptId.toUtf8();
    p.attemptId = s.add(QByteArrayView(attemptId));
    std::vector<quint32> sent;
    sent.reserve(size_t(a.requestHeaders.size()) * 2);
    for (const SentHeader& h : a.requestHeaders) {
        const quint32 nameId = s.intern(QByteArrayView(h.name));
        sent.push_back(nameId);
        sent.push_back(p.attemptId && h.value == attemptId ? p.attemptId : headerValueId(nameId, QByteArrayView(h.value)));
    }
    p.requestHeaders = addHeaderIds(sent);
    p.bodySize = a.bodySize;
    p.bodySha256 = s.intern(QByteArrayView(a.bodySha256));
    p.bytesUp = a.bytesUp;
    p.bytesDown = a.bytesDown;
    p.connectionReused = a.connectionReused;
    p.http2 = a.http2Used;
    p.requestSentSignals = qint16(a.requestSentSignals);
    p.idempotencyKey = s.intern(a.idempotencyKey);
    p.status = a.status.value_or(-1);
    p.reasonPhrase = s.intern(a.reasonPhrase);
    p.responseHeaders = addHeaders(a.responseHeaders);
    p.bodyExcerpt = s.intern(QByteArrayView(a.bodyExcerpt));
    p.bodyExcerptTruncated = a.bodyExcerptTruncated;
    p.error = a.error ? qint8(*a.error) : qint8(-1);
    p.qtError = s.intern(a.qtError);
    p.qtErrorCode = a.qtErrorCode;
    p.abortReason = qint8(a.abortReason);
    p.redirectTarget = a.redirectTarget ? s.intern(a.redirectTarget->toString(QUrl::FullyEncoded)) : 0;
    if (const auto& d = a.decision) {
        p.verdict = qint8(d->verdict);
        p.finalKind = qint8(d->finalKind);
        p.delayMs = d->delay.count();
        p.ceilingMs = d->ceiling.count();
        p.delayLowMs = d->delayLow.count();
        p.delayHighMs = d->delayHigh.count();
        p.delaySource = qint8(d->source);
        p.hintHeader = s.intern(d->hintHeader);
        p.serverAskedForMs = d->serverAskedFor ? d->serverAskedFor->count() : PackedAttempt::kUnset;
        p.ruleName = s.intern(d->ruleName);
        p.throttling = d->throttling;
        p.quotaCost = d->quotaCost;
        p.reason = s.intern(d->reason);
    }
    if (a.retryAfter) {
        p.retryAfterValid = true;
        p.retryAfterMs = a.retryAfter->delay ? a.retryAfter->delay->count() : PackedAttempt::kUnset;
        p.retryAfterRaw = s.intern(QByteArrayView(a.retryAfter->raw));
        p.retryAfterSource = s.intern(a.retryAfter->source);
    }
    p.rateLimitHeaders = addHeaders(a.rateLimitHeaders);
    p.throttleWaitMs = a.throttleWait.count();
    p.verdictWaitNs = ns(a.at.verdictWait);
    if (const auto& r = a.refused) {
        p.refusedBy = qint8(r->by);
        p.refusedState = qint8(r->state);
        p.refusedRetryInMs = r->retryIn.count();
        p.refusedScope = s.intern(r->scope);
    }
    if (const auto& h = a.hedge) {
        p.hedgeTrigger = qint8(h->trigger);
        p.hedgeWon = h->won;
    }
    if (const auto& o = a.observed) {
        p.observed = true;
        p.clientWaitNs = o->clientWait ? qint64(o->clientWait->count()) : PackedAttempt::kUnset;
        p.askedForMs = o->askedFor ? o->askedFor->count() : PackedAttempt::kUnset;
        p.askedBy = s.intern(o->askedBy);
        p.exchange = qint64(o->exchange);
    }
    if (a.budgetAfter.quotaTokens)
        p.quotaTokens = *a.budgetAfter.quotaTokens;
    if (a.budgetAfter.throttlingTokens)
        p.throttlingTokens = *a.budgetAfter.throttlingTokens;
    if (a.budgetAfter.hostResetIn)
        p.hostResetInMs = a.budgetAfter.hostResetIn->count();
    return append(p);
}

AttemptTimestamps AttemptStore::timestamps(qsizetype row) const
{
    const PackedAttemptHot& p = hot(row);
    AttemptTimestamps at;
    std::optional<MonoTime>* times[] = { &at.scheduled, &at.queued, &at.started, &at.connecting, &at.tlsDone,
        &at.requestSent, &at.headersReceived, &at.firstByte, &at.finished };
    for (int i = 0; i < PackedAttempt::SlotCount; ++i)
        *times[i] = mono(p.at[i]);
    if (p.coldRow)
        at.verdictWait = mono(cold(p).verdictWaitNs);
    return at;
}

std::optional<RetryDecision> AttemptStore::decision(qsizetype row) const
{
    return decisionOf(packed(row));
}

std::optional<RetryDecision> AttemptStore::decisionOf(const PackedAttempt& p) const
{
    if (p.verdict < 0)
        return std::nullopt;
    const StringPool& s = m_strings;
    RetryDecision d;
    d.verdict = Verdict(p.verdict);
    d.finalKind = FinalKind(p.finalKind);
    d.delay = Millis(p.delayMs == PackedAttempt::kUnset ? 0 : p.delayMs);
    d.ceiling = Millis(p.ceilingMs);
    d.delayLow = Millis(p.delayLowMs);
    d.delayHigh = Millis(p.delayHighMs);
    d.source = DelaySource(p.delaySource);
    d.hintHeader = s.string(p.hintHeader);
    if (p.serverAskedForMs != PackedAttempt::kUnset)
        d.serverAskedFor = Millis(p.serverAskedForMs);
    d.ruleName = s.string(p.ruleName);
    d.throttling = p.throttling;
    d.quotaCost = p.quotaCost;
    d.reason = s.string(p.reason);
    return d;
}

AttemptRecord AttemptStore::record(qsizetype row) const
{
    const PackedAttempt p = packed(row);
    const StringPool& s = m_strings;
    AttemptRecord a;
    a.at = timestamps(row);
    a.runId = p.runId;
    a.index = p.index;
    a.phaseReached = AttemptPhase(p.phaseReached);
    a.method = s.string(p.method);
    a.url = QUrl::fromEncoded(s.view(p.url).toByteArray());
    const int n = headerCount(p.requestHeaders);
    for (int i = 0; i < n; ++i) {
        const QByteArray name = headerName(p.requestHeaders, i).toByteArray();
        a.requestHeaders.append({ name, headerValue(p.requestHeaders, i).toByteArray(), isSecretHeader(name) });
    }
    a.bodySize = p.bodySize;
    a.bodySha256 = s.bytes(p.bodySha256);
    a.bytesUp = p.bytesUp;
    a.bytesDown = p.bytesDown;
    a.connectionReused = p.connectionReused;
    a.http2Used = p.http2;
    a.requestSentSignals = p.requestSentSignals;
    a.idempotencyKey = s.string(p.idempotencyKey);
    a.attemptId = s.string(p.attemptId);
    if (p.status >= 0)
        a.status = p.status;
    a.reasonPhrase = s.string(p.reasonPhrase);
    a.responseHeaders = headers(p.responseHeaders);
    a.bodyExcerpt = s.bytes(p.bodyExcerpt);
    a.bodyExcerptTruncated = p.bodyExcerptTruncated;
    if (p.error >= 0)
        a.error = ErrorClass(p.error);
    a.qtError = s.string(p.qtError);
    a.qtErrorCode = p.qtErrorCode;
    a.abortReason = AbortReason(p.abortReason);
    if (p.redirectTarget)
        a.redirectTarget = QUrl::fromEncoded(s.bytes(p.redirectTarget));
    a.decision = decisionOf(p); // P already holds both parts: not read again
    if (p.retryAfterValid) {
        RetryAfterValue r;
        if (p.retryAfterMs != PackedAttempt::kUnset)
            r.delay = Millis(p.retryAfterMs);
        r.raw = s.bytes(p.retryAfterRaw);
        r.source = s.string(p.retryAfterSource);
        a.retryAfter = r;
    }
    a.rateLimitHeaders = headers(p.rateLimitHeaders);
    a.throttleWait = Millis(p.throttleWaitMs);
    a.at.verdictWait = mono(p.verdictWaitNs);
    if (p.refusedBy >= 0) {
        StrategyRefusal r;
        r.by = StrategyRefusal::By(p.refusedBy);
        r.state = CircuitBreaker::State(p.refusedState);
        r.retryIn = Millis(p.refusedRetryInMs);
        r.scope = s.string(p.refusedScope);
        a.refused = r;
    }
    if (p.hedgeTrigger > 0)
        a.hedge = HedgeFacts { HedgeFacts::Trigger(p.hedgeTrigger), p.hedgeWon };
    if (p.observed) {
        ObservedAttemptFacts o;
        o.clientWait = mono(p.clientWaitNs);
        if (p.askedForMs != PackedAttempt::kUnset)
            o.askedFor = Millis(p.askedForMs);
        o.askedBy = s.string(p.askedBy);
        o.exchange = quint64(p.exchange);
        a.observed = o;
    }
    if (p.quotaTokens != std::numeric_limits<qint32>::min())
        a.budgetAfter.quotaTokens = p.quotaTokens;
    if (!std::isnan(p.throttlingTokens))
        a.budgetAfter.throttlingTokens = p.throttlingTokens;
    if (p.hostResetInMs != PackedAttempt::kUnset)
        a.budgetAfter.hostResetIn = Millis(p.hostResetInMs);
    return a;
}

qsizetype AttemptStore::memoryBytes() const
{
    size_t bytes = m_chunks.capacity() * sizeof(Chunk) + size_t(m_headerArena.memoryBytes())
        + (m_valueStats.capacity() * sizeof(ValueStats)) + (m_recentBlocks.capacity() + m_bases.capacity()) * sizeof(quint32);
    for (const Chunk& chunk : m_chunks)
        bytes += chunk.capacity() * sizeof(PackedAttemptHot);
    bytes += size_t(m_cold.memoryBytes());
    return qsizetype(bytes) + m_strings.memoryBytes();
}
