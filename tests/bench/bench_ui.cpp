// SPDX-License-Identifier: GPL-3.0-or-later
// bench_ui [--seconds S] [--runs N] [--rate R] [--views LIST] [--case plain|hedged|both|herd]: drives a LiveSession headless
// with synthetic traffic
// (N = 200 runs always in progress, R = 1 000 attempts a second, each attempt with its phase events,
// rate-limit headers and lab events, waits and final outcomes) for S seconds (default 60) while the four
// live views are shown at 1400×800 and repaint; prints the event loop's stall p50/p99/max (how late a
// 5 ms probe timer fires) and the memory held per attempt: RSS growth / attempts, and the same after the
// first quarter of the run (the marginal cost, without what the views allocate once). Not a CTest test.
// --case hedged: the same rate under a policy with a circuit breaker and hedging (issue 28 §4): each run is
// one hedged request, copy 1 answered by a second copy after a delay half the time (copy 1 then lost), a
// failed copy answered by another at once; the breaker's band changes state every second. --case both:
// plain then hedged in this one process, and the hedged p99 stall over the plain one (goal: under 16 ms).
// --case herd (issue 29 §3): the Herd view, shown at 1400×800, runs a big experiment (--experiment, default
// metastable-osdi22, --herd-runs runs of each policy) on its worker thread for at most S seconds, then the
// result is drawn (or the run cancelled); prints the stall p50/p99/max while it runs and while it is drawn
// (goal: p99 under 16 ms), and how long a cancel took to end the run.
#include "delaychartview.h"
#include "herd/form/herdexperimentform.h"
#include "herd/herdrunner.h"
#include "herd/herdview.h"
#include "sim/herdcatalog.h"
#include "engine/requestheaders.h"
#include "lab/httpdateformat.h"
#include "engine/requestspec.h"
#include "livesession.h"
#include "session/sessionrecorder.h"
#include "ratelimitchartview.h"
#include "summaryview.h"
#include "timelineview.h"

#include <QApplication>
#include <QDateTime>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>

using namespace Qt::StringLiterals;

namespace {

MonoTime ns(double ms)
{
    return MonoTime(qint64(ms * 1e6));
}

qint64 rssKiB()
{
    QFile f(u"/proc/self/status"_s);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return 0;
}

// One run of the synthetic traffic: its attempt in progress (planned timestamps) or its wait.
struct SimRun
{
    RunRecord record;
    QString attemptRun; // the run's part of every attempt id, a UUID (as the engine draws it)
    QString key; // the run's idempotency key, a UUID
    AttemptRecord attempt;
    AttemptRecord copy; // a hedged request's copy 2 sent after the delay
    double hedgeAt = -1; // when that copy goes (< 0: none)
    double nextAt = 0; // when the next event of this run is due
    int stage = 0; // 0 due to start, 1 connecting, 2 sent, 3 headers, 4 finish, 5 waiting; 10, 11: copy 2
};

class Traffic
{
public:
    Traffic(LiveSession& session, SessionRecorder& recorder, int runs, double attemptsPerSecond, bool hedged)
        : m_session(session)
        , m_recorder(recorder)
        , m_runs(runs)
        , m_meanCycleMs(1000.0 * runs / attemptsPerSecond)
        , m_hedged(hedged)
    {
        m_policy.name = hedged ? u"bench-hedged"_s : u"bench"_s;
        if (hedged) { // a breaker, and hedging without a retry inside it (as ms-http-hedging)
            ResilienceStrategy hedging;
            hedging.kind = ResilienceStrategy::Kind::Hedging;
            hedging.hedging.delay = Millis(100);
            ResilienceStrategy breaker;
            breaker.kind = ResilienceStrategy::Kind::CircuitBreaker;
            m_policy.pipeline = { hedging, breaker };
        }
        m_spec.method = u"POST"_s;
        m_spec.url = QUrl(u"http://127.0.0.1:8080/api/orders"_s);
        m_spec.headers = { { "Content-Type", "application/json" } };
        m_spec.body = R"({"amount":1000,"currency":"eur"})";
    }

