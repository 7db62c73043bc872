// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/conformancereport.h"

#include "conform/calls/callplacement.h"

#include "observe/serverask.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QXmlStreamWriter>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("conform", text); }

QString seconds(Millis ms) { return QString::number(double(ms.count()) / 1000.0, 'f', 3); }

QJsonObject findingJson(const ConformanceFinding& f)
{
    QJsonObject o { { u"rule"_s, findingRuleName(f.rule) }, { u"attempt"_s, f.attempt }, { u"observed"_s, f.observed },
        { u"expected"_s, f.expected }, { u"sentence"_s, f.sentence() } };
    const auto put = [&o](const QString& key, const std::optional<Millis>& ms) {
        if (ms)
            o.insert(key, qint64(ms->count()));
    };
    put(u"observed_wait_ms"_s, f.observedWait);
    put(u"expected_low_ms"_s, f.expectedLow);
    put(u"expected_high_ms"_s, f.expectedHigh);
    put(u"tolerance_early_ms"_s, f.toleranceEarly);
    put(u"tolerance_late_ms"_s, f.toleranceLate);
    if (f.callCount > 0) {
        o.insert(u"first_call"_s, f.firstCall);
        o.insert(u"last_call"_s, f.lastCall);
        o.insert(u"calls"_s, f.callCount);
    }
    return o;
}

// "+2.104 s" from call 1's time.
QString sinceFirstCall(const CallsJudgement& c, Millis at)
{
    return u"+%1 s"_s.arg(QString::number(double((at - c.origin).count()) / 1000.0, 'f', 3));
}

QJsonObject callsJson(const CallsJudgement& c)
{
    QJsonArray changes;
    for (const CircuitBreaker::Change& change : c.breaker) {
        QJsonObject o { { u"at_ms"_s, qint64((change.at - c.origin).count()) }, { u"from"_s, stateName(change.from) },
            { u"to"_s, stateName(change.to) }, { u"window_calls"_s, change.window.calls },
            { u"window_failures"_s, change.window.failures } };
        if (change.to == CircuitBreaker::State::Open)
            o.insert(u"break_ms"_s, qint64(change.breakFor.count()));
        changes << o;
    }
    QJsonObject o { { u"planned"_s, c.planned }, { u"sent"_s, c.sent }, { u"kept"_s, c.kept }, { u"late"_s, c.late },
        { u"requests"_s, c.requests },
        { u"failures"_s, c.failures }, { u"hedges"_s, c.hedges }, { u"slack_ms"_s, qint64(c.slack.count()) },
        { u"by_header"_s, c.byHeader }, { u"origin_ms"_s, qint64(c.origin.count()) } };
    if (c.hasBreaker)
        o.insert(u"breaker"_s, changes);
    return o;
}

// "260 calls due: 201 reached the lab (230 requests, 40 failures), 59 kept by the client; the policy's
// breaker: open at +2.104 s (5 failures in a row), half-open at +12.110 s, closed at +12.112 s".
QString callsText(const CallsJudgement& c)
{
    QString text = tr("%1 calls due: %2 reached the lab (%3 requests, %4 failures, %5 calls after their time), %6 "
                      "kept by the client")
                       .arg(c.planned)
                       .arg(c.sent)
                       .arg(c.requests)
                       .arg(c.failures)
                       .arg(c.late)
                       .arg(c.kept);
    if (c.hedges > 0)
        text += tr(", %1 hedged copies").arg(c.hedges);
    if (!c.hasBreaker)
        return text + tr("; the policy has no breaker");
    QStringList moments;
    for (const CircuitBreaker::Change& change : c.breaker) {
        QString m = tr("%1 at %2").arg(stateName(change.to), sinceFirstCall(c, change.at));
        if (change.to == CircuitBreaker::State::Open)
            m += tr(" (%1 calls, %2 failures)").arg(change.window.calls).arg(change.window.failures);
        moments << m;
    }
    return text + tr("; the policy's breaker: %1").arg(moments.isEmpty() ? tr("closed throughout") : moments.join(u", "_s));
}

QJsonArray attemptsJson(const CaseResult& r)
{
    QJsonArray list;
    const QList<AttemptRecord>& attempts = r.run.record.attempts;
    for (qsizetype i = 0; i < attempts.size(); ++i) {
        const AttemptRecord& a = attempts.at(i);
        QJsonObject o { { u"index"_s, a.index }, { u"method"_s, a.method } };
        if (a.status)
            o.insert(u"status"_s, *a.status);
        if (a.error)
            o.insert(u"error"_s, errorClassName(*a.error));
        if (a.at.started)
            o.insert(u"sent_ms"_s, qint64(std::chrono::duration_cast<Millis>(*a.at.started).count()));
        if (a.at.finished)
            o.insert(u"ended_ms"_s, qint64(std::chrono::duration_cast<Millis>(*a.at.finished).count()));
        if (!a.idempotencyKey.isEmpty())
            o.insert(u"idempotency_key"_s, a.idempotencyKey);
        if (r.judgement.calls) {
            if (const std::optional<int> call = callNumberOf(a))
                o.insert(u"call"_s, *call);
        }
        if (i < r.judgement.attempts.size()) {
            const AttemptJudgement& j = r.judgement.attempts.at(i);
            o.insert(u"answer"_s, j.answer);
            if (!j.open) {
                QJsonObject expected { { u"verdict"_s, verdictName(j.expected.verdict) }, { u"reason"_s, j.expected.reason } };
                if (j.expected.verdict == Verdict::Retry) {
                    expected.insert(u"wait_low_ms"_s, qint64(j.expected.delayLow.count()));
                    expected.insert(u"wait_high_ms"_s, qint64(j.expected.delayHigh.count()));
                }
                o.insert(u"policy"_s, expected);
            }
            if (j.waitAfter)
                o.insert(u"wait_after_ms"_s, qint64(j.waitAfter->count()));
        }
        list << o;
    }
    return list;
}

} // namespace

