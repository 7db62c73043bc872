// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet/fleetcomparison.h"

#include "sim/herdsimulator.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("fleet", text);
}

double gap(double measured, double simulated)
{
    if (measured == 0)
        return simulated == 0 ? 0 : 1;
    return (simulated - measured) / measured;
}

QString percent(double share)
{
    return u"%1%2 %"_s.arg(share >= 0 ? u"+"_s : QString()).arg(share * 100, 0, 'f', 1);
}

QString number(double v)
{
    return QString::number(v, 'f', 1);
}

} // namespace

FleetComparison FleetComparison::run(const FleetMeasure& m, const RetryPolicy& policy, const FleetClients& clients)
{
    FleetComparison c;
    HerdExperiment& e = c.experiment;
    e.name = u"fleet-fit"_s;
    e.title = tr("the fleet's clients against a server fitted from the fleet's measurements");
    e.source = u"retrylab fleet --compare-herd"_s;
    e.server.kind = HerdServerModel::Kind::Queue;
    e.server.concurrency = 0; // the lab never queued the fleet's requests: unlimited, at the measured latency
    e.server.service
        = HerdDistribution { m.latencySdMs > 0 ? HerdDistribution::Kind::Normal : HerdDistribution::Kind::Fixed,
              std::max(0.1, m.latencyMeanMs), m.latencySdMs };
    if (m.outage) {
        e.server.outage = HerdWindow { Millis(qint64(m.outage->fromS * 1000)),
            Millis(std::max<qint64>(1, qint64((m.outage->untilS - m.outage->fromS) * 1000))) };
        if (m.outage->status > 0) {
            e.server.outageAnswer = HerdOutageAnswer::Status;
            e.server.outageStatus = m.outage->status;
        } else {
            e.server.outageAnswer = HerdOutageAnswer::Reset;
        }
    }
    e.clients.method = clients.method;
    e.clients.processes = std::max(1, clients.users);
    if (clients.open) {
        e.clients.loop = HerdClientModel::Loop::Open;
        e.clients.rate = clients.rate;
        e.clients.poisson = false; // the fleet's arrivals are evenly spaced
        e.clients.clients = std::max(1, int(std::ceil(clients.rate * double(clients.duration.count()) / 1000.0)));
    } else {
        e.clients.loop = HerdClientModel::Loop::Closed;
        e.clients.clients = std::max(1, clients.users);
        e.clients.think = clients.think;
        // As many as a user could send in the run: the duration cap ends them, as the fleet's clock did.
        e.clients.requestsPerClient
            = std::max(1, int(std::ceil(m.totals.requests / std::max(1, clients.users) * 2)) + 10);
    }
    e.duration = clients.duration;
    e.resolution = Millis(1000);
    e.seed = 1;
    e.policies = { HerdPolicy { policy.name, policy } };
    const HerdRun run = HerdSimulator::run(e, policy, e.seed);
    c.simulated.label = policy.name;
    c.simulated.clients = e.clients.clients;
    c.simulated.runs = 1;
    c.simulated.totals = run.totals;
    c.simulated.goodput = run.goodput;
    c.simulated.series = run.series;
    c.simulated.recovered = run.recovered;
    c.simulated.collapsedAt = run.collapsedAt;

    const double seconds = double(clients.duration.count()) / 1000.0;
    const double measuredAttempts = m.totals.attempts / std::max(1e-9, m.spanS);
    const double simulatedSpan = std::max(seconds, run.totals.completionMs / 1000.0);
    const double simulatedAttempts = run.totals.attempts / std::max(1e-9, simulatedSpan);
    c.attemptsGap = gap(measuredAttempts, simulatedAttempts);
    c.goodputGap = gap(m.goodputPerSecond(), run.totals.succeeded / std::max(1e-9, simulatedSpan));
    c.amplificationGap = gap(m.totals.amplification(), run.totals.amplification());
    const qsizetype n = std::min(m.series.samples.size(), run.series.samples.size());
    for (qsizetype i = 0; i < n; ++i) {
        const double d = std::abs(run.series.samples.at(i).attempts - m.series.samples.at(i).attempts);
        if (d > c.worstSecondGap) {
            c.worstSecondGap = d;
            c.worstSecond = int(i);
        }
    }
    return c;
}

