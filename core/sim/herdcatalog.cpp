// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdcatalog.h"

#include <QCoreApplication>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("HerdCatalog", text);
}

RuleCondition onStatus(int status)
{
    RuleCondition when;
    when.outcome = OutcomeKind::Status;
    when.statuses = { StatusRange { status, status } };
    return when;
}

RuleCondition onError(QList<ErrorClass> errors)
{
    RuleCondition when;
    when.outcome = OutcomeKind::Error;
    when.errors = std::move(errors);
    return when;
}

RetryPolicy basePolicy(const QString& name, const QString& description, int maxAttempts)
{
    RetryPolicy p;
    p.name = name;
    p.description = description;
    p.limits.maxAttempts = maxAttempts;
    p.backoff.kind = BackoffKind::None;
    p.jitter.kind = JitterKind::None;
    return p;
}

// ---- aws-2015 ---------------------------------------------------------------------------------------
// The five algorithms of "Exponential Backoff And Jitter" as policies: base 5 ms, cap 2 s; the simulator
// increments its attempt counter before the sleep, so the first sleep is base·2 (exponent offset +1); the
// cap bounds the ceiling before jitter. A failed conditional write is a 412, retried until it succeeds.
RetryPolicy awsPolicy(const QString& label)
{
    RetryPolicy p = basePolicy(QStringLiteral("aws-2015-") + label,
        tr("AWS 2015 backoff simulator, %1: one conditional write retried until it succeeds").arg(label), 10000);
    p.source = QStringLiteral("aws-samples/aws-arch-backoff-simulator src/backoff_simulator.py (resilience-fleets.md §2a)");
    p.rules = { RetryRule { QStringLiteral("version-conflict"), onStatus(412), RuleAction::Retry, false,
        QStringLiteral("the conditional write lost a race: read again and retry") } };
    p.backoff.base = Millis(5);
    p.backoff.cap = Millis(2000);
    p.backoff.multiplier = 2.0;
    p.backoff.exponentOffset = 1;
    p.jitter.capOrder = CapOrder::BeforeJitter;
    if (label == u"none")
        return p;
    p.backoff.kind = label == u"decorrelated" ? BackoffKind::Decorrelated : BackoffKind::Exponential;
    if (label == u"equal-jitter")
        p.jitter.kind = JitterKind::Equal;
    else if (label == u"full-jitter")
        p.jitter.kind = JitterKind::Full;
    return p;
}

HerdExperiment aws2015()
{
    HerdExperiment e;
    e.name = QStringLiteral("aws-2015");
    e.title = tr("Exponential backoff and jitter: N clients, one optimistic-concurrency write each");
    e.source = tr("Marc Brooker, \"Exponential Backoff And Jitter\", AWS Architecture Blog, 2015; its simulator "
                  "aws-samples/aws-arch-backoff-simulator src/backoff_simulator.py (resilience-fleets.md §2a)");
    e.claims = tr("At N = 100, jitter cuts the server's calls by more than half against plain exponential backoff; "
                  "full and equal jitter do about the same work, decorrelated jitter more; plain exponential takes far "
                  "longer to finish; equal jitter does slightly more work than full jitter and takes much longer.");
    e.server.kind = HerdServerModel::Kind::OptimisticRow;
    e.server.hop = HerdDistribution { HerdDistribution::Kind::Normal, 10, 2 };
    e.clients.loop = HerdClientModel::Loop::Closed;
    e.clients.clients = 100;
    e.clients.method = QStringLiteral("PUT");
    e.duration = Millis(0);
    e.runs = 100;
    e.resolution = Millis(100);
    for (const QString& label : { QStringLiteral("none"), QStringLiteral("exponential"), QStringLiteral("equal-jitter"),
             QStringLiteral("full-jitter"), QStringLiteral("decorrelated") })
        e.policies.append(HerdPolicy { label, awsPolicy(label) });
    return e;
}

// ---- retry-collapse -------------------------------------------------------------------------------------
// Brooker's simple_collapse_sim: latency 1 s + 10 ms per request in service, no limit on concurrency, network
// Exp(100 ms) each way, a 3 s timeout, 3 attempts; Poisson load of 40 rps spiking to 80 rps for 5 s at 20 s.
RetryPolicy collapsePolicy(const QString& label)
{
    RetryPolicy p = basePolicy(QStringLiteral("collapse-") + label, QString(), 3);
    p.source = QStringLiteral("mbrooker/simulator_example simple_collapse_sim/sim.py (resilience-fleets.md §2b)");
    p.limits.attemptTimeout = Millis(3000);
    p.rules = { RetryRule { QStringLiteral("timeout"), onError({ ErrorClass::ResponseTimeout }), RuleAction::Retry, false, {} } };
    if (label == u"immediate") {
        p.description = tr("3 attempts, each retried at once when its 3 s timeout fires (Brooker's Client)");
    } else if (label == u"backoff-jitter") {
        // ClientWithBackoffAndJitter: the wait doubles from 10 s before each retry, drawn from U(0, wait).
        p.description = tr("3 attempts, full jitter under 20 s then 40 s (Brooker's ClientWithBackoffAndJitter)");
        p.backoff.kind = BackoffKind::Exponential;
        p.backoff.base = Millis(20000);
        p.backoff.multiplier = 2.0;
        p.jitter.kind = JitterKind::Full;
    } else if (label == u"retry-budget") {
        // Brooker 2022's adaptive token bucket, as gRPC retry throttling: a failure takes a token, a success
        // gives 0.1 back, retries only while more than half the 10 tokens are left. One bucket per process.
        p.description = tr("3 immediate attempts under gRPC retry throttling (10 tokens, 0.1 back per success) per client process");
        p.throttling.enabled = true;
        p.throttling.maxTokens = 10;
        p.throttling.tokenRatio = 0.1;
    }
    return p;
}