    void step(double now)
    {
        steer(now);
        if (m_hedged)
            cycleBreaker(now);
        while (int(m_active.size()) < m_runs)
            startRun(now);
        for (SimRun& r : m_active) {
            while (r.nextAt <= now && advance(r)) {
            }
        }
        m_active.erase(std::remove_if(m_active.begin(), m_active.end(), [](const SimRun& r) { return r.stage < 0; }),
                       m_active.end());
    }
    qint64 attempts() const { return m_attempts; }

private:
    // Waits (backoff, Retry-After) come on top of the response times, so a fixed response time falls short
    // of the target rate; every half second the response times are scaled by how far the rate is off.
    void steer(double now)
    {
        if (now - m_steeredAt < 500)
            return;
        if (m_steeredAt > 0) {
            const double rate = double(m_attempts - m_steeredAttempts) * 1000.0 / (now - m_steeredAt);
            const double target = 1000.0 * m_runs / m_meanCycleMs;
            m_responseScale = std::clamp(m_responseScale * std::clamp(rate / target, 0.7, 1.3), 0.01, 2.0);
        }
        m_steeredAt = now;
        m_steeredAttempts = m_attempts;
    }

    void startRun(double now)
    {
        SimRun r;
        r.record.runId = ++m_nextRun;
        r.record.policy = m_policy;
        r.record.startedAt = r.record.submittedAt = ns(now);
        r.attemptRun = newAttemptId();
        r.key = newAttemptId();
        m_recorder.recordRunStarted(r.record);
        m_session.onRunStarted(r.record);
        r.nextAt = now;
        m_active.push_back(r);
    }

    double uniform(double a, double b) { return a + (b - a) * m_rng.generateDouble(); }

    // The breaker's band: every second it opens for 300 ms, goes half-open, and closes 50 ms later.
    void cycleBreaker(double now)
    {
        using State = CircuitBreaker::State;
        static constexpr struct { double at; State from; State to; } kCycle[] = {
            { 0, State::Closed, State::Open }, { 300, State::Open, State::HalfOpen }, { 350, State::HalfOpen, State::Closed } };
        while (m_breakerAt + kCycle[m_breakerStep].at <= now) {
            const auto& c = kCycle[m_breakerStep];
            m_recorder.recordBreakerChange(BreakerChange { m_policy.name, u"client"_s, ns(m_breakerAt + c.at), c.from, c.to,
                CircuitBreaker::Counts { 5, 10 }, c.to == State::Open ? Millis(300) : Millis(0) });
            if (++m_breakerStep == int(std::size(kCycle))) {
                m_breakerStep = 0;
                m_breakerAt += 1000;
            }
        }
    }

    // A hedged request's copy 2, sent while copy 1 (slow) is in flight; it wins, and copy 1 is lost.
    bool hedgeCopy(SimRun& r)
    {
        AttemptRecord& b = r.copy;
        if (r.stage == 10) {
            b = AttemptRecord();
            b.runId = r.record.runId;
            b.index = 2;
            b.method = m_spec.method;
            b.url = m_spec.url;
            b.attemptId = attemptIdFor(r.attemptRun, b.index);
            b.requestHeaders = r.attempt.requestHeaders;
            b.bodySize = m_spec.body.size();
            b.hedge = HedgeFacts { HedgeFacts::Trigger::Delay, false };
            b.at.scheduled = b.at.started = ns(r.nextAt);
            m_session.onAttemptStarted(b);
            const double sent = r.nextAt + uniform(0.2, 2);
            m_session.onAttemptPhase(AttemptPhaseEvent { b.runId, b.index, AttemptPhase::RequestSent, ns(sent) });
            b.at.connecting = b.at.started;
            b.at.requestSent = ns(sent);
            lab(labEvent(LabEvent::Kind::RequestReceived, sent + 0.2, b));
            r.stage = 11;
            r.nextAt = sent + uniform(0.2, 0.6) * m_meanCycleMs * m_responseScale;
            return true;
        }
        // Copy 2 answers and wins; copy 1, still waiting for its answer, is cancelled: stored as they end.
        b.at.headersReceived = ns(r.nextAt - 0.5);
        b.at.finished = ns(r.nextAt);
        b.phaseReached = AttemptPhase::Finished;
        b.status = 201;
        b.hedge->won = true;
        RetryDecision d;
        d.verdict = Verdict::Success;
        d.finalKind = FinalKind::Success;
        d.reason = u"copy 2 answered first"_s;
        b.decision = d;
        lab(labEvent(LabEvent::Kind::OperationApplied, r.nextAt - 1, b));
        m_recorder.recordAttempt(b);
        AttemptRecord& a = r.attempt;
        a.at.finished = ns(r.nextAt + 0.1);
        a.abortReason = AbortReason::HedgeLost;
        a.phaseReached = AttemptPhase::RequestSent;
        m_recorder.recordAttempt(a);
        m_attempts += 2;
        r.record.finishedAt = b.at.finished;
        r.record.outcome = FinalKind::Success;
        r.record.reason = d.reason;
        m_recorder.recordRunFinished(r.record);
        m_session.onRunFinished(r.record);
        r.stage = -1;
        return false;
    }