QString FleetComparison::table(const FleetMeasure& m) const
{
    const HerdTotals& s = simulated.totals;
    const double simSpan = std::max(double(experiment.duration.count()) / 1000.0, s.completionMs / 1000.0);
    QString t;
    t += tr("measured against the herd simulation (server fitted: latency %1 ± %2 ms, no queue%3):\n")
             .arg(number(m.latencyMeanMs), number(m.latencySdMs),
                 m.outage ? tr("; outage %1–%2 s answering %3")
                                .arg(number(m.outage->fromS), number(m.outage->untilS))
                                .arg(m.outage->status > 0 ? QString::number(m.outage->status) : tr("resets"))
                          : QString());
    t += u"  %1 %2 %3 %4\n"_s.arg(QString(), -16).arg(tr("measured"), 10).arg(tr("simulated"), 10).arg(tr("apart"), 10);
    const auto row = [&](const QString& what, double a, double b, double share) {
        t += u"  %1 %2 %3 %4\n"_s.arg(what, -16).arg(number(a), 10).arg(number(b), 10).arg(percent(share), 10);
    };
    row(tr("attempts/s"), m.attemptsPerSecond(), s.attempts / std::max(1e-9, simSpan), attemptsGap);
    row(tr("goodput/s"), m.goodputPerSecond(), s.succeeded / std::max(1e-9, simSpan), goodputGap);
    t += u"  %1 %2 %3 %4\n"_s.arg(tr("amplification"), -16)
             .arg(QString::number(m.totals.amplification(), 'f', 2), 10)
             .arg(QString::number(s.amplification(), 'f', 2), 10)
             .arg(percent(amplificationGap), 10);
    t += tr("  per second (attempts/s measured | simulated, goodput/s measured | simulated):\n");
    const qsizetype n = std::max(m.series.samples.size(), simulated.series.samples.size());
    for (qsizetype i = 0; i < n; ++i) {
        const HerdSample a = i < m.series.samples.size() ? m.series.samples.at(i) : HerdSample {};
        const HerdSample b = i < simulated.series.samples.size() ? simulated.series.samples.at(i) : HerdSample {};
        t += u"  %1 s  %2 | %3   %4 | %5\n"_s.arg(i, 3)
                 .arg(number(a.attempts), 8)
                 .arg(number(b.attempts), -8)
                 .arg(number(a.goodput), 8)
                 .arg(number(b.goodput), -8);
    }
    t += tr("  they part most at second %1: %2 attempts/s apart\n").arg(worstSecond).arg(number(worstSecondGap));
    return t;
}

QJsonObject FleetComparison::json(const FleetMeasure& m) const
{
    const HerdTotals& s = simulated.totals;
    const double simSpan = std::max(double(experiment.duration.count()) / 1000.0, s.completionMs / 1000.0);
    const auto series = [](const HerdSeries& h) {
        QJsonArray attempts, goodput;
        for (const HerdSample& x : h.samples) {
            attempts.append(x.attempts);
            goodput.append(x.goodput);
        }
        return QJsonObject { { u"attempts_per_s"_s, attempts }, { u"goodput_per_s"_s, goodput } };
    };
    return QJsonObject {
        { u"server_model"_s,
            QJsonObject { { u"latency_mean_ms"_s, m.latencyMeanMs }, { u"latency_sd_ms"_s, m.latencySdMs },
                { u"rate_before_outage"_s, m.rateBefore }, { u"concurrency"_s, 0 } } },
        { u"measured"_s,
            QJsonObject { { u"attempts_per_s"_s, m.attemptsPerSecond() }, { u"goodput_per_s"_s, m.goodputPerSecond() },
                { u"amplification"_s, m.totals.amplification() }, { u"series"_s, series(m.series) } } },
        { u"simulated"_s,
            QJsonObject { { u"attempts_per_s"_s, s.attempts / std::max(1e-9, simSpan) },
                { u"goodput_per_s"_s, s.succeeded / std::max(1e-9, simSpan) },
                { u"amplification"_s, s.amplification() }, { u"series"_s, series(simulated.series) } } },
        { u"apart"_s,
            QJsonObject { { u"attempts_per_s"_s, attemptsGap }, { u"goodput_per_s"_s, goodputGap },
                { u"amplification"_s, amplificationGap }, { u"worst_second"_s, worstSecond },
                { u"worst_second_attempts_per_s"_s, worstSecondGap } } },
    };
}
