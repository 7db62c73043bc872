// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab run` with a hedging policy against the fault lab (issue 28 §2, §4): a payment whose first copy
// is slow is hedged; the lab applies the charge at each copy's arrival, so without an idempotency key its
// ledger shows the operation applied twice, and with the key (the lab honouring it as
// draft-ietf-httpapi-idempotency-key-header says) once. The summary counts hedges sent, won and wasted and
// the operations applied twice, from the recorded session. Rules: resilience-fleets.md §1.2, §1.3.
#include "cliprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestCliHedging : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hedgedPayment_data();
    void hedgedPayment();
};

void TestCliHedging::hedgedPayment_data()
{
    QTest::addColumn<bool>("keyed");
    QTest::addColumn<int>("applied");
    QTest::newRow("no idempotency key: applied twice") << false << 2;
    QTest::newRow("idempotency key honoured: applied once") << true << 1;
}

void TestCliHedging::hedgedPayment()
{
    QFETCH(bool, keyed);
    QFETCH(int, applied);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // The first charge is applied at once and answered 1.2 s later; the next answers at once.
    const QJsonObject scenario { { u"format"_s, 1 }, { u"name"_s, u"slow-payment"_s },
        { u"routes"_s,
            QJsonArray { QJsonObject { { u"name"_s, u"pay"_s }, { u"method"_s, u"POST"_s }, { u"path"_s, u"/pay"_s },
                { u"operation"_s, u"charge"_s }, { u"idempotency"_s, keyed }, { u"mode"_s, u"sequence"_s },
                { u"steps"_s,
                    QJsonArray { QJsonObject { { u"kind"_s, u"late"_s }, { u"delay_ms"_s, 1200 }, { u"status"_s, 201 } },
                        QJsonObject { { u"kind"_s, u"respond"_s }, { u"status"_s, 201 } } } } } } } };
    const QString file = dir.filePath(u"pay.json"_s);
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(scenario).toJson());
    f.close();

    QStringList args { u"run"_s, u"--policy"_s, u"ms-http-hedging"_s, u"--set"_s, u"pipeline[1].delay_ms=300"_s,
        u"--scenario"_s, file, u"--data"_s, u"{\"amount\":5}"_s, u"--json"_s };
    if (keyed)
        args << u"--set"_s << u"idempotency.auto=true"_s;
    const CliProcess::Result r = CliProcess::retrylab(args);
    QVERIFY2(r.exit == 0, r.err.constData());
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3); // two copies, then the summary

    // Each copy, as it ended: the hedge won at once, the slow first copy was then lost.
    const QJsonObject hedge = QJsonDocument::fromJson(lines.at(0)).object();
    const QJsonObject first = QJsonDocument::fromJson(lines.at(1)).object();
    QCOMPARE(hedge.value(u"index").toInt(), 2);
    QCOMPARE(hedge.value(u"hedge").toString(), u"delay"_s);
    QCOMPARE(hedge.value(u"hedge_won").toBool(), true);
    QCOMPARE(hedge.value(u"status").toInt(), 201);
    QCOMPARE(first.value(u"index").toInt(), 1);
    QCOMPARE(first.value(u"hedge").toString(), u"first"_s);
    QCOMPARE(first.value(u"hedge_won").toBool(), false);
    QCOMPARE(first.value(u"abort_reason").toString(), u"hedge-lost"_s);
    QCOMPARE(first.value(u"idempotency_key").toString(), hedge.value(u"idempotency_key").toString());
    QCOMPARE(first.value(u"idempotency_key").toString().isEmpty(), !keyed);

    const QJsonObject summary = QJsonDocument::fromJson(lines.at(2)).object().value(u"summary").toObject();
    const QJsonObject hedging = summary.value(u"hedging").toObject();
    QCOMPARE(hedging.value(u"requests").toInt(), 1);
    QCOMPARE(hedging.value(u"sent").toInt(), 1);
    QCOMPARE(hedging.value(u"won").toInt(), 1);
    QCOMPARE(hedging.value(u"wasted").toInt(), 0);
    QCOMPARE(hedging.value(u"applied_twice").toInt(), applied > 1 ? 1 : 0);
    const QJsonObject ledger = summary.value(u"ledger").toObject();
    QCOMPARE(ledger.value(u"requests_received").toInt(), 2); // both copies reached the lab
    QCOMPARE(ledger.value(u"operations_applied").toInt(), applied);
}

QTEST_GUILESS_MAIN(TestCliHedging)
#include "tst_cli_hedging.moc"
