// SPDX-License-Identifier: GPL-3.0-or-later
// Replay: a session recorded with curl against seed-001-slen (real engine, real lab on loopback) replayed
// offline under slen and aws-standard (a comparison per run and in total), and under its own policy and
// seeds (the same decisions and delays, attempt for attempt); replayed live against a second lab on
// loopback (every replayed attempt reached it); repeated answer header lines kept in the scenario.
#include "engine/clock.h"
#include "engine/retryengine.h"
#include "../engine/runcollector.h"
#include "engine/timerscheduler.h"
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "lab/scenarioloader.h"
#include "policy/presetcatalog.h"
#include "engine/virtualtime.h"
#include "session/batch.h"
#include "replay/replaycomparison.h"
#include "replay/replayrunner.h"
#include "replay/replayscenario.h"
#include "../session/sessiontestdata.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

class TestReplay : public QObject
{
    Q_OBJECT

    Session m_recorded;

    // Records RUNS POSTs to a lab answering STEPS under slen, on virtual time (the waits take none).
    static Session recordOnVirtualTime(const QByteArray& stepsJson, int runs)
    {
        const ScenarioLoader::Result scenario = ScenarioLoader::fromJson(R"({"format": 1, "name": "waits", "routes": [
            { "path": "/pay", "steps": )" + stepsJson + R"( } ]})");
        if (!scenario.ok())
            qFatal("scenario: %s", qPrintable(scenario.problemText()));
        VirtualClock clock;
        VirtualScheduler scheduler(clock);
        FaultServer lab; // before the batch, which points to it
        Batch batch(clock, scheduler);
        batch.skipWaits(scheduler);
        if (!lab.start())
            qFatal("lab did not start");
        lab.loadScenario(*scenario.scenario);
        batch.useLab(&lab, scenario.scenario->source);
        RequestSpec spec;
        spec.url = QUrl(lab.url().toString() + u"/pay"_s);
        const PolicyParseResult slen = PresetCatalog::load(u"slen"_s);
        for (int i = 0; i < runs; ++i)
            batch.submit(spec, *slen.policy, quint64(100 + i));
        QSignalSpy idle(&batch, &Batch::idle);
        if (!idle.wait(60000))
            qFatal("recording did not finish");
        Session s = batch.takeSession();
        std::sort(s.runs.begin(), s.runs.end(), [](const SessionRun& a, const SessionRun& b) { return a.runId < b.runId; });
        s.rebuildIndex();
        return s;
    }

    static Millis totalDelay(const Session& s)
    {
        Millis total { 0 };
        for (qsizetype i = 0; i < s.attemptCount(); ++i) {
            const AttemptRecord a = s.attempts.record(i);
            if (a.decision && a.decision->verdict == Verdict::Retry)
                total += a.decision->delay;
        }
        return total;
    }

    static Session replay(const Session& recorded, std::optional<RetryPolicy> policy, ReplayOptions options = {})
    {
        options.policy = std::move(policy);
        ElapsedClock clock; // times a live replay; an offline one runs on its own virtual time
        TimerScheduler scheduler(clock);
        ReplayRunner runner(recorded, options, clock, scheduler);
        QSignalSpy done(&runner, &ReplayRunner::finished);
        QString error;
        if (!runner.start(&error))
            qFatal("replay did not start: %s", qPrintable(error));
        if (!done.wait(120000))
            qFatal("replay did not finish");
        Session copy;
        copy = runner.result();
        return copy;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // Record: curl's policy against the Slen seed scenario, two POST /v1/runs.
        const ScenarioLoader::Result scenario = ScenarioCatalog::load(u"seed-001-slen"_s);
        QVERIFY(scenario.ok());
        const PolicyParseResult curl = PresetCatalog::load(u"curl"_s);
        QVERIFY(curl.ok());
        ElapsedClock clock;
        TimerScheduler scheduler(clock);
        RetryEngine engine(clock, scheduler);
        engine.setConcurrencyLimit(1);
        FaultServer lab;
        lab.setClockOrigin(clock.origin());
        QVERIFY(lab.start());
        lab.loadScenario(*scenario.scenario);
        m_recorded.scenario = scenario.scenario->source;
        connect(&lab, &FaultServer::labEvent, this, [this](const LabEvent& e) { m_recorded.labEvents.append(e); });
        const RunCollector collected(&engine, [this](const RunRecord& r) { m_recorded.addRun(r); });
        QSignalSpy idle(&engine, &RetryEngine::idle);
        RequestSpec spec;
        spec.method = u"POST"_s;
        spec.url = lab.url();
        spec.url.setPath(u"/v1/runs"_s);
        spec.body = QByteArrayLiteral("{\"amount\":1}");
        engine.submit(spec, *curl.policy, 11);
        engine.submit(spec, *curl.policy, 12);
        QVERIFY(idle.wait(120000));
        std::sort(m_recorded.runs.begin(), m_recorded.runs.end(), [](const SessionRun& a, const SessionRun& b) { return a.runId < b.runId; });
        m_recorded.rebuildIndex();
        QCOMPARE(m_recorded.runs.size(), 2);
        QVERIFY(m_recorded.attemptCount() >= 2);
    }

    void scenarioFromRecordedAnswersLoads()
    {
        const QJsonObject scenario = ReplayScenario::fromSession(m_recorded);
        const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(scenario);
        QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
        QCOMPARE(loaded.scenario->routes.size(), m_recorded.runs.size());
        int steps = 0;
        for (const FaultRoute& r : loaded.scenario->routes)
            steps += int(r.steps.size());
        QCOMPARE(steps, int(m_recorded.attemptCount()));
    }

    void originalPolicyReproducesDecisions()
    {
        const Session again = replay(m_recorded, std::nullopt);
        const QString difference = ReplayComparison::firstDecisionDifference(m_recorded, again);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QCOMPARE(again.attemptCount(), m_recorded.attemptCount());
    }

    void whatIf_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addRow("issue 5: replayed under slen") << u"slen"_s;
        QTest::addRow("issue 5: replayed under aws-standard") << u"aws-standard"_s;
    }
    void whatIf()
    {
        QFETCH(QString, policy);
        const PolicyParseResult p = PresetCatalog::load(policy);
        QVERIFY(p.ok());
        const Session replayed = replay(m_recorded, *p.policy);
        const ReplayComparison c = ReplayComparison::compare(m_recorded, replayed);
        QCOMPARE(c.runs.size(), m_recorded.runs.size());
        QCOMPARE(c.recorded.runs, 2);
        QCOMPARE(c.replayed.runs, 2);
        QCOMPARE(c.recorded.attempts, int(m_recorded.attemptCount()));
        QCOMPARE(c.replayed.attempts, int(replayed.attemptCount()));
        QVERIFY(c.replayed.operationsApplied >= 0);
        QVERIFY(c.recorded.operationsApplied >= 0);
        for (const ReplayRunRow& row : c.runs) {
            QVERIFY(row.replayed.outcome != FinalKind::None);
            QVERIFY(row.replayed.attempts >= 1);
        }
        QCOMPARE(replayed.policies.first(), *p.policy);
        const QJsonObject json = c.toJson();
        QCOMPARE(json[u"runs"_s].toArray().size(), 2);
        QVERIFY(c.toText().contains(u"amplification"_s));
    }

    // Live: the requests go to BASE_URL, a real lab on loopback that was never recorded against, and
    // every replayed attempt is one request there (the lab's own count, not the runner's).
    void liveReplayReachesBaseUrl()
    {
        const ScenarioLoader::Result scenario = ScenarioCatalog::load(u"seed-001-slen"_s);
        QVERIFY(scenario.ok());
        FaultServer target;
        QVERIFY(target.start());
        target.loadScenario(*scenario.scenario);
        int received = 0;
        QList<QString> paths;
        connect(&target, &FaultServer::requestReceived, this, [&](const LabEvent& e) {
            ++received;
            paths.append(e.path);
        });
        ReplayOptions options;
        options.live = true;
        options.baseUrl = target.url();
        const Session replayed = replay(m_recorded, std::nullopt, options);
        QCOMPARE(replayed.meta.source, u"replay-live"_s);
        QCOMPARE(replayed.runs.size(), m_recorded.runs.size());
        QVERIFY(replayed.attemptCount() >= replayed.runs.size());
        QCOMPARE(received, int(replayed.attemptCount()));
        for (const QString& path : std::as_const(paths))
            QCOMPARE(path, u"/v1/runs"_s); // the recorded path, on the new host
        for (qsizetype r = 0; r < replayed.runs.size(); ++r) {
            for (qsizetype i = 0; i < replayed.runs.at(r).rows.size(); ++i) {
                const AttemptRecord a = replayed.attempt(r, i);
                QCOMPARE(a.url.port(), target.url().port());
                QVERIFY(a.status.has_value()); // answered by the lab
            }
        }
        QVERIFY(replayed.labEvents.isEmpty()); // live: no lab of the runner's own
    }

    // Issue 11 §3: an offline replay runs on virtual time; it makes exactly the attempts, decisions and
    // delays of a replay that waits in real time, without the waiting.
    void virtualTimeMatchesRealTime()
    {
        const Session recorded = recordOnVirtualTime(R"([
            { "kind": "respond", "status": 429, "retry_after": 1 },
            { "kind": "respond", "status": 429, "retry_after": 1 },
            { "kind": "respond", "status": 200, "repeat": "forever" } ])", 1);
        QCOMPARE(recorded.attemptCount(), 3);
        QVERIFY(totalDelay(recorded) >= Millis(1500)); // slen retries a 429 after its Retry-After (1 s, shifted ±25 %), twice

        QElapsedTimer wall;
        wall.start();
        const Session virtualReplay = replay(recorded, std::nullopt);
        const qint64 virtualMs = wall.restart();
        ReplayOptions realTime;
        realTime.realTime = true;
        const Session realReplay = replay(recorded, std::nullopt, realTime);
        const qint64 realMs = wall.elapsed();

        QCOMPARE(virtualReplay.attemptCount(), recorded.attemptCount());
        QCOMPARE(realReplay.attemptCount(), recorded.attemptCount());
        const QString difference = ReplayComparison::firstDecisionDifference(realReplay, virtualReplay);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QCOMPARE(totalDelay(virtualReplay), totalDelay(realReplay));
        QVERIFY2(realMs >= totalDelay(realReplay).count(), qPrintable(QString::number(realMs)));
        QVERIFY2(virtualMs * 2 < realMs, qPrintable(QStringLiteral("virtual %1 ms, real %2 ms").arg(virtualMs).arg(realMs)));
        // The replayed session's own axis still shows the waits: the next attempt starts after each one.
        const SessionRun& run = virtualReplay.runs.first();
        for (qsizetype i = 1; i < run.rows.size(); ++i) {
            const AttemptRecord before = virtualReplay.attempt(0, i - 1);
            const AttemptRecord next = virtualReplay.attempt(0, i);
            QVERIFY(*next.at.started - *before.at.finished >= before.decision->delay);
        }
    }

    void aMinuteOfWaitsReplaysInSeconds()
    {
        // slen gives up after 3 attempts: two runs answered 429 "Retry-After: 25" three times each wait twice
        // each (25 s shifted ±25 %, honoured up to 30 s), then a third run succeeds: over a minute of waiting.
        const Session recorded = recordOnVirtualTime(R"([
            { "kind": "respond", "status": 429, "retry_after": 25, "repeat": 6 },
            { "kind": "respond", "status": 200, "repeat": "forever" } ])", 3);
        QVERIFY2(totalDelay(recorded) >= Millis(60000), qPrintable(QString::number(totalDelay(recorded).count())));
        QElapsedTimer wall;
        wall.start();
        const Session again = replay(recorded, std::nullopt);
        const qint64 ms = wall.elapsed();
        qInfo("replayed %lld ms of waits in %lld ms", qint64(totalDelay(again).count()), ms);
        QCOMPARE(again.attemptCount(), recorded.attemptCount());
        QCOMPARE(totalDelay(again), totalDelay(recorded));
        QVERIFY2(ms < 10000, qPrintable(QString::number(ms))); // real time would be over a minute
    }

    // An answer with a field on several lines (two Set-Cookie, two RateLimit) keeps every line in the
    // generated scenario: the scenario's "headers" object cannot repeat a name, so the repetitions use
    // the name in another case, which is the same field to HTTP (RFC 9110 §5.1).
    void repeatedHeaderLinesKept()
    {
        Session s;
        s.redaction.enabled = false;
        RunRecord run = SessionTestData::run(2, 1); // an answered attempt (run 1's is a reset)
        QVERIFY(run.attempts[0].status.has_value());
        run.attempts[0].responseHeaders = { { "Content-Type", "application/json" }, { "Set-Cookie", "a=1; Path=/" },
            { "RateLimit", "\"default\";r=3;t=5" }, { "Set-Cookie", "b=2; Path=/" }, { "RateLimit", "\"burst\";r=0;t=1" },
            { "Set-Cookie", "c=3" } };
        s.addRun(run);
        const QJsonObject scenario = ReplayScenario::fromSession(s);
        const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(scenario);
        QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
        const FaultStep& step = loaded.scenario->routes.at(0).steps.at(0);
        const auto values = [&](const QByteArray& name) {
            QList<QByteArray> out;
            for (const auto& [n, v] : step.headers) {
                if (n.compare(name, Qt::CaseInsensitive) == 0)
                    out.append(v);
            }
            std::sort(out.begin(), out.end());
            return out;
        };
        QCOMPARE(values("set-cookie"), (QList<QByteArray> { "a=1; Path=/", "b=2; Path=/", "c=3" }));
        QCOMPARE(values("ratelimit"), (QList<QByteArray> { "\"burst\";r=0;t=1", "\"default\";r=3;t=5" }));
        QCOMPARE(values("content-type"), (QList<QByteArray> { "application/json" }));
        QCOMPARE(step.headers.size(), 6);
    }
};

QTEST_GUILESS_MAIN(TestReplay)
#include "tst_replay.moc"
