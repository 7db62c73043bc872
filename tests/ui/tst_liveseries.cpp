// SPDX-License-Identifier: GPL-3.0-or-later
// The derived series behind the live views, with exact values: phase spans, the timeline model, delay
// points, envelope and histogram, rate-limit tracks and steps, and the session summary.
#include "live/delayseries.h"
#include "live/phasespans.h"
#include "live/ratelimitseries.h"
#include "live/sessionsummary.h"
#include "live/timelinemodel.h"
#include "live/wholesessiondelta.h"
#include "livefixture.h"
#include "../core/session/sessiontestdata.h"
#include "session/sessionrecorder.h"

#include <QTest>

using namespace livefixture;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(QList<PhaseSpan>)

class TestLiveSeries : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void phaseSpans_data();
    void phaseSpans();
    void timelineModel();
    void timelineHitTest();
    void labTicksFindTheirLanes();
    void laneMarksExact();
    void delayPoints();
    void delayEnvelope();
    void histogram();
    void rateLimitTracks();
    void rateLimitResetsFromWhenTheAnswerCame_data();
    void rateLimitResetsFromWhenTheAnswerCame();
    void steps();
    void readableShortRuns();
    void percentiles_data();
    void percentiles();
    void summary();
    void summaryIncremental();
    void summaryDuplicateApplications();
    void labEventsFollowTheRecorder();
    void shownSessionsLabEventsInPlace();
    void shownSessionsLabTicksFindTheirLanes();
    void runsFoundInAnyIdOrder_data();
    void runsFoundInAnyIdOrder();
};

void TestLiveSeries::phaseSpans_data()
{
    QTest::addColumn<AttemptRecord>("attempt");
    QTest::addColumn<double>("now");
    QTest::addColumn<QList<PhaseSpan>>("spans");
    using P = TimelinePhase;
    AttemptRecord http = attempt(1, 1, 0, 60);
    http.at.connecting = at(1);
    http.at.requestSent = at(3);
    http.at.headersReceived = at(50);
    QTest::addRow("new HTTP connection: connect until sent, then first byte, download")
        << http << -1.0 << QList<PhaseSpan> { { P::Connect, 0, 3 }, { P::FirstByte, 3, 50 }, { P::Download, 50, 60 } };
    AttemptRecord tls = attempt(1, 1, 10, 90);
    tls.at.connecting = at(11);
    tls.at.tlsDone = at(30);
    tls.at.requestSent = at(31);
    tls.at.headersReceived = at(80);
    QTest::addRow("TLS: the TLS span runs from connecting to encrypted")
        << tls << -1.0 << QList<PhaseSpan> { { P::Connect, 10, 11 }, { P::Tls, 11, 30 }, { P::FirstByte, 30, 80 }, { P::Download, 80, 90 } };
    AttemptRecord reused = attempt(1, 2, 100, 160);
    reused.at.headersReceived = at(140);
    QTest::addRow("reused connection: no connect phase")
        << reused << -1.0 << QList<PhaseSpan> { { P::FirstByte, 100, 140 }, { P::Download, 140, 160 } };
    AttemptRecord refused = attempt(1, 1, 0, 5);
    refused.at.connecting = at(1);
    QTest::addRow("refused: connecting until the end, nothing else") << refused << -1.0 << QList<PhaseSpan> { { P::Connect, 0, 5 } };
    AttemptRecord live = attempt(1, 1, 400, -1);
    live.at.connecting = at(401);
    live.at.requestSent = at(405);
    QTest::addRow("in flight: ends at now")
        << live << 450.0 << QList<PhaseSpan> { { P::Connect, 400, 405 }, { P::FirstByte, 405, 450 } };
    QTest::addRow("in flight without now: nothing") << live << -1.0 << QList<PhaseSpan> {};
    AttemptRecord queued = attempt(1, 1, 500, 700);
    queued.at.queued = at(200);
    queued.at.headersReceived = at(650);
    QTest::addRow("waited for a connection: Queued from queued to started (issue 10 §3)")
        << queued << -1.0 << QList<PhaseSpan> { { P::Queued, 200, 500 }, { P::FirstByte, 500, 650 }, { P::Download, 650, 700 } };
    AttemptRecord instant = attempt(1, 2, 1041, 1041); // a watched client's, stamped to the millisecond
    instant.at.requestSent = instant.at.headersReceived = at(1041);
    QTest::addRow("ended within the clock's resolution: one span of no length, still drawn")
        << instant << -1.0 << QList<PhaseSpan> { { P::FirstByte, 1041, 1041 } };
    AttemptRecord instantReset = attempt(1, 2, 70, 70);
    instantReset.at.connecting = at(70);
    QTest::addRow("refused within the clock's resolution: connecting, no length")
        << instantReset << -1.0 << QList<PhaseSpan> { { P::Connect, 70, 70 } };
    AttemptRecord never = attempt(1, 1, 0, 5);
    never.at.started.reset();
    QTest::addRow("never started: nothing") << never << -1.0 << QList<PhaseSpan> {};
}

