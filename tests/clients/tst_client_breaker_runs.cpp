// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 28 §6: the same scenario, once with a circuit breaker nobody here wrote and once with
// `retrylab run` of its preset. cockatiel 3.2.1 (ConsecutiveBreaker) and opossum 9.0.0 (pinned by
// node/package-lock.json; node/breaker-client.mjs) make 100 calls, one every 100 ms, through the lab: 25
// good answers, then an `outage` step takes the lab down (connections reset) for 4.95 s from the 26th call,
// then it is back. `retrylab run --repeat 100 --interval 100` of the library's preset (cockatiel-3 without
// its retry, opossum-9, both with the script's break and window) plays the same scenario in its own lab.
// The outage starts at a call, so both meet it on the same beat: the number of requests that reached the
// lab during the outage and the breaker's states in order must be equal, and the moments each state began,
// measured from the outage's first call, must agree within a few milliseconds (a beat is 100 ms: one call
// earlier or later is caught). The other library's preset, run the same way, must differ somewhere.

#include "lab/faultserver.h"
#include "lab/labledger.h"
#include "lab/scenarioloader.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

constexpr int kCalls = 100;
constexpr int kIntervalMs = 100;
constexpr int kBreakMs = 1050; // ends mid-beat: not a race between the break's end and a call
constexpr int kWindowMs = 4000; // opossum: 10 buckets of 400 ms
constexpr int kBuckets = 10;

const QByteArray kScenario = R"({"format": 1, "name": "outage-after-25",
  "routes": [{"path": "/orders", "steps": [
    {"kind": "respond", "status": 200, "body": "ok", "repeat": 25},
    {"kind": "outage", "duration_ms": 4950, "mode": "reset"},
    {"kind": "respond", "status": 200, "body": "ok", "repeat": 1000}]}]})";

// What one client did, on the outage's axis: the first call the outage failed is 0.
struct Outcome
{
    int duringOutage = -1; // requests that reached the lab while it was down
    QStringList states; // the breaker's states in order
    QList<qint64> at; // when each began, from the outage's first call
};

QString describe(const Outcome& o)
{
    QStringList parts;
    for (qsizetype i = 0; i < o.states.size(); ++i)
        parts << u"%1 +%2"_s.arg(o.states[i]).arg(o.at.value(i));
    return u"%1 requests during the outage; %2"_s.arg(o.duringOutage).arg(parts.join(u", "_s));
}

int failedDuringOutage(const QJsonArray& outages)
{
    return outages.size() == 1 ? outages.first().toObject().value(u"requests_failed"_s).toInt() : -1;
}

// The library: the script's log of calls and state changes (Date.now() stamps), the lab's outage.
Outcome runLibrary(const QString& library)
{
    Outcome out;
    const auto loaded = ScenarioLoader::fromJson(kScenario);
    if (!loaded.ok()) {
        qWarning() << loaded.problemText();
        return out;
    }
    FaultServer lab;
    if (!lab.start())
        return out;
    lab.loadScenario(*loaded.scenario);
    QProcess node;
    node.setWorkingDirectory(QStringLiteral(RETRYLAB_NPM_CLIENTS));
    node.start(u"node"_s,
        { u"breaker-client.mjs"_s, library, lab.url().toString() + u"/orders"_s, QString::number(kCalls),
            QString::number(kIntervalMs), QString::number(kBreakMs), QString::number(kWindowMs),
            QString::number(kBuckets) });
    if (!node.waitForStarted())
        return out;
    // The lab answers on this thread's event loop: spin it while the client runs.
    QDeadlineTimer deadline(60000);
    while (node.state() != QProcess::NotRunning && !deadline.hasExpired())
        QTest::qWait(20);
    if (node.state() != QProcess::NotRunning || node.exitCode() != 0) {
        qWarning() << node.readAllStandardError();
        return out;
    }
    qint64 firstFailure = -1;
    QList<qint64> at;
    for (const QByteArray& line : node.readAllStandardOutput().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.contains(u"call"_s) && o.value(u"result"_s).toString() == u"fail"_s && firstFailure < 0)
            firstFailure = o.value(u"start"_s).toInteger();
        else if (o.contains(u"event"_s)) {
            out.states << o.value(u"event"_s).toString();
            at << o.value(u"t"_s).toInteger();
        }
    }
    for (qint64 t : std::as_const(at))
        out.at << t - firstFailure;
    out.duringOutage = failedDuringOutage(lab.ledger().toJson().value(u"outages"_s).toArray());
    return out;
}

