// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/attemptdetailpane.h"

#include "run/answerwords.h"
#include "run/attemptstablemodel.h"

#include "engine/attemptrecord.h"
#include "http/secretheaders.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype kBodyShown = 4096;

QString esc(const QString& text)
{
    return text.toHtmlEscaped();
}

QString headerRow(const QByteArray& name, const QByteArray& value, bool secret)
{
    const QString shown = secret ? AttemptDetailPane::tr("••• (redacted)") : QString::fromLatin1(value);
    return u"<tr><td style='padding-right:12px'><b>%1</b></td><td>%2</td></tr>"_s.arg(esc(QString::fromLatin1(name)), esc(shown));
}

QString section(const QString& title)
{
    return u"<h3 style='margin-top:10px;margin-bottom:4px'>%1</h3>"_s.arg(esc(title));
}

// The answer: its words, timing and connection, the response headers and a body excerpt.
QString answerHtml(const AttemptRecord& a)
{
    QString html;
    html += section(AttemptDetailPane::tr("Answer"));
    QStringList answer;
    answer << AnswerWords::answer(a);
    if (a.duration())
        answer << AttemptDetailPane::tr("took %1 ms").arg(toMs(*a.duration()), 0, 'f', 1);
    if (const QString transport = AnswerWords::transportError(a); !transport.isEmpty() && !AnswerWords::answer(a).contains(transport))
        answer << AttemptDetailPane::tr("transport: %1").arg(transport);
    answer << (a.connectionReused ? AttemptDetailPane::tr("connection reused") : AttemptDetailPane::tr("new connection"));
    if (const QString waited = AnswerWords::verdictWait(a); !waited.isEmpty())
        answer << waited;
    html += u"<p>%1</p>"_s.arg(esc(answer.join(u" · "_s)));
    if (!a.responseHeaders.isEmpty()) {
        html += u"<table cellspacing='0'>"_s;
        for (const auto& [name, value] : a.responseHeaders)
            html += headerRow(name, value, ::isSecretHeader(name));
        html += u"</table>"_s;
    }
    if (!a.bodyExcerpt.isEmpty()) {
        const QString body = QString::fromUtf8(a.bodyExcerpt.left(kBodyShown));
        const bool cut = a.bodyExcerpt.size() > kBodyShown || a.bodyExcerptTruncated;
        html += u"<pre style='white-space:pre-wrap'>%1%2</pre>"_s.arg(esc(body), cut ? esc(AttemptDetailPane::tr("\n… (cut)")) : QString());
    }
    return html;
}

} // namespace

AttemptDetailPane::AttemptDetailPane(QWidget* parent)
    : QTextBrowser(parent)
{
    setOpenLinks(false);
    setLineWrapMode(QTextEdit::WidgetWidth);
    showNothing();
}

void AttemptDetailPane::showNothing()
{
    setHtml(u"<p><i>%1</i></p>"_s.arg(esc(tr("Select an attempt to see its request, its answer and why the policy "
                                              "decided what it did."))));
}

