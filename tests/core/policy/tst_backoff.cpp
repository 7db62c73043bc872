// SPDX-License-Identifier: GPL-3.0-or-later
// Backoff and jitter math (core/policy/backoff.h). Rows cite /work/shared/reference/retry-systems.md
// ("rs.md"): its "Delay cheat-sheet" table and the numbered sections. Ranges are asserted with the
// random draw pinned to 0 and to 1 (FixedRandomSource), so every bound is exact.
#include "policy/backoff.h"
#include "policy/jitter.h"

#include <QTest>

#include <algorithm>
#include <climits>

using namespace std::chrono_literals;

namespace {

Backoff exponential(Millis base, double multiplier, std::optional<Millis> cap, int offset = 0,
                    ExponentOrigin origin = ExponentOrigin::FirstRetryIsBase)
{
    Backoff b;
    b.kind = BackoffKind::Exponential;
    b.base = base;
    b.multiplier = multiplier;
    b.cap = cap;
    b.exponentOffset = offset;
    b.origin = origin;
    return b;
}

Backoff constant(Millis base)
{
    Backoff b;
    b.kind = BackoffKind::Constant;
    b.base = base;
    return b;
}

Jitter jitter(JitterKind kind, CapOrder order = CapOrder::AfterJitter)
{
    Jitter j;
    j.kind = kind;
    j.capOrder = order;
    return j;
}

Jitter multiplicative(double low, double high, CapOrder order, Millis floor = 0ms)
{
    Jitter j = jitter(JitterKind::Multiplicative, order);
    j.low = low;
    j.high = high;
    j.floor = floor;
    return j;
}

Jitter proportional(double factor, CapOrder order)
{
    Jitter j = jitter(JitterKind::Proportional, order);
    j.factor = factor;
    return j;
}

// The N-th draw of a fresh sequence with every random draw equal to U.
DelayDraw nthDraw(const Backoff& b, const Jitter& j, int n, double u, bool throttling = false)
{
    FixedRandomSource rng({ u });
    BackoffState state;
    DelayDraw draw;
    for (int i = 0; i < n; ++i)
        draw = drawBackoff(b, j, state, rng, throttling);
    return draw;
}

} // namespace

class TestBackoff : public QObject
{
    Q_OBJECT

private slots:
    void cheatSheet_data();
    void cheatSheet();
    void jitterFamilies_data();
    void jitterFamilies();
    void noJitterTakesNoDraw();
    void decorrelatedAws();
    void decorrelatedV2ExactDraws();
    void decorrelatedV2Medians();
    void overflowSaturates_data();
    void overflowSaturates();
    void stateCountsAndResets();
};

