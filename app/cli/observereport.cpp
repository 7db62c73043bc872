// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/observereport.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("observe", text); }

QString answerOf(const LabExchange& e)
{
    if (e.status > 0 && (e.outcome.isEmpty() || e.outcome == u"answered"_s || e.outcome == u"rejected"_s))
        return QString::number(e.status);
    if (e.status > 0)
        return u"%1 (%2)"_s.arg(e.status).arg(e.outcome);
    return e.outcome.isEmpty() ? tr("no answer") : e.outcome;
}

QString groupingOf(const ObservedRun& run)
{
    QString text = run.grouping.rule;
    if (run.grouping.rule != u"fingerprint"_s && !run.grouping.evidence.isEmpty())
        text += u": "_s + run.grouping.evidence.left(60);
    if (run.grouping.heuristic)
        text += tr(", heuristic");
    return text;
}

} // namespace

namespace ObserveReport {

QString attemptLine(const ObservedRun& run, const ObservedAttempt& a, const RecordOptions& options)
{
    const LabExchange& e = a.exchange;
    QString line = tr("run %1 attempt %2  %3 %4 → %5")
                       .arg(run.id)
                       .arg(a.index)
                       .arg(QString::fromLatin1(e.method), ObservedRecords::urlOf(e, options).toDisplayString(), answerOf(e));
    if (a.clientWait) {
        const qint64 waited = std::chrono::duration_cast<Millis>(*a.clientWait).count();
        line += tr("  waited %1").arg(describeDuration(waited));
        if (a.askedBefore)
            line += u" ("_s + describeAsk(*a.askedBefore) + u')';
    }
    line += u"  ["_s + groupingOf(run) + u']';
    return line;
}

QByteArray attemptJson(const ObservedRun& run, const ObservedAttempt& a, const RecordOptions& options)
{
    const LabExchange& e = a.exchange;
    QJsonObject o { { u"run"_s, run.id }, { u"attempt"_s, a.index }, { u"exchange"_s, qint64(e.requestId) },
        { u"method"_s, QString::fromLatin1(e.method) }, { u"url"_s, ObservedRecords::urlOf(e, options).toString() },
        { u"status"_s, e.status > 0 ? QJsonValue(e.status) : QJsonValue() }, { u"outcome"_s, e.outcome },
        { u"arrived_ms"_s, e.arrivedMs }, { u"end_ms"_s, exchangeEndMs(e) },
        { u"client_wait_ms"_s, a.clientWait ? QJsonValue(double(a.clientWait->count()) / 1e6) : QJsonValue() },
        { u"asked_for_ms"_s, a.askedBefore ? QJsonValue(qint64(a.askedBefore->delay.count())) : QJsonValue() },
        { u"asked_by"_s, a.askedBefore ? QJsonValue(a.askedBefore->by) : QJsonValue() },
        { u"rule"_s, run.grouping.rule }, { u"evidence"_s, run.grouping.evidence }, { u"heuristic"_s, run.grouping.heuristic } };
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString summary(const QList<ObservedRun>& runs)
{
    qsizetype exchanges = 0;
    std::map<QString, int> byRule;
    for (const ObservedRun& run : runs) {
        exchanges += run.attempts.size();
        ++byRule[run.grouping.rule];
    }
    QStringList parts;
    for (const auto& [rule, n] : byRule) {
        parts << (rule == u"fingerprint"_s ? tr("%1 by fingerprint — a heuristic").arg(n)
                 : rule == u"idempotency-key"_s ? tr("%1 by Idempotency-Key").arg(n)
                                                : tr("%1 by attempt header").arg(n));
    }
    QString text = tr("%1 exchanges → %2 logical requests").arg(exchanges).arg(runs.size());
    if (!parts.isEmpty())
        text += u" ("_s + parts.join(u", "_s) + u')';
    return text + tr(", %1 retries").arg(exchanges - runs.size());
}

} // namespace ObserveReport
