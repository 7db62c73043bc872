// SPDX-License-Identifier: GPL-3.0-or-later
// The packed lab events a live view holds (issue 11 §2: the live window's memory per attempt): every field
// of every event reads back as it was appended, across chunk boundaries, the one-field accessors agree with
// the rebuilt event, texts that repeat are stored once, and an event costs well under the 216-byte struct
// plus its strings that the view held before.

#include "session/store/labeventstore.h"

#include <QTest>

#include <functional>
#include <limits>

using namespace Qt::StringLiterals;

class TestLabEventStore : public QObject
{
    Q_OBJECT

private slots:
    void fieldsReadBack_data();
    void fieldsReadBack();
    void eventsAcrossChunks();
    void wideValuesAmongNarrowOnes();
    void timesFromTheFirstEvent_data();
    void timesFromTheFirstEvent();
    void shapesAreShared();
    void outOfRangeValueIsDefault();
    void repeatedTextsAreStoredOnce();
    void clearStartsOver();
};

void TestLabEventStore::fieldsReadBack_data()
{
    QTest::addColumn<LabEvent>("event");
    LabEvent full;
    full.kind = LabEvent::Kind::OperationApplied;
    full.atMs = 9'007'199'254'740'993; // beyond a double's exact integers: stored as an integer
    full.connectionId = 0xFFFF'FFFF'FFFF'FFF0ULL;
    full.requestId = 42;
    full.method = "PATCH";
    full.path = u"/v1/payments/pay_é?x=1"_s;
    full.route = u"payments"_s;
    full.stepKind = u"respond"_s;
    full.status = 201;
    full.attemptId = u"3f1c9e2a-77b0-4a51-9c1e-2d5b8f0a6e11"_s;
    full.idempotencyKey = u"key-€-1"_s;
    full.applied = true;
    full.detail = u"applied settlement, key k1 — 日本"_s;
    QTest::newRow("every field") << full;
    QTest::newRow("default") << LabEvent();
    LabEvent dropped;
    dropped.kind = LabEvent::Kind::UpstreamFailed;
    dropped.atMs = -5; // before the clock's origin
    dropped.status = -1;
    dropped.detail = u"connection refused"_s;
    QTest::newRow("negative numbers, last kind") << dropped;
}

void TestLabEventStore::fieldsReadBack()
{
    QFETCH(LabEvent, event);
    LabEventStore store;
    store.append(event);
    QCOMPARE(store.size(), 1);
    const LabEvent back = store.at(0);
    QCOMPARE(back.kind, event.kind);
    QCOMPARE(back.atMs, event.atMs);
    QCOMPARE(back.connectionId, event.connectionId);
    QCOMPARE(back.requestId, event.requestId);
    QCOMPARE(back.method, event.method);
    QCOMPARE(back.path, event.path);
    QCOMPARE(back.route, event.route);
    QCOMPARE(back.stepKind, event.stepKind);
    QCOMPARE(back.status, event.status);
    QCOMPARE(back.attemptId, event.attemptId);
    QCOMPARE(back.idempotencyKey, event.idempotencyKey);
    QCOMPARE(back.applied, event.applied);
    QCOMPARE(back.detail, event.detail);
    QCOMPARE(back.toLogLine(), event.toLogLine());
    // The one-field accessors read the same values without rebuilding the event.
    QCOMPARE(store.kind(0), event.kind);
    QCOMPARE(store.atMs(0), event.atMs);
    QCOMPARE(store.hasAttemptId(0), !event.attemptId.isEmpty());
    QCOMPARE(store.attemptId(0), event.attemptId);
    QCOMPARE(store.idempotencyKey(0), event.idempotencyKey);
    QCOMPARE(store.attemptIdUtf8(0), event.attemptId.toUtf8());
    QCOMPARE(store.idempotencyKeyUtf8(0), event.idempotencyKey.toUtf8());
}

void TestLabEventStore::eventsAcrossChunks()
{
    // 1 024 events a chunk: the first, both sides of each boundary and the last read back.
    LabEventStore store;
    const int n = 5000;
    for (int i = 0; i < n; ++i) {
        LabEvent e;
        e.kind = LabEvent::Kind(i % 10);
        e.atMs = i * 7;
        e.requestId = quint64(i);
        e.attemptId = u"attempt-%1"_s.arg(i / 3);
        e.path = i % 2 ? u"/a"_s : u"/b"_s;
        store.append(e);
    }
    QCOMPARE(store.size(), n);
    for (int i = 0; i < n; ++i) {
        const LabEvent e = store.at(i);
        if (e.requestId != quint64(i) || e.atMs != i * 7 || e.kind != LabEvent::Kind(i % 10)
            || e.attemptId != u"attempt-%1"_s.arg(i / 3) || e.path != (i % 2 ? u"/a"_s : u"/b"_s))
            QFAIL(qPrintable(u"event %1 reads back request %2 at %3 ms"_s.arg(i).arg(e.requestId).arg(e.atMs)));
    }
}

