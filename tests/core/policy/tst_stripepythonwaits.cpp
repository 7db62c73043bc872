// SPDX-License-Identifier: GPL-3.0-or-later
//
// The stripe-python-5.0 preset against the client it models: Debian 12's python3-stripe 5.0.0 (with
// stripe.max_network_retries = 2, as the preset assumes) creates a charge against the fault lab, which
// answers 503/409 with and without Retry-After. Each retry's measured wait must fall in the range the
// preset's decision gives with every jitter draw at 0 and at 1 (HTTPClient._sleep_time_seconds in
// stripe/http_client.py: max(0.5 s, min(0.5 s·2^(n−1), 2 s)·U(0.5, 1)), then at least a Retry-After of at
// most 60 s), every attempt must carry the same Idempotency-Key, and where the releases differ the
// `stripe` preset (15.3.1 and later, which ignores Retry-After) must be ruled out by the measurement.

#include "lab/faultserver.h"
#include "lab/scenarioloader.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

#include "presetrows.h"
#include "realclient.h"

using namespace Qt::StringLiterals;
using namespace presettest;

namespace {

constexpr qint64 kEarlyMs = 400; // an event stamped late under load
constexpr qint64 kLateMs = 900; // the interpreter and requests between the sleep and the next request

const char* kClient = R"(
import sys
import stripe
stripe.api_key = "sk_test_retrylab"
stripe.api_base = sys.argv[1]
stripe.max_network_retries = 2
try:
    charge = stripe.Charge.create(amount=100, currency="usd")
except Exception as e:
    print("%s: %s" % (type(e).__name__, e), file=sys.stderr)
    sys.exit(1)
print(charge["id"])
)";

QString python()
{
    // Debian's interpreter: the one python3-stripe is installed for.
    return QFileInfo::exists(u"/usr/bin/python3"_s) ? u"/usr/bin/python3"_s : u"python3"_s;
}

QByteArray scenarioFor(const QList<Step>& steps)
{
    QJsonArray list;
    for (const Step& step : steps) {
        QJsonObject headers;
        for (const auto& [name, value] : step.headers)
            headers.insert(QString::fromLatin1(name), QString::fromLatin1(value));
        list.append(QJsonObject { { u"kind"_s, u"respond"_s }, { u"status"_s, *step.status }, { u"headers"_s, headers },
            { u"json"_s, QJsonObject { { u"error"_s, QJsonObject { { u"type"_s, u"api_error"_s } } } } } });
    }
    list.append(QJsonObject { { u"kind"_s, u"respond"_s }, { u"status"_s, 200 }, { u"repeat"_s, u"forever"_s },
        { u"json"_s, QJsonObject { { u"id"_s, u"ch_retrylab"_s }, { u"object"_s, u"charge"_s } } } });
    const QJsonObject route { { u"method"_s, u"POST"_s }, { u"path"_s, u"/v1/charges"_s }, { u"steps"_s, list } };
    return QJsonDocument(QJsonObject { { u"format"_s, 1 }, { u"name"_s, u"stripe-retry"_s }, { u"routes"_s, QJsonArray { route } } })
        .toJson(QJsonDocument::Compact);
}

// The wait of each retry with every draw at PIN ("retry 2000 via retry-after" → 2000).
QList<qint64> waitsAt(const QString& preset, const QList<Step>& steps, double pin)
{
    const std::optional<RetryPolicy> policy = loadWith(preset, {});
    if (!policy)
        return {};
    SequenceCase c { preset, u"POST"_s, pin, steps, {}, {} };
    QList<qint64> waits;
    static const QRegularExpression retry(u"^retry (\\d+) via "_s);
    for (const QString& line : actualSequence(*policy, c)) {
        const QRegularExpressionMatch m = retry.match(line);
        waits << (m.hasMatch() ? m.captured(1).toLongLong() : -1);
    }
    return waits;
}

bool within(qint64 measured, qint64 low, qint64 high) { return measured >= low - kEarlyMs && measured <= high + kLateMs; }

} // namespace