void TestBackoff::cheatSheet_data()
{
    QTest::addColumn<Backoff>("backoff");
    QTest::addColumn<Jitter>("jitter");
    QTest::addColumn<int>("retry");
    QTest::addColumn<bool>("throttling");
    QTest::addColumn<qint64>("low");
    QTest::addColumn<qint64>("high");

    auto rows = [](const char* name, const Backoff& b, const Jitter& j, QList<std::pair<qint64, qint64>> ranges,
                   bool throttling = false, int first = 1) {
        for (int i = 0; i < ranges.size(); ++i)
            QTest::addRow("%s, retry %d", name, first + i) << b << j << first + i << throttling << ranges[i].first << ranges[i].second;
    };
    const Jitter none;
    const Jitter full = jitter(JitterKind::Full, CapOrder::BeforeJitter);

    // rs.md cheat-sheet "Polly Exponential, no jitter, D = 2 s" (§1a: 2^attempt·Delay).
    rows("polly exponential 2s (rs.md cheat-sheet, 1a)", exponential(2s, 2, std::nullopt), none,
         { { 2000, 2000 }, { 4000, 4000 }, { 8000, 8000 }, { 16000, 16000 } });
    // rs.md cheat-sheet "AWS legacy (botocore)": rand·2^(n−1) s, no cap (§2a).
    rows("aws legacy botocore (rs.md cheat-sheet, 2a)", exponential(1s, 2, std::nullopt), full,
         { { 0, 1000 }, { 0, 2000 }, { 0, 4000 }, { 0, 8000 } });
    // rs.md cheat-sheet "AWS standard (botocore)": U(0,1)·min(2^(n−1), 20 s), cap before jitter (§2b).
    rows("aws standard botocore (rs.md cheat-sheet, 2b)", exponential(1s, 2, 20s), full,
         { { 0, 1000 }, { 0, 2000 }, { 0, 4000 }, { 0, 8000 }, { 0, 16000 }, { 0, 20000 } });
    // rs.md cheat-sheet "AWS standard (Go v2 classic)": 1-based attempt, first retry U(0,2) (§2b, c2).
    // Not modelled: Go v2 returns exactly 20 s with no jitter from retry 5 (aws-sdk-go-v2#3091).
    rows("aws go-v2 classic (rs.md cheat-sheet, 2b)", exponential(1s, 2, 20s, 1), full,
         { { 0, 2000 }, { 0, 4000 }, { 0, 8000 }, { 0, 16000 } });
    // rs.md cheat-sheet "AWS 2026, non-throttle": x = 50 ms; §2c: x = 1 s after throttling errors.
    Backoff aws2026 = exponential(50ms, 2, 20s);
    aws2026.throttlingBase = 1s;
    rows("aws 2026 non-throttle (rs.md cheat-sheet, 2c)", aws2026, full, { { 0, 50 }, { 0, 100 }, { 0, 200 }, { 0, 400 } });
    rows("aws 2026 throttle base 1s (rs.md 2c)", aws2026, full, { { 0, 1000 }, { 0, 2000 }, { 0, 4000 }, { 0, 8000 } }, true);
    // rs.md cheat-sheet "gRPC, 0.1 s / ×2 / 1 s max": min(…, maxBackoff)·U(0.8, 1.2) (§3); may exceed max by 20 % (c4).
    rows("grpc 0.1s x2 max 1s (rs.md cheat-sheet, 3)", exponential(100ms, 2, 1s), multiplicative(0.8, 1.2, CapOrder::BeforeJitter),
         { { 80, 120 }, { 160, 240 }, { 320, 480 }, { 640, 960 }, { 800, 1200 } });
    // rs.md cheat-sheet "urllib3, factor 0.5": 0, 1, 2, 4 s; backoff_max 120 s (§4a).
    rows("urllib3 factor 0.5 (rs.md cheat-sheet, 4a)",
         exponential(500ms, 2, 120s, 0, ExponentOrigin::FirstRetryIsZero), none,
         { { 0, 0 }, { 1000, 1000 }, { 2000, 2000 }, { 4000, 4000 } });
    rows("urllib3 factor 0.5 capped at backoff_max (rs.md 4a)",
         exponential(500ms, 2, 120s, 0, ExponentOrigin::FirstRetryIsZero), none, { { 120000, 120000 } }, false, 10);
    // rs.md cheat-sheet "curl": 1 s doubling, capped at 600 s, no jitter (§5).
    rows("curl (rs.md cheat-sheet, 5)", exponential(1s, 2, 600s), none, { { 1000, 1000 }, { 2000, 2000 }, { 4000, 4000 }, { 8000, 8000 } });
    rows("curl capped at 600s (rs.md 5)", exponential(1s, 2, 600s), none, { { 600000, 600000 } }, false, 11);
    // rs.md cheat-sheet "Envoy (code)": [0,B), [0,2B) … up to max 250 ms (§6). Integer `random % interval`
    // never reaches B; our closed upper bound is the draw-1 limit.
    rows("envoy code (rs.md cheat-sheet, 6)", exponential(25ms, 2, 250ms), full,
         { { 0, 25 }, { 0, 50 }, { 0, 100 }, { 0, 200 }, { 0, 250 } });
    // rs.md cheat-sheet "go-retryablehttp": min(1 s·2^(n−1), 30 s), no jitter (§7a).
    rows("go-retryablehttp (rs.md cheat-sheet, 7a)", exponential(1s, 2, 30s), none,
         { { 1000, 1000 }, { 2000, 2000 }, { 4000, 4000 }, { 8000, 8000 }, { 16000, 16000 }, { 30000, 30000 } });
    // rs.md cheat-sheet "cenkalti": 500 ms ×1.5, ±50 %, MaxInterval 60 s before randomizing (§7b).
    rows("cenkalti (rs.md cheat-sheet, 7b)", exponential(500ms, 1.5, 60s), proportional(0.5, CapOrder::BeforeJitter),
         { { 250, 750 }, { 375, 1125 }, { 562, 1687 }, { 843, 2531 } });
    rows("cenkalti cap before jitter: up to 1.5 x max (rs.md c4)", exponential(500ms, 1.5, 60s),
         proportional(0.5, CapOrder::BeforeJitter), { { 30000, 90000 } }, false, 13);
    // rs.md cheat-sheet "resilience4j default": 500 ms fixed (§8), floor 1 ms.
    Jitter r4j;
    r4j.floor = 1ms;
    rows("resilience4j default (rs.md cheat-sheet, 8)", constant(500ms), r4j, { { 500, 500 }, { 500, 500 } });
    // rs.md cheat-sheet "Stripe python": max(0.5, min(0.5·2^(n−1), 5)·U(0.5, 1)) s (§9).
    const Jitter stripe = multiplicative(0.5, 1.0, CapOrder::BeforeJitter, 500ms);
    rows("stripe-python (rs.md cheat-sheet, 9)", exponential(500ms, 2, 5s), stripe,
         { { 500, 500 }, { 500, 1000 }, { 1000, 2000 }, { 2000, 4000 }, { 2500, 5000 } });
    // rs.md cheat-sheet "Stripe node": the 0-based count into 2^(n−1), i.e. exponentOffset −1 (§9, c2).
    rows("stripe-node (rs.md cheat-sheet, 9)", exponential(500ms, 2, 5s, -1), stripe,
         { { 500, 500 }, { 500, 500 }, { 500, 1000 }, { 1000, 2000 } });
}

