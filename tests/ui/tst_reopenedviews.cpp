// SPDX-License-Identifier: GPL-3.0-or-later
// A reopened recording shows what the live one showed (issue 27 §2): every view's data — the timeline's
// lanes and marks (attempts, waits, outcomes, lab ticks), the delay and rate-limit charts' points, the
// summary, the attempts table, the lab's events — built live as the window builds it, then from the saved
// file opened again as the window opens it (SessionFile::open, SessionFeeder), and compared line by line.
// Once for an engine batch against the lab, once for Debian's curl observed through the lab:
//   curl --retry 3 against 503 + Retry-After: 1 twice, then 200; and a second curl after it.
// Live, the timeline draws every attempt and both Retry-After waits; the reopened file must too.
// And once for a batch whose policy has a circuit breaker (cockatiel's, quicker) through an outage: the
// breaker's band, the calls it refused and the waits for its verdict, as live, in the file reopened.
#include "livesession.h"
#include "run/runcontroller.h"
#include "sessions/sessionfeeder.h"

#include "lab/faultserver.h"
#include "lab/scenarioloader.h"
#include "policy/presetcatalog.h"
#include "session/format/sessionfile.h"

#include "testtime.h"
#include "viewsdata.h"

#include <QJsonDocument>
#include <QProcess>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// seed-free and in order: /retry answers 503 with Retry-After: 1 twice, then 200 for good.
FaultScenario retryTwice()
{
    const QByteArray json = R"({"format": 1, "name": "retry-twice", "description": "503 + Retry-After: 1 twice, then 200",
        "routes": [{"name": "retry", "method": ["GET", "POST"], "path": "/retry", "steps": [
            {"kind": "respond", "status": 503, "retry_after": 1, "repeat": 2, "json": {"error": "unavailable"}},
            {"kind": "respond", "status": 200, "json": {"ok": true}}]}]})";
    const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(QJsonDocument::fromJson(json).object());
    if (!loaded.ok())
        qFatal("the test's scenario does not load: %s", qPrintable(loaded.problemText()));
    return *loaded.scenario;
}

// The views of the file at PATH opened again, as the window opens it: read, then fed whole.
QStringList reopened(const QString& path)
{
    QString error;
    std::shared_ptr<const Session> session = SessionFile::open(path, {}, &error);
    if (!session)
        qFatal("cannot open %s: %s", qPrintable(path), qPrintable(error));
    LiveSession live;
    live.setRefreshInterval(0);
    ViewsData views(&live);
    SessionFeeder feeder(session, &live);
    feeder.showAll();
    live.flush();
    return views.lines();
}

QString difference(const QStringList& live, const QStringList& opened)
{
    for (qsizetype i = 0; i < std::max(live.size(), opened.size()); ++i) {
        const QString a = live.value(i, u"(nothing)"_s);
        const QString b = opened.value(i, u"(nothing)"_s);
        if (a != b)
            return u"line %1\n  live:     %2\n  reopened: %3"_s.arg(i).arg(a, b);
    }
    return QString();
}

// The attempts the timeline draws a bar for, in every lane.
int drawnAttempts(const TimelineModel& timeline)
{
    int drawn = 0;
    for (int lane = 0; lane < timeline.laneCount(); ++lane) {
        QSet<int> attempts;
        for (const TimelineMark& m : timeline.lane(lane)) {
            if (m.kind == TimelineMark::Kind::Phase)
                attempts.insert(m.attempt);
        }
        drawn += int(attempts.size());
    }
    return drawn;
}

int count(const QStringList& lines, const QString& prefix)
{
    return int(std::count_if(lines.cbegin(), lines.cend(), [&](const QString& l) { return l.startsWith(prefix); }));
}

// The lab resets every connection for the first 1.2 s, then answers GET /x with 200.
FaultScenario outageThenUp()
{
    const QByteArray json = R"({"format": 1, "name": "outage-early", "routes": [{"method": "GET", "path": "/x",
        "steps": [{"kind": "respond", "status": 200}]}], "outages": [{"from_ms": 0, "duration_ms": 1200, "mode": "reset"}]})";
    const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(QJsonDocument::fromJson(json).object());
    if (!loaded.ok())
        qFatal("the test's scenario does not load: %s", qPrintable(loaded.problemText()));
    return *loaded.scenario;
}

} // namespace

class TestReopenedViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void observedCurlReopened()
    {
        if (QStandardPaths::findExecutable(u"curl"_s).isEmpty())
            QFAIL("curl is not installed: run packaging/install-deps.sh");
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(m_dir.filePath(u"observed"_s));
        controller.session()->setRefreshInterval(0);
        ViewsData live(controller.session());
        QVERIFY(controller.startLab(u"flaky-api"_s));
        controller.applyScenario(retryTwice());
        QSignalSpy recorded(&controller, &RunController::batchRecorded);
        QVERIFY(controller.observe());

        const QString url = controller.lab()->url().resolved(QUrl(u"/retry"_s)).toString();
        for (int client = 0; client < 2; ++client) {
            QProcess curl;
            // Into a file: curl truncates its output before a retry, which /dev/null refuses (exit 23).
            curl.start(u"curl"_s, { u"-sS"_s, u"--retry"_s, u"3"_s, u"-o"_s, m_dir.filePath(u"answer"_s), url });
            QVERIFY(curl.waitForStarted());
            // The event loop runs the lab while curl waits (Retry-After: 1, twice): wait for it there.
            QTRY_VERIFY_WITH_TIMEOUT(curl.state() == QProcess::NotRunning, 20000);
            QVERIFY2(curl.exitCode() == 0, curl.readAllStandardError().constData());
        }
        QTRY_COMPARE_WITH_TIMEOUT(controller.attempts(), 4, 5000);
        controller.stop();
        QCOMPARE(recorded.count(), 1);
        const QString path = recorded.first().at(1).toString();
        QVERIFY(controller.waitForRecordings(30000));
        controller.session()->flush();

        const QStringList shown = live.lines();
        QCOMPARE(count(shown, u"table: "_s), 4);
        QCOMPARE(live.timeline().laneCount(), 2);
        QCOMPARE(drawnAttempts(live.timeline()), 4); // each drawn, though the lab saw them end within its millisecond
        QCOMPARE(live.timeline().waitCount(), 2); // curl's two waits, drawn as Retry-After
        QCOMPARE(live.delays().serverPoints().size(), 2);
        const QStringList opened = reopened(path);
        const QString diff = difference(shown, opened);
        QVERIFY2(diff.isEmpty(), qPrintable(diff + u"\n\nlive:\n"_s + shown.join(u'\n')));
    }

    void batchReopened()
    {
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(m_dir.filePath(u"batch"_s));
        controller.session()->setRefreshInterval(0);
        ViewsData live(controller.session());
        QVERIFY(controller.startLab(u"flaky-api"_s));
        controller.applyScenario(retryTwice());
        QSignalSpy recorded(&controller, &RunController::batchRecorded);
        RunPlan plan;
        plan.request.method = u"GET"_s;
        plan.labPath = u"/retry"_s;
        // An RFC 9110 client: GET is retried after a 503, after its Retry-After.
        const PolicyParseResult preset = PresetCatalog::load(u"rfc9110-standard"_s);
        QVERIFY(preset.ok());
        plan.policy = *preset.policy;
        plan.policy.limits.maxAttempts = 4;
        // As the policy editor says it: the preset, changed (recorded in the session).
        plan.policyChanges.base = u"rfc9110-standard"_s;
        plan.policyChanges.changes = PolicyChanges::between(*preset.policy, plan.policy);
        QVERIFY(!plan.policyChanges.isEmpty());
        plan.repeat = 2;
        QVERIFY(controller.run(plan));
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isRunning(), 20000);
        QCOMPARE(recorded.count(), 1);
        const QString path = recorded.first().at(1).toString();
        QVERIFY(controller.waitForRecordings(30000));
        controller.session()->flush();

        const QStringList shown = live.lines();
        QVERIFY2(count(shown, u"table: "_s) == 4, qPrintable(shown.join(u'\n')));
        QCOMPARE(live.timeline().waitCount(), 2);
        QVERIFY(count(shown, u"lab "_s) >= 8); // a request received and an answer sent per attempt, at least
        const QStringList opened = reopened(path);
        const QString diff = difference(shown, opened);
        QVERIFY2(diff.isEmpty(), qPrintable(diff + u"\n\nlive:\n"_s + shown.join(u'\n')));
        const std::unique_ptr<Session> saved = SessionFile::open(path);
        QVERIFY(saved);
        QCOMPARE(saved->policyChanges.size(), 1);
        QCOMPARE(saved->policyChanges.first(), plan.policyChanges);
    }

    void breakerBatchReopened()
    {
        RunController controller(TestTime::instance().clock, TestTime::instance().scheduler);
        controller.setRecordingDirectory(m_dir.filePath(u"breaker"_s));
        controller.session()->setRefreshInterval(0);
        ViewsData live(controller.session());
        QVERIFY(controller.startLab(u"flaky-api"_s));
        controller.applyScenario(outageThenUp());
        QSignalSpy recorded(&controller, &RunController::batchRecorded);
        RunPlan plan;
        plan.request.method = u"GET"_s;
        plan.labPath = u"/x"_s;
        // cockatiel 3's retry around its breaker (refused calls are retried; half-open callers wait for the
        // probe's verdict), quicker: 3 failures in a row open it for 400 ms, retries every 150 ms. Without its
        // attempt timeout: the engine writes a pipeline's timeouts into the run's limits, and a file with both
        // is refused when read back (a fault of the engine's, not of the views).
        const PolicyParseResult preset = PresetCatalog::load(u"cockatiel-3"_s);
        QVERIFY(preset.ok());
        plan.policy = *preset.policy;
        plan.policy.pipeline.removeIf([](const ResilienceStrategy& s) { return s.kind == ResilienceStrategy::Kind::AttemptTimeout; });
        for (ResilienceStrategy& s : plan.policy.pipeline) {
            if (s.kind == ResilienceStrategy::Kind::CircuitBreaker) {
                s.breaker.breakDuration = Millis(400);
                s.breaker.consecutiveFailures = 3;
            }
        }
        plan.policy.limits.maxAttempts = 16;
        plan.policy.backoff.kind = BackoffKind::Constant;
        plan.policy.backoff.base = Millis(150);
        QVERIFY2(validate(plan.policy).isEmpty(), qPrintable(validate(plan.policy).value(0).message));
        plan.repeat = 4;
        plan.concurrency = 4;
        QVERIFY2(controller.run(plan), qPrintable(controller.lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isRunning(), 30000);
        QCOMPARE(recorded.count(), 1);
        const QString path = recorded.first().at(1).toString();
        QVERIFY(controller.waitForRecordings(30000));
        controller.session()->flush();

        const QStringList shown = live.lines();
        const QString all = shown.join(u'\n');
        QVERIFY2(live.timeline().refusedCount() > 0, qPrintable(all));
        QCOMPARE(live.timeline().breakers().count(), 1);
        const QList<BreakerSegment>& segments = live.timeline().breakers().band(0).segments;
        QVERIFY2(std::any_of(segments.cbegin(), segments.cend(), [](const BreakerSegment& seg) { return seg.state == CircuitBreaker::State::Open; }),
            qPrintable(all));
        QCOMPARE(segments.last().state, CircuitBreaker::State::Closed); // the outage ended, the probe got through
        QVERIFY2(count(shown, u"summary breaker: refused "_s) == 1, qPrintable(all));
        // The table's rows compared as a set: when a probe fails, the engine reports the calls that waited
        // for its verdict (refused now) before the probe itself, though the probe ended first; a reopened
        // file lists attempts in the order they ended. Every row, and everything else, is the same.
        QStringList opened = reopened(path);
        QStringList expected = shown;
        const auto tableLast = [](QStringList& lines) {
            const auto table = std::stable_partition(lines.begin(), lines.end(), [](const QString& l) { return !l.startsWith(u"table: "_s); });
            std::sort(table, lines.end());
        };
        tableLast(expected);
        tableLast(opened);
        const QString diff = difference(expected, opened);
        QVERIFY2(diff.isEmpty(), qPrintable(diff + u"\n\nlive:\n"_s + all));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestReopenedViews)
#include "tst_reopenedviews.moc"
