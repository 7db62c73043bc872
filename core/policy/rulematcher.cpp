// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/rulematcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <algorithm>

namespace {

bool statusInAny(int status, const QList<StatusRange>& ranges)
{
    return std::any_of(ranges.begin(), ranges.end(), [status](const StatusRange& r) { return r.contains(status); });
}

bool headerMatches(const HeaderMatch& match, const HttpHeaderList& headers)
{
    const QList<QByteArray> values = headerValues(headers, match.name.toLatin1());
    if (match.absent)
        return values.isEmpty();
    if (values.isEmpty())
        return false;
    if (match.values.isEmpty())
        return true;
    for (const QByteArray& value : values) {
        const QString text = QString::fromLatin1(value).trimmed();
        for (const QString& wanted : match.values) {
            if (text.compare(wanted, Qt::CaseInsensitive) == 0)
                return true;
        }
    }
    return false;
}

} // namespace

std::optional<QString> jsonBodyValue(const QByteArray& body, const QString& path)
{
    QJsonParseError error {};
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || document.isNull())
        return std::nullopt;
    QJsonValue current = document.isObject() ? QJsonValue(document.object()) : QJsonValue(document.array());
    // Steps: name, name[3], [3]; separated by dots.
    qsizetype i = 0;
    const qsizetype n = path.size();
    while (i < n) {
        if (path.at(i) == QLatin1Char('.')) {
            ++i;
            continue;
        }
        if (path.at(i) == QLatin1Char('[')) {
            const qsizetype close = path.indexOf(QLatin1Char(']'), i);
            if (close < 0)
                return std::nullopt;
            bool ok = false;
            const int index = QStringView(path).mid(i + 1, close - i - 1).toInt(&ok);
            if (!ok || !current.isArray() || index < 0 || index >= current.toArray().size())
                return std::nullopt;
            current = current.toArray().at(index);
            i = close + 1;
            continue;
        }
        qsizetype end = i;
        while (end < n && path.at(end) != QLatin1Char('.') && path.at(end) != QLatin1Char('['))
            ++end;
        const QString key = path.mid(i, end - i);
        if (!current.isObject() || !current.toObject().contains(key))
            return std::nullopt;
        current = current.toObject().value(key);
        i = end;
    }
    switch (current.type()) {
    case QJsonValue::String:
        return current.toString();
    case QJsonValue::Double:
        return QString::number(current.toDouble(), 'g', 17);
    case QJsonValue::Bool:
        return current.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    default:
        return std::nullopt;
    }
}

bool conditionMatches(const RuleCondition& when, const RequestFacts& request, const AttemptOutcome& outcome)
{
    const bool isError = outcome.isError();
    if ((when.outcome == OutcomeKind::CircuitOpen) != outcome.circuitOpen && when.outcome != OutcomeKind::Any)
        return false;
    if (when.outcome == OutcomeKind::Status && isError)
        return false;
    if (when.outcome == OutcomeKind::Error && !isError)
        return false;
    if (!when.methods.isEmpty() && !when.methods.contains(request.method.toUpper()))
        return false;
    if (when.idempotencyKey && *when.idempotencyKey != request.hasIdempotencyKey)
        return false;
    if (!when.statuses.isEmpty()) {
        if (isError || !outcome.status || !statusInAny(*outcome.status, when.statuses))
            return false;
    }
    if (!when.errors.isEmpty()) {
        if (!isError || !when.errors.contains(*outcome.error))
            return false;
    }
    if (when.serverCouldHaveActed) {
        // An HTTP answer proves the server saw the request; an error class says whether it could have; a call
        // the breaker refused never left.
        const bool couldHave = outcome.circuitOpen ? false : isError ? errorClassServerCouldHaveActed(*outcome.error) : true;
        if (couldHave != *when.serverCouldHaveActed)
            return false;
    }
    if (when.body) {
        if (isError || outcome.circuitOpen)
            return false;
        const std::optional<QString> value = jsonBodyValue(outcome.body, when.body->path);
        if (!value)
            return false;
        if (!when.body->values.isEmpty() && !when.body->values.contains(*value))
            return false;
    }
    for (const HeaderMatch& header : when.headers) {
        if (!headerMatches(header, outcome.headers))
            return false;
    }
    if (when.afterLostAnswer && *when.afterLostAnswer != request.answerLostEarlier)
        return false;
    return true;
}

const RetryRule* firstMatchingRule(const RetryPolicy& policy, const RequestFacts& request, const AttemptOutcome& outcome)
{
    for (const RetryRule& rule : policy.rules) {
        if (conditionMatches(rule.when, request, outcome))
            return &rule;
    }
    return nullptr;
}