    // Emits the event due for R; false when the run ended.
    bool advance(SimRun& r)
    {
        AttemptRecord& a = r.attempt;
        switch (r.stage) {
        case 0: {
            a = AttemptRecord();
            a.runId = r.record.runId;
            a.index = int(r.record.attempts.size()) + 1;
            a.method = m_spec.method;
            a.url = m_spec.url;
            a.attemptId = attemptIdFor(r.attemptRun, a.index);
            a.idempotencyKey = r.key;
            a.requestHeaders = buildRequestHeaders(m_spec, m_policy, a.url, a.idempotencyKey, a.attemptId, {});
            a.bodySize = m_spec.body.size();
            a.at.scheduled = a.at.started = ns(r.nextAt);
            if (m_hedged) { // copy 1, or copy 2 at once after copy 1 failed; half the first copies are slow
                a.hedge = HedgeFacts { a.index == 1 ? HedgeFacts::Trigger::First : HedgeFacts::Trigger::Failure, false };
                r.hedgeAt = a.index == 1 && m_rng.bounded(2) == 0 ? r.nextAt + 0.5 * m_meanCycleMs * m_responseScale : -1;
            }
            m_session.onAttemptStarted(a);
            r.stage = a.index == 1 || m_rng.bounded(4) == 0 ? 1 : 2; // most retries reuse the connection
            r.nextAt += r.stage == 1 ? uniform(0.2, 2) : uniform(0.1, 0.5);
            return true;
        }
        case 1:
            m_session.onAttemptPhase(AttemptPhaseEvent { a.runId, a.index, AttemptPhase::Connecting, ns(r.nextAt) });
            a.at.connecting = ns(r.nextAt);
            r.stage = 2;
            r.nextAt += uniform(0.5, 3);
            return true;
        case 2:
            m_session.onAttemptPhase(AttemptPhaseEvent { a.runId, a.index, AttemptPhase::RequestSent, ns(r.nextAt) });
            a.at.requestSent = ns(r.nextAt);
            lab(labEvent(LabEvent::Kind::RequestReceived, r.nextAt + 0.2, a));
            r.stage = 3;
            r.nextAt += uniform(0.4, 1.6) * m_meanCycleMs * m_responseScale;
            if (r.hedgeAt >= 0) { // a slow copy 1: the hedging delay passes first
                r.stage = 10;
                r.nextAt = std::max(a.at.requestSent->count() / 1e6, r.hedgeAt);
                r.hedgeAt = -1;
            }
            return true;
        case 10:
        case 11:
            return hedgeCopy(r);
        case 3:
            m_session.onAttemptPhase(AttemptPhaseEvent { a.runId, a.index, AttemptPhase::HeadersReceived, ns(r.nextAt) });
            a.at.headersReceived = ns(r.nextAt);
            r.stage = 4;
            r.nextAt += uniform(1, 10);
            return true;
        case 4:
            return finish(r);
        case 5:
            r.stage = 0;
            return true;
        default:
            return false;
        }
    }

    // The lab reports to the recorder, as the app connects them; the live session shows what it kept.
    void lab(const LabEvent& e)
    {
        m_recorder.recordLabEvent(e); // the live session is told its index (labEventStored)
    }

    LabEvent labEvent(LabEvent::Kind kind, double atMs, const AttemptRecord& a)
    {
        LabEvent e;
        e.kind = kind;
        e.atMs = qint64(atMs);
        e.requestId = quint64(++m_labRequests);
        e.method = "POST";
        e.path = u"/api/orders"_s;
        e.route = u"create-order"_s;
        e.attemptId = a.attemptId;
        e.idempotencyKey = a.idempotencyKey;
        return e;
    }

