// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/runreport.h"

#include "lab/labledger.h"

#include <QCoreApplication>
#include <QMap>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("run", text); }

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const auto i = qsizetype(std::clamp(p * double(values.size() - 1) + 0.5, 0.0, double(values.size() - 1)));
    return values.at(i);
}

} // namespace

QString RunReport::attemptLine(const AttemptRecord& a)
{
    // A call the pipeline refused never went: when it was refused, and by what.
    const double start = a.at.started ? toMs(*a.at.started) : a.refused && a.at.finished ? toMs(*a.at.finished) : 0.0;
    const double took = a.duration() ? toMs(*a.duration()) : 0.0;
    const QString result = a.refused ? (a.refused->by == StrategyRefusal::By::CircuitBreaker ? u"not sent: circuit %1"_s.arg(stateName(a.refused->state)) : u"not sent: limiter full"_s)
        : a.error ? errorClassName(*a.error)
        : a.status                 ? QString::number(*a.status)
        : a.abortReason != AbortReason::None ? abortReasonName(a.abortReason)
                                   : u"-"_s;
    QString decision = u"cancelled"_s;
    QString wait;
    QString reason;
    if (a.decision) {
        decision = verdictName(a.decision->verdict);
        if (a.decision->verdict == Verdict::Retry)
            wait = u"  wait %1 → %2 ms (%3)"_s.arg(a.decision->ceiling.count()).arg(a.decision->delay.count())
                       .arg(delaySourceName(a.decision->source));
        reason = a.decision->reason;
    }
    // "+start ms  took ms": on the wire; an attempt that waited for a connection says for how long.
    const std::optional<MonoTime> left = a.at.started ? a.at.started : a.at.finished;
    QString queued = a.at.queued && left ? u" (queued %1 ms)"_s.arg(toMs(*left - *a.at.queued), 0, 'f', 1) : QString();
    if (a.at.verdictWait && left)
        queued += u" (waited %1 ms for the half-open verdict)"_s.arg(toMs(*left - *a.at.verdictWait), 0, 'f', 1);
    // A copy of a hedged request: why it went, and whether its answer won or another's did.
    if (a.hedge) {
        queued += u" [copy: %1%2]"_s.arg(hedgeTriggerName(a.hedge->trigger),
            a.hedge->won ? u", won"_s : a.abortReason == AbortReason::HedgeLost ? u", lost"_s : QString());
        if (a.abortReason == AbortReason::HedgeLost)
            decision = u"lost"_s;
    }
    return u"run %1 attempt %2  +%3 ms  %4 ms%5  %6  %7%8  %9"_s.arg(a.runId).arg(a.index)
        .arg(start, 0, 'f', 1).arg(took, 0, 'f', 1).arg(queued, result, decision, wait, reason);
}

RunReport::Totals RunReport::totalsOf(const QList<RunSummary>& runs)
{
    Totals t;
    QList<double> latencies;
    for (const RunSummary& r : runs) {
        t.attempts += r.attemptCount;
        t.succeeded += r.succeeded();
        t.waited += r.totalWait;
        if (r.startedAt && r.finishedAt)
            latencies << toMs(*r.finishedAt - *r.startedAt);
    }
    t.runs = int(runs.size());
    t.p50Ms = percentile(latencies, 0.5);
    t.p95Ms = percentile(latencies, 0.95);
    return t;
}

QString RunReport::summaryLine(const Totals& t)
{
    const double rate = t.runs ? 100.0 * t.succeeded / t.runs : 0.0;
    const double amplification = t.runs ? double(t.attempts) / t.runs : 0.0;
    return tr("%1 runs, %2 attempts, %3% succeeded, amplification %4, latency p50 %5 ms p95 %6 ms, waiting %7 ms")
        .arg(t.runs).arg(t.attempts).arg(rate, 0, 'f', 1).arg(amplification, 0, 'f', 2)
        .arg(t.p50Ms, 0, 'f', 1).arg(t.p95Ms, 0, 'f', 1).arg(t.waited.count());
}

QJsonObject RunReport::summaryJson(const Totals& t)
{
    return QJsonObject { { u"runs"_s, t.runs }, { u"attempts"_s, t.attempts }, { u"succeeded"_s, t.succeeded },
        { u"amplification"_s, t.runs ? double(t.attempts) / t.runs : 0.0 }, { u"p50_ms"_s, t.p50Ms },
        { u"p95_ms"_s, t.p95Ms }, { u"waiting_ms"_s, qint64(t.waited.count()) } };
}

QString RunReport::ledgerLine(const LabLedger& ledger)
{
    QString line = tr("lab ledger: %1 requests received, %2 operations applied")
                       .arg(ledger.requestsReceived())
                       .arg(ledger.operationsApplied());
    QMap<QString, int> kinds;
    for (const LabOperation& op : ledger.operations())
        ++kinds[op.operation];
    QStringList parts;
    for (auto it = kinds.cbegin(); it != kinds.cend(); ++it)
        parts << u"%1 %2"_s.arg(it.value()).arg(it.key());
    if (!parts.isEmpty())
        line += u": "_s + parts.join(u", "_s);
    int unrouted = 0;
    for (const LabReceipt& r : ledger.receipts())
        unrouted += r.route.isEmpty();
    if (unrouted)
        line += tr("; %1 matched no route").arg(unrouted);
    if (const qsizetype twice = ledger.attemptsReceivedMoreThanOnce().size())
        line += tr("; %1 attempts received more than once").arg(twice);
    return line;
}