// The preset: `retrylab run` in its own lab, its session's breaker changes and attempts.
Outcome runPreset(const QString& library, const QTemporaryDir& dir)
{
    Outcome out;
    const QString scenario = dir.filePath(u"scenario.json"_s);
    const QString session = dir.filePath(library + u".json"_s);
    QFile f(scenario);
    if (!f.open(QIODevice::WriteOnly) || f.write(kScenario) != kScenario.size())
        return out;
    f.close();
    QStringList args { u"run"_s, u"--scenario"_s, scenario, u"--path"_s, u"/orders"_s, u"--repeat"_s,
        QString::number(kCalls), u"--interval"_s, QString::number(kIntervalMs), u"--json"_s, u"--quiet"_s,
        u"--export"_s, session };
    if (library == u"cockatiel"_s) // cockatiel-3 is wrap(retry, breaker, timeout); the script calls the breaker alone
        args << u"--policy"_s << u"cockatiel-3"_s << u"--set"_s << u"limits.max_retries=0"_s << u"--set"_s
             << u"pipeline[1].break_ms=%1"_s.arg(kBreakMs);
    else
        args << u"--policy"_s << u"opossum-9"_s << u"--set"_s << u"pipeline[0].break_ms=%1"_s.arg(kBreakMs)
             << u"--set"_s << u"pipeline[0].sampling_ms=%1"_s.arg(kWindowMs) << u"--set"_s
             << u"pipeline[0].buckets=%1"_s.arg(kBuckets);
    QProcess run;
    run.start(QStringLiteral(RETRYLAB_BINARY), args);
    if (!run.waitForFinished(60000)) {
        qWarning() << "retrylab run did not finish";
        return out;
    }
    const QList<QByteArray> lines = run.readAllStandardOutput().trimmed().split('\n');
    const QJsonObject summary = QJsonDocument::fromJson(lines.last()).object().value(u"summary"_s).toObject();
    out.duringOutage = failedDuringOutage(summary.value(u"ledger"_s).toObject().value(u"outages"_s).toArray());
    QFile file(session);
    if (!file.open(QIODevice::ReadOnly)) {
        qWarning() << run.readAllStandardError();
        return out;
    }
    const QJsonObject doc = QJsonDocument::fromJson(file.readAll()).object();
    double firstFailure = -1;
    for (const QJsonValue& r : doc.value(u"runs"_s).toArray()) {
        for (const QJsonValue& a : r.toObject().value(u"attempts"_s).toArray()) {
            const QJsonObject attempt = a.toObject();
            if (attempt.value(u"error"_s).isString() && (firstFailure < 0 || attempt.value(u"start_ms"_s).toDouble() < firstFailure))
                firstFailure = attempt.value(u"start_ms"_s).toDouble();
        }
    }
    for (const QJsonValue& c : doc.value(u"breaker_changes"_s).toArray()) {
        out.states << c.toObject().value(u"to"_s).toString();
        out.at << qint64(std::llround(c.toObject().value(u"at_ms"_s).toDouble() - firstFailure));
    }
    return out;
}

} // namespace

class TestClientBreakerRuns : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"node"_s).isEmpty())
            QFAIL("node is not installed: run packaging/install-deps.sh (Debian 12: nodejs npm)");
        QVERIFY2(QFile::exists(QStringLiteral(RETRYLAB_NPM_CLIENTS "/node_modules/opossum/package.json")),
            "the npm clients are not installed: ctest runs npm_ci_clients first");
        QVERIFY(m_dir.isValid());
    }

    void presetRunMatchesTheLibrary_data()
    {
        QTest::addColumn<QString>("library");
        QTest::addColumn<QString>("other");
        QTest::newRow("cockatiel 3.2.1") << u"cockatiel"_s << u"opossum"_s;
        QTest::newRow("opossum 9.0.0") << u"opossum"_s << u"cockatiel"_s;
    }
    void presetRunMatchesTheLibrary()
    {
        QFETCH(QString, library);
        QFETCH(QString, other);
        const Outcome theirs = runLibrary(library);
        const Outcome mine = runPreset(library, m_dir);
        qInfo("%s: %s", qPrintable(library), qPrintable(describe(theirs)));
        qInfo("retrylab run of its preset: %s", qPrintable(describe(mine)));
        // The run went through what a breaker is for: open, half-open, reopened, and closed once back.
        QVERIFY2(theirs.states.count(u"open"_s) >= 2 && theirs.states.value(theirs.states.size() - 1) == u"closed"_s,
            qPrintable(describe(theirs)));
        QVERIFY(theirs.duringOutage > 0);
        QCOMPARE(mine.duringOutage, theirs.duringOutage);
        QCOMPARE(mine.states, theirs.states);
        for (qsizetype i = 0; i < mine.at.size(); ++i) {
            const qint64 drift = mine.at[i] - theirs.at[i];
            QVERIFY2(drift >= -60 && drift <= 60,
                qPrintable(u"%1 (change %2): the library at +%3 ms, the run at +%4 ms from the outage's first call"_s
                        .arg(mine.states[i]).arg(i).arg(theirs.at[i]).arg(mine.at[i])));
        }
        // Another library's preset on the same scenario does something else.
        const Outcome another = runPreset(other, m_dir);
        QVERIFY2(another.duringOutage != theirs.duringOutage || another.states != theirs.states,
            qPrintable(u"%1's preset did what %2 did: %3"_s.arg(other, library, describe(another))));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestClientBreakerRuns)
#include "tst_client_breaker_runs.moc"