void TestBackoff::cheatSheet()
{
    QFETCH(Backoff, backoff);
    QFETCH(Jitter, jitter);
    QFETCH(int, retry);
    QFETCH(bool, throttling);
    QFETCH(qint64, low);
    QFETCH(qint64, high);

    const auto [rangeLow, rangeHigh] = backoffRange(backoff, jitter, retry, throttling);
    QCOMPARE(rangeLow.count(), low);
    QCOMPARE(rangeHigh.count(), high);

    const DelayDraw atZero = nthDraw(backoff, jitter, retry, 0.0, throttling);
    const DelayDraw atOne = nthDraw(backoff, jitter, retry, 1.0, throttling);
    QCOMPARE(atZero.retryIndex, retry);
    QCOMPARE(atZero.delay.count(), low);
    QCOMPARE(atOne.delay.count(), high);
    QCOMPARE(atZero.low.count(), low);
    QCOMPARE(atZero.high.count(), high);
    // A draw in between stays inside the range.
    const DelayDraw mid = nthDraw(backoff, jitter, retry, 0.37, throttling);
    QVERIFY(mid.delay.count() >= low && mid.delay.count() <= high);
}

void TestBackoff::jitterFamilies_data()
{
    QTest::addColumn<Backoff>("backoff");
    QTest::addColumn<Jitter>("jitter");
    QTest::addColumn<int>("retry");
    QTest::addColumn<double>("draw");
    QTest::addColumn<qint64>("delay");
    QTest::addColumn<qint64>("ceiling");

    Backoff linear;
    linear.kind = BackoffKind::Linear;
    linear.base = 1000ms;
    linear.increment = 500ms;
    Jitter additive = jitter(JitterKind::Additive);
    additive.additive = 300ms;
    Jitter cappedAfter = proportional(0.5, CapOrder::AfterJitter);

    // rs.md header table: Linear base + (n−1)·increment.
    QTest::addRow("linear 1s + 2x0.5s (rs.md 1a linear)") << linear << Jitter {} << 3 << 0.0 << qint64(2000) << qint64(2000);
    // rs.md 1a: Polly ±25 % on Constant, d·U(0.75, 1.25).
    QTest::addRow("polly constant +-25%% at draw 0.5 (rs.md 1a)") << constant(2s) << proportional(0.25, CapOrder::AfterJitter) << 1 << 0.5 << qint64(2000) << qint64(2000);
    QTest::addRow("polly constant +-25%% at draw 0 (rs.md 1a)") << constant(2s) << proportional(0.25, CapOrder::AfterJitter) << 1 << 0.0 << qint64(1500) << qint64(2000);
    // Equal jitter: x/2 + U(0, x/2).
    QTest::addRow("equal jitter, draw 0.5") << constant(1s) << jitter(JitterKind::Equal) << 1 << 0.5 << qint64(750) << qint64(1000);
    // rs.md 4a/4b: urllib3 backoff_jitter, tenacity wait_exponential_jitter: x + U(0, j).
    QTest::addRow("additive 300ms, draw 0.5 (rs.md 4b)") << exponential(1s, 2, std::nullopt) << additive << 2 << 0.5 << qint64(2150) << qint64(2000);
    // urllib3 (rs.md 4a): the first retry is 0 even with backoff_jitter.
    QTest::addRow("urllib3 first retry 0 despite jitter (rs.md 4a)") << exponential(500ms, 2, 120s, 0, ExponentOrigin::FirstRetryIsZero) << additive << 1 << 1.0 << qint64(0) << qint64(0);
    // rs.md c4: resilience4j caps after jitter (hard cap) …
    QTest::addRow("cap after jitter is hard (rs.md c4 r4j)") << exponential(1s, 2, 1s) << cappedAfter << 3 << 1.0 << qint64(1000) << qint64(4000);
    // … cenkalti before jitter (may exceed the cap by the factor).
    QTest::addRow("cap before jitter scales (rs.md c4 cenkalti)") << exponential(1s, 2, 1s) << proportional(0.5, CapOrder::BeforeJitter) << 3 << 1.0 << qint64(1500) << qint64(1000);
    // Full jitter draw 0.5.
    QTest::addRow("full jitter, draw 0.5 (rs.md 2b)") << exponential(1s, 2, 20s) << jitter(JitterKind::Full, CapOrder::BeforeJitter) << 3 << 0.5 << qint64(2000) << qint64(4000);
    // Polly: Delay == 0 means every delay is 0, jitter or not (rs.md 1a).
    QTest::addRow("base 0 stays 0 (rs.md 1a)") << exponential(0ms, 2, std::nullopt) << jitter(JitterKind::Full) << 5 << 1.0 << qint64(0) << qint64(0);
    Backoff noBackoff;
    noBackoff.kind = BackoffKind::None;
    QTest::addRow("kind None waits 0") << noBackoff << Jitter {} << 4 << 1.0 << qint64(0) << qint64(0);
}