QString caseVerdict(const CaseResult& result)
{
    if (!result.startError.isEmpty())
        return tr("could not run");
    return result.judgement.conforms() ? tr("conforms") : tr("does not conform");
}

int ConformanceReport::failed() const
{
    return int(std::count_if(cases.cbegin(), cases.cend(),
        [](const CaseResult& r) { return r.startError.isEmpty() && !r.judgement.conforms(); }));
}

int ConformanceReport::errors() const
{
    return int(std::count_if(cases.cbegin(), cases.cend(), [](const CaseResult& r) { return !r.startError.isEmpty(); }));
}

QString ConformanceReport::summary() const
{
    const int total = int(cases.size());
    QString text = tr("%1 cases: %2 conform, %3 do not").arg(total).arg(total - failed() - errors()).arg(failed());
    if (errors() > 0)
        text += tr(", %1 could not run").arg(errors());
    return text + tr(" (policy %1, suite %2)").arg(policy, suite);
}

QString ConformanceReport::table() const
{
    qsizetype width = 4;
    for (const CaseResult& r : cases)
        width = std::max(width, r.suiteCase.name.size());
    QString text;
    for (const CaseResult& r : cases) {
        const QString mark = !r.startError.isEmpty() ? u"ERROR"_s : r.judgement.conforms() ? u"PASS "_s : u"FAIL "_s;
        const qsizetype n = r.run.record.attempts.size();
        QString detail = r.judgement.calls ? tr("%1 calls, %2 requests").arg(r.judgement.calls->planned).arg(n)
            : n == 1                       ? tr("1 attempt")
                                           : tr("%1 attempts").arg(n);
        if (r.run.exitCode)
            detail += tr(", exit %1").arg(*r.run.exitCode);
        else if (r.timedOut)
            detail += tr(", stopped at the case's %1 s timeout").arg(seconds(r.suiteCase.timeout));
        else if (r.killedBySignal)
            detail += tr(", killed by a signal");
        text += mark + u"  "_s + r.suiteCase.name.leftJustified(width) + u"  "_s + detail + u'\n';
        if (!r.startError.isEmpty())
            text += u"       "_s + r.startError + u'\n';
        if (r.judgement.calls)
            text += u"       "_s + callsText(*r.judgement.calls) + u'\n';
        for (const ConformanceFinding& f : r.judgement.findings)
            text += u"       "_s + f.sentence() + u'\n';
        for (const ConformanceFinding& f : r.judgement.notes)
            text += u"       ("_s + f.sentence() + u")\n"_s;
    }
    text += summary() + u'\n';
    if (!policyChanges.isEmpty())
        text += tr("policy: %1").arg(policyChanges.text()) + u'\n';
    return text;
}

QJsonObject ConformanceReport::toJson() const
{
    QJsonArray list;
    for (const CaseResult& r : cases) {
        QJsonArray findings;
        for (const ConformanceFinding& f : r.judgement.findings)
            findings << findingJson(f);
        QJsonArray notes;
        for (const ConformanceFinding& f : r.judgement.notes)
            notes << findingJson(f);
        QJsonObject o { { u"case"_s, r.suiteCase.name }, { u"description"_s, r.suiteCase.description },
            { u"verdict"_s, !r.startError.isEmpty() ? u"error"_s : r.judgement.conforms() ? u"pass"_s : u"fail"_s },
            { u"attempts"_s, attemptsJson(r) }, { u"findings"_s, findings }, { u"notes"_s, notes },
            { u"elapsed_ms"_s, qint64(r.elapsed.count()) }, { u"timed_out"_s, r.timedOut } };
        if (!r.suiteCase.method.isEmpty())
            o.insert(u"method"_s, r.suiteCase.method);
        if (r.run.exitCode)
            o.insert(u"exit"_s, *r.run.exitCode);
        if (!r.startError.isEmpty())
            o.insert(u"error"_s, r.startError);
        if (r.judgement.calls)
            o.insert(u"calls"_s, callsJson(*r.judgement.calls));
        list << o;
    }
    QJsonObject o { { u"format"_s, u"retrylab-conform-report"_s }, { u"version"_s, 1 }, { u"suite"_s, suite },
        { u"policy"_s, policy }, { u"tolerance"_s, QJsonObject { { u"early_ms"_s, qint64(tolerance.early.count()) },
                                     { u"late_ms"_s, qint64(tolerance.late.count()) }, { u"ratio"_s, tolerance.ratio } } },
        { u"cases"_s, list }, { u"passed"_s, int(cases.size()) - failed() - errors() }, { u"failed"_s, failed() },
        { u"errors"_s, errors() }, { u"summary"_s, summary() } };
    if (!command.isEmpty())
        o.insert(u"command"_s, QJsonArray::fromStringList(command));
    if (!policyChanges.isEmpty())
        o.insert(u"policy_changes"_s, policyChanges.toJson());
    if (startedUtc.isValid())
        o.insert(u"started"_s, startedUtc.toString(Qt::ISODateWithMs));
    return o;
}

