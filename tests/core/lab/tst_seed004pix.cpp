// SPDX-License-Identifier: GPL-3.0-or-later
// Seed 004: five PIX payments under a scripted retrying client end with exactly 3 settlements.
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Qt::StringLiterals;

namespace {

struct Outcome
{
    int status = 0; // 0: no answer (timeout or network error)
    int attempts = 0;
};

// The seed's client: one Idempotency-Key per payment kept for every attempt, retry on 5xx, 409, timeouts
// and connection failures, never on another 4xx; at most MAXATTEMPTS; a 1 s per-attempt timeout.
Outcome pay(QNetworkAccessManager& nam, const QUrl& url, const QByteArray& key, const QByteArray& body, int maxAttempts,
    const QByteArray& run = "first")
{
    Outcome outcome;
    for (int attempt = 1; attempt <= maxAttempts; ++attempt) {
        outcome.attempts = attempt;
        QNetworkRequest request(url);
        request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        request.setRawHeader("Idempotency-Key", '"' + key + '"');
        request.setRawHeader("X-Retrylab-Attempt", key + '-' + run + '-' + QByteArray::number(attempt));
        request.setTransferTimeout(1000);
        std::unique_ptr<QNetworkReply> reply(nam.post(request, body));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        if (!finished.wait(5000))
            return outcome;
        outcome.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const bool transient = outcome.status == 0 || outcome.status >= 500 || outcome.status == 409
            || outcome.status == 429;
        if (!transient)
            return outcome;
        QTest::qWait(150 * attempt); // backoff (the engine's job in the app; a fixed ladder here)
    }
    return outcome;
}

} // namespace

class TestSeed004Pix : public QObject
{
    Q_OBJECT
private slots:
    void fivePaymentsThreeSettlements();
};

void TestSeed004Pix::fivePaymentsThreeSettlements()
{
    const ScenarioLoader::Result loaded = ScenarioCatalog::load(u"seed-004-pix"_s);
    QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
    FaultServer server;
    QVERIFY(server.start());
    server.loadScenario(*loaded.scenario);
    QNetworkAccessManager nam;
    const QUrl url = server.url().resolved(QUrl(u"/pix/payments"_s));
    constexpr int budget = 5;

    const Outcome p1 = pay(nam, url, "pix-1", R"({"amount":100})", budget);
    QCOMPARE(p1.status, 201);
    QCOMPARE(p1.attempts, 1);

    const Outcome p2 = pay(nam, url, "pix-2", R"({"amount":200})", budget);
    QCOMPARE(p2.status, 201);
    QCOMPARE(p2.attempts, 3); // two 503, then settled

    // Settled at once, answered after 4 s: the 1 s timeout fires, the retries under the same key get the
    // stored settlement instead of a second one.
    const Outcome p3 = pay(nam, url, "pix-3", R"({"amount":300})", budget);
    QCOMPARE(p3.status, 201);
    QCOMPARE(p3.attempts, 2);
    QCOMPARE(server.ledger().operationsForKey(u"pix-3"_s), 1);

    const Outcome p4 = pay(nam, url, "pix-4", R"({"amount":999999})", budget);
    QCOMPARE(p4.status, 422); // business refusal: never retried
    QCOMPARE(p4.attempts, 1);
    const Outcome p4again = pay(nam, url, "pix-4", R"({"amount":999999})", budget, "replay");
    QCOMPARE(p4again.status, 422); // the replay refuses too
    QCOMPARE(p4again.attempts, 1);

    const Outcome p5 = pay(nam, url, "pix-5", R"({"amount":500})", budget);
    QCOMPARE(p5.status, 503); // down for longer than the budget
    QCOMPARE(p5.attempts, budget);

    QCOMPARE(server.ledger().operationsApplied(), 3);
    for (const LabOperation& op : server.ledger().operations())
        QCOMPARE(op.operation, u"settlement"_s);
    QCOMPARE(server.ledger().operationsForKey(u"pix-4"_s), 0);
    QCOMPARE(server.ledger().operationsForKey(u"pix-5"_s), 0);
    QVERIFY2(server.ledger().attemptsReceivedMoreThanOnce().isEmpty(),
        qPrintable(server.ledger().attemptsReceivedMoreThanOnce().join(u", "_s)));
}

QTEST_GUILESS_MAIN(TestSeed004Pix)
#include "tst_seed004pix.moc"
