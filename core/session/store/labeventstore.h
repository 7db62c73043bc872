// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fault lab's events in compact form, for views that hold every event of a long batch: 48 bytes an
// event and its texts interned once in a StringPool (method, path, route and step repeat on every request;
// an attempt id is shared by the three or four events of its exchange), instead of a LabEvent of 216 bytes
// with up to seven strings allocated each. Connection and request ids are counters that stay far below
// 2^32 and a status fits 16 bits: a row keeps those narrow, and the rare event that does not fit keeps the
// full values in a side list (exact either way). at() rebuilds the full LabEvent; the accessors read one field
// without building it. Events live in chunks of a fixed size: appending never moves what is held.
// Texts round-trip through UTF-8, which is exact for every string the lab builds (decoded from bytes, so
// no lone surrogates).

#include "lab/labevent.h"
#include "session/store/chunkedrows.h"
#include "session/store/stringpool.h"

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

    LabEvent::Kind kind(qsizetype i) const { return LabEvent::Kind(packed(i).kind); }
    qint64 atMs(qsizetype i) const { return packed(i).atMs; }
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
    struct Packed
    {
        qint64 atMs;
        quint32 connectionId; // low 32 bits; the whole id in m_wide when kWide is set
        quint32 requestId; // the same
        quint32 method;
        quint32 path;
        quint32 route;
        quint32 stepKind;
        quint32 attemptId;
        quint32 idempotencyKey;
        quint32 detail;
        qint16 status; // the same
        quint8 kind;
        quint8 flags; // kApplied | kWide
    };
    static_assert(sizeof(Packed) == 48);
    static constexpr quint8 kApplied = 1;
    static constexpr quint8 kWide = 2;
    // The values of an event whose ids or status do not fit its row, by row (appended in row order).
    struct Wide
    {
        qsizetype row;
        quint64 connectionId;
        quint64 requestId;
        int status;
    };
    void appendRow(Packed p, LabEvent::Kind kind, qint64 atMs, quint64 connectionId, quint64 requestId, int status,
        bool applied); // P has its texts' ids
    const Packed& packed(qsizetype i) const { return m_rows[i]; }
    const Wide* wide(qsizetype i) const;

    ChunkedRows<Packed, 1024> m_rows; // 64 KiB a chunk
    StringPool m_strings;
    std::vector<Wide> m_wide;
};