    bool finish(SimRun& r)
    {
        AttemptRecord& a = r.attempt;
        a.at.finished = ns(r.nextAt);
        a.phaseReached = AttemptPhase::Finished;
        const int roll = int(m_rng.bounded(100));
        const bool last = a.index >= 4;
        a.status = roll < 70 ? 201 : roll < 82 ? 503 : roll < 90 ? 429 : 500;
        const int remaining = std::max(0, 100 - int(m_attempts % 120));
        // As the lab answers: its Date changes every second, its rate-limit fields on every answer.
        const QByteArray date = HttpDateFormat::format(QDateTime::fromSecsSinceEpoch(1'700'000'000 + qint64(r.nextAt / 1000), Qt::UTC),
                                                       HttpDateFormat::Form::ImfFixdate);
        a.bodyExcerpt = R"({"id":"ord_123","status":"created"})";
        a.responseHeaders = { { "Content-Type", "application/json" }, { "Content-Length", QByteArray::number(a.bodyExcerpt.size()) },
            { "Date", date }, { "RateLimit-Policy", "\"burst\";q=100;w=10" },
            { "RateLimit", "\"burst\";r=" + QByteArray::number(remaining) + ";t=" + QByteArray::number(10 - (m_attempts / 100) % 10) },
            { "Connection", "keep-alive" } };
        a.rateLimitHeaders = a.responseHeaders.mid(3, 2);
        if (*a.status == 429) { // the lab's 429 asks for a second
            a.responseHeaders.append(QPair<QByteArray, QByteArray> { "Retry-After", "1" });
            a.rateLimitHeaders.append(QPair<QByteArray, QByteArray> { "Retry-After", "1" });
            RetryAfterValue retryAfter;
            retryAfter.delay = Millis(1000);
            retryAfter.raw = "1";
            retryAfter.source = u"retry-after"_s;
            retryAfter.conformant = true;
            a.retryAfter = retryAfter;
        }
        a.bytesDown = a.bodyExcerpt.size();
        RetryDecision d;
        d.reason = u"synthetic"_s;
        if (m_hedged) { // no retry: a failed copy 1 is answered by copy 2 at once, the last copy ends the run
            a.hedge->won = *a.status == 201 || a.index >= 2;
            if (*a.status == 201)
                lab(labEvent(LabEvent::Kind::OperationApplied, r.nextAt - 1, a));
            d.verdict = *a.status == 201 ? Verdict::Success : Verdict::Stop;
            d.finalKind = *a.status == 201 ? FinalKind::Success : FinalKind::ServerError;
            a.decision = d;
            m_recorder.recordAttempt(a);
            r.record.attempts.append(a);
            ++m_attempts;
            if (*a.status != 201 && a.index < 2) {
                r.stage = 0;
                return true;
            }
            r.record.finishedAt = a.at.finished;
            r.record.outcome = d.finalKind;
            r.record.reason = d.reason;
            m_recorder.recordRunFinished(r.record);
            m_session.onRunFinished(r.record);
            r.stage = -1;
            return false;
        }
        if (*a.status == 201) {
            d.verdict = Verdict::Success;
            d.finalKind = FinalKind::Success;
            lab(labEvent(LabEvent::Kind::OperationApplied, r.nextAt - 1, a));
        } else if (last) {
            d.verdict = Verdict::Stop;
            d.finalKind = *a.status == 429 ? FinalKind::RateLimited : FinalKind::ServerError;
        } else {
            d.verdict = Verdict::Retry;
            d.source = *a.status == 429 ? DelaySource::RetryAfter : DelaySource::Backoff;
            d.ceiling = Millis(100 << a.index);
            d.delayHigh = d.ceiling;
            d.delay = d.source == DelaySource::RetryAfter ? Millis(1000) : Millis(qint64(uniform(0, double(d.ceiling.count()))));
        }
        if (a.retryAfter) {
            d.serverAskedFor = a.retryAfter->delay;
            d.hintHeader = u"Retry-After"_s;
        }
        a.decision = d;
        m_recorder.recordAttempt(a); // the live session gets its row through attemptStored
        r.record.attempts.append(a);
        ++m_attempts;
        if (d.verdict == Verdict::Retry) {
            m_session.onWaitScheduled(WaitInfo { a.runId, a.index + 1, ns(r.nextAt), ns(r.nextAt + double(d.delay.count())), d });
            r.record.totalWait += d.delay;
            r.stage = 5;
            r.nextAt += double(d.delay.count());
            return true;
        }
        r.record.finishedAt = a.at.finished;
        r.record.outcome = d.finalKind;
        r.record.reason = d.reason;
        m_recorder.recordRunFinished(r.record);
        m_session.onRunFinished(r.record);
        r.stage = -1;
        return false;
    }

    LiveSession& m_session;
    SessionRecorder& m_recorder;
    int m_runs;
    double m_meanCycleMs;
    bool m_hedged;
    double m_breakerAt = 0;
    int m_breakerStep = 0;
    RetryPolicy m_policy;
    RequestSpec m_spec;
    std::vector<SimRun> m_active;
    QRandomGenerator m_rng { 42 };
    int m_nextRun = 0;
    qint64 m_attempts = 0;
    qint64 m_labRequests = 0;
    double m_responseScale = 0.6;
    double m_steeredAt = 0;
    qint64 m_steeredAttempts = 0;
};

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.at(std::min(v.size() - 1, size_t(p * double(v.size()))));
}

} // namespace