HerdExperiment retryCollapse()
{
    HerdExperiment e;
    e.name = QStringLiteral("retry-collapse");
    e.title = tr("A 5 s load spike: immediate retries keep the server down, backoff and budgets let it recover");
    e.source = tr("Marc Brooker, mbrooker/simulator_example simple_collapse_sim/sim.py; \"What is Backoff For?\" and "
                  "\"Fixing retries with token buckets and circuit breakers\" (2022) (resilience-fleets.md §2b)");
    e.claims = tr("After the spike from 40 to 80 rps ends, immediate retries stay down (goodput near 0, attempts high); "
                  "backoff with jitter recovers to about 40 rps; a retry budget bounds the amplification.");
    e.server.kind = HerdServerModel::Kind::Queue;
    e.server.concurrency = 0;
    e.server.service = HerdDistribution { HerdDistribution::Kind::Fixed, 1000, 0 };
    e.server.loadLatencyMs = 10;
    e.server.hop = HerdDistribution { HerdDistribution::Kind::Exponential, 100, 0 };
    e.clients.loop = HerdClientModel::Loop::Open;
    e.clients.rate = 40;
    e.clients.spike = HerdWindow { Millis(20000), Millis(5000) };
    e.clients.spikeRate = 80;
    e.clients.clients = 1000000;
    e.clients.processes = 100;
    e.duration = Millis(80000);
    e.runs = 1;
    e.resolution = Millis(1000);
    for (const QString& label : { QStringLiteral("immediate"), QStringLiteral("backoff-jitter"), QStringLiteral("retry-budget") })
        e.policies.append(HerdPolicy { label, collapsePolicy(label) });
    return e;
}

// ---- metastable-osdi22 ----------------------------------------------------------------------------------
// The retry case of "Metastable Failures in the Wild": an open-loop client, 3 s timeout, 4 immediate resends;
// the server's capacity cut for D seconds after 60 s. Scaled: a server of 1000 requests/s (2 workers, 2 ms
// each on average), offered 630 rps: just under the load where a cut to 40 % for 10 s tips it over.
RetryPolicy osdiPolicy(const QString& label)
{
    RetryPolicy p = basePolicy(QStringLiteral("osdi22-") + label, QString(), 5);
    p.source = QStringLiteral("lexiangh/Metastability Retry_Metastability client/mongoC3.go (resilience-fleets.md §2c)");
    p.limits.attemptTimeout = Millis(3000);
    p.rules = { RetryRule { QStringLiteral("timeout-or-overload"), onError({ ErrorClass::ResponseTimeout, ErrorClass::ConnectionLost }),
        RuleAction::Retry, false, {} } };
    if (label == u"immediate-4") {
        p.description = tr("the paper's client: on error, resend at once, up to 4 resends (5 attempts), 3 s timeout");
    } else if (label == u"backoff-budget") {
        p.description = tr("the same client with full-jitter backoff (1 s base, 10 s cap) and gRPC retry throttling per process");
        p.backoff.kind = BackoffKind::Exponential;
        p.backoff.base = Millis(1000);
        p.backoff.cap = Millis(10000);
        p.jitter.kind = JitterKind::Full;
        p.throttling.enabled = true;
        p.throttling.maxTokens = 10;
        p.throttling.tokenRatio = 0.1;
    }
    return p;
}

HerdExperiment metastable()
{
    HerdExperiment e;
    e.name = QStringLiteral("metastable-osdi22");
    e.title = tr("A capacity cut: 40 % for 10 s tips the server into a metastable failure, 45 % or 9 s does not");
    e.source = tr("Huang et al., \"Metastable Failures in the Wild\", OSDI 2022, and its artifact lexiangh/Metastability "
                  "Retry_Metastability; Bronson et al., HotOS 2021 (resilience-fleets.md §2c)");
    e.claims = tr("A sharp boundary: a cut to 45 % for 10 s recovers, to 40 % for 10 s stays down with goodput near 0 "
                  "while attempts stay high, 40 % for 9 s recovers, a lower load recovers. The shape, not the artifact's numbers.");
    e.server.kind = HerdServerModel::Kind::Queue;
    e.server.concurrency = 2;
    e.server.service = HerdDistribution { HerdDistribution::Kind::Exponential, 2, 0 };
    e.server.cut = HerdWindow { Millis(60000), Millis(10000) };
    e.server.cutFraction = 0.40;
    e.clients.loop = HerdClientModel::Loop::Open;
    e.clients.rate = 630;
    e.clients.clients = 1000000;
    e.clients.processes = 100;
    e.clients.method = QStringLiteral("POST");
    e.duration = Millis(150000);
    e.runs = 1;
    e.resolution = Millis(1000);
    for (const QString& label : { QStringLiteral("immediate-4"), QStringLiteral("backoff-budget") })
        e.policies.append(HerdPolicy { label, osdiPolicy(label) });
    return e;
}

} // namespace

QStringList HerdCatalog::names()
{
    return { QStringLiteral("aws-2015"), QStringLiteral("retry-collapse"), QStringLiteral("metastable-osdi22") };
}

std::optional<HerdExperiment> HerdCatalog::experiment(const QString& name)
{
    if (name == u"aws-2015")
        return aws2015();
    if (name == u"retry-collapse")
        return retryCollapse();
    if (name == u"metastable-osdi22")
        return metastable();
    return std::nullopt;
}
