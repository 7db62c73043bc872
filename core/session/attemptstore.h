// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every attempt of a session in compact form (see PackedAttempt): memory grows with the attempts, not with
// the JSON they were read from. record() rebuilds a full AttemptRecord on demand.

#include "engine/attemptrecord.h"
#include "http/httpfield.h"
#include "session/packedattempt.h"
#include "session/stringpool.h"

#include <vector>

class AttemptStore
{
public:
    AttemptStore();

    qsizetype size() const { return qsizetype(m_attempts.size()); }
    const PackedAttempt& packed(qsizetype row) const { return m_attempts[size_t(row)]; }
    PackedAttempt& packed(qsizetype row) { return m_attempts[size_t(row)]; }

    qsizetype append(const AttemptRecord& record); // returns the row
    qsizetype append(const PackedAttempt& attempt); // texts already interned in strings()
    AttemptRecord record(qsizetype row) const;

    StringPool& strings() { return m_strings; }
    const StringPool& strings() const { return m_strings; }

    // Header blocks: [count, name id, value id, …] in one arena.
    quint32 addHeaders(const HttpHeaderList& headers);
    quint32 addHeaderIds(const std::vector<quint32>& nameValueIds); // pairs of pool ids
    HttpHeaderList headers(quint32 offset) const;
    int headerCount(quint32 offset) const { return offset ? int(m_headerArena[offset]) : 0; }
    QByteArrayView headerName(quint32 offset, int i) const { return m_strings.view(m_headerArena[offset + 1 + 2 * size_t(i)]); }
    QByteArrayView headerValue(quint32 offset, int i) const { return m_strings.view(m_headerArena[offset + 2 + 2 * size_t(i)]); }

    void reserve(qsizetype attempts) { m_attempts.reserve(size_t(attempts)); }
    void clear();
    qsizetype memoryBytes() const;

private:
    std::vector<PackedAttempt> m_attempts;
    std::vector<quint32> m_headerArena;
    StringPool m_strings;
};
