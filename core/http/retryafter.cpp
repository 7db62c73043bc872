// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/retryafter.h"

#include "http/httpdate.h"

#include <QList>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

// "[+-]1*DIGIT[.1*DIGIT]" split into its parts; nullopt for anything else.
struct Number
{
    char sign = 0; // 0, '+' or '-'
    QByteArrayView whole;
    QByteArrayView fraction; // empty when there was no '.'
};

std::optional<Number> splitNumber(QByteArrayView s)
{
    Number n;
    if (!s.isEmpty() && (s.front() == '+' || s.front() == '-')) {
        n.sign = s.front();
        s = s.sliced(1);
    }
    qsizetype i = 0;
    while (i < s.size() && isDigit(s[i]))
        ++i;
    if (i == 0)
        return std::nullopt;
    n.whole = s.first(i);
    if (i == s.size())
        return n;
    if (s[i] != '.' || i + 1 == s.size())
        return std::nullopt;
    n.fraction = s.sliced(i + 1);
    for (char c : n.fraction) {
        if (!isDigit(c))
            return std::nullopt;
    }
    return n;
}

// The magnitude of NUMBER in whole milliseconds, where one unit is UNIT_MS (1000 for seconds, 1 for
// milliseconds); the fraction below one millisecond is dropped. Saturates at kMaxHintDelay.
qint64 magnitudeMs(const Number& number, qint64 unitMs, bool* saturated)
{
    const qint64 limit = kMaxHintDelay.count();
    qint64 units = 0;
    for (char c : number.whole) {
        if (units > limit / 10) {
            *saturated = true;
            return limit;
        }
        units = units * 10 + (c - '0');
    }
    if (units > limit / unitMs) {
        *saturated = true;
        return limit;
    }
    qint64 ms = units * unitMs;
    // Fraction digits worth at least one millisecond: unitMs 1000 → three digits, unitMs 1 → none.
    qint64 place = unitMs / 10;
    for (qsizetype i = 0; i < number.fraction.size() && place > 0; ++i, place /= 10)
        ms += (number.fraction[i] - '0') * place;
    if (ms > limit) {
        *saturated = true;
        return limit;
    }
    return ms;
}

void markInvalid(RetryAfterValue& v, const QString& reason)
{
    v.delay.reset();
    v.conformant = false;
    v.form = u"invalid"_s;
    v.warnings << reason;
}

void readNumber(RetryAfterValue& v, const Number& n, HintValueFormat format)
{
    const bool retryAfter = format == HintValueFormat::RetryAfter;
    if (n.sign == '+') {
        markInvalid(v, u"a sign is not allowed"_s);
        return;
    }
    if (n.sign == '-' && retryAfter) {
        markInvalid(v, u"negative delay-seconds"_s);
        return;
    }
    const qint64 unitMs = format == HintValueFormat::Milliseconds ? 1 : 1000;
    const qint64 ms = magnitudeMs(n, unitMs, &v.saturated);
    v.delay = milliseconds(n.sign == '-' ? -ms : ms);
    v.conformant = n.fraction.isEmpty();
    if (!n.fraction.isEmpty()) {
        v.form = u"fraction"_s;
        v.warnings << (unitMs == 1 ? u"fractional milliseconds (read as whole milliseconds)"_s
                                   : u"fractional seconds (the grammar allows whole seconds only)"_s);
    } else {
        v.form = retryAfter ? u"delay-seconds"_s
                            : (format == HintValueFormat::Milliseconds ? u"milliseconds"_s : u"seconds"_s);
    }
    if (v.saturated)
        v.warnings << u"too large: saturated at %1 ms"_s.arg(kMaxHintDelay.count());
}

void readDate(RetryAfterValue& v, QByteArrayView text, const QDateTime& now)
{
    const HttpDate date = parseHttpDate(text, now);
    if (!date.isValid()) {
        markInvalid(v, u"neither delay-seconds nor an HTTP-date: %1"_s.arg(date.error));
        return;
    }
    if (!now.isValid()) {
        markInvalid(v, u"no reference time to measure the date from"_s);
        return;
    }
    v.form = httpDateFormName(date.form);
    v.conformant = date.conformant;
    v.warnings << date.warnings;
    qint64 ms = now.msecsTo(date.dateTime);
    if (ms <= 0) {
        v.past = true;
        ms = 0;
    } else if (ms > kMaxHintDelay.count()) {
        v.saturated = true;
        ms = kMaxHintDelay.count();
        v.warnings << u"too far ahead: saturated at %1 ms"_s.arg(kMaxHintDelay.count());
    }
    v.delay = milliseconds(ms);
}

} // namespace

RetryAfterValue parseHintValue(QByteArrayView value, HintValueFormat format, const QDateTime& now,
                               const QString& source)
{
    RetryAfterValue v;
    v.source = source;
    v.raw = value.toByteArray();
    qsizetype begin = 0, end = value.size();
    while (begin < end && isSpace(value[begin]))
        ++begin;
    while (end > begin && isSpace(value[end - 1]))
        --end;
    const QByteArrayView text = value.sliced(begin, end - begin);
    if (text.isEmpty()) {
        markInvalid(v, u"empty value"_s);
        return v;
    }
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u >= 0x7f) {
            markInvalid(v, u"control or non-ASCII byte in the value"_s);
            return v;
        }
    }
    if (const std::optional<Number> number = splitNumber(text)) {
        readNumber(v, *number, format);
    } else if (format == HintValueFormat::RetryAfter) {
        readDate(v, text, now);
    } else {
        markInvalid(v, format == HintValueFormat::Milliseconds ? u"not an integer number of milliseconds"_s
                                                               : u"not an integer number of seconds"_s);
    }
    return v;
}

std::optional<RetryAfterValue> parseHintHeader(const HttpHeaderList& headers, QByteArrayView name,
                                               HintValueFormat format, const QDateTime& now)
{
    const QList<QByteArray> values = headerValues(headers, name);
    if (values.isEmpty())
        return std::nullopt;
    const QString source = QString::fromLatin1(name.toByteArray().toLower());
    RetryAfterValue v = parseHintValue(values.first(), format, now, source);
    if (values.size() > 1) {
        bool same = true;
        for (const QByteArray& other : values)
            same = same && other.trimmed() == values.first().trimmed();
        if (same) {
            v.conformant = false;
            v.warnings << u"sent %1 times with the same value (a singleton field, RFC 9110 §5.5)"_s.arg(values.size());
        } else {
            markInvalid(v, u"sent %1 times with different values (a singleton field, RFC 9110 §5.5)"_s.arg(values.size()));
        }
    }
    return v;
}

std::optional<RetryAfterValue> parseRetryAfter(const HttpHeaderList& headers, const QDateTime& now)
{
    if (hasHeader(headers, "retry-after"))
        return parseHintHeader(headers, "retry-after", HintValueFormat::RetryAfter, now);
    std::optional<RetryAfterValue> v = parseHintHeader(headers, "retry-after-ms", HintValueFormat::Milliseconds, now);
    if (v && v->delay && v->delay->count() < 0)
        markInvalid(*v, u"negative retry-after-ms"_s);
    return v;
}
