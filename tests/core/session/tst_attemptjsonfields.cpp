// SPDX-License-Identifier: GPL-3.0-or-later
// An attempt object's fields are spelled once (AttemptJsonFields) and the writer puts them in that order,
// which the reader expects (it matches the next field in place): for an engine's retry and final answer, a
// cancelled attempt, an observed client's attempt, a Retry-After, a budget.
#include "session/format/attemptjson.h"
#include "session/format/attemptjsonfields.h"
#include "sessiontestdata.h"

#include <QBuffer>
#include <QTest>

using namespace Qt::StringLiterals;

class TestAttemptJsonFields : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void writtenInTheTablesOrder_data()
    {
        QTest::addColumn<AttemptRecord>("attempt");
        QTest::addRow("a retry after a 503 with Retry-After and a budget") << SessionTestData::attempt(1, 1, false, 1);
        QTest::addRow("the final answer") << SessionTestData::attempt(1, 4, true, 0);
        QTest::addRow("a connection reset") << SessionTestData::attempt(2, 1, false, 2);
        AttemptRecord cancelled = SessionTestData::attempt(2, 2, false, 0);
        cancelled.decision.reset();
        QTest::addRow("cancelled") << cancelled;
        AttemptRecord observed = SessionTestData::attempt(3, 2, false, 0);
        observed.decision.reset();
        observed.observed = ObservedAttemptFacts { std::chrono::milliseconds(900), Millis(1000), u"retry-after"_s, 12 };
        QTest::addRow("a client's, observed") << observed;
        AttemptRecord queued = SessionTestData::attempt(4, 1, false, 0);
        queued.at.queued = MonoTime(std::chrono::milliseconds(5));
        queued.throttleWait = Millis(40);
        QTest::addRow("queued for a connection, throttled") << queued;
    }
    void writtenInTheTablesOrder()
    {
        QFETCH(AttemptRecord, attempt);
        AttemptStore store;
        const qsizetype row = store.append(attempt);
        QByteArray json;
        AttemptJson::write(json, store, store.packed(row), Redactor::none(), QDateTime(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC));
        QBuffer device(&json);
        QVERIFY(device.open(QIODevice::ReadOnly));
        JsonPullReader in(device);
        QVERIFY(in.enterObject());
        int last = -1;
        QByteArrayView key;
        QStringList keys;
        while (in.nextKeyView(&key)) {
            keys << QString::fromUtf8(key);
            const auto found = std::find(AttemptJsonFields::kKeys.begin(), AttemptJsonFields::kKeys.end(), key);
            QVERIFY2(found != AttemptJsonFields::kKeys.end(), qPrintable(u"not in the table: "_s + keys.last()));
            const int id = int(found - AttemptJsonFields::kKeys.begin());
            QVERIFY2(id > last, qPrintable(u"out of the table's order: "_s + keys.join(u", ")));
            last = id;
            in.skipValue();
        }
        QVERIFY(!in.hasError());
        QVERIFY(keys.size() >= 40);
        // And it reads back to the same row.
        QBuffer again(&json);
        QVERIFY(again.open(QIODevice::ReadOnly));
        JsonPullReader back(again);
        AttemptStore readInto;
        PackedAttempt p;
        QByteArray field;
        QVERIFY2(AttemptJson::read(back, readInto, &p, &field), field.constData());
        QCOMPARE(readInto.record(readInto.append(p)).attemptId, attempt.attemptId);
    }

    void momentsInTheStoresSlotOrder()
    {
        QCOMPARE(AttemptJsonFields::key(AttemptJsonFields::moment(PackedAttempt::Scheduled)), "scheduled_ms");
        QCOMPARE(AttemptJsonFields::key(AttemptJsonFields::moment(PackedAttempt::Queued)), "queued_ms");
        QCOMPARE(AttemptJsonFields::key(AttemptJsonFields::moment(PackedAttempt::HeadersReceived)), "headers_ms");
        QCOMPARE(AttemptJsonFields::key(AttemptJsonFields::moment(PackedAttempt::Finished)), "end_ms");
        QCOMPARE(AttemptJsonFields::slotOf(AttemptJsonFields::Id::Finished), int(PackedAttempt::Finished));
        QCOMPARE(AttemptJsonFields::slotOf(AttemptJsonFields::Id::Method), -1);
    }
};

QTEST_GUILESS_MAIN(TestAttemptJsonFields)
#include "tst_attemptjsonfields.moc"
