// SPDX-License-Identifier: GPL-3.0-or-later
// Replay: a session recorded with curl against seed-001-slen (real engine, real lab on loopback) replayed
// offline under slen and aws-standard (a comparison per run and in total), and under its own policy and
// seeds (the same decisions and delays, attempt for attempt).
#include "engine/clock.h"
#include "engine/retryengine.h"
#include "engine/timerscheduler.h"
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"
#include "lab/scenarioloader.h"
#include "policy/presetcatalog.h"
#include "session/replaycomparison.h"
#include "session/replayrunner.h"
#include "session/replayscenario.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

class TestReplay : public QObject
{
    Q_OBJECT

    Session m_recorded;

    static Session replay(const Session& recorded, std::optional<RetryPolicy> policy)
    {
        ReplayOptions options;
        options.policy = std::move(policy);
        ReplayRunner runner(recorded, options);
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
        connect(&engine, &RetryEngine::runFinished, this, [this](const RunRecord& r) { m_recorded.addRun(r); });
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
};

QTEST_GUILESS_MAIN(TestReplay)
#include "tst_replay.moc"
