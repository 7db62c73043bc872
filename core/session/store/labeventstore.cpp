// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/labeventstore.h"

void LabEventStore::append(const LabEvent& e)
{
    Packed p;
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
    m_rows.append(p);
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
    m_rows.clear();
    m_strings.clear();
}

qsizetype LabEventStore::memoryBytes() const
{
    return m_rows.memoryBytes() + m_strings.memoryBytes();
}
