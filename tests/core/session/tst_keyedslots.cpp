// SPDX-License-Identifier: GPL-3.0-or-later
// KeyedSlots: the one open-addressing table of numbers whose keys live elsewhere (the string pool's dedupe
// table, a session's attempt-id lookup, the timeline's lab-tick lanes).
#include "session/store/keyedslots.h"

#include <QByteArray>
#include <QList>
#include <QSet>
#include <QTest>

class TestKeyedSlots : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Numbers found by key through growth by doubling; a key put again replaces its number; a key never put
    // is not found, and never read as another (every key read is one of the table's).
    void findsWhatWasPut()
    {
        QList<QByteArray> keys;
        for (int i = 0; i < 5000; ++i)
            keys << "key-" + QByteArray::number(i * 7919);
        int reads = 0;
        const auto keyOf = [&](quint32 n) {
            ++reads;
            return QByteArrayView(keys.at(qsizetype(n) - 1));
        };
        KeyedSlots table(16);
        for (qsizetype i = 0; i < keys.size(); ++i) {
            table.reserveOneMore(keyOf);
            const size_t hash = KeyedSlots::hash(keys.at(i));
            const size_t slot = table.probe(keys.at(i), hash, keyOf);
            QCOMPARE(table.value(slot), 0u);
            table.set(slot, quint32(i + 1), hash);
            QVERIFY(size_t(table.count()) * 2 <= table.slotCount());
        }
        QCOMPARE(table.count(), keys.size());
        reads = 0;
        for (qsizetype i = 0; i < keys.size(); ++i)
            QCOMPARE(table.value(table.probe(keys.at(i), KeyedSlots::hash(keys.at(i)), keyOf)), quint32(i + 1));
        // A key is read about once per lookup: the tags pass other keys' slots without reading them.
        QVERIFY2(reads < keys.size() * 11 / 10, qPrintable(QString::number(reads)));
        QCOMPARE(table.value(table.probe("absent", KeyedSlots::hash("absent"), keyOf)), 0u);
        keys << keys.at(3); // a second number with the same key (two attempts with one id): the newer wins
        const size_t again = table.probe(keys.at(3), KeyedSlots::hash(keys.at(3)), keyOf);
        QCOMPARE(table.value(again), 4u);
        table.set(again, quint32(keys.size()), KeyedSlots::hash(keys.at(3)));
        QCOMPARE(table.count(), keys.size() - 1);
        QCOMPARE(table.value(table.probe(keys.at(3), KeyedSlots::hash(keys.at(3)), keyOf)), quint32(keys.size()));
    }

    // Sized once for what is coming: at most half full, never smaller, and every number still found.
    void reservedOnce()
    {
        const QList<QByteArray> keys { "a", "bb", "ccc" };
        const auto keyOf = [&](quint32 n) { return QByteArrayView(keys.at(qsizetype(n) - 1)); };
        KeyedSlots table(4);
        for (qsizetype i = 0; i < 2; ++i) {
            const size_t hash = KeyedSlots::hash(keys.at(i));
            table.set(table.probe(keys.at(i), hash, keyOf), quint32(i + 1), hash);
        }
        QVERIFY(table.full());
        table.reserve(1000, keyOf);
        QCOMPARE(table.slotCount(), size_t(2048));
        table.reserve(10, keyOf);
        QCOMPARE(table.slotCount(), size_t(2048));
        QCOMPARE(table.value(table.probe("bb", KeyedSlots::hash("bb"), keyOf)), 2u);
        QCOMPARE(table.value(table.probe("ccc", KeyedSlots::hash("ccc"), keyOf)), 0u);
        table.reset(8);
        QCOMPARE(table.count(), 0);
        QCOMPARE(table.value(table.probe("bb", KeyedSlots::hash("bb"), keyOf)), 0u);
    }

    // The hash spreads texts that differ in one byte, at any length, and reads nothing past the key.
    void hashSpreads()
    {
        QSet<size_t> seen;
        QByteArray text(40, 'x');
        for (int length = 0; length <= 40; ++length) {
            for (char c : { 'a', 'b' }) {
                QByteArray t = text.left(length);
                if (length)
                    t[length - 1] = c;
                seen.insert(KeyedSlots::hash(t) & 1023);
            }
        }
        QVERIFY(seen.size() > 60); // 81 texts into 1 024 slots
        const QByteArray padded = "abcdefghXYZ";
        QCOMPARE(KeyedSlots::hash(QByteArrayView(padded.constData(), 8)), KeyedSlots::hash("abcdefgh"));
    }
};

QTEST_GUILESS_MAIN(TestKeyedSlots)
#include "tst_keyedslots.moc"
