// SPDX-License-Identifier: GPL-3.0-or-later
// The wire-slot pool's bookkeeping: one attempt per slot, the per-host limit, and reuse of the slot that
// last carried a host (where its kept-alive connection is).
#include "engine/wireslots.h"

#include <QNetworkAccessManager>
#include <QTest>
#include <QUrl>

class TestWireSlots : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hostKey_data();
    void hostKey();
    void oneAttemptPerSlot();
    void limitPerHost();
    void prefersTheSlotThatLastCarriedTheHost();
    void releaseIsIdempotent();
};

void TestWireSlots::hostKey_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("key");
    QTest::addRow("default http port") << QStringLiteral("http://Example.COM/a") << QStringLiteral("http://example.com:80");
    QTest::addRow("default https port") << QStringLiteral("https://h/") << QStringLiteral("https://h:443");
    QTest::addRow("explicit port") << QStringLiteral("http://127.0.0.1:8080/x?q") << QStringLiteral("http://127.0.0.1:8080");
    QTest::addRow("scheme separates") << QStringLiteral("https://127.0.0.1:8080/") << QStringLiteral("https://127.0.0.1:8080");
}

void TestWireSlots::hostKey()
{
    QFETCH(QString, url);
    QFETCH(QString, key);
    QCOMPARE(WireSlots::hostKey(QUrl(url)), key);
}

void TestWireSlots::oneAttemptPerSlot()
{
    WireSlots pool;
    const QString h = QStringLiteral("http://h:80");
    QList<int> taken;
    for (int i = 0; i < 20; ++i) {
        const std::optional<int> s = pool.acquire(h);
        QVERIFY(s);
        QVERIFY(!taken.contains(*s));
        taken.append(*s);
    }
    QCOMPARE(pool.slotCount(), 20);
    QCOMPARE(pool.busyCount(), 20);
    QCOMPARE(pool.inFlight(h), 20);
    QSet<QNetworkAccessManager*> managers;
    for (int s : std::as_const(taken))
        managers.insert(&pool.manager(s));
    QCOMPARE(managers.size(), 20);
    for (int s : std::as_const(taken))
        pool.release(s);
    QCOMPARE(pool.busyCount(), 0);
    QCOMPARE(pool.inFlight(h), 0);
    // Freed pool are used again before new ones are made.
    for (int i = 0; i < 20; ++i)
        QVERIFY(pool.acquire(h));
    QCOMPARE(pool.slotCount(), 20);
}

void TestWireSlots::limitPerHost()
{
    WireSlots pool;
    const QString a = QStringLiteral("http://a:80");
    const QString b = QStringLiteral("http://b:80");
    QVERIFY(pool.acquire(a, 2));
    const std::optional<int> second = pool.acquire(a, 2);
    QVERIFY(second);
    QVERIFY(!pool.acquire(a, 2));
    QVERIFY(pool.acquire(b, 2)); // the limit is per host
    pool.release(*second);
    QVERIFY(pool.acquire(a, 2));
    QVERIFY(!pool.acquire(a, 2));
    QVERIFY(pool.acquire(a)); // no limit
}

void TestWireSlots::prefersTheSlotThatLastCarriedTheHost()
{
    WireSlots pool;
    const QString a = QStringLiteral("http://a:80");
    const QString b = QStringLiteral("http://b:80");
    const int sa = *pool.acquire(a);
    const int sb = *pool.acquire(b);
    pool.release(sa);
    pool.release(sb); // b's slot is the most recently freed
    QCOMPARE(*pool.acquire(a), sa);
    QCOMPARE(*pool.acquire(b), sb);
    QCOMPARE(pool.slotCount(), 2);
}

void TestWireSlots::releaseIsIdempotent()
{
    WireSlots pool;
    const int s = *pool.acquire(QStringLiteral("http://a:80"));
    pool.release(s);
    pool.release(s);
    pool.release(-1);
    pool.release(99);
    QCOMPARE(pool.busyCount(), 0);
    QCOMPARE(pool.slotCount(), 1);
}

QTEST_GUILESS_MAIN(TestWireSlots)
#include "tst_wireslots.moc"