void TestBackoff::jitterFamilies()
{
    QFETCH(Backoff, backoff);
    QFETCH(Jitter, jitter);
    QFETCH(int, retry);
    QFETCH(double, draw);
    QFETCH(qint64, delay);
    QFETCH(qint64, ceiling);

    const DelayDraw d = nthDraw(backoff, jitter, retry, draw);
    QCOMPARE(d.delay.count(), delay);
    QCOMPARE(d.ceiling.count(), ceiling);
    QVERIFY(d.low <= d.delay && d.delay <= d.high);
}

void TestBackoff::noJitterTakesNoDraw()
{
    // Stateless families without jitter are deterministic: the random source is not touched.
    FixedRandomSource rng({ 0.25 });
    BackoffState state;
    for (int i = 0; i < 5; ++i)
        drawBackoff(exponential(1s, 2, 30s), Jitter {}, state, rng);
    QCOMPARE(rng.draws(), 0);
    // With jitter: exactly one draw per retry.
    drawBackoff(exponential(1s, 2, 30s), jitter(JitterKind::Full), state, rng);
    QCOMPARE(rng.draws(), 1);
}

void TestBackoff::decorrelatedAws()
{
    // rs.md header table and 1a/2: AWS decorrelated min(cap, U(base, prev·3)), prev starts at base.
    Backoff b;
    b.kind = BackoffKind::Decorrelated;
    b.base = 100ms;
    b.cap = 1000ms;
    FixedRandomSource top({ 1.0 });
    BackoffState state;
    QList<qint64> delays;
    for (int i = 0; i < 4; ++i)
        delays << drawBackoff(b, Jitter {}, state, top).delay.count();
    QCOMPARE(delays, (QList<qint64> { 300, 900, 1000, 1000 }));
    QCOMPARE(top.draws(), 4);

    // Draw 0 always gives base.
    FixedRandomSource bottom({ 0.0 });
    BackoffState s2;
    for (int i = 0; i < 3; ++i)
        QCOMPARE(drawBackoff(b, Jitter {}, s2, bottom).delay.count(), 100);

    // A reset starts again from prev = base.
    resetExponent(state);
    QCOMPARE(drawBackoff(b, Jitter {}, state, top).delay.count(), 300);

    // Theoretical range of retry 2: [base, base·3^2].
    b.cap.reset();
    QCOMPARE(backoffRange(b, Jitter {}, 2), std::make_pair(Millis(100), Millis(900)));
}

