// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/jsonreader.h"

#include <QCoreApplication>
#include <QJsonArray>

#include <cmath>
#include <limits>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RetryPolicy", text);
}

} // namespace

QString jsonTypeName(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("nothing");
}

JsonReader::JsonReader(QList<PolicyProblem>& problems, QString path, QJsonObject object)
    : m_problems(problems)
    , m_path(std::move(path))
    , m_object(std::move(object))
{
}

QString JsonReader::path(const QString& key) const
{
    return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
}

bool JsonReader::has(const QString& key) const
{
    return m_object.contains(key) && !m_object.value(key).isNull();
}

void JsonReader::touch(const QString& key)
{
    if (!m_known.contains(key))
        m_known << key;
}

void JsonReader::problem(const QString& key, const QString& message)
{
    m_problems << PolicyProblem { path(key), message };
}

JsonReader JsonReader::child(const QString& key)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    if (value.isObject())
        return JsonReader(m_problems, path(key), value.toObject());
    if (!value.isUndefined() && !value.isNull())
        problem(key, tr("must be an object, not %1").arg(jsonTypeName(value)));
    return JsonReader(m_problems, path(key), QJsonObject());
}

JsonReader JsonReader::element(const QString& key, qsizetype index, const QJsonObject& object)
{
    touch(key);
    return JsonReader(m_problems, path(key) + QStringLiteral("[%1]").arg(index), object);
}

QString JsonReader::string(const QString& key, const QString& fallback)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isString()) {
        problem(key, tr("must be a string, not %1").arg(jsonTypeName(value)));
        return fallback;
    }
    return value.toString();
}

bool JsonReader::boolean(const QString& key, bool fallback)
{
    return optionalBoolean(key).value_or(fallback);
}

std::optional<bool> JsonReader::optionalBoolean(const QString& key)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    if (!value.isBool()) {
        problem(key, tr("must be true or false, not %1").arg(jsonTypeName(value)));
        return std::nullopt;
    }
    return value.toBool();
}

double JsonReader::number(const QString& key, double fallback)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isDouble()) {
        problem(key, tr("must be a number, not %1").arg(jsonTypeName(value)));
        return fallback;
    }
    const double number = value.toDouble();
    if (!std::isfinite(number)) {
        problem(key, tr("must be a finite number"));
        return fallback;
    }
    return number;
}

int JsonReader::integer(const QString& key, int fallback)
{
    const double value = number(key, double(fallback));
    if (value != std::floor(value) || std::abs(value) > double(std::numeric_limits<int>::max())) {
        problem(key, tr("must be a whole number within ±2147483647, not %1").arg(value));
        return fallback;
    }
    return int(value);
}

std::optional<Millis> JsonReader::optionalMillis(const QString& key, std::optional<Millis> fallback)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined())
        return fallback;
    if (value.isNull())
        return std::nullopt;
    if (!value.isDouble()) {
        problem(key, tr("must be a number of milliseconds or null, not %1").arg(jsonTypeName(value)));
        return fallback;
    }
    const double ms = value.toDouble();
    // Keep negative and fractional values so validate() can name them; never clamp silently.
    if (!std::isfinite(ms) || std::abs(ms) > 1e15) {
        problem(key, tr("must be a finite number of milliseconds"));
        return fallback;
    }
    if (ms != std::floor(ms)) {
        problem(key, tr("must be whole milliseconds, not %1").arg(ms));
        return fallback;
    }
    return Millis(qint64(ms));
}

Millis JsonReader::millis(const QString& key, Millis fallback)
{
    touch(key);
    if (m_object.value(key).isNull()) {
        problem(key, tr("must be a number of milliseconds, not null"));
        return fallback;
    }
    return optionalMillis(key, fallback).value_or(fallback);
}

QStringList JsonReader::stringList(const QString& key, const QStringList& fallback)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isArray()) {
        problem(key, tr("must be an array of strings, not %1").arg(jsonTypeName(value)));
        return fallback;
    }
    QStringList list;
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isString()) {
            m_problems << PolicyProblem { path(key) + QStringLiteral("[%1]").arg(i),
                tr("must be a string, not %1").arg(jsonTypeName(array.at(i))) };
            continue;
        }
        list << array.at(i).toString();
    }
    return list;
}

QList<QJsonObject> JsonReader::objectList(const QString& key)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    QList<QJsonObject> list;
    if (value.isUndefined() || value.isNull())
        return list;
    if (!value.isArray()) {
        problem(key, tr("must be an array of objects, not %1").arg(jsonTypeName(value)));
        return list;
    }
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        if (!array.at(i).isObject()) {
            m_problems << PolicyProblem { path(key) + QStringLiteral("[%1]").arg(i),
                tr("must be an object, not %1").arg(jsonTypeName(array.at(i))) };
            list << QJsonObject();
            continue;
        }
        list << array.at(i).toObject();
    }
    return list;
}

QList<StatusRange> JsonReader::statusList(const QString& key)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    QList<StatusRange> ranges;
    if (value.isUndefined() || value.isNull())
        return ranges;
    if (!value.isArray()) {
        problem(key, tr("must be an array of status codes or ranges like \"500-599\""));
        return ranges;
    }
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QJsonValue entry = array.at(i);
        const QString itemPath = path(key) + QStringLiteral("[%1]").arg(i);
        std::optional<StatusRange> range;
        // Range-checked before the cast: [1e10] is "not a status code", not undefined behaviour.
        const double number = entry.toDouble();
        if (entry.isDouble() && number == std::floor(number) && std::abs(number) <= double(std::numeric_limits<int>::max()))
            range = StatusRange { int(number), int(number) };
        else if (entry.isString())
            range = parseStatusRange(entry.toString());
        if (!range) {
            m_problems << PolicyProblem { itemPath, tr("is not a status code or a range like \"500-599\"") };
            continue;
        }
        ranges << *range;
    }
    return ranges;
}

int JsonReader::choiceIndex(const QString& key, int fallback, const QStringList& names)
{
    touch(key);
    const QJsonValue value = m_object.value(key);
    if (value.isUndefined() || value.isNull())
        return fallback;
    const int index = value.isString() ? int(names.indexOf(value.toString())) : -1;
    if (index < 0) {
        problem(key, tr("must be one of %1").arg(names.join(QStringLiteral(", "))));
        return fallback;
    }
    return index;
}

void JsonReader::rejectUnknownKeys()
{
    for (auto it = m_object.constBegin(); it != m_object.constEnd(); ++it) {
        if (!m_known.contains(it.key()))
            problem(it.key(), tr("is not a known field"));
    }
}

std::optional<StatusRange> parseStatusRange(const QString& text)
{
    const QString trimmed = text.trimmed();
    const qsizetype dash = trimmed.indexOf(QLatin1Char('-'));
    bool okLow = false;
    bool okHigh = false;
    if (dash < 0) {
        const int status = trimmed.toInt(&okLow);
        if (!okLow)
            return std::nullopt;
        return StatusRange { status, status };
    }
    const int low = trimmed.left(dash).trimmed().toInt(&okLow);
    const int high = trimmed.mid(dash + 1).trimmed().toInt(&okHigh);
    if (!okLow || !okHigh)
        return std::nullopt;
    return StatusRange { low, high };
}

QString statusRangeText(const StatusRange& range)
{
    if (range.low == range.high)
        return QString::number(range.low);
    return QStringLiteral("%1-%2").arg(range.low).arg(range.high);
}