// One case for SECONDS: the session, the views asked for, the traffic; prints its figures, returns the p99 stall.
double measure(QApplication& app, const QCommandLineParser& cli, bool hedged)
{
    const double seconds = cli.value(u"seconds"_s).toDouble();

    LiveSession session;
    // As RunController wires a batch: the recorder writes the one session, the live session shows it.
    const auto recorder = std::make_unique<SessionRecorder>(QString());
    session.show(recorder->sharedSession(), LiveSession::Reveal::AsRecorded);
    QObject::connect(recorder.get(), &SessionRecorder::attemptStored, &session, &LiveSession::onAttemptStored);
    QObject::connect(recorder.get(), &SessionRecorder::labEventStored, &session, &LiveSession::onLabEventStored);
    QObject::connect(recorder.get(), &SessionRecorder::breakerChangeStored, &session, &LiveSession::onBreakerChangeStored);
    // Only the views asked for exist (a hidden view would still follow the session and hold its data), so
    // runs with one view each, and with none, split the cost per attempt between the session and each view.
    const QStringList shown = cli.value(u"views"_s).split(u',');
    const auto make = [&]<typename View>(const QString& name) {
        return shown.contains(name) ? std::make_unique<View>(&session) : nullptr;
    };
    const std::unique_ptr<TimelineView> timeline = make.operator()<TimelineView>(u"timeline"_s);
    const std::unique_ptr<DelayChartView> delays = make.operator()<DelayChartView>(u"delays"_s);
    const std::unique_ptr<RateLimitChartView> limits = make.operator()<RateLimitChartView>(u"ratelimits"_s);
    const std::unique_ptr<SummaryView> summary = make.operator()<SummaryView>(u"summary"_s);
    for (QWidget* w : std::initializer_list<QWidget*> { timeline.get(), delays.get(), limits.get(), summary.get() }) {
        if (w) {
            w->resize(1400, 800);
            w->show();
        }
    }
    int refreshes = 0;
    QObject::connect(&session, &LiveSession::refreshed, &app, [&] { ++refreshes; });
    qint64 rssBefore = 0;
    // The marginal cost: RSS and attempts again once a quarter of the run is over (every view has drawn
    // data, the charts' pages and backing stores exist), so the slope to the end leaves out what the
    // window allocates once, whatever the number of attempts.
    qint64 rssWarm = 0;
    qint64 attemptsWarm = 0;

    Traffic traffic(session, *recorder, cli.value(u"runs"_s).toInt(), cli.value(u"rate"_s).toDouble(), hedged);
    QElapsedTimer clock;
    QTimer generator;
    generator.setTimerType(Qt::PreciseTimer);
    generator.setInterval(2);
    QObject::connect(&generator, &QTimer::timeout, &app, [&] { traffic.step(double(clock.nsecsElapsed()) / 1e6); });

    std::vector<double> stalls;
    QElapsedTimer probeClock;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, &app, [&] {
        if (probeClock.isValid())
            stalls.push_back(std::max(0.0, double(probeClock.nsecsElapsed()) / 1e6 - 5.0));
        probeClock.start();
    });
    // Start once the windows are up, so their first layout is not measured.
    QTimer::singleShot(100, &app, [&] {
        rssBefore = rssKiB();
        clock.start();
        generator.start();
        probe.start();
        QTimer::singleShot(int(seconds * 250), &app, [&] {
            rssWarm = rssKiB();
            attemptsWarm = traffic.attempts();
        });
        QTimer::singleShot(int(seconds * 1000), &app, [&] { app.quit(); });
    });
    app.exec();

    session.flush();
    const double elapsed = double(clock.elapsed()) / 1000.0;
    const qint64 rssAfter = rssKiB();
    const double perAttempt = traffic.attempts() ? double(rssAfter - rssBefore) * 1024.0 / double(traffic.attempts()) : 0;
    std::printf("\n[%s]\n", hedged ? "hedged: a breaker band and hedged copies" : "plain");
    std::printf("bench_ui: %.1f s, %lld attempts (%.0f/s), %lld runs, %d refreshes (%.1f/s)\n", elapsed,
                static_cast<long long>(traffic.attempts()), double(traffic.attempts()) / elapsed,
                static_cast<long long>(session.runs().size()), refreshes, refreshes / elapsed);
    std::printf("event-loop stall (5 ms probe lateness): p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)\n",
                percentile(stalls, 0.5), percentile(stalls, 0.99), percentile(stalls, 1.0), stalls.size());
    std::printf("memory: RSS %lld → %lld KiB, %.0f bytes per attempt (session + views)\n", static_cast<long long>(rssBefore),
                static_cast<long long>(rssAfter), perAttempt);
    const qint64 laterAttempts = traffic.attempts() - attemptsWarm;
    std::printf("memory per attempt after the first quarter (RSS %lld → %lld KiB over %lld attempts): %.0f bytes\n",
                static_cast<long long>(rssWarm), static_cast<long long>(rssAfter), static_cast<long long>(laterAttempts),
                laterAttempts > 0 ? double(rssAfter - rssWarm) * 1024.0 / double(laterAttempts) : 0.0);
    // Where the session's part goes: the packed stores' own accounting, per attempt (the rest of the RSS
    // growth is the views' models and series, and the allocator's slack).
    const double n = std::max<qint64>(1, traffic.attempts());
    std::printf("session stores per attempt: attempts %.0f B (%zu B a hot row; %.1f %% with a cold part of %zu B), "
                "lab events %.0f B, runs %.0f B, waits %.0f B\n",
                double(session.attemptBytes() + recorder->session().attempts.memoryBytes()) / n,
                sizeof(PackedAttemptHot),
                100.0 * double(recorder->session().attempts.coldCount())
                    / double(std::max<qsizetype>(1, recorder->session().attempts.size())),
                sizeof(PackedAttemptCold), double(session.labEvents().memoryBytes()) / n,
                double(session.runs().memoryBytes()) / n, double(session.waits().memoryBytes()) / n);
    std::printf("views: %d lanes, %d timeline segments, %d delay points, %d rate-limit samples\n",
                timeline ? timeline->laneCount() : 0, timeline ? timeline->segmentCount() : 0,
                delays ? delays->pointCount() : 0, limits ? limits->sampleCount() : 0);
    if (timeline)
        std::printf("timeline: %d hedged copies, %d breaker band(s)\n", timeline->model().hedgedCopyCount(), timeline->breakerBandCount());
    return percentile(stalls, 0.99);
}