void TestLabEventStore::wideValuesAmongNarrowOnes()
{
    // A row keeps 32-bit ids and a 16-bit status; values past those read back whole from the side list,
    // found by row among narrow rows before, between and after them (and across chunks).
    struct Case
    {
        quint64 connection;
        quint64 request;
        int status;
    };
    const QList<Case> wide = {
        { 0x1'0000'0000ULL, 1, 200 }, // the first id past 32 bits
        { 5, 0xFFFF'FFFF'FFFF'FFFFULL, 503 },
        { 6, 7, 32768 }, // the first status past 16 bits
        { 8, 9, -32769 },
        { 10, 11, std::numeric_limits<int>::min() },
    };
    const QList<Case> narrow = {
        { 0xFFFF'FFFFULL, 0xFFFF'FFFFULL, 32767 }, // the largest values a row holds itself
        { 0, 0, -32768 },
        { 3, 4, 0 },
    };
    LabEventStore store;
    QList<Case> expected;
    for (int i = 0; i < 3000; ++i) {
        const Case c = i % 7 == 3 ? wide.at((i / 7) % wide.size()) : narrow.at(i % narrow.size());
        LabEvent e;
        e.connectionId = c.connection;
        e.requestId = c.request;
        e.status = c.status;
        e.applied = i % 2;
        store.append(e);
        expected.append(c);
    }
    for (int i = 0; i < expected.size(); ++i) {
        const LabEvent e = store.at(i);
        const Case& c = expected.at(i);
        if (e.connectionId != c.connection || e.requestId != c.request || e.status != c.status || e.applied != bool(i % 2))
            QFAIL(qPrintable(u"event %1 reads back connection %2, request %3, status %4"_s.arg(i).arg(e.connectionId).arg(e.requestId).arg(e.status)));
    }
}

void TestLabEventStore::timesFromTheFirstEvent_data()
{
    // A row keeps a time as 32 bits from the first event's: any first time (the lab's clock from 0, a
    // recording stamped in epoch milliseconds, a hostile file's extremes) and the times after it within
    // 2^31 ms, in either direction, stay in the row; farther ones read back whole from the side list.
    QTest::addColumn<qint64>("first");
    QTest::addColumn<QList<qlonglong>>("later");
    const qint64 epoch = 1'764'000'000'000; // 2025-11, in ms
    const qint64 max = std::numeric_limits<qint64>::max();
    const qint64 min = std::numeric_limits<qint64>::min();
    QTest::addRow("from 0") << qint64(0) << QList<qlonglong> { 1, 2'147'483'647, 2'147'483'648, -2'147'483'648, -2'147'483'649, 5 };
    QTest::addRow("epoch milliseconds") << epoch << QList<qlonglong> { epoch + 30'000, epoch - 1, epoch + 40LL * 86'400'000, 0, epoch };
    QTest::addRow("int64 extremes") << max << QList<qlonglong> { min, max - 1, 0, -1, max };
    QTest::addRow("from the lowest") << min << QList<qlonglong> { min + 1, max, min + 2'147'483'647, 0 };
}

void TestLabEventStore::timesFromTheFirstEvent()
{
    QFETCH(qint64, first);
    QFETCH(QList<qlonglong>, later);
    LabEventStore store;
    QList<qlonglong> times { first };
    times += later;
    for (qsizetype i = 0; i < times.size(); ++i) {
        LabEvent e;
        e.atMs = times.at(i);
        e.requestId = quint64(i);
        e.status = i % 2 ? 503 : 70000; // a shape shared, and one kept whole
        store.append(e);
    }
    for (qsizetype i = 0; i < times.size(); ++i) {
        QCOMPARE(store.atMs(i), times.at(i));
        QCOMPARE(store.at(i).atMs, times.at(i));
        QCOMPARE(store.at(i).requestId, quint64(i));
        QCOMPARE(store.at(i).status, i % 2 ? 503 : 70000);
    }
}

void TestLabEventStore::shapesAreShared()
{
    // Events that differ only in their own fields (time, ids, attempt id, key) share one shape; a change of
    // kind, status, applied or any repeating text is another. Each reads back its own.
    LabEventStore store;
    LabEvent e;
    e.method = "POST";
    e.path = u"/a"_s;
    for (int i = 0; i < 1000; ++i) {
        e.atMs = i;
        e.requestId = quint64(i);
        e.attemptId = u"id-%1"_s.arg(i);
        e.idempotencyKey = u"k-%1"_s.arg(i);
        store.append(e);
    }
    const QList<std::function<void(LabEvent&)>> changes {
        [](LabEvent& x) { x.kind = LabEvent::Kind::ResponseFinished; },
        [](LabEvent& x) { x.status = 201; },
        [](LabEvent& x) { x.applied = true; },
        [](LabEvent& x) { x.method = "PUT"; },
        [](LabEvent& x) { x.path = u"/b"_s; },
        [](LabEvent& x) { x.route = u"r"_s; },
        [](LabEvent& x) { x.stepKind = u"reset"_s; },
        [](LabEvent& x) { x.detail = u"why"_s; },
    };
    for (const auto& change : changes) {
        LabEvent other = e;
        change(other);
        store.append(other);
        const LabEvent back = store.at(store.size() - 1);
        QCOMPARE(back.kind, other.kind);
        QCOMPARE(back.status, other.status);
        QCOMPARE(back.applied, other.applied);
        QCOMPARE(back.method, other.method);
        QCOMPARE(back.path, other.path);
        QCOMPARE(back.route, other.route);
        QCOMPARE(back.stepKind, other.stepKind);
        QCOMPARE(back.detail, other.detail);
    }
    for (int i = 0; i < 1000; ++i) { // the first thousand still read their own
        const LabEvent back = store.at(i);
        QCOMPARE(back.attemptId, u"id-%1"_s.arg(i));
        QCOMPARE(back.kind, LabEvent::Kind::RequestReceived);
        QCOMPARE(back.path, u"/a"_s);
    }
}

void TestLabEventStore::outOfRangeValueIsDefault()
{
    LabEventStore store;
    LabEvent e;
    e.requestId = 7;
    store.append(e);
    QCOMPARE(store.value(0).requestId, 7u);
    QCOMPARE(store.value(1).requestId, 0u);
    QCOMPARE(store.value(-1).requestId, 0u);
}

void TestLabEventStore::repeatedTextsAreStoredOnce()
{
    // A lab's events repeat method, path, route and step on every request, and an attempt id on the three
    // or four events of its exchange: 12 000 events of 3 000 exchanges hold one copy of each text and
    // four shapes (kind and route texts), so an event costs its 24 bytes plus its share of the ids (the
    // QList<LabEvent> it replaces cost 216 bytes an event plus up to seven allocated strings).
    LabEventStore store;
    const int exchanges = 3000;
    for (int x = 0; x < exchanges; ++x) {
        for (LabEvent::Kind kind : { LabEvent::Kind::RequestReceived, LabEvent::Kind::ResponseStarted,
                 LabEvent::Kind::ResponseFinished, LabEvent::Kind::OperationApplied }) {
            LabEvent e;
            e.kind = kind;
            e.method = "POST";
            e.path = u"/api/orders"_s;
            e.route = u"create-order"_s;
            e.stepKind = u"respond"_s;
            e.attemptId = u"3f1c9e2a-77b0-4a51-9c1e-%1"_s.arg(x, 12, 10, QLatin1Char('0'));
            store.append(e);
        }
    }
    const double perEvent = double(store.memoryBytes()) / store.size();
    qInfo("%.1f bytes an event", perEvent);
    QVERIFY2(perEvent < 60, qPrintable(u"%1 bytes an event"_s.arg(perEvent)));
    QVERIFY(perEvent >= 24); // the packed event itself: the measure counts what is held
}

void TestLabEventStore::clearStartsOver()
{
    LabEventStore store;
    LabEvent e;
    e.path = u"/x"_s;
    for (int i = 0; i < 3000; ++i)
        store.append(e);
    store.clear();
    QCOMPARE(store.size(), 0);
    QVERIFY(store.isEmpty());
    e.path = u"/y"_s;
    store.append(e);
    QCOMPARE(store.at(0).path, u"/y"_s);
}

QTEST_GUILESS_MAIN(TestLabEventStore)
#include "tst_labeventstore.moc"
