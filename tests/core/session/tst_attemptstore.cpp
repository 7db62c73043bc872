// SPDX-License-Identifier: GPL-3.0-or-later
// The attempt store's rows: every row reads back what was put in it across the growing first chunks and
// the fixed 4 MiB ones, a reference to a row stays valid while more rows are appended, and a small store
// costs kilobytes (its first chunk once took 4 MiB, which made every small file read allocate megabytes).

#include "session/store/attemptstore.h"

#include <QTest>

#include <vector>

class TestAttemptStore : public QObject
{
    Q_OBJECT

private slots:
    void rowsReadBack_data();
    void rowsReadBack();
    void referencesSurviveAppends();
    void smallStoreIsSmall();
    void clearStartsOver();
};

void TestAttemptStore::rowsReadBack_data()
{
    QTest::addColumn<int>("rows");
    // Across the first chunk's end (64), the doubling ones, and several 4 MiB chunks (about 16 000 a chunk).
    for (int rows : { 0, 1, 63, 64, 65, 191, 192, 193, 4095, 40000, 150000 })
        QTest::addRow("%d", rows) << rows;
}

void TestAttemptStore::rowsReadBack()
{
    QFETCH(int, rows);
    AttemptStore store;
    store.reserve(rows);
    for (int i = 0; i < rows; ++i) {
        PackedAttempt& p = store.appendDefault();
        p.runId = i;
        p.bytesDown = qint64(i) * 3;
    }
    QCOMPARE(store.size(), qsizetype(rows));
    for (int i = 0; i < rows; ++i) {
        const PackedAttempt& p = store.packed(i);
        if (p.runId != i || p.bytesDown != qint64(i) * 3)
            QFAIL(qPrintable(QStringLiteral("row %1 reads back run %2").arg(i).arg(p.runId)));
    }
}

void TestAttemptStore::referencesSurviveAppends()
{
    AttemptStore store;
    std::vector<const PackedAttempt*> seen;
    for (int i = 0; i < 100000; ++i) {
        store.appendDefault().runId = i;
        if (i % 997 == 0)
            seen.push_back(&store.packed(i));
    }
    for (size_t k = 0; k < seen.size(); ++k) {
        const int row = int(k) * 997;
        QCOMPARE(&store.packed(row), seen[k]);
        QCOMPARE(seen[k]->runId, row);
    }
}

void TestAttemptStore::smallStoreIsSmall()
{
    AttemptStore store;
    for (int i = 0; i < 3; ++i)
        store.appendDefault().runId = i;
    QVERIFY2(store.memoryBytes() < 64 * 1024, qPrintable(QString::number(store.memoryBytes())));
}

void TestAttemptStore::clearStartsOver()
{
    AttemptStore store;
    for (int i = 0; i < 500; ++i)
        store.appendDefault().runId = i;
    store.clear();
    QCOMPARE(store.size(), 0);
    for (int i = 0; i < 70; ++i)
        store.appendDefault().runId = 1000 + i;
    QCOMPARE(store.packed(69).runId, 1069);
    QCOMPARE(store.packed(0).runId, 1000);
}

QTEST_GUILESS_MAIN(TestAttemptStore)
#include "tst_attemptstore.moc"
