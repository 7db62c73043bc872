// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/ratelimitvalue.h"

#include "http/httpdate.h"

#include <algorithm>
#include <cmath>

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }

QByteArrayView trimmed(QByteArrayView text)
{
    qsizetype begin = 0;
    qsizetype end = text.size();
    while (begin < end && (text.at(begin) == ' ' || text.at(begin) == '\t'))
        ++begin;
    while (end > begin && (text.at(end - 1) == ' ' || text.at(end - 1) == '\t'))
        --end;
    return text.sliced(begin, end - begin);
}

constexpr double kEpochSecondsThreshold = 1e9;
constexpr double kEpochMillisecondsThreshold = 1e12;

double nowSeconds(const QDateTime& now) { return double(now.toMSecsSinceEpoch()) / 1000.0; }

QString unknownNow(const QString& field, const QString& raw)
{
    return QStringLiteral("%1 %2 is a point in time, and when the answer came is not known; reset left unknown")
        .arg(field, raw);
}

} // namespace

std::optional<qint64> parseRateLimitInteger(QByteArrayView text)
{
    const QByteArrayView value = trimmed(text);
    if (value.isEmpty() || value.size() > 18)
        return std::nullopt;
    qint64 result = 0;
    for (const char c : value) {
        if (!isDigit(c))
            return std::nullopt;
        result = result * 10 + (c - '0');
    }
    return result;
}

std::optional<double> parseRateLimitDecimal(QByteArrayView text)
{
    const QByteArrayView value = trimmed(text);
    const qsizetype dot = value.indexOf('.');
    const QByteArrayView whole = dot < 0 ? value : value.first(dot);
    const QByteArrayView fraction = dot < 0 ? QByteArrayView() : value.sliced(dot + 1);
    if (whole.isEmpty() || whole.size() > 18 || (dot >= 0 && (fraction.isEmpty() || fraction.size() > 18)))
        return std::nullopt;
    for (const char c : whole) {
        if (!isDigit(c))
            return std::nullopt;
    }
    for (const char c : fraction) {
        if (!isDigit(c))
            return std::nullopt;
    }
    bool ok = false;
    const double result = value.toByteArray().toDouble(&ok);
    return ok ? std::optional<double>(result) : std::nullopt;
}

std::optional<double> parseGoDuration(QByteArrayView text)
{
    const QByteArrayView value = trimmed(text);
    if (value == "0")
        return 0.0;
    if (value.isEmpty())
        return std::nullopt;
    double total = 0;
    qsizetype pos = 0;
    while (pos < value.size()) {
        const qsizetype numberStart = pos;
        while (pos < value.size() && (isDigit(value.at(pos)) || value.at(pos) == '.'))
            ++pos;
        const std::optional<double> number = parseRateLimitDecimal(value.sliced(numberStart, pos - numberStart));
        if (!number)
            return std::nullopt;
        const qsizetype unitStart = pos;
        while (pos < value.size() && !isDigit(value.at(pos)) && value.at(pos) != '.')
            ++pos;
        const QByteArrayView unit = value.sliced(unitStart, pos - unitStart);
        double scale = 0;
        if (unit == "h")
            scale = 3600;
        else if (unit == "m")
            scale = 60;
        else if (unit == "s")
            scale = 1;
        else if (unit == "ms")
            scale = 1e-3;
        else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs") // us, µs (micro sign or mu)
            scale = 1e-6;
        else if (unit == "ns")
            scale = 1e-9;
        else
            return std::nullopt;
        total += *number * scale;
    }
    return std::isfinite(total) ? std::optional<double>(total) : std::nullopt;
}

ResetReading readRateLimitReset(QByteArrayView text, ResetUnit unit, const QDateTime& now, const QString& field)
{
    ResetReading reading;
    const std::optional<double> number = parseRateLimitDecimal(text);
    const QByteArrayView shown = trimmed(text);
    const QString raw = QString::fromLatin1(shown.first(std::min<qsizetype>(shown.size(), 64)));
    if (!number) {
        if (unit == ResetUnit::Unstated) {
            // An RFC 850 date needs NOW for its year; the other two forms read without it.
            const HttpDate date = parseHttpDate(text, now.isValid() ? now : QDateTime::fromSecsSinceEpoch(0, Qt::UTC));
            if (date.isValid()) {
                reading.absolute = true;
                if (!now.isValid()) {
                    reading.note = unknownNow(field, raw);
                    return reading;
                }
                reading.seconds = std::max(0.0, double(now.msecsTo(date.dateTime)) / 1000.0);
                reading.note = QStringLiteral("%1 \"%2\" read as an HTTP-date").arg(field, raw);
                return reading;
            }
        }
        reading.note = QStringLiteral("%1 \"%2\" ignored: not a number").arg(field, raw);
        return reading;
    }
    const double value = *number;
    bool epoch = unit == ResetUnit::EpochSeconds;
    double scale = 1.0;
    const bool contradicts = (unit == ResetUnit::DelaySeconds && value > kEpochSecondsThreshold)
        || (unit == ResetUnit::EpochSeconds && (value < kEpochSecondsThreshold || value > kEpochMillisecondsThreshold));
    if (unit == ResetUnit::Unstated || contradicts) {
        reading.guessed = true;
        epoch = value > kEpochSecondsThreshold;
        if (value > kEpochMillisecondsThreshold)
            scale = 1e-3;
        const QString unitText = value > kEpochMillisecondsThreshold
            ? QStringLiteral("epoch milliseconds")
            : (epoch ? QStringLiteral("epoch seconds") : QStringLiteral("seconds from now"));
        reading.note = QStringLiteral("%1 %2 read as %3 (magnitude heuristic%4)")
                           .arg(field, raw, unitText,
                               contradicts ? QStringLiteral(": the value contradicts the dialect's unit")
                                           : QStringLiteral(": the dialect does not define the unit"));
    }
    reading.absolute = epoch;
    if (epoch && !now.isValid()) {
        reading.note = unknownNow(field, raw);
        return reading;
    }
    double seconds = epoch ? value * scale - nowSeconds(now) : value * scale;
    if (seconds < 0) {
        if (reading.note.isEmpty())
            reading.note = QStringLiteral("%1 %2 is in the past; read as 0").arg(field, raw);
        seconds = 0;
    }
    reading.seconds = seconds;
    return reading;
}

std::optional<QByteArray> rateLimitSingleton(const HttpHeaderList& headers, QByteArrayView name, bool* conflict)
{
    const QList<QByteArray> values = headerValues(headers, name);
    if (values.isEmpty())
        return std::nullopt;
    for (const QByteArray& value : values) {
        if (trimmed(value) != trimmed(values.first())) {
            if (conflict)
                *conflict = true;
            return std::nullopt;
        }
    }
    return values.first();
}