void TestLiveSeries::phaseSpans()
{
    QFETCH(AttemptRecord, attempt);
    QFETCH(double, now);
    QFETCH(QList<PhaseSpan>, spans);
    const QList<PhaseSpan> got = attemptPhaseSpans(attempt, now >= 0 ? std::optional<double>(now) : std::nullopt);
    QCOMPARE(got.size(), spans.size());
    for (qsizetype i = 0; i < got.size(); ++i) {
        QCOMPARE(int(got.at(i).phase), int(spans.at(i).phase));
        QCOMPARE(got.at(i).startMs, spans.at(i).startMs);
        QCOMPARE(got.at(i).endMs, spans.at(i).endMs);
    }
}

void TestLiveSeries::timelineModel()
{
    LiveSession session;
    fill(session);
    TimelineModel model;
    model.update(session, wholeSessionDelta(session));
    QCOMPARE(model.laneCount(), 3);
    QCOMPARE(model.segmentCount(), 3 + 2 + 4 + 2 + 2); // r1a1, r1a2, r2a1, r2a2, r3a1 in flight
    QCOMPARE(model.live().size(), 2);
    QCOMPARE(model.waitCount(), 2);
    QCOMPARE(model.outcomeCount(), 2);
    QCOMPARE(model.labTickCount(), 5);
    QCOMPARE(model.unmatchedLab().size(), 1);
    QCOMPARE(model.startMs(), 0.0);
    QCOMPARE(model.endMs(), 1120.0);
    const auto span = model.attemptSpan(1, 1);
    QVERIFY(span);
    QCOMPARE(span->first, 10.0);
    QCOMPARE(span->second, 90.0);
    // A second update with an empty delta adds nothing (in-flight spans are rebuilt, not appended).
    LiveSessionDelta none;
    none.runsBefore = none.runsAfter = session.runs().size();
    model.update(session, none);
    QCOMPARE(model.segmentCount(), 13);
    QCOMPARE(model.outcomeCount(), 2);
    model.clear();
    QCOMPARE(model.laneCount(), 0);
    QCOMPARE(model.segmentCount(), 0);
}

void TestLiveSeries::laneMarksExact()
{
    // Run 2's lane, mark by mark, as the model rebuilds it from the session's stores: attempt 1's phases
    // (new TLS connection), attempt 2's (new connection, reset before any answer), the backoff wait
    // between them, the outcome, and the lab's tick for attempt 1.
    LiveSession session;
    fill(session);
    TimelineModel model;
    model.update(session, wholeSessionDelta(session));
    using K = TimelineMark::Kind;
    using P = TimelinePhase;
    struct Expected
    {
        K kind;
        int detail;
        int attempt;
        int ref;
        double startMs;
        double endMs;
    };
    const QList<Expected> expected = {
        { K::Phase, int(P::Connect), 1, 1, 10, 11 },
        { K::Phase, int(P::Tls), 1, 1, 11, 30 },
        { K::Phase, int(P::FirstByte), 1, 1, 30, 80 },
        { K::Phase, int(P::Download), 1, 1, 80, 90 },
        { K::Phase, int(P::Connect), 2, 2, 290, 300 },
        { K::Phase, int(P::FirstByte), 2, 2, 300, 320 },
        { K::Wait, int(DelaySource::Backoff), 2, 1, 90, 290 },
        { K::Outcome, int(FinalKind::Network), 0, 1, 320, 320 },
        { K::LabReceived, 0, 0, 1, 35, 35 },
    };
    QList<TimelineMark> got;
    for (const TimelineMark& m : model.lane(1))
        got.append(m);
    QCOMPARE(got.size(), expected.size());
    for (int i = 0; i < got.size(); ++i) {
        const TimelineMark& m = got.at(i);
        const Expected& e = expected.at(i);
        const QString where = u"mark %1"_s.arg(i);
        QVERIFY2(m.kind == e.kind && int(m.detail) == e.detail && m.attempt == e.attempt && m.ref == e.ref && !m.live,
                 qPrintable(where + u": kind %1 detail %2 attempt %3 ref %4"_s.arg(int(m.kind)).arg(m.detail).arg(m.attempt).arg(m.ref)));
        QCOMPARE(m.startMs, e.startMs);
        QCOMPARE(m.endMs, e.endMs);
    }
    // Iterating twice gives the same marks; copies of an iterator advance on their own.
    auto it = model.lane(1).begin();
    auto copy = it++;
    QCOMPARE(copy->detail, quint8(P::Connect));
    QCOMPARE(it->detail, quint8(P::Tls));
    QCOMPARE(std::distance(model.lane(1).begin(), model.lane(1).end()), qsizetype(expected.size()));
}

