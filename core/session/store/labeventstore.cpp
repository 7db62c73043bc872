// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/labeventstore.h"

void LabEventStore::append(const LabEvent& e)
{
    if (m_size == qsizetype(m_chunks.size()) * kChunk)
        m_chunks.push_back(std::make_unique_for_overwrite<Packed[]>(size_t(kChunk)));
    Packed& p = m_chunks.back()[size_t(m_size % kChunk)];
    p.atMs = e.atMs;
    p.connectionId = e.connectionId;
    p.requestId = e.requestId;
    p.method = m_strings.intern(QByteArrayView(e.method));
    p.path = m_strings.intern(e.path);
    p.route = m_strings.intern(e.route);
    p.stepKind = m_strings.intern(e.stepKind);
    p.attemptId = m_strings.intern(e.attemptId);
    p.idempotencyKey = m_strings.intern(e.idempotencyKey);
    p.detail = m_strings.intern(e.detail);
    p.status = qint32(e.status);
    p.kind = quint8(e.kind);
    p.applied = e.applied;
    ++m_size;
}

LabEvent LabEventStore::at(qsizetype i) const
{
    const Packed& p = packed(i);
    LabEvent e;
    e.kind = LabEvent::Kind(p.kind);
    e.atMs = p.atMs;
    e.connectionId = p.connectionId;
    e.requestId = p.requestId;
    e.method = m_strings.bytes(p.method);
    e.path = m_strings.string(p.path);
    e.route = m_strings.string(p.route);
    e.stepKind = m_strings.string(p.stepKind);
    e.status = p.status;
    e.attemptId = m_strings.string(p.attemptId);
    e.idempotencyKey = m_strings.string(p.idempotencyKey);
    e.applied = p.applied;
    e.detail = m_strings.string(p.detail);
    return e;
}

void LabEventStore::clear()
{
    m_chunks.clear();
    m_size = 0;
    m_strings.clear();
}

qsizetype LabEventStore::memoryBytes() const
{
    return qsizetype(m_chunks.size()) * kChunk * qsizetype(sizeof(Packed))
        + qsizetype(m_chunks.capacity() * sizeof(m_chunks[0])) + m_strings.memoryBytes();
}