class TestStripePythonWaits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void waits_data();
    void waits();
};

void TestStripePythonWaits::initTestCase()
{
    const ClientRun probe = runClient(python(), { u"-c"_s, u"import stripe.version; print(stripe.version.VERSION)"_s });
    QVERIFY2(probe.finished && probe.exitCode == 0, "python3-stripe is needed (packaging/install-deps.sh installs it)");
    QCOMPARE(probe.out.trimmed(), QByteArray("5.0.0"));
}

void TestStripePythonWaits::waits_data()
{
    QTest::addColumn<QList<Step>>("steps");
    QTest::addColumn<bool>("releasesDiffer"); // the stripe preset (15.3.1+) predicts a wait this run rules out
    QTest::newRow("Retry-After 2 on a 503 is waited at least, then a 409 backs off U(0.5, 1) s")
        << QList<Step> { status(503, "Retry-After", "2"), status(409) } << true;
    QTest::newRow("Retry-After 61 is over MAX_RETRY_AFTER: the 0.5 s backoff")
        << QList<Step> { status(503, "Retry-After", "61") } << false;
}

void TestStripePythonWaits::waits()
{
    QFETCH(QList<Step>, steps);
    QFETCH(bool, releasesDiffer);

    const ScenarioLoader::Result loaded = ScenarioLoader::fromJson(scenarioFor(steps));
    QVERIFY2(loaded.scenario, qPrintable(loaded.problemText()));
    FaultServer lab;
    lab.loadScenario(*loaded.scenario);
    QVERIFY2(lab.start(), qPrintable(lab.errorString()));
    QList<qint64> received, finished;
    QStringList keys;
    connect(&lab, &FaultServer::requestReceived, this, [&](const LabEvent& e) {
        received << e.atMs;
        keys << e.idempotencyKey;
    });
    connect(&lab, &FaultServer::responseFinished, this, [&](const LabEvent& e) { finished << e.atMs; });

    const ClientRun run = runClient(python(), { u"-c"_s, QString::fromLatin1(kClient), lab.url().toString() });
    QVERIFY2(run.finished, "the stripe client did not finish within 60 s");
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.out.trimmed(), QByteArray("ch_retrylab"));

    QCOMPARE(received.size(), steps.size() + 1);
    QVERIFY(finished.size() >= steps.size());
    QVERIFY(!keys.first().isEmpty());
    for (const QString& key : keys)
        QCOMPARE(key, keys.first()); // one key, generated before the first attempt (api_requestor.py)

    const QList<qint64> low = waitsAt(u"stripe-python-5.0"_s, steps, 0.0);
    const QList<qint64> high = waitsAt(u"stripe-python-5.0"_s, steps, 1.0);
    QCOMPARE(low.size(), steps.size());
    QList<qint64> measured;
    for (qsizetype i = 0; i < steps.size(); ++i) {
        measured << received.at(i + 1) - finished.at(i);
        QVERIFY2(within(measured.at(i), low.at(i), high.at(i)),
            qPrintable(u"wait %1: measured %2 ms, stripe-python-5.0 predicts %3–%4 ms"_s.arg(i + 1).arg(measured.at(i)).arg(low.at(i)).arg(high.at(i))));
    }
    qInfo("the lab measured %s ms, stripe-python-5.0 predicts %s | %s ms", qPrintable(joined(measured)), qPrintable(joined(low)),
        qPrintable(joined(high)));

    const QList<qint64> newerLow = waitsAt(u"stripe"_s, steps, 0.0);
    const QList<qint64> newerHigh = waitsAt(u"stripe"_s, steps, 1.0);
    bool newerFits = true;
    for (qsizetype i = 0; i < measured.size(); ++i)
        newerFits = newerFits && within(measured.at(i), newerLow.value(i, -1), newerHigh.value(i, -1));
    QCOMPARE(!newerFits, releasesDiffer);
}

QTEST_GUILESS_MAIN(TestStripePythonWaits)
#include "tst_stripepythonwaits.moc"