void TestLiveSeries::labTicksFindTheirLanes()
{
    // The lab's ticks find their run's lane by attempt id: 3 000 finished attempts (the id table grows
    // past its first size), their events arriving afterwards in reverse order, one attempt still in flight,
    // an id two attempts share (the newer one's lane), and an id nobody sent (not in a lane: drawn on the
    // axis once it has waited its updates).
    LiveSession session;
    LiveFeed feed(session);
    const int runs = 3000;
    const auto idOf = [](int run) { return u"6f1f7c52-3c1e-4a8e-9d43-%1;attempt=1"_s.arg(run, 12, 10, QLatin1Char('0')); };
    for (int r = 1; r <= runs + 3; ++r) {
        RunRecord run;
        run.runId = r;
        run.startedAt = at(r);
        feed.onRunStarted(run);
        AttemptRecord a = attempt(r, 1, r, r + 0.5);
        a.attemptId = r > runs + 1 ? u"shared"_s : idOf(r);
        if (r == runs + 1) {
            a.at.finished.reset();
            feed.onAttemptStarted(a); // in flight
        } else {
            feed.onAttemptFinished(a);
        }
    }
    for (int r = runs + 1; r >= 1; --r)
        feed.onLabEvent(labEvent(LabEvent::Kind::RequestReceived, r, idOf(r)));
    feed.onLabEvent(labEvent(LabEvent::Kind::RequestReceived, 1, u"shared"_s));
    feed.onLabEvent(labEvent(LabEvent::Kind::RequestReceived, 1, u"nobody"_s));
    session.flush();
    TimelineModel model;
    model.update(session, wholeSessionDelta(session));
    QCOMPARE(model.laneCount(), runs + 3);
    const LabEventStore& events = session.labEvents();
    for (int lane = 0; lane < runs + 3; ++lane) {
        QStringList ticks;
        for (const TimelineMark& m : model.lane(lane)) {
            if (m.kind == TimelineMark::Kind::LabReceived)
                ticks << events.attemptId(m.ref);
        }
        const int run = lane + 1;
        const QStringList expected = run <= runs + 1 ? QStringList { idOf(run) } : run == runs + 3 ? QStringList { u"shared"_s } : QStringList {};
        if (ticks != expected)
            QFAIL(qPrintable(u"lane %1 has ticks [%2], not [%3]"_s.arg(lane).arg(ticks.join(u", "), expected.join(u", "))));
    }
    QCOMPARE(model.labTickCount(), runs + 2);
    QVERIFY(model.unmatchedLab().isEmpty()); // "nobody" waits for its attempt first
    LiveSessionDelta none;
    none.runsBefore = none.runsAfter = session.runs().size();
    for (int i = 0; i < 3; ++i)
        model.update(session, none);
    QCOMPARE(model.unmatchedLab().size(), 1);
    QCOMPARE(events.attemptId(model.unmatchedLab().first().ref), u"nobody"_s);
}

void TestLiveSeries::timelineHitTest()
{
    LiveSession session;
    fill(session);
    TimelineModel model;
    model.update(session, wholeSessionDelta(session));
    auto hit = model.hitTest(0, 20, 1);
    QVERIFY(hit);
    QCOMPARE(hit->mark.kind, TimelineMark::Kind::Phase);
    QCOMPARE(hit->mark.attempt, 1);
    QVERIFY(model.describe(*hit, session).contains(QStringLiteral("Run 1 · attempt 1")));
    QVERIFY(model.describe(*hit, session).contains(QStringLiteral("429")));
    hit = model.hitTest(0, 500, 1);
    QVERIFY(hit);
    QCOMPARE(hit->mark.kind, TimelineMark::Kind::Wait);
    QVERIFY(model.describe(*hit, session).contains(QStringLiteral("retry-after")));
    hit = model.hitTest(0, 1119, 3); // the outcome mark wins over the download span it sits on
    QVERIFY(hit);
    QCOMPARE(hit->mark.kind, TimelineMark::Kind::Outcome);
    QVERIFY(model.describe(*hit, session).contains(QStringLiteral("success")));
    hit = model.hitTest(0, 1104, 2);
    QVERIFY(hit);
    QCOMPARE(hit->mark.kind, TimelineMark::Kind::LabApplied);
    hit = model.hitTest(2, 420, 1);
    QVERIFY(hit && hit->mark.live);
    QVERIFY(model.describe(*hit, session).contains(QStringLiteral("in flight")));
    QVERIFY(!model.hitTest(1, 5000, 1));
    QVERIFY(!model.hitTest(7, 10, 1));
}

