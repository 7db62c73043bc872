// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/jsontext.h"

#include <cmath>
#include <cstdlib>

namespace JsonText {

void string(QByteArray& out, QByteArrayView s)
{
    static const char hex[] = "0123456789abcdef";
    out += '"';
    qsizetype start = 0;
    for (qsizetype i = 0; i < s.size(); ++i) {
        const uchar c = uchar(s[i]);
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        out.append(s.data() + start, i - start);
        start = i + 1;
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default: {
            const char esc[] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            out.append(esc, 6);
        }
        }
    }
    out.append(s.data() + start, s.size() - start);
    out += '"';
}

void key(QByteArray& out, const char* name, bool& first)
{
    if (!first)
        out += ',';
    first = false;
    out += '"';
    out += name;
    out += "\":";
}

void integer(QByteArray& out, qint64 v)
{
    out += QByteArray::number(v);
}

void millisFromNs(QByteArray& out, qint64 ns)
{
    if (ns < 0) {
        out += '-';
        ns = -ns;
    }
    out += QByteArray::number(ns / 1000000);
    qint64 frac = ns % 1000000;
    if (!frac)
        return;
    char digits[7] = { '0', '0', '0', '0', '0', '0', 0 };
    for (int i = 5; i >= 0; --i) {
        digits[i] = char('0' + frac % 10);
        frac /= 10;
    }
    int len = 6;
    while (len > 0 && digits[len - 1] == '0')
        --len;
    out += '.';
    out.append(digits, len);
}

void number(QByteArray& out, double v)
{
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    out += QByteArray::number(v, 'g', 17);
}

bool nsFromMillisText(QByteArrayView text, qint64* ns)
{
    // Exact for plain decimals (what we write); exponents fall back to strtod.
    qsizetype i = 0;
    bool negative = false;
    if (i < text.size() && text[i] == '-') {
        negative = true;
        ++i;
    }
    qint64 whole = 0;
    qint64 frac = 0;
    int fracDigits = 0;
    bool any = false;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, any = true)
        whole = whole * 10 + (text[i] - '0');
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            if (fracDigits < 6) {
                frac = frac * 10 + (text[i] - '0');
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
        *ns = qint64(std::llround(v * 1e6));
        return true;
    }
    if (!any)
        return false;
    while (fracDigits < 6) {
        frac *= 10;
        ++fracDigits;
    }
    const qint64 v = whole * 1000000 + frac;
    *ns = negative ? -v : v;
    return true;
}

} // namespace JsonText