QByteArray ConformanceReport::toJUnit() const
{
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    Millis total { 0 };
    for (const CaseResult& r : cases)
        total += r.elapsed;
    const QString suiteName = tr("retrylab conform: %1 against %2").arg(suite, policy);
    w.writeStartElement(u"testsuites"_s);
    w.writeAttribute(u"name"_s, suiteName);
    w.writeAttribute(u"tests"_s, QString::number(cases.size()));
    w.writeAttribute(u"failures"_s, QString::number(failed()));
    w.writeAttribute(u"errors"_s, QString::number(errors()));
    w.writeAttribute(u"time"_s, seconds(total));
    w.writeStartElement(u"testsuite"_s);
    w.writeAttribute(u"name"_s, suiteName);
    w.writeAttribute(u"tests"_s, QString::number(cases.size()));
    w.writeAttribute(u"failures"_s, QString::number(failed()));
    w.writeAttribute(u"errors"_s, QString::number(errors()));
    w.writeAttribute(u"skipped"_s, u"0"_s);
    w.writeAttribute(u"time"_s, seconds(total));
    w.writeAttribute(u"timestamp"_s, (startedUtc.isValid() ? startedUtc : QDateTime::currentDateTimeUtc()).toString(u"yyyy-MM-ddTHH:mm:ss"_s));
    w.writeAttribute(u"hostname"_s, u"localhost"_s);
    w.writeStartElement(u"properties"_s);
    const auto property = [&w](const QString& name, const QString& value) {
        w.writeStartElement(u"property"_s);
        w.writeAttribute(u"name"_s, name);
        w.writeAttribute(u"value"_s, value);
        w.writeEndElement();
    };
    property(u"policy"_s, policy);
    if (!policyChanges.isEmpty())
        property(u"policy_changes"_s, policyChanges.text());
    property(u"suite"_s, suite);
    property(u"tolerance"_s, tolerance.describe());
    if (!command.isEmpty())
        property(u"command"_s, command.join(u' '));
    w.writeEndElement(); // properties
    const QString className = u"retrylab.conform."_s + QString(suite).replace(u' ', u'_');
    for (const CaseResult& r : cases) {
        w.writeStartElement(u"testcase"_s);
        w.writeAttribute(u"name"_s, r.suiteCase.name);
        w.writeAttribute(u"classname"_s, className);
        w.writeAttribute(u"time"_s, seconds(r.elapsed));
        if (!r.startError.isEmpty()) {
            w.writeStartElement(u"error"_s);
            w.writeAttribute(u"message"_s, r.startError);
            w.writeAttribute(u"type"_s, u"not-run"_s);
            w.writeCharacters(r.startError);
            w.writeEndElement();
        } else if (!r.judgement.conforms()) {
            QStringList sentences;
            for (const ConformanceFinding& f : r.judgement.findings)
                sentences << f.sentence();
            w.writeStartElement(u"failure"_s);
            w.writeAttribute(u"message"_s, sentences.first());
            w.writeAttribute(u"type"_s, findingRuleName(r.judgement.findings.first().rule));
            w.writeCharacters(sentences.join(u'\n'));
            w.writeEndElement();
        }
        QStringList out;
        if (r.judgement.calls)
            out << callsText(*r.judgement.calls);
        for (const AttemptJudgement& j : r.judgement.attempts)
            out << tr("attempt %1: %2").arg(j.index).arg(j.answer);
        for (const ConformanceFinding& f : r.judgement.notes)
            out << tr("note: %1").arg(f.sentence());
        if (!out.isEmpty()) {
            w.writeStartElement(u"system-out"_s);
            w.writeCharacters(out.join(u'\n'));
            w.writeEndElement();
        }
        if (!r.output.isEmpty()) {
            w.writeStartElement(u"system-err"_s);
            QString text = QString::fromUtf8(r.output);
            // XML 1.0 has no place for most control characters: they are shown as U+FFFD.
            for (QChar& c : text) {
                if (c.unicode() < 0x20 && c != u'\n' && c != u'\t' && c != u'\r')
                    c = QChar(0xFFFD);
            }
            w.writeCharacters(text);
            w.writeEndElement();
        }
        w.writeEndElement(); // testcase
    }
    w.writeEndElement(); // testsuite
    w.writeEndElement(); // testsuites
    w.writeEndDocument();
    return xml;
}