void TestLiveSeries::delayPoints()
{
    LiveSession session;
    fill(session);
    DelaySeries d;
    for (const WaitInfo& w : session.waits())
        d.add(w);
    QCOMPARE(d.serverPoints(), QList<QPointF> { QPointF(1 + delayPointSpread(0), 1.0) });
    QCOMPARE(d.backoffPoints(), QList<QPointF> { QPointF(1 + delayPointSpread(1), 0.2) });
    QCOMPARE(d.maxRetry(), 1);
    QCOMPARE(d.maxDelaySeconds(), 1.0);
    QCOMPARE(delayPointSpread(0), -0.3);
    for (int i = 0; i < 1000; ++i)
        QVERIFY(qAbs(delayPointSpread(i)) <= 0.3);
    d.clear();
    QCOMPARE(d.pointCount(), 0);
}

void TestLiveSeries::delayEnvelope()
{
    RetryPolicy p;
    p.limits.maxAttempts = 4;
    p.backoff.kind = BackoffKind::Exponential;
    p.backoff.base = Millis(100);
    p.backoff.multiplier = 2;
    p.backoff.cap = Millis(300);
    p.jitter.kind = JitterKind::Full;
    const DelayEnvelope e = ::delayEnvelope(p, 3);
    const QList<QPointF> ceiling { { 0.6, 0.1 }, { 1.4, 0.1 }, { 1.6, 0.2 }, { 2.4, 0.2 }, { 2.6, 0.3 }, { 3.4, 0.3 } };
    QCOMPARE(e.ceiling, ceiling);
    QCOMPARE(e.bandHigh, ceiling);
    for (const QPointF& low : e.bandLow)
        QCOMPARE(low.y(), 0.0);
    QCOMPARE(e.maxSeconds, 0.3);
}

void TestLiveSeries::histogram()
{
    const DelayHistogram h = delayHistogram({ 0.2, 0.25 }, { 1.0 }, 16);
    QCOMPARE(h.binWidth, 0.1);
    QCOMPARE(h.backoff.size(), 11);
    QCOMPARE(h.backoff.at(2), 2);
    QCOMPARE(h.server.at(10), 1);
    int total = 0;
    for (qsizetype i = 0; i < h.backoff.size(); ++i)
        total += h.backoff.at(i) + h.server.at(i);
    QCOMPARE(total, 3);
    QCOMPARE(h.labels.first(), QStringLiteral("0.0–0.1 s"));
    QCOMPARE(h.labels.last(), QStringLiteral("1.0–1.1 s"));
    QVERIFY(delayHistogram({}, {}, 10).labels.isEmpty());
    const DelayHistogram zero = delayHistogram({ 0.0, 0.0 }, {}, 10);
    QCOMPARE(zero.backoff, QList<int> { 2 });
}

void TestLiveSeries::rateLimitTracks()
{
    LiveSession session;
    fill(session);
    RateLimitSeries r;
    for (qsizetype i = 0; i < session.finishedAttempts(); ++i)
        r.add(session.attemptRecord(i), QDateTime::currentDateTimeUtc());
    QCOMPARE(r.tracks().size(), 1);
    const RateLimitTrack& t = r.tracks().first();
    QCOMPARE(t.label(), QStringLiteral("127.0.0.1:8080 · burst (ietf-draft-11)"));
    QCOMPARE(t.remaining, (QList<QPointF> { { 0.05, 0 }, { 1.1, 9 } }));
    QCOMPARE(t.limit, (QList<QPointF> { { 0.05, 10 }, { 1.1, 10 } }));
    QCOMPARE(t.resets.size(), 2);
    QCOMPARE(t.resets.at(0), 1.05);
    QCOMPARE(t.resets.at(1), 6.1);
    QCOMPARE(r.rejections(), QList<QPointF> { QPointF(0.05, 0) });
    QCOMPARE(r.sampleCount(), 2);
    QCOMPARE(r.maxValue(), 10.0);
    QCOMPARE(r.minSeconds(), 0.05);
    QCOMPARE(r.maxSeconds(), 6.1);
}

