// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every attempt of a session in compact form (see PackedAttempt): memory grows with the attempts, not with
// the JSON they were read from. record() rebuilds a full AttemptRecord on demand. The hot part of each
// attempt lives in chunks of a fixed size, so the store grows without copying what it holds (no doubling
// peak); the cold part exists only for an attempt that has a cold fact, in a table of its own.

#include "engine/attemptrecord.h"
#include "http/httpfield.h"
#include "session/store/chunkedrows.h"
#include "session/store/hugepageallocator.h"
#include "session/store/packedattempt.h"
#include "session/store/stringpool.h"

#include <bit>
#include <vector>

class AttemptStore
{
public:
    AttemptStore();

    qsizetype size() const { return m_size; }
    // Attempt ROW, both parts.
    PackedAttempt packed(qsizetype row) const
    {
        PackedAttempt p;
        static_cast<PackedAttemptHot&>(p) = hot(row);
        if (p.coldRow)
            static_cast<PackedAttemptCold&>(p) = m_cold[qsizetype(p.coldRow) - 1];
        return p;
    }
    // Its hot part alone, for a reader of many rows that needs only moments, status, decision or texts.
    const PackedAttemptHot& hot(qsizetype row) const
    {
        const Slot s = locate(size_t(row));
        return m_chunks[s.chunk][s.offset];
    }

    // The cold part of the attempt whose hot part is HOT (every fact unset when it has none).
    PackedAttemptCold cold(const PackedAttemptHot& hot) const
    {
        return hot.coldRow ? m_cold[qsizetype(hot.coldRow) - 1] : PackedAttemptCold();
    }

    qsizetype append(const AttemptRecord& record); // returns the row
    qsizetype append(const PackedAttempt& attempt); // texts already interned in strings()
    // Every row of OTHER after this store's, in order, with its texts and header blocks: what reading a
    // file's second half into a store of its own and then appending it gives (SessionFile::open). OTHER is
    // left empty; its rows are let go of as they are copied, so memory peaks at little more than both stores.
    void append(AttemptStore&& other);
    void setRunId(qsizetype row, qint32 runId) { hotRow(row).runId = runId; } // a file names the run after its attempts
    qsizetype coldCount() const { return m_cold.size(); } // attempts with a cold part

    // A header value's id: interned while the values under NAMEID repeat; once they turn out to be
    // (nearly) all different — an attempt-id header, a request id — stored without the dedupe table.
    quint32 headerValueId(quint32 nameId, QByteArrayView value);
    AttemptRecord record(qsizetype row) const;
    AttemptTimestamps timestamps(qsizetype row) const; // the moments alone, without building the record
    std::optional<RetryDecision> decision(qsizetype row) const; // the decision alone (none: cancelled)

    StringPool& strings() { return m_strings; }
    const StringPool& strings() const { return m_strings; }

    // Header blocks in one arena, each either whole, [count, name id, value id, …], or a patch of a whole
    // block with the same names, [kPatch | count, base offset, changes, (index, value id)…]. A block equal to
    // a recent one (the same answer headers on every attempt) is shared, not stored again; a block that
    // differs from a recent one with the same names in a few values (a request's attempt id and key, an
    // answer's Date and RateLimit) is stored as a patch of it.
    quint32 addHeaders(const HttpHeaderList& headers);
    quint32 addHeaderIds(const std::vector<quint32>& nameValueIds); // pairs of pool ids
    HttpHeaderList headers(quint32 offset) const;
    int headerCount(quint32 offset) const { return offset ? int(m_headerArena[offset] & ~kPatch) : 0; }
    QByteArrayView headerName(quint32 offset, int i) const { return m_strings.view(headerNameId(offset, i)); }
    QByteArrayView headerValue(quint32 offset, int i) const { return m_strings.view(headerValueIdAt(offset, i)); }
    quint32 headerNameId(quint32 offset, int i) const
    {
        if (m_headerArena[offset] & kPatch)
            offset = m_headerArena[offset + 1];
        return m_headerArena[offset + 1 + 2 * size_t(i)];
    }
    quint32 headerValueIdAt(quint32 offset, int i) const
    {
        if (m_headerArena[offset] & kPatch) {
            const quint32 changes = m_headerArena[offset + 2];
            for (quint32 k = 0; k < changes; ++k) {
                if (m_headerArena[offset + 3 + 2 * size_t(k)] == quint32(i))
                    return m_headerArena[offset + 4 + 2 * size_t(k)];
            }
            offset = m_headerArena[offset + 1];
        }
        return m_headerArena[offset + 2 + 2 * size_t(i)];
    }

    void reserve(qsizetype attempts) { m_chunks.reserve(locate(size_t(attempts)).chunk + 1); }
    void clear();
    qsizetype memoryBytes() const;

private:
    static constexpr quint32 kPatch = 0x8000'0000u;
    static constexpr quint32 kMaxChanges = 3; // a patch of more would save little
    bool blockEquals(quint32 offset, const std::vector<quint32>& ids) const;
    std::optional<RetryDecision> decisionOf(const PackedAttempt& p) const;
    PackedAttemptHot& hotRow(qsizetype row)
    {
        const Slot s = locate(size_t(row));
        return m_chunks[s.chunk][s.offset];
    }
    static constexpr size_t kChunk = (size_t(4) << 20) / sizeof(PackedAttemptHot); // attempts in 4 MiB (two huge pages)
    static constexpr size_t kFirst = 64; // attempts in the first chunk; chunk i < kGrowing holds kFirst << i
    static constexpr size_t kGrowing = [] {
        size_t n = 0;
        while ((kFirst << n) < kChunk)
            ++n;
        return n;
    }();
    static constexpr size_t kInGrowing = kFirst * ((size_t(1) << kGrowing) - 1); // rows in the growing chunks
    static constexpr size_t capacity(size_t chunk) { return chunk < kGrowing ? kFirst << chunk : kChunk; }
    struct Slot
    {
        size_t chunk;
        size_t offset;
    };
    static Slot locate(size_t row)
    {
        if (row < kInGrowing) {
            const size_t chunk = size_t(std::bit_width(row / kFirst + 1)) - 1;
            return { chunk, row - kFirst * ((size_t(1) << chunk) - 1) };
        }
        const size_t rest = row - kInGrowing;
        return { kGrowing + rest / kChunk, rest % kChunk };
    }
    using Chunk = std::vector<PackedAttemptHot, HugePageAllocator<PackedAttemptHot>>;
    struct ValueStats
    {
        quint32 seen = 0;
        quint32 fresh = 0;
        bool unique = false;
    };

    std::vector<Chunk> m_chunks; // chunk i reserved to capacity(i), never beyond
    qsizetype m_size = 0;
    std::vector<ValueStats> m_valueStats; // by header name id
    std::vector<quint32> m_recentBlocks; // two offsets a set, by a hash of the block (addHeaderIds)
    std::vector<quint32> m_bases; // the last whole block, by a hash of its names (addHeaderIds)
    ChunkedRows<PackedAttemptCold, 1024> m_cold; // 96 KiB a chunk
    ChunkedRows<quint32, 4096> m_headerArena; // 16 KiB chunks: no doubling, no copy as it grows, small for a small file
    StringPool m_strings;
};
