// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fault lab's events in compact form, for views that hold every event of a long batch: 24 bytes an
// event, and what repeats held once. Texts are interned in a StringPool (an attempt id is shared by the
// three or four events of its exchange); an event's kind, status, flags and the texts that repeat on every
// request of a route (method, path, route, step, detail) are one shared "shape". A LabEvent is 216 bytes
// with up to seven strings allocated each. Times (from the first event's) and connection and request
// ids stay far below 2^31 and 2^32, and a status fits 16 bits: a row keeps those narrow, and the
// rare event that does not fit keeps the full values in a side list (exact either way). at() rebuilds the
// full LabEvent; the accessors read one field without building it. Events live in chunks of a fixed size:
// appending never moves what is held. Texts round-trip through UTF-8, which is exact for every string the
// lab builds (decoded from bytes, so no lone surrogates).

#include "lab/labevent.h"
#include "session/store/chunkedrows.h"
#include "session/store/stringpool.h"

#include <QHash>

#include <vector>

class LabEventStore
{
public:
    qsizetype size() const { return m_rows.size(); }
    bool isEmpty() const { return m_rows.isEmpty(); }

    // An event's fields with its texts as UTF-8 views (METHOD as its bytes), for a reader that has them as
    // bytes already: appended without building a LabEvent and its seven strings.
    struct Fields
    {
        LabEvent::Kind kind = LabEvent::Kind::RequestReceived;
        qint64 atMs = 0;
        quint64 connectionId = 0;
        quint64 requestId = 0;
        int status = 0;
        bool applied = false;
        QByteArrayView method, path, route, stepKind, attemptId, idempotencyKey, detail;
    };

    void append(const LabEvent& event);
    void append(const Fields& fields);
    // Event I of another store: its texts go from pool to pool as bytes, no LabEvent is built.
    void appendFrom(const LabEventStore& other, qsizetype i);
    Fields fields(qsizetype i) const; // the texts are views into this store, valid until it changes
    LabEvent at(qsizetype i) const;
    LabEvent value(qsizetype i) const { return i >= 0 && i < size() ? at(i) : LabEvent(); } // default when out of range

    LabEvent::Kind kind(qsizetype i) const { return LabEvent::Kind(shape(i).kind); }
    qint64 atMs(qsizetype i) const
    {
        const Wide* w = shape(i).flags & kWide ? wide(i) : nullptr;
        return w ? w->atMs : timeOf(packed(i));
    }
    bool hasAttemptId(qsizetype i) const { return packed(i).attemptId != 0; }
    QString attemptId(qsizetype i) const { return m_strings.string(packed(i).attemptId); }
    QByteArrayView attemptIdUtf8(qsizetype i) const { return m_strings.view(packed(i).attemptId); }
    // The attempt id as a number: equal for equal ids within this store, 0 for none, below textCount().
    // Counting by it costs no string per event (a view tallying receipts per attempt, say).
    quint32 attemptIdToken(qsizetype i) const { return packed(i).attemptId; }
    qsizetype textCount() const { return m_strings.count() + 1; }
    QString idempotencyKey(qsizetype i) const { return m_strings.string(packed(i).idempotencyKey); }
    QByteArrayView idempotencyKeyUtf8(qsizetype i) const { return m_strings.view(packed(i).idempotencyKey); }

    using const_iterator = RebuiltIterator<LabEventStore, LabEvent>;
    const_iterator begin() const { return { this, 0 }; }
    const_iterator end() const { return { this, size() }; }

    void clear();
    qsizetype memoryBytes() const;

private:
    // What an event shares with many others: its kind, status, flags and the texts that repeat on every
    // request of a route (method, path, route, step, detail). Kept once each; a row names its shape.
    struct Shape
    {
        quint32 method;
        quint32 path;
        quint32 route;
        quint32 stepKind;
        quint32 detail;
        qint16 status; // the whole status in m_wide when kWide is set
        quint8 kind;
        quint8 flags; // kApplied | kWide
        friend bool operator==(const Shape& a, const Shape& b) noexcept
        {
            return a.method == b.method && a.path == b.path && a.route == b.route && a.stepKind == b.stepKind
                && a.detail == b.detail && a.status == b.status && a.kind == b.kind && a.flags == b.flags;
        }
        friend size_t qHash(const Shape& s, size_t seed = 0) noexcept
        {
            return qHashMulti(seed, s.method, s.path, s.route, s.stepKind, s.detail, s.status, s.kind, s.flags);
        }
    };
    static_assert(sizeof(Shape) == 24);
    struct Packed
    {
        qint32 atMs; // from m_baseMs; the whole value in m_wide when the shape's kWide is set
        quint32 connectionId; // low 32 bits; the same
        quint32 requestId; // the same
        quint32 shape; // index in m_shapes
        quint32 attemptId; // texts of the event's own
        quint32 idempotencyKey;
    };
    static_assert(sizeof(Packed) == 24);
    static constexpr quint8 kApplied = 1;
    static constexpr quint8 kWide = 2;
    // The values of an event whose time, ids or status do not fit its row, by row (appended in row order).
    struct Wide
    {
        qsizetype row;
        qint64 atMs;
        quint64 connectionId;
        quint64 requestId;
        int status;
    };
    template<typename Event>
    void appendEvent(const Event& event); // a LabEvent or Fields
    void appendRow(Shape shape, quint32 attemptId, quint32 idempotencyKey, qint64 atMs, quint64 connectionId,
        quint64 requestId, int status); // SHAPE has its texts' ids, kind and kApplied
    const Packed& packed(qsizetype i) const { return m_rows[i]; }
    // A row's time: modulo 2^64, so no value (a hostile file's) overflows; exact whenever the row holds it.
    qint64 timeOf(const Packed& p) const { return qint64(quint64(m_baseMs) + quint64(qint64(p.atMs))); }
    const Shape& shape(qsizetype i) const { return m_shapes[packed(i).shape]; }
    const Wide* wide(qsizetype i) const;

    ChunkedRows<Packed, 2048> m_rows; // 48 KiB a chunk
    StringPool m_strings;
    std::vector<Shape> m_shapes;
    QHash<Shape, quint32> m_shapeIndex;
    std::vector<Wide> m_wide;
    qint64 m_baseMs = 0; // the first event's time
};