void TestLiveSeries::rateLimitResetsFromWhenTheAnswerCame_data()
{
    QTest::addColumn<QByteArray>("date"); // the answer's Date; empty: none
    QTest::addColumn<QDateTime>("origin"); // the session's wall origin
    QTest::addColumn<QVariant>("reset"); // where the reset marker is (s on the session axis); invalid: none

    // A GitHub answer (headers.md §4: X-Ratelimit-Reset 1659645499, epoch seconds) 2 s into a session that
    // began 100 s before that reset, opened long after: the reset is 98 s after the answer, not in the past.
    const QDateTime origin = QDateTime::fromSecsSinceEpoch(1659645499 - 100, Qt::UTC);
    QTest::addRow("headers.md §4 GitHub, no Date: from the session's wall origin + the answer's moment")
        << QByteArray() << origin << QVariant(100.0);
    QTest::addRow("headers.md §4 GitHub doc example with its Date: 2498 s from the Date, whatever the receive time")
        << QByteArray("Thu, 04 Aug 2022 19:56:41 GMT") << origin << QVariant(2.0 + 2498.0);
    QTest::addRow("headers.md §4 GitHub, no Date and no wall origin: no reset marker")
        << QByteArray() << QDateTime() << QVariant();
}

void TestLiveSeries::rateLimitResetsFromWhenTheAnswerCame()
{
    QFETCH(QByteArray, date);
    QFETCH(QDateTime, origin);
    QFETCH(QVariant, reset);
    AttemptRecord a = SessionTestData::attempt(1, 1, true);
    a.at.headersReceived = std::chrono::seconds(2);
    a.at.finished = std::chrono::milliseconds(2100);
    a.url = QUrl(u"https://api.github.com/user"_s);
    a.rateLimitHeaders = { { "X-Ratelimit-Limit", "15000" }, { "X-Ratelimit-Remaining", "14996" },
        { "X-Ratelimit-Reset", "1659645499" }, { "X-Ratelimit-Resource", "core" }, { "X-Ratelimit-Used", "4" } };
    a.responseHeaders = a.rateLimitHeaders;
    if (!date.isEmpty())
        a.responseHeaders.append({ "Date", date });
    RateLimitSeries r;
    r.add(a, origin);
    QCOMPARE(r.tracks().size(), 1);
    const QList<double>& resets = r.tracks().first().resets;
    QCOMPARE(resets.size(), reset.isValid() ? 1 : 0);
    if (reset.isValid())
        QCOMPARE(resets.first(), reset.toDouble());
}

void TestLiveSeries::steps()
{
    QCOMPARE(stepPoints({ { 0, 5 }, { 1, 3 }, { 2, 1 } }, 3),
             (QList<QPointF> { { 0, 5 }, { 1, 5 }, { 1, 3 }, { 2, 3 }, { 2, 1 }, { 3, 1 } }));
    QCOMPARE(stepPoints({ { 4, 2 } }, 1), QList<QPointF> { QPointF(4, 2) });
    QVERIFY(stepPoints({}, 10).isEmpty());
}

// Issue 15 item 7: a short run's rate-limit chart was a comb of spikes (concurrent answers reporting 8, 0,
// 7, 0 within milliseconds) under a fence of reset lines.
void TestLiveSeries::readableShortRuns()
{
    const QList<QPointF> reports { { 0.200, 8 }, { 0.201, 0 }, { 0.203, 7 }, { 0.210, 3 }, { 1.00, 9 }, { 1.02, 2 }, { 2.0, 5 } };
    QCOMPARE(lowestPerInterval(reports, 0.05),
             (QList<QPointF> { { 0.200, 0 }, { 1.00, 2 }, { 2.0, 5 } }));
    QCOMPARE(lowestPerInterval(reports, 0), reports);
    QCOMPARE(mergedResets({ 1.0, 1.1, 1.2, 1.4, 3.0, 3.05 }, 0.25), (QList<double> { 1.0, 1.4, 3.0 }));
    QVERIFY(mergedResets({}, 1).isEmpty());
}