void TestBackoff::decorrelatedV2ExactDraws()
{
    // rs.md 1a formula with pinned draws: t = attempt + u, next = 2^t·tanh(√(4t)), d = (next − prev)/1.4·D.
    Backoff b;
    b.kind = BackoffKind::DecorrelatedV2;
    b.base = 1000ms;
    {
        FixedRandomSource rng({ 0.0 });
        BackoffState state;
        QList<qint64> delays;
        for (int i = 0; i < 4; ++i)
            delays << drawBackoff(b, Jitter {}, state, rng).delay.count();
        QCOMPARE(delays, (QList<qint64> { 0, 1377, 1460, 2865 }));
    }
    {
        FixedRandomSource rng({ 0.5 });
        BackoffState state;
        QList<qint64> delays;
        for (int i = 0; i < 4; ++i)
            delays << drawBackoff(b, Jitter {}, state, rng).delay.count();
        QCOMPARE(delays, (QList<qint64> { 897, 1093, 2035, 4045 }));
    }
    // The cap bounds it like Polly's MaxDelay.
    b.cap = 1500ms;
    FixedRandomSource rng({ 0.5 });
    BackoffState state;
    for (int i = 0; i < 3; ++i)
        drawBackoff(b, Jitter {}, state, rng);
    QCOMPARE(drawBackoff(b, Jitter {}, state, rng).delay.count(), 1500);
    // Theoretical bound of retry 1: [0, f(1)/1.4·D] and of retry 3: [0, (f(3) − f(1))/1.4·D].
    b.cap.reset();
    QCOMPARE(backoffRange(b, Jitter {}, 1), std::make_pair(Millis(0), Millis(1377)));
    QCOMPARE(backoffRange(b, Jitter {}, 3), std::make_pair(Millis(0), Millis(4325)));
}

void TestBackoff::decorrelatedV2Medians()
{
    // rs.md 1a says the medians come out "near Delay·2^attempt" (attempt 0-based). The formula as written
    // there gives about 0.9·D for the first retry and about D·2^(attempt−1) after it, i.e. half that for
    // attempts ≥ 1 (checked independently by simulation). This test pins what the formula does.
    Backoff b;
    b.kind = BackoffKind::DecorrelatedV2;
    b.base = 1000ms;
    constexpr int kRuns = 2001;
    constexpr int kRetries = 7;
    QList<QList<qint64>> samples(kRetries);
    SeededRandomSource rng(20260822);
    for (int run = 0; run < kRuns; ++run) {
        BackoffState state;
        for (int n = 0; n < kRetries; ++n)
            samples[n] << drawBackoff(b, Jitter {}, state, rng).delay.count();
    }
    for (int attempt = 0; attempt < kRetries; ++attempt) {
        QList<qint64>& s = samples[attempt];
        std::sort(s.begin(), s.end());
        const double median = double(s.at(kRuns / 2));
        const double expected = attempt == 0 ? 900.0 : 1000.0 * std::pow(2.0, attempt - 1);
        const double ratio = median / expected;
        QVERIFY2(ratio > 0.8 && ratio < 1.25,
                 qPrintable(QStringLiteral("attempt %1: median %2 ms, expected about %3 ms").arg(attempt).arg(median).arg(expected)));
        // Jittered: never all the same.
        QVERIFY(s.first() < s.last());
    }
}

