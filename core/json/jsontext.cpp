// SPDX-License-Identifier: GPL-3.0-or-later
#include "json/jsontext.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace JsonText {

void string(JsonSink& out, QByteArrayView s)
{
    static const char hex[] = "0123456789abcdef";
    qsizetype i = 0;
    for (; i < s.size(); ++i) {
        const uchar c = uchar(s[i]);
        if (c < 0x20 || c == '"' || c == '\\')
            break;
    }
    if (i == s.size()) { // nothing to escape: the usual case
        char* p = out.room(s.size() + 2);
        *p++ = '"';
        if (!s.isEmpty()) // an empty view may have a null data(): memcpy's arguments must not be null
            std::memcpy(p, s.data(), size_t(s.size()));
        p += s.size();
        *p++ = '"';
        out.commit(p);
        return;
    }
    out.append('"');
    qsizetype start = 0;
    for (; i < s.size(); ++i) {
        const uchar c = uchar(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(s.data() + start, i - start);
        start = i + 1;
        switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default: {
            const char esc[] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            out.append(esc, 6);
        }
        }
    }
    out.append(s.data() + start, s.size() - start);
    out.append('"');
}

void key(JsonSink& out, QByteArrayView name, bool& first)
{
    char* p = out.room(name.size() + 4);
    if (!first)
        *p++ = ',';
    first = false;
    *p++ = '"';
    std::memcpy(p, name.data(), size_t(name.size()));
    p += name.size();
    *p++ = '"';
    *p++ = ':';
    out.commit(p);
}

namespace {
// The decimal digits of V, written backwards from END; returns where they start.
char* digitsBackwards(char* end, quint64 v)
{
    do {
        *--end = char('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}
}

void integer(JsonSink& out, qint64 v)
{
    char buf[24];
    char* const end = buf + sizeof buf;
    const quint64 magnitude = v < 0 ? quint64(0) - quint64(v) : quint64(v);
    char* begin = digitsBackwards(end, magnitude);
    if (v < 0)
        *--begin = '-';
    out.append(begin, end - begin);
}

void unsignedInteger(JsonSink& out, quint64 v)
{
    char buf[24];
    char* const end = buf + sizeof buf;
    const char* begin = digitsBackwards(end, v);
    out.append(begin, end - begin);
}

void millisFromNs(JsonSink& out, qint64 ns)
{
    char buf[32];
    char* const end = buf + sizeof buf;
    const bool negative = ns < 0;
    const quint64 magnitude = negative ? quint64(0) - quint64(ns) : quint64(ns);
    char* fracEnd = end;
    quint64 frac = magnitude % 1000000;
    char* begin = end;
    if (frac) {
        while (frac % 10 == 0) { // trailing zeros cut
            frac /= 10;
            --fracEnd;
        }
        begin = end - 6;
        std::memset(begin, '0', size_t(end - begin));
        digitsBackwards(fracEnd, frac);
        *--begin = '.';
    }
    begin = digitsBackwards(begin, magnitude / 1000000);
    if (negative)
        *--begin = '-';
    out.append(begin, fracEnd - begin);
}

void number(JsonSink& out, double v)
{
    if (!std::isfinite(v)) {
        out.append("null");
        return;
    }
    out.append(QByteArrayView(QByteArray::number(v, 'g', 17)));
}

bool nsFromMillis(double ms, qint64* ns)
{
    const double scaled = std::round(ms * 1e6);
    // -2^63 and 2^63 are exact doubles: anything outside [-2^63, 2^63), and NaN, does not fit.
    if (!(scaled >= -9223372036854775808.0 && scaled < 9223372036854775808.0))
        return false;
    *ns = qint64(scaled);
    return true;
}

bool nsFromMillisText(QByteArrayView text, qint64* ns)
{
    // Exact for plain decimals (what we write); exponents fall back to strtod. A value beyond what qint64
    // nanoseconds hold (±9 223 372 036 854.775807 ms, about 292 years) is refused, never wrapped.
    constexpr quint64 kNsPerMs = 1000000;
    constexpr quint64 kMaxMagnitude = quint64(std::numeric_limits<qint64>::max()) + 1; // |qint64 min|
    qsizetype i = 0;
    bool negative = false;
    if (i < text.size() && text[i] == '-') {
        negative = true;
        ++i;
    }
    const quint64 limit = negative ? kMaxMagnitude : kMaxMagnitude - 1;
    quint64 whole = 0;
    quint64 frac = 0;
    int fracDigits = 0;
    bool any = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, any = true) {
        whole = whole * 10 + quint64(text[i] - '0');
        if (whole > limit / kNsPerMs)
            return false;
    }
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            if (fracDigits < 6) {
                frac = frac * 10 + quint64(text[i] - '0');
                ++fracDigits;
            }
        }
    }
    if (i != text.size()) {
        const QByteArray copy = text.toByteArray();
        char* end = nullptr;
        const double v = std::strtod(copy.constData(), &end);
        if (end != copy.constData() + copy.size())
            return false;
        return nsFromMillis(v, ns);
    }
    if (!any)
        return false;
    while (fracDigits < 6) {
        frac *= 10;
        ++fracDigits;
    }
    const quint64 magnitude = whole * kNsPerMs + frac;
    if (magnitude > limit)
        return false;
    *ns = negative ? qint64(quint64(0) - magnitude) : qint64(magnitude);
    return true;
}

} // namespace JsonText