void TestLiveSeries::percentiles_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("value");
    // The nearest-rank worked example: 15, 20, 35, 40, 50.
    QTest::addRow("p30 is the 2nd") << 0.30 << 20.0;
    QTest::addRow("p40 is the 2nd (rank exactly 2)") << 0.40 << 20.0;
    QTest::addRow("p50 is the 3rd") << 0.50 << 35.0;
    QTest::addRow("p100 is the largest") << 1.00 << 50.0;
    QTest::addRow("p0 is the smallest") << 0.0 << 15.0;
}

void TestLiveSeries::percentiles()
{
    QFETCH(double, p);
    QFETCH(double, value);
    QCOMPARE(nearestRankPercentile({ 50, 15, 40, 20, 35 }, p), value);
    QCOMPARE(nearestRankPercentile({}, p), 0.0);
}

void TestLiveSeries::summary()
{
    LiveSession session;
    fill(session);
    SessionSummaryBuilder b;
    b.update(session, wholeSessionDelta(session));
    const SessionSummary s = b.summary();
    QCOMPARE(s.runs, 3);
    QCOMPARE(s.finishedRuns, 2);
    QCOMPARE(s.succeededRuns, 1);
    QCOMPARE(s.successRate, 0.5);
    QCOMPARE(s.attempts, 4);
    QCOMPARE(s.attemptsPerRun, 2.0);
    QCOMPARE(s.maxAttemptsPerRun, 2);
    QVERIFY(s.amplificationFromServer);
    QCOMPARE(s.serverRequests, 4);
    QCOMPARE(s.amplification, 4.0 / 3.0);
    QCOMPARE(s.operationsApplied, 1);
    QCOMPARE(s.duplicateApplications, 0);
    QCOMPARE(s.p50Ms, 310.0);
    QCOMPARE(s.p95Ms, 1120.0);
    QCOMPARE(s.p99Ms, 1120.0);
    QCOMPARE(s.waitingMs, 1200.0);
    QCOMPARE(s.runTimeMs, 1430.0);
    QCOMPARE(s.outcomes, (QList<QPair<FinalKind, int>> { { FinalKind::Success, 1 }, { FinalKind::Network, 1 } }));
}

void TestLiveSeries::summaryIncremental()
{
    // Fed refresh by refresh, the builder counts each finished run once.
    LiveSession session;
    SessionSummaryBuilder b;
    QObject::connect(&session, &LiveSession::refreshed, &session, [&](const LiveSessionDelta& d) { b.update(session, d); });
    fill(session);
    RunSummary again;
    static_cast<RunProgress&>(again) = session.runs().at(1);
    session.onRunFinished(again); // reported twice
    session.flush();
    QCOMPARE(b.summary().finishedRuns, 2);
    QCOMPARE(b.summary().attempts, 4);
    b.clear();
    QCOMPARE(b.summary().runs, 0);
}

void TestLiveSeries::summaryDuplicateApplications()
{
    // An operation applied again under a key already applied counts once per repeat, across refreshes;
    // applications without a key never do.
    LiveSession session;
    SessionSummaryBuilder b;
    QObject::connect(&session, &LiveSession::refreshed, &session, [&](const LiveSessionDelta& d) { b.update(session, d); });
    LiveFeed feed(session);
    const auto applied = [&](const QString& key) {
        LabEvent e;
        e.kind = LabEvent::Kind::OperationApplied;
        e.idempotencyKey = key;
        e.applied = true;
        feed.onLabEvent(e);
    };
    applied(u"k1"_s);
    applied(u"k2"_s);
    applied(u"k1"_s);
    session.flush();
    QCOMPARE(b.summary().operationsApplied, 3);
    QCOMPARE(b.summary().duplicateApplications, 1);
    applied(QString());
    applied(QString());
    applied(u"k1"_s);
    applied(u"ключ-2"_s);
    session.flush();
    QCOMPARE(b.summary().operationsApplied, 7);
    QCOMPARE(b.summary().duplicateApplications, 2);
    b.clear();
    QCOMPARE(b.summary().duplicateApplications, 0);
}

