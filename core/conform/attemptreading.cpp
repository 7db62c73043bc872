// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/attemptreading.h"

#include "policy/hintreader.h"
#include "policy/rulematcher.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("conform", text); }

bool isSafeMethod(const QString& method)
{
    static const QStringList safe { u"GET"_s, u"HEAD"_s, u"OPTIONS"_s, u"TRACE"_s };
    return safe.contains(method.toUpper());
}

// The response fields POLICY reads, Retry-After and retry-after-ms always.
QList<QByteArray> fieldsRead(const RetryPolicy& policy)
{
    QList<QByteArray> names { "Retry-After", "retry-after-ms" };
    const auto add = [&names](const QString& name) {
        const QByteArray latin = name.toLatin1();
        for (const QByteArray& known : std::as_const(names)) {
            if (known.compare(latin, Qt::CaseInsensitive) == 0)
                return;
        }
        names << latin;
    };
    for (const DelayHint& hint : policy.hints)
        add(hint.header);
    for (const RetryRule& rule : policy.rules) {
        for (const HeaderMatch& header : rule.when.headers)
            add(header.name);
    }
    return names;
}

QStringList bodyPathsRead(const RetryPolicy& policy)
{
    QStringList paths;
    for (const RetryRule& rule : policy.rules) {
        if (rule.when.body && !paths.contains(rule.when.body->path))
            paths << rule.when.body->path;
    }
    return paths;
}

} // namespace

QByteArray idempotencyKeyOf(const AttemptRecord& attempt, const QString& header)
{
    const QByteArray name = header.toLatin1();
    for (const SentHeader& sent : attempt.requestHeaders) {
        if (sent.name.compare(name, Qt::CaseInsensitive) == 0)
            return sent.value;
    }
    return attempt.idempotencyKey.toLatin1();
}

QString describeAnswer(const AttemptRecord& attempt, const RetryPolicy& policy)
{
    QString what;
    if (attempt.error)
        what = errorClassName(*attempt.error);
    else if (attempt.status)
        what = QString::number(*attempt.status);
    else
        what = tr("no answer");
    const QString method = attempt.method.toUpper();
    QString text = tr("%1 on %2").arg(what, method);
    if (!isSafeMethod(method)) {
        text += idempotencyKeyOf(attempt, policy.idempotency.header).isEmpty()
            ? tr(" without %1").arg(policy.idempotency.header)
            : tr(" with %1").arg(policy.idempotency.header);
    }
    QStringList facts;
    if (attempt.status) {
        for (const QByteArray& name : fieldsRead(policy)) {
            for (const auto& [field, value] : attempt.responseHeaders) {
                if (field.compare(name, Qt::CaseInsensitive) == 0)
                    facts << QString::fromLatin1(field) + u": "_s + QString::fromLatin1(value);
            }
        }
        for (const QString& path : bodyPathsRead(policy)) {
            if (const std::optional<QString> value = jsonBodyValue(attempt.bodyExcerpt, path))
                facts << path + u' ' + *value;
        }
    }
    if (!facts.isEmpty())
        text += u" ("_s + facts.join(u", "_s) + u')';
    return text;
}

bool waitSetByHttpDate(const AttemptRecord& attempt, const RetryPolicy& policy, const QDateTime& now)
{
    AttemptOutcome outcome;
    outcome.status = attempt.status;
    outcome.headers = attempt.responseHeaders;
    for (const DelayHint& hint : policy.hints) {
        if (hint.format != HintFormat::RetryAfter || !hintAppliesTo(hint, outcome))
            continue;
        const std::optional<RetryAfterValue> value = readDelayHint(hint, outcome, now);
        if (value && value->delay)
            return value->form == u"imf-fixdate"_s || value->form == u"rfc850"_s || value->form == u"asctime"_s;
    }
    return false;
}