// The Herd view running a big experiment: the GUI thread only takes progress reports and, at the end, draws
// the charts; returns the p99 stall.
double measureHerd(QApplication& app, const QCommandLineParser& cli)
{
    const double seconds = cli.value(u"seconds"_s).toDouble();
    const QString name = cli.value(u"experiment"_s);
    std::optional<HerdExperiment> experiment = HerdCatalog::experiment(name);
    if (!experiment) {
        std::fprintf(stderr, "bench_ui: no built-in experiment %s\n", qPrintable(name));
        return 0;
    }
    experiment->runs = cli.value(u"herd-runs"_s).toInt();
    HerdView view;
    if (const int threads = cli.value(u"herd-threads"_s).toInt(); threads >= 0)
        view.runner()->setThreads(threads);
    view.resize(1400, 800);
    view.show();
    view.form()->setExperiment(*experiment);

    std::vector<double> stalls;
    std::vector<double> drawStalls;
    bool drawing = false;
    QElapsedTimer probeClock;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, &app, [&] {
        if (probeClock.isValid())
            (drawing ? drawStalls : stalls).push_back(std::max(0.0, double(probeClock.nsecsElapsed()) / 1e6 - 5.0));
        probeClock.start();
    });
    QElapsedTimer clock;
    double runMs = 0;
    double cancelMs = -1;
    QElapsedTimer cancelClock;
    bool cancelled = false;
    // The result is drawn inside runFinished's handlers: the half second after it is the drawing's.
    QObject::connect(view.runner(), &HerdRunner::finished, &app, [&](bool wasCancelled) {
        runMs = double(clock.elapsed());
        cancelled = wasCancelled;
        if (cancelClock.isValid())
            cancelMs = double(cancelClock.elapsed());
        drawing = true;
        QTimer::singleShot(500, &app, [&] { app.quit(); });
    });
    QTimer::singleShot(100, &app, [&] {
        clock.start();
        probe.start();
        view.run();
        QTimer::singleShot(int(seconds * 1000), &app, [&] {
            if (view.isRunning()) {
                cancelClock.start();
                view.cancel();
            }
        });
    });
    app.exec();
    probe.stop();

    std::printf("\n[herd: %s, %lld policies × %d runs, %d clients, %.0f s of virtual time, %d simulation thread(s) on %d cores]\n",
        qPrintable(name), static_cast<long long>(experiment->policies.size()), experiment->runs, experiment->clients.clients,
        double(experiment->duration.count()) / 1000.0,
        view.runner()->threads() > 0 ? view.runner()->threads() : QThread::idealThreadCount(), QThread::idealThreadCount());
    std::printf("run: %.1f s on the worker thread (%s), %d progress reports (%.1f/s)\n", runMs / 1000.0,
        cancelled ? "cancelled" : "finished", view.runner()->progressReports(),
        runMs > 0 ? view.runner()->progressReports() * 1000.0 / runMs : 0.0);
    if (cancelMs >= 0)
        std::printf("cancel: the run ended %.1f ms after Cancel\n", cancelMs);
    std::printf("event-loop stall while it ran (5 ms probe lateness): p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)\n",
        percentile(stalls, 0.5), percentile(stalls, 0.99), percentile(stalls, 1.0), stalls.size());
    std::printf("while the result was drawn (the next 500 ms): p50 %.2f ms, p99 %.2f ms, max %.2f ms (%zu samples)\n",
        percentile(drawStalls, 0.5), percentile(drawStalls, 0.99), percentile(drawStalls, 1.0), drawStalls.size());
    std::printf("goal: p99 under 16 ms while it runs: %s\n", percentile(stalls, 0.99) < 16.0 ? "met" : "missed");
    return percentile(stalls, 0.99);
}

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser cli;
    cli.addOption({ u"seconds"_s, u"duration"_s, u"s"_s, u"60"_s });
    cli.addOption({ u"runs"_s, u"runs in progress at once"_s, u"n"_s, u"200"_s });
    cli.addOption({ u"rate"_s, u"attempts per second"_s, u"n"_s, u"1000"_s });
    cli.addOption({ u"views"_s, u"views to create and show: timeline,delays,ratelimits,summary or none"_s, u"list"_s,
                    u"timeline,delays,ratelimits,summary"_s });
    cli.addOption({ u"case"_s,
        u"plain, hedged (a breaker and hedging), both (in this one process, with their ratio) or herd (the Herd view running an experiment)"_s,
        u"name"_s, u"plain"_s });
    cli.addOption({ u"experiment"_s, u"--case herd: the built-in experiment"_s, u"name"_s, u"metastable-osdi22"_s });
    cli.addOption({ u"herd-runs"_s, u"--case herd: runs of each policy"_s, u"n"_s, u"10"_s });
    cli.addOption({ u"herd-threads"_s, u"--case herd: simulation threads (0: one per core, as the view; -1: the view's own)"_s,
                    u"n"_s, u"-1"_s });
    cli.process(app);
    const QString which = cli.value(u"case"_s);
    if (which == u"herd"_s) {
        measureHerd(app, cli);
        return 0;
    }
    if (which != u"plain"_s && which != u"hedged"_s && which != u"both"_s) {
        std::fprintf(stderr, "bench_ui: --case is plain, hedged, both or herd\n");
        return 2;
    }
    const double plain = which != u"hedged"_s ? measure(app, cli, false) : 0.0;
    const double hedged = which != u"plain"_s ? measure(app, cli, true) : 0.0;
    if (which == u"both"_s)
        std::printf("\np99 stall: plain %.2f ms, hedged with a breaker band %.2f ms, ratio %.2f (goal: hedged under 16 ms: %s)\n",
            plain, hedged, plain > 0 ? hedged / plain : 0.0, hedged < 16.0 ? "met" : "missed");
    return 0;
}