void TestLiveSeries::labEventsFollowTheRecorder()
{
    // A live batch's lab events are the recorder's (one store): the live session publishes what the recorder
    // appended, in its deltas; once the recorder is detached (the batch is done) nothing more is written and
    // the session is shown as it is; what the lab hears then is nobody's (not drawn); clear() lets go.
    SessionRecorder recorder { QString() };
    LiveSession live;
    live.show(recorder.sharedSession(), LiveSession::Reveal::AsRecorded);
    connect(&recorder, &SessionRecorder::labEventStored, &live, &LiveSession::onLabEventStored);
    QList<LiveSessionDelta> deltas;
    connect(&live, &LiveSession::refreshed, this, [&](const LiveSessionDelta& d) { deltas << d; });
    recorder.recordLabEvent(labEvent(LabEvent::Kind::RequestReceived, 5, u"a-1-1"_s));
    recorder.recordLabEvent(labEvent(LabEvent::Kind::ResponseFinished, 9, u"a-1-1"_s));
    QCOMPARE(live.labEventCount(), 2); // shown now, published at the refresh
    QCOMPARE(deltas.size(), 0);
    live.flush();
    QCOMPARE(&live.labEvents(), &recorder.session().labEvents);
    QCOMPARE(deltas.size(), 1);
    QCOMPARE(deltas.last().labEventsBefore, 0);
    QCOMPARE(deltas.last().labEventsAfter, 2);
    QCOMPARE(live.latestMs(), 9.0);
    recorder.recordLabEvent(labEvent(LabEvent::Kind::RequestReceived, 12, u"a-2-1"_s));
    live.flush();
    QCOMPARE(deltas.last().labEventsBefore, 2);
    QCOMPARE(deltas.last().labEventsAfter, 3);
    QCOMPARE(live.labEvents().at(2).atMs, 12);

    const std::shared_ptr<const Session> kept = recorder.sharedSession();
    recorder.detach();
    QCOMPARE(&live.labEvents(), &kept->labEvents);
    QCOMPARE(live.labEventCount(), 3);
    live.onLabEventStored(7); // no such event: nothing shown
    live.onLabEventStored(1); // shown already
    QCOMPARE(live.labEventCount(), 3);
    live.clear();
    QCOMPARE(live.labEventCount(), 0);
    QCOMPARE(live.labEvents().size(), 0);
    QCOMPARE(kept->labEvents.size(), 3); // the session is the recorder's, not the view's
}

void TestLiveSeries::shownSessionsLabEventsInPlace()
{
    // An opened session's lab events (a file opened or played back) are shown where they are, as far as
    // playback reached them: nothing is copied. Reaching an event shows every one before it too (playback
    // reaches them in their order: SessionPlayback, tst_sessionplayback).
    Session recorded;
    for (int i = 0; i < 4; ++i)
        recorded.labEvents.append(labEvent(LabEvent::Kind::RequestReceived, 10 * i, u"a-%1"_s.arg(i)));
    const auto session = std::make_shared<const Session>(std::move(recorded));
    LiveSession live;
    QList<LiveSessionDelta> deltas;
    connect(&live, &LiveSession::refreshed, this, [&](const LiveSessionDelta& d) { deltas << d; });
    live.show(session, LiveSession::Reveal::ByPlayback);
    QCOMPARE(&live.labEvents(), &session->labEvents);
    QCOMPARE(live.labEventCount(), 0);
    live.onLabEventStored(0);
    live.onLabEventStored(1);
    live.flush();
    QCOMPARE(&live.labEvents(), &session->labEvents); // in place
    QCOMPARE(live.labEventCount(), 2); // though the store holds 4
    QCOMPARE(live.latestMs(), 10.0);
    QCOMPARE(deltas.size(), 1);
    QCOMPARE(deltas.last().labEventsAfter, 2);
    QCOMPARE(wholeSessionDelta(live).labEventsAfter, 2);

    live.onLabEventStored(3);
    live.flush();
    QCOMPARE(live.labEventCount(), 4);
    QCOMPARE(live.labEvents().at(3).attemptId, u"a-3"_s);
    QCOMPARE(deltas.last().labEventsBefore, 2);
    QCOMPARE(deltas.last().labEventsAfter, 4);

    live.clear(); // shown again from the start
    live.show(session, LiveSession::Reveal::ByPlayback);
    QCOMPARE(live.labEventCount(), 0);
    live.onLabEventStored(0);
    QCOMPARE(live.labEventCount(), 1);
}

