// SPDX-License-Identifier: GPL-3.0-or-later
// The attempt store's rows: every row reads back what was put in it across the growing first chunks and
// the fixed 4 MiB ones, a reference to a row stays valid while more rows are appended, and a small store
// costs kilobytes (its first chunk once took 4 MiB, which made every small file read allocate megabytes).

#include "session/store/attemptstore.h"

#include <QTest>

using namespace Qt::StringLiterals;

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
    void headerBlocksAcrossArenaChunks();
    void poolFindsWhatWasInterned();
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

void TestAttemptStore::headerBlocksAcrossArenaChunks()
{
    // The header arena grows in chunks of 4 096 ids: blocks that straddle a chunk's end read back whole,
    // and a block equal to a recent one is shared (the same offset), not stored again.
    AttemptStore store;
    std::vector<quint32> offsets;
    for (int i = 0; i < 3000; ++i) {
        HttpHeaderList headers;
        for (int h = 0; h <= i % 4; ++h)
            headers.append({ QByteArray("X-H") + QByteArray::number(h), QByteArray::number(i) });
        offsets.push_back(store.addHeaders(headers));
    }
    for (int i = 0; i < 3000; ++i) {
        const quint32 offset = offsets[size_t(i)];
        if (store.headerCount(offset) != i % 4 + 1)
            QFAIL(qPrintable(u"block %1 has %2 headers"_s.arg(i).arg(store.headerCount(offset))));
        for (int h = 0; h <= i % 4; ++h) {
            if (store.headerName(offset, h) != QByteArray(QByteArray("X-H") + QByteArray::number(h))
                || store.headerValue(offset, h) != QByteArray::number(i))
                QFAIL(qPrintable(u"block %1, header %2 reads back wrong"_s.arg(i).arg(h)));
        }
    }
    const HttpHeaderList same { { "Content-Type", "application/json" } };
    const quint32 first = store.addHeaders(same);
    QCOMPARE(store.addHeaders(same), first);
    AttemptStore copy = store; // a session copied keeps its headers
    QCOMPARE(copy.headerValue(offsets[2999], 0), QByteArrayView("2999"));
}

void TestAttemptStore::poolFindsWhatWasInterned()
{
    StringPool pool;
    QCOMPARE(pool.find("absent"), std::nullopt);
    QCOMPARE(pool.find({}), std::optional<quint32>(0)); // the empty string is id 0
    std::vector<quint32> ids;
    for (int i = 0; i < 5000; ++i) // past several growths of the table
        ids.push_back(pool.intern(QByteArrayView(QByteArray("id-" + QByteArray::number(i)))));
    for (int i = 0; i < 5000; ++i)
        QCOMPARE(pool.find(QByteArray("id-" + QByteArray::number(i))), std::optional<quint32>(ids[size_t(i)]));
    const quint32 added = pool.add("stored as is");
    QCOMPARE(pool.view(added), QByteArrayView("stored as is"));
    QCOMPARE(pool.find("stored as is"), std::nullopt); // add() is not for lookup
    QCOMPARE(pool.find("id-5000"), std::nullopt);
    // A QString is interned as its UTF-8, whichever way it is converted (short ASCII on the stack, others
    // through toUtf8()): the same id as its bytes, and it reads back equal.
    const QString texts[] = { u"id-42"_s, u"ключ-é"_s, QString(256, u'a'), QString(257, u'b'), u"a\u0000b"_s,
        QString(255, u'c') + u'é' };
    for (const QString& text : texts) {
        const quint32 id = pool.intern(text);
        QCOMPARE(pool.intern(QByteArrayView(text.toUtf8())), id);
        QCOMPARE(pool.string(id), text);
    }
    QCOMPARE(pool.intern(u"id-42"_s), ids[42]);
}

QTEST_GUILESS_MAIN(TestAttemptStore)
#include "tst_attemptstore.moc"
