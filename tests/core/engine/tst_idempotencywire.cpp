// SPDX-License-Identifier: GPL-3.0-or-later
// The Idempotency-Key on the wire is what the policy's idempotency.format and prefix say (core/http
// idempotencykey.h), the same on every attempt of a run, and the record keeps the key itself.
#include "engine/clock.h"
#include "engine/retryengine.h"
#include "runcollector.h"
#include "engine/timerscheduler.h"
#include "http/idempotencykey.h"
#include "rawfaultserver.h"

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

class TestIdempotencyWire : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void headerMatchesFormat_data();
    void headerMatchesFormat();
};

void TestIdempotencyWire::headerMatchesFormat_data()
{
    QTest::addColumn<KeyFormat>("format");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("given"); // a key passed by the user (IdempotencyKeyMode::Value), or empty
    QTest::addColumn<QString>("wire"); // a regular expression for the field value
    QTest::addRow("draft: sf-string, fresh UUID") << KeyFormat::Quoted << QString() << QString()
                                                  << u"^\"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}\"$"_s;
    QTest::addRow("stripe-node: bare, prefixed UUID")
        << KeyFormat::Bare << u"stripe-node-retry-"_s << QString()
        << u"^stripe-node-retry-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$"_s;
    QTest::addRow("user key, quoted and escaped") << KeyFormat::Quoted << QString() << u"order \"7\""_s
                                                   << u"^\"order \\\\\"7\\\\\"\"$"_s;
    QTest::addRow("user key, bare") << KeyFormat::Bare << QString() << u"order-7"_s << u"^order-7$"_s;
}

void TestIdempotencyWire::headerMatchesFormat()
{
    QFETCH(KeyFormat, format);
    QFETCH(QString, prefix);
    QFETCH(QString, given);
    QFETCH(QString, wire);
    RawFaultServer server;
    server.queue({ RawFaultServer::Behaviour::DropAfterRead }); // attempt 1 loses its answer, attempt 2 is OK
    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    RetryEngine engine(clock, scheduler);
    RetryPolicy policy;
    policy.name = u"keys"_s;
    policy.backoff.kind = BackoffKind::None;
    policy.idempotency.autoAdd = true;
    policy.idempotency.format = format;
    policy.idempotency.prefix = prefix;
    RetryRule keyed;
    keyed.name = u"keyed-error"_s;
    keyed.when.outcome = OutcomeKind::Error;
    keyed.when.idempotencyKey = true;
    policy.rules = { keyed };
    RequestSpec spec;
    spec.method = u"POST"_s;
    spec.url = QUrl(QString::fromLatin1(server.url("/pay")));
    spec.body = "{\"amount\":1}";
    if (!given.isEmpty()) {
        spec.keyMode = IdempotencyKeyMode::Value;
        spec.idempotencyKey = given;
    }
    RunCollector runs(&engine);
    engine.submit(spec, policy);
    QTRY_COMPARE_WITH_TIMEOUT(runs.size(), 1, 20000);
    const auto run = runs.at(0);
    QCOMPARE(run.outcome, FinalKind::Success);
    QCOMPARE(run.attempts.size(), 2);
    QCOMPARE(server.requests, 2);
    const QByteArray first = server.header(0, "Idempotency-Key");
    QVERIFY2(QRegularExpression(wire).match(QString::fromLatin1(first)).hasMatch(), first.constData());
    QCOMPARE(server.header(1, "Idempotency-Key"), first); // the same key on every attempt
    // The record keeps the key itself; reading the field back gives it.
    const std::optional<IdempotencyKey> parsed = parseIdempotencyKeyHeader({ { "Idempotency-Key", first } });
    QVERIFY(parsed && parsed->isValid());
    QCOMPARE(parsed->key, run.attempts.at(0).idempotencyKey);
    QCOMPARE(parsed->quoted, format == KeyFormat::Quoted);
    if (!given.isEmpty())
        QCOMPARE(run.attempts.at(0).idempotencyKey, given);
    else
        QVERIFY(run.attempts.at(0).idempotencyKey.startsWith(prefix));
}

QTEST_GUILESS_MAIN(TestIdempotencyWire)
#include "tst_idempotencywire.moc"