void TestLiveSeries::shownSessionsLabTicksFindTheirLanes()
{
    // A shown session's lab events find their lane from the run worked out for each beforehand (on a pool
    // thread); the same events as the live session's own copies find it by attempt id. Both ways every tick
    // is in the same lane: an event per attempt, an id two attempts have (the newer one's lane), and an id
    // no attempt has (on the axis once it has waited its updates).
    Session recorded = SessionTestData::session(300, 3); // attempt ids runId * 100 + index
    AttemptRecord again = SessionTestData::attempt(300, 4, true);
    again.attemptId = u"15002"_s; // run 150's second attempt's id, on run 300 too
    const qsizetype againRow = recorded.attempts.append(again);
    recorded.runs.last().rows.append(quint32(againRow));
    for (qsizetype row = 0; row < recorded.attemptCount(); ++row)
        recorded.labEvents.append(labEvent(LabEvent::Kind::RequestReceived, row, recorded.attempts.record(row).attemptId));
    recorded.labEvents.append(labEvent(LabEvent::Kind::RequestReceived, 1, u"nobody"_s));
    const auto session = std::make_shared<const Session>(std::move(recorded));

    const auto ticks = [&](bool opened) {
        LiveSession live;
        // Opened: the run of each event worked out beforehand; as recorded: found by attempt id.
        live.show(session, opened ? LiveSession::Reveal::ByPlayback : LiveSession::Reveal::AsRecorded);
        for (qsizetype r = 0; r < session->runs.size(); ++r)
            live.onRunStarted(session->runRecord(r, false));
        for (qsizetype row = 0; row < session->attemptCount(); ++row)
            live.onAttemptStored(row);
        for (qsizetype i = 0; i < session->labEvents.size(); ++i)
            live.onLabEventStored(i);
        live.flush();
        if (live.shownLabEventRun(0).has_value() != opened)
            qFatal("not the path meant");
        TimelineModel model;
        model.update(live, wholeSessionDelta(live));
        LiveSessionDelta none;
        none.runsBefore = none.runsAfter = live.runs().size();
        for (int i = 0; i < 3; ++i)
            model.update(live, none);
        QStringList out;
        for (int lane = 0; lane < model.laneCount(); ++lane) {
            for (const TimelineMark& m : model.lane(lane)) {
                if (m.kind == TimelineMark::Kind::LabReceived)
                    out << u"%1:%2"_s.arg(live.runs().at(lane).runId).arg(live.labEvents().attemptId(m.ref));
            }
        }
        for (const TimelineMark& m : model.unmatchedLab())
            out << u"axis:"_s + live.labEvents().attemptId(m.ref);
        return out;
    };
    const QStringList shown = ticks(true);
    QCOMPARE(shown.size(), 902);
    QVERIFY(shown.contains(u"37:3702"_s));
    QCOMPARE(shown.count(u"300:15002"_s), 2); // both events of the shared id: the newer attempt's lane
    QVERIFY(!shown.contains(u"150:15002"_s));
    QCOMPARE(shown.last(), u"axis:nobody"_s);
    QCOMPARE(shown, ticks(false));
}

void TestLiveSeries::runsFoundInAnyIdOrder_data()
{
    // A batch numbers its runs as they start (found by binary search over the runs' own ids); any other
    // order (ids from a file or a client, repeated or descending) switches to a hash, from the run that
    // broke the order on. Either way every run is found at its start position, and an unknown id is not.
    QTest::addColumn<QList<int>>("ids");
    QList<int> ascending;
    for (int i = 0; i < 5000; ++i)
        ascending << 3 * i + 1; // gaps between ids
    QTest::newRow("ascending, 5 000 runs") << ascending;
    QTest::newRow("descending") << QList<int> { 9, 7, 5, 3, 1 };
    QTest::newRow("out of order after a while") << QList<int> { 1, 2, 3, 10, 4, 11, -5 };
    QTest::newRow("one run") << QList<int> { 42 };
    QTest::newRow("negative ids ascending") << QList<int> { -30, -20, -10, 0 };
}

void TestLiveSeries::runsFoundInAnyIdOrder()
{
    QFETCH(QList<int>, ids);
    LiveSession s;
    for (const int id : ids) {
        RunRecord r;
        r.runId = id;
        r.startedAt = at(1);
        s.onRunStarted(r);
        s.onRunStarted(r); // a run's facts again (as the engine sends them): the same run, not a new one
    }
    QCOMPARE(s.runs().size(), ids.size());
    for (int i = 0; i < ids.size(); ++i) {
        if (s.runIndex(ids.at(i)) != i)
            QFAIL(qPrintable(u"run %1 found at %2, not %3"_s.arg(ids.at(i)).arg(s.runIndex(ids.at(i))).arg(i)));
    }
    for (const int unknown : { 0, 2, 1000000, -1 }) {
        if (!ids.contains(unknown))
            QCOMPARE(s.runIndex(unknown), -1);
    }
}

QTEST_MAIN(TestLiveSeries)
#include "tst_liveseries.moc"
