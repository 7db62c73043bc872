// SPDX-License-Identifier: GPL-3.0-or-later
//
// The curl-7.88 preset against the client it models: Debian 12's curl (7.88.1) runs `--retry` against the
// fault lab, which answers 503/429 with and without Retry-After. For every retry the test compares
//  - the sleep curl announces ("Will retry in N seconds", src/tool_operate.c post_per_transfer) with the
//    preset's decision, exactly (whole seconds, as curl prints them);
//  - the measured gap between the lab finishing an answer and receiving the next request with the same
//    decision, within a tolerance for a loaded machine;
// and checks that the sequence tells the releases apart: the `curl` preset (8.17.0 and later, where a
// Retry-After sleep does not advance the doubling) predicts a wait the measurement rules out.

#include "lab/faultserver.h"
#include "lab/scenarioloader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "presetrows.h"
#include "realclient.h"

using namespace Qt::StringLiterals;
using namespace presettest;

namespace {

// A measured gap may be this much shorter (an event stamped late under load) or longer than predicted.
constexpr qint64 kEarlyMs = 400;
constexpr qint64 kLateMs = 900;

// The lab scenario answering STEPS in order, then 200 for ever.
QByteArray scenarioFor(const QList<Step>& steps)
{
    QJsonArray list;
    for (const Step& step : steps) {
        QJsonObject headers;
        for (const auto& [name, value] : step.headers)
            headers.insert(QString::fromLatin1(name), QString::fromLatin1(value));
        list.append(QJsonObject { { u"kind"_s, u"respond"_s }, { u"status"_s, *step.status }, { u"headers"_s, headers } });
    }
    list.append(QJsonObject { { u"kind"_s, u"respond"_s }, { u"status"_s, 200 }, { u"body"_s, u"ok"_s }, { u"repeat"_s, u"forever"_s } });
    const QJsonObject route { { u"path"_s, u"/retry"_s }, { u"steps"_s, list } };
    return QJsonDocument(QJsonObject { { u"format"_s, 1 }, { u"name"_s, u"curl-retry"_s }, { u"routes"_s, QJsonArray { route } } })
        .toJson(QJsonDocument::Compact);
}

// The waits PRESET chooses for the answers of STEPS (all of them retried).
QList<qint64> predictedWaits(const QString& preset, const QList<Step>& steps)
{
    const std::optional<RetryPolicy> policy = loadWith(preset, {});
    if (!policy)
        return {};
    QList<qint64> waits;
    SequenceCase c;
    c.preset = preset;
    c.steps = steps;
    for (const QString& line : actualSequence(*policy, c)) {
        static const QRegularExpression retry(u"^retry (\\d+) via "_s);
        const QRegularExpressionMatch m = retry.match(line);
        waits << (m.hasMatch() ? m.captured(1).toLongLong() : -1);
    }
    return waits;
}

bool fits(qint64 measured, qint64 predicted) { return measured >= predicted - kEarlyMs && measured <= predicted + kLateMs; }

} // namespace

class TestCurlRetryWaits : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void waits_data();
    void waits();
};

void TestCurlRetryWaits::initTestCase()
{
    const ClientRun version = runClient(u"curl"_s, { u"--version"_s });
    QVERIFY2(version.finished && version.exitCode == 0, "curl is needed (packaging/install-deps.sh installs it)");
}

void TestCurlRetryWaits::waits_data()
{
    QTest::addColumn<QList<Step>>("steps");
    QTest::addColumn<bool>("releasesDiffer"); // the curl preset (8.17.0+) predicts a wait this run rules out
    QTest::newRow("Retry-After 1, then plain 503s: the doubling goes on (1, 2, 4 s)")
        << QList<Step> { status(503, "Retry-After", "1"), status(503), status(503) } << true;
    QTest::newRow("Retry-After 2, then a plain 503: 2 s, then the doubled 2 s")
        << QList<Step> { status(503, "Retry-After", "2"), status(503) } << true;
    QTest::newRow("Retry-After 0 sleeps the backoff, a later Retry-After replaces it (1, 1 s)")
        << QList<Step> { status(429, "Retry-After", "0"), status(503, "Retry-After", "1") } << false;
}

void TestCurlRetryWaits::waits()
{
    QFETCH(QList<Step>, steps);
    QFETCH(bool, releasesDiffer);

    const ScenarioLoader::Result loaded = ScenarioLoader::fromJson(scenarioFor(steps));
    QVERIFY2(loaded.scenario, qPrintable(loaded.problemText()));
    FaultServer lab;
    lab.loadScenario(*loaded.scenario);
    QVERIFY2(lab.start(), qPrintable(lab.errorString()));
    QList<qint64> received, finished;
    connect(&lab, &FaultServer::requestReceived, this, [&](const LabEvent& e) { received << e.atMs; });
    connect(&lab, &FaultServer::responseFinished, this, [&](const LabEvent& e) { finished << e.atMs; });

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // -o a real file: curl truncates it before each retry (it cannot truncate /dev/null).
    const ClientRun run = runClient(u"curl"_s, { u"--no-progress-meter"_s, u"--retry"_s, QString::number(steps.size()), u"-o"_s,
        dir.filePath(u"body"_s), lab.url().toString() + u"/retry"_s });
    QVERIFY2(run.finished, "curl did not finish within 60 s");
    QVERIFY2(run.exitCode == 0, run.err.constData());

    const QList<qint64> predicted = predictedWaits(u"curl-7.88"_s, steps);
    QCOMPARE(predicted.size(), steps.size());

    // What curl says it sleeps, in whole seconds (sleeptime / 1000L).
    QList<qint64> announced;
    static const QRegularExpression willRetry(u"Will retry in (\\d+) seconds?"_s);
    for (QRegularExpressionMatchIterator it = willRetry.globalMatch(QString::fromLocal8Bit(run.err)); it.hasNext();)
        announced << it.next().captured(1).toLongLong() * 1000;
    QCOMPARE(announced, predicted);

    // What the lab saw: one request per attempt, each retry after the predicted wait.
    QCOMPARE(received.size(), steps.size() + 1);
    QVERIFY(finished.size() >= steps.size());
    QList<qint64> measured;
    for (qsizetype i = 0; i < steps.size(); ++i)
        measured << received.at(i + 1) - finished.at(i);
    for (qsizetype i = 0; i < measured.size(); ++i) {
        QVERIFY2(fits(measured.at(i), predicted.at(i)),
            qPrintable(u"wait %1: measured %2 ms, curl-7.88 predicts %3 ms"_s.arg(i + 1).arg(measured.at(i)).arg(predicted.at(i))));
    }

    qInfo("curl said %s ms, the lab measured %s ms, curl-7.88 predicts %s ms", qPrintable(joined(announced)), qPrintable(joined(measured)),
        qPrintable(joined(predicted)));
    const QList<qint64> newer = predictedWaits(u"curl"_s, steps);
    bool newerFits = true;
    for (qsizetype i = 0; i < measured.size(); ++i)
        newerFits = newerFits && fits(measured.at(i), newer.value(i, -1));
    QCOMPARE(!newerFits, releasesDiffer);
}

QTEST_GUILESS_MAIN(TestCurlRetryWaits)
#include "tst_curlretrywaits.moc"