void TestBackoff::overflowSaturates_data()
{
    QTest::addColumn<Backoff>("backoff");
    QTest::addColumn<Jitter>("jitter");
    QTest::addColumn<int>("startIndex"); // state.retriesSinceReset before the draw
    QTest::addColumn<qint64>("expected");

    const qint64 max = kMaxBackoffDelay.count();
    Jitter grpc = multiplicative(0.8, 1.2, CapOrder::BeforeJitter);
    Jitter additive = jitter(JitterKind::Additive);
    additive.additive = 1000ms;
    Backoff linear;
    linear.kind = BackoffKind::Linear;
    linear.base = 1s;
    linear.increment = 1s;
    Backoff v2;
    v2.kind = BackoffKind::DecorrelatedV2;
    v2.base = 2s;
    Backoff v2capped = v2;
    v2capped.cap = 30s;

    // rs.md 1a (Polly#1866, #2163): overflow must give the cap, or a bounded maximum, never garbage.
    QTest::addRow("exponential x2 uncapped at retry 10000 (rs.md 1a)") << exponential(2s, 2, std::nullopt) << Jitter {} << 9999 << max;
    QTest::addRow("exponential x2 capped 30s at retry 10000 (rs.md 1a)") << exponential(2s, 2, 30s) << Jitter {} << 9999 << qint64(30000);
    QTest::addRow("grpc jitter above a saturated ceiling at retry 10000") << exponential(100ms, 2, std::nullopt) << grpc << 9999 << max;
    QTest::addRow("grpc capped 1s at retry 10000: 1.2 x cap (rs.md 3)") << exponential(100ms, 2, 1s) << grpc << 9999 << qint64(1200);
    QTest::addRow("additive jitter on a saturated ceiling") << exponential(1s, 10, std::nullopt) << additive << 9999 << max;
    QTest::addRow("exponential x1.5 at retry INT_MAX") << exponential(500ms, 1.5, std::nullopt) << Jitter {} << INT_MAX - 1 << max;
    QTest::addRow("exponential x0.5 underflows to 0 at retry 10000") << exponential(1s, 0.5, std::nullopt) << Jitter {} << 9999 << qint64(0);
    QTest::addRow("linear at retry INT_MAX") << linear << Jitter {} << INT_MAX - 1 << max;
    QTest::addRow("linear already at INT_MAX stays there") << linear << Jitter {} << INT_MAX << max;
    QTest::addRow("decorrelated V2 at retry 10000 (Polly#2163)") << v2 << Jitter {} << 9999 << max;
    QTest::addRow("decorrelated V2 capped 30s at retry 10000 (Polly#2163)") << v2capped << Jitter {} << 9999 << qint64(30000);
    QTest::addRow("decorrelated V2 at retry 1025, pow finite but huge") << v2 << Jitter {} << 1024 << max;
}

void TestBackoff::overflowSaturates()
{
    QFETCH(Backoff, backoff);
    QFETCH(Jitter, jitter);
    QFETCH(int, startIndex);
    QFETCH(qint64, expected);

    FixedRandomSource rng({ 1.0 });
    BackoffState state;
    state.retriesSinceReset = startIndex;
    const DelayDraw d = drawBackoff(backoff, jitter, state, rng);
    QCOMPARE(d.delay.count(), expected);
    QVERIFY(d.low.count() >= 0 && d.high.count() <= kMaxBackoffDelay.count());
    QVERIFY(d.ceiling.count() >= 0 && d.ceiling.count() <= kMaxBackoffDelay.count());
    // A further draw stays where it is (V2: inf − inf must not become NaN, read as 0).
    const DelayDraw next = drawBackoff(backoff, jitter, state, rng);
    QCOMPARE(next.delay.count(), expected);
    const auto [low, high] = backoffRange(backoff, jitter, startIndex < INT_MAX ? startIndex + 1 : INT_MAX);
    QVERIFY(low.count() >= 0 && low <= high && high.count() <= kMaxBackoffDelay.count());
}

void TestBackoff::stateCountsAndResets()
{
    // rs.md c13: gRPC pushback and cenkalti RetryAfter reset the exponent.
    const Backoff b = exponential(1s, 2, std::nullopt);
    FixedRandomSource rng({ 0.5 });
    BackoffState state;
    QCOMPARE(drawBackoff(b, Jitter {}, state, rng).delay.count(), 1000);
    QCOMPARE(drawBackoff(b, Jitter {}, state, rng).delay.count(), 2000);
    QCOMPARE(state.retriesSinceReset, 2);
    resetExponent(state);
    QCOMPARE(state, BackoffState {});
    const DelayDraw d = drawBackoff(b, Jitter {}, state, rng);
    QCOMPARE(d.retryIndex, 1);
    QCOMPARE(d.delay.count(), 1000);
    // throttlingBase is used only when asked for.
    Backoff aws = exponential(50ms, 2, 20s);
    aws.throttlingBase = 1s;
    QCOMPARE(backoffRange(aws, Jitter {}, 1).first.count(), 50);
    QCOMPARE(backoffRange(aws, Jitter {}, 1, true).first.count(), 1000);
    // Retry indices below 1 read as 1.
    QCOMPARE(backoffRange(b, Jitter {}, 0), backoffRange(b, Jitter {}, 1));
    // The pure jitter function at its ends (rs.md c3).
    QCOMPARE(applyJitter(jitter(JitterKind::Full), 1000, 1.0), 1000.0);
    QCOMPARE(applyJitter(jitter(JitterKind::Equal), 1000, 0.0), 500.0);
    QCOMPARE(applyJitter(proportional(2.0, CapOrder::AfterJitter), 1000, 0.0), 0.0); // never negative
}

QTEST_GUILESS_MAIN(TestBackoff)
#include "tst_backoff.moc"
