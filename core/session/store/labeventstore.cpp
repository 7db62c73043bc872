// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/labeventstore.h"

#include <algorithm>
#include <limits>

// LabEvent (texts as QStrings) and Fields (texts as UTF-8 views) name their fields alike: one recipe for
// both, the pool interning either kind of text.
template<typename Event>
void LabEventStore::appendEvent(const Event& e)
{
    Shape shape;
    shape.method = m_strings.intern(QByteArrayView(e.method));
    shape.path = m_strings.intern(e.path);
    shape.route = m_strings.intern(e.route);
    shape.stepKind = m_strings.intern(e.stepKind);
    shape.detail = m_strings.intern(e.detail);
    shape.kind = quint8(e.kind);
    shape.flags = e.applied ? kApplied : 0;
    appendRow(shape, m_strings.intern(e.attemptId), m_strings.intern(e.idempotencyKey), e.atMs, e.connectionId,
        e.requestId, e.status);
}

void LabEventStore::append(const LabEvent& e)
{
    appendEvent(e);
}

void LabEventStore::append(const Fields& e)
{
    appendEvent(e);
}

void LabEventStore::appendRow(Shape shape, quint32 attemptId, quint32 idempotencyKey, qint64 atMs,
    quint64 connectionId, quint64 requestId, int status)
{
    if (m_rows.isEmpty())
        m_baseMs = atMs; // times are kept from the first one: a span of 24 days fits a row
    Packed p;
    p.atMs = qint32(quint64(atMs) - quint64(m_baseMs)); // wraps when out of range: then kept whole below
    p.connectionId = quint32(connectionId);
    p.requestId = quint32(requestId);
    p.attemptId = attemptId;
    p.idempotencyKey = idempotencyKey;
    shape.status = qint16(status);
    constexpr quint64 kNarrow = std::numeric_limits<quint32>::max();
    if (atMs != timeOf(p) || connectionId > kNarrow || requestId > kNarrow || status != shape.status) {
        shape.flags |= kWide;
        shape.status = 0; // the status is the side list's: one shape for every such event
        m_wide.push_back({ m_rows.size(), atMs, connectionId, requestId, status });
    }
    const auto found = m_shapeIndex.constFind(shape);
    if (found != m_shapeIndex.cend()) {
        p.shape = *found;
    } else {
        p.shape = quint32(m_shapes.size());
        m_shapes.push_back(shape);
        m_shapeIndex.insert(shape, p.shape);
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
    const Shape& s = shape(i);
    Fields f;
    f.kind = LabEvent::Kind(s.kind);
    f.atMs = timeOf(p);
    f.connectionId = p.connectionId;
    f.requestId = p.requestId;
    f.status = s.status;
    if (const Wide* w = wide(i)) {
        f.atMs = w->atMs;
        f.connectionId = w->connectionId;
        f.requestId = w->requestId;
        f.status = w->status;
    }
    f.applied = s.flags & kApplied;
    f.method = m_strings.view(s.method);
    f.path = m_strings.view(s.path);
    f.route = m_strings.view(s.route);
    f.stepKind = m_strings.view(s.stepKind);
    f.attemptId = m_strings.view(p.attemptId);
    f.idempotencyKey = m_strings.view(p.idempotencyKey);
    f.detail = m_strings.view(s.detail);
    return f;
}

LabEvent LabEventStore::at(qsizetype i) const
{
    const Fields f = fields(i);
    LabEvent e;
    e.kind = f.kind;
    e.atMs = f.atMs;
    e.connectionId = f.connectionId;
    e.requestId = f.requestId;
    e.status = f.status;
    e.method = f.method.toByteArray();
    e.path = QString::fromUtf8(f.path);
    e.route = QString::fromUtf8(f.route);
    e.stepKind = QString::fromUtf8(f.stepKind);
    e.attemptId = QString::fromUtf8(f.attemptId);
    e.idempotencyKey = QString::fromUtf8(f.idempotencyKey);
    e.applied = f.applied;
    e.detail = QString::fromUtf8(f.detail);
    return e;
}

const LabEventStore::Wide* LabEventStore::wide(qsizetype i) const
{
    if (!(shape(i).flags & kWide))
        return nullptr;
    const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), i, [](const Wide& w, qsizetype row) { return w.row < row; });
    return it != m_wide.end() && it->row == i ? &*it : nullptr;
}

void LabEventStore::clear()
{
    m_rows.clear();
    m_strings.clear();
    m_shapes.clear();
    m_shapeIndex.clear();
    m_baseMs = 0;
    m_wide.clear();
    m_wide.shrink_to_fit();
}

qsizetype LabEventStore::memoryBytes() const
{
    // A hash node is its key and value; the table's spans add about a byte and a pointer's share per slot.
    const qsizetype indexBytes = qsizetype(m_shapeIndex.capacity()) * qsizetype(sizeof(Shape) + sizeof(quint32) + 2);
    return m_rows.memoryBytes() + m_strings.memoryBytes() + qsizetype(m_shapes.capacity() * sizeof(Shape)) + indexBytes
        + qsizetype(m_wide.capacity() * sizeof(Wide));
}
