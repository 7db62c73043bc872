// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/labeventstore.h"

#include <algorithm>
#include <limits>

void LabEventStore::append(const LabEvent& e)
{
    Packed p;
    p.method = m_strings.intern(QByteArrayView(e.method));
    p.path = m_strings.intern(e.path);
    p.route = m_strings.intern(e.route);
    p.stepKind = m_strings.intern(e.stepKind);
    p.attemptId = m_strings.intern(e.attemptId);
    p.idempotencyKey = m_strings.intern(e.idempotencyKey);
    p.detail = m_strings.intern(e.detail);
    appendRow(p, e.kind, e.atMs, e.connectionId, e.requestId, e.status, e.applied);
}

void LabEventStore::append(const Fields& e)
{
    Packed p;
    p.method = m_strings.intern(e.method);
    p.path = m_strings.intern(e.path);
    p.route = m_strings.intern(e.route);
    p.stepKind = m_strings.intern(e.stepKind);
    p.attemptId = m_strings.intern(e.attemptId);
    p.idempotencyKey = m_strings.intern(e.idempotencyKey);
    p.detail = m_strings.intern(e.detail);
    appendRow(p, e.kind, e.atMs, e.connectionId, e.requestId, e.status, e.applied);
}

void LabEventStore::appendRow(Packed p, LabEvent::Kind kind, qint64 atMs, quint64 connectionId, quint64 requestId,
    int status, bool applied)
{
    p.atMs = atMs;
    p.connectionId = quint32(connectionId);
    p.requestId = quint32(requestId);
    p.status = qint16(status);
    p.kind = quint8(kind);
    p.flags = applied ? kApplied : 0;
    constexpr quint64 kNarrow = std::numeric_limits<quint32>::max();
    if (connectionId > kNarrow || requestId > kNarrow || status != p.status) {
        p.flags |= kWide;
        m_wide.push_back({ m_rows.size(), connectionId, requestId, status });
    }
    m_rows.append(p);
}

void LabEventStore::appendFrom(const LabEventStore& other, qsizetype i)
{
    Q_ASSERT(&other != this); // interning here could move the bytes the views point into
    append(other.fields(i));
}

LabEventStore::Fields LabEventStore::fields(qsizetype i) const
{
    const Packed& p = packed(i);
    Fields f;
    f.kind = LabEvent::Kind(p.kind);
    f.atMs = p.atMs;
    f.connectionId = p.connectionId;
    f.requestId = p.requestId;
    f.status = p.status;
    if (const Wide* w = wide(i)) {
        f.connectionId = w->connectionId;
        f.requestId = w->requestId;
        f.status = w->status;
    }
    f.applied = p.flags & kApplied;
    f.method = m_strings.view(p.method);
    f.path = m_strings.view(p.path);
    f.route = m_strings.view(p.route);
    f.stepKind = m_strings.view(p.stepKind);
    f.attemptId = m_strings.view(p.attemptId);
    f.idempotencyKey = m_strings.view(p.idempotencyKey);
    f.detail = m_strings.view(p.detail);
    return f;
}

LabEvent LabEventStore::at(qsizetype i) const
{
    const Packed& p = packed(i);
    LabEvent e;
    e.kind = LabEvent::Kind(p.kind);
    e.atMs = p.atMs;
    e.connectionId = p.connectionId;
    e.requestId = p.requestId;
    e.status = p.status;
    if (const Wide* w = wide(i)) {
        e.connectionId = w->connectionId;
        e.requestId = w->requestId;
        e.status = w->status;
    }
    e.method = m_strings.bytes(p.method);
    e.path = m_strings.string(p.path);
    e.route = m_strings.string(p.route);
    e.stepKind = m_strings.string(p.stepKind);
    e.attemptId = m_strings.string(p.attemptId);
    e.idempotencyKey = m_strings.string(p.idempotencyKey);
    e.applied = p.flags & kApplied;
    e.detail = m_strings.string(p.detail);
    return e;
}

const LabEventStore::Wide* LabEventStore::wide(qsizetype i) const
{
    if (!(packed(i).flags & kWide))
        return nullptr;
    const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), i, [](const Wide& w, qsizetype row) { return w.row < row; });
    return it != m_wide.end() && it->row == i ? &*it : nullptr;
}

void LabEventStore::clear()
{
    m_rows.clear();
    m_strings.clear();
    m_wide.clear();
    m_wide.shrink_to_fit();
}

qsizetype LabEventStore::memoryBytes() const
{
    return m_rows.memoryBytes() + m_strings.memoryBytes() + qsizetype(m_wide.capacity() * sizeof(Wide));
}
