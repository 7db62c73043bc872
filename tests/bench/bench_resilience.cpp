// SPDX-License-Identifier: GPL-3.0-or-later
// Decisions per second (issue 28): a circuit breaker's admit + record for one call (Polly's 30 s time
// window, resilience4j's count window, opossum's clock-turned buckets, cockatiel's consecutive count) and a
// whole hedged request (Polly's latency mode: a slow first copy, a hedge that wins), against the retry's own
// decide() for one attempt answered 503 with Retry-After under ms-http-resilience, measured in the same run.
// The herd simulator (next issue) runs these on virtual time for thousands of clients: their cost next to
// decide() is what it pays on top of a retry.
//
// bench_resilience [ITERATIONS]   (default 2 000 000)

#include "policy/answerfacts.h"
#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"
#include "policy/resilience/breakerpresets.h"
#include "policy/resilience/circuitbreaker.h"
#include "policy/resilience/hedging.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <functional>

namespace {

// Runs BODY N times (each returning something to keep), best of three; nanoseconds per call.
double nsPerCall(qint64 n, const std::function<qint64(qint64)>& body)
{
    double best = 1e300;
    qint64 sink = 0;
    for (int round = 0; round < 3; ++round) {
        QElapsedTimer t;
        t.start();
        for (qint64 i = 0; i < n; ++i)
            sink += body(i);
        best = std::min(best, double(t.nsecsElapsed()) / double(n));
    }
    if (sink == 42)
        std::puts(""); // keeps the loops' results alive
    return best;
}

void row(const char* what, double ns, double peer)
{
    std::printf("%-58s %9.1f ns  %12.0f /s  %7.4f x decide()\n", what, ns, 1e9 / ns, ns / peer);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const qint64 n = argc > 1 ? QByteArray(argv[1]).toLongLong() : 2000000;
    if (n < 1) {
        std::fprintf(stderr, "bench_resilience: ITERATIONS must be a positive number\n");
        return 2;
    }

    const auto loaded = PresetCatalog::load(QStringLiteral("ms-http-resilience"));
    if (!loaded.ok())
        return 1;
    const RetryPolicy policy = *loaded.policy;
    RequestFacts request;
    request.method = QStringLiteral("GET");
    const AttemptOutcome answer = AttemptOutcome::answered(503, { { QByteArray("Retry-After"), QByteArray("1") } });
    const QDateTime now = QDateTime::currentDateTimeUtc();
    SeededRandomSource random(7);
    const double decideNs = nsPerCall(n / 4, [&](qint64 i) {
        BackoffState backoff;
        const DecisionContext context { int(i % 3) + 1, Millis(0), now, {} };
        return qint64(decide(policy, request, answer, context, backoff, random).delay.count());
    });

    // One call a millisecond, one in twenty failing: every breaker stays closed (5 % is below each ratio,
    // and never 5 in a row), so every call is counted, the window rolled and, on a failure, judged — the
    // steady state of a herd. Each row checks that it stayed closed.
    const auto breaker = [&](const CircuitBreakerOptions& o) {
        CircuitBreaker b(o);
        const double ns = nsPerCall(n, [&](qint64 i) {
            const Millis t { i };
            const auto ticket = b.admit(t);
            b.record(ticket, i % 20 == 0, t);
            return qint64(ticket.admission);
        });
        if (!b.changes().isEmpty())
            std::fprintf(stderr, "bench_resilience: a breaker opened: the figure is not the closed state's\n");
        return ns;
    };
    auto opossum = BreakerPresets::opossum9();
    opossum.minimumCalls = 1000000; // its default (0) would open at the first failure
    auto cockatiel = BreakerPresets::cockatiel3Consecutive();

    const double hedgeNs = nsPerCall(n / 4, [&](qint64 i) {
        Hedging h(HedgingOptions {}, Millis { i });
        const auto second = h.startDue(Millis { i + 2000 });
        const auto v = h.answered(second.value_or(2), Hedging::Answer::Accepted, Millis { i + 2100 });
        return qint64(v.result + v.cancel.size());
    });

    std::printf("bench_resilience: %lld iterations (decide() and hedging a quarter of them), best of 3\n", n);
    row("decide(): ms-http-resilience, 503 + Retry-After", decideNs, decideNs);
    row("breaker admit + record: Polly 8 (30 s, 10 buckets at calls)", breaker(BreakerPresets::polly8()), decideNs);
    row("breaker admit + record: resilience4j 2 (last 100 calls)", breaker(BreakerPresets::resilience4j2()), decideNs);
    row("breaker admit + record: opossum 9 (10 x 1 s on the clock)", breaker(opossum), decideNs);
    row("breaker admit + record: cockatiel 3 (5 in a row)", breaker(cockatiel), decideNs);
    row("hedged request: Polly 8, the hedge wins (whole request)", hedgeNs, decideNs);
    return 0;
}