void AttemptDetailPane::showAttempt(const AttemptRecord& a, const HedgeWords::CopyContext& copy)
{
    QString html;
    html += u"<h2 style='margin-bottom:2px'>%1</h2>"_s.arg(esc(tr("Run %1, attempt %2").arg(a.runId).arg(a.index)));
    html += u"<p>%1</p>"_s.arg(esc(a.method + u' ' + a.url.toDisplayString()));

    if (a.hedge) {
        // A copy of a hedged request: which one, why it went, how it ended. Its copies overlap in time.
        html += section(tr("Hedged copy"));
        html += u"<p><b>%1</b></p>"_s.arg(esc(HedgeWords::label(a, copy)));
        QString about = HedgeWords::sentence(a, copy) + u'.';
        if (a.hedge->won)
            about += u' ' + tr("Its answer became the request's result.");
        html += u"<p>%1</p>"_s.arg(esc(about));
    }

    if (a.refused) {
        // Never sent: what refused it comes first, and there is no answer or connection to show.
        html += section(tr("Not sent"));
        const StrategyRefusal& r = *a.refused;
        const QString when = a.at.finished ? tr("%1 s").arg(toMs(*a.at.finished) / 1000.0, 0, 'f', 3) : QString();
        const QString why = r.by == StrategyRefusal::By::RateLimiter
            ? tr("The pipeline's limiter had no permit free and no room in its queue at %1: the call never reached "
                 "the wire (no connection, no status, no answer).").arg(when)
            : r.scope == u"client"_s
            ? tr("The client's circuit breaker was %1 at %2: it refused the call, which never reached the wire "
                 "(no connection, no status, no answer).").arg(stateName(r.state), when)
            : tr("The circuit breaker guarding %1 was %2 at %3: it refused the call, which never reached the wire "
                 "(no connection, no status, no answer).").arg(r.scope, stateName(r.state), when);
        html += u"<p><b>%1</b></p><p>%2</p>"_s.arg(esc(AnswerWords::notSent(a)), esc(why));
        if (const QString waited = AnswerWords::verdictWait(a); !waited.isEmpty())
            html += u"<p>%1</p>"_s.arg(esc(tr("Before that it %1.").arg(waited)));
    }

    if (a.observed) {
        html += section(tr("Observed"));
        html += u"<p><b>%1</b></p><p>%2</p>"_s.arg(esc(AnswerWords::observedReason(a)),
            esc(tr("A client's own attempt, as the lab saw it: Retrylab decided nothing.")));
    } else {
        html += section(tr("Decision"));
        if (a.decision) {
            const RetryDecision& d = *a.decision;
            QStringList facts;
            facts << tr("Verdict: %1").arg(verdictName(d.verdict));
            if (d.verdict == Verdict::Retry) {
                facts << tr("Wait %1 (could have been %2 – %3), set by %4")
                             .arg(formatMillis(d.delay), formatMillis(d.delayLow), formatMillis(d.delayHigh),
                                 d.hintHeader.isEmpty() ? delaySourceName(d.source) : d.hintHeader);
            } else if (d.finalKind != FinalKind::None) {
                facts << tr("Outcome: %1").arg(finalKindName(d.finalKind));
            }
            if (d.serverAskedFor)
                facts << tr("The server asked for %1").arg(formatMillis(*d.serverAskedFor));
            if (!d.ruleName.isEmpty())
                facts << tr("Rule: %1").arg(d.ruleName);
            html += u"<p><b>%1</b></p><p>%2</p>"_s.arg(esc(d.reason), esc(facts.join(u" · "_s)));
            if (const QString unread = AnswerWords::unreadRetryAfter(a); !unread.isEmpty())
                html += u"<p><i>%1</i></p>"_s.arg(esc(unread));
        } else if (HedgeWords::isLost(a)) {
            html += u"<p>%1</p>"_s.arg(esc(tr("Lost: %1.").arg(HedgeWords::lostReason(a, copy))));
        } else {
            html += u"<p>%1</p>"_s.arg(esc(tr("The run was cancelled during this attempt; nothing was decided.")));
        }
    }

    if (!a.refused) // nothing came back from a call never sent
        html += answerHtml(a);

    html += section(a.refused ? tr("Request (never sent)") : tr("Request as sent"));
    QStringList sent;
    sent << tr("%n body byte(s)", nullptr, int(a.bodySize));
    if (!a.idempotencyKey.isEmpty())
        sent << tr("idempotency key %1").arg(a.idempotencyKey);
    if (!a.attemptId.isEmpty())
        sent << tr("attempt id %1").arg(a.attemptId);
    html += u"<p>%1</p>"_s.arg(esc(sent.join(u" · "_s)));
    if (!a.requestHeaders.isEmpty()) {
        html += u"<table cellspacing='0'>"_s;
        for (const SentHeader& h : a.requestHeaders)
            html += headerRow(h.name, h.value, h.secret || ::isSecretHeader(h.name));
        html += u"</table>"_s;
    }
    setHtml(html);
}
