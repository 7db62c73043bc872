// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/curlencoding.h"

namespace CurlEncoding {

QByteArray formEncode(QByteArrayView bytes)
{
    static const char hex[] = "0123456789ABCDEF";
    QByteArray out;
    out.reserve(bytes.size() * 3);
    for (const char ch : bytes) {
        const auto c = uchar(ch);
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
            || c == '_' || c == '~') {
            out += char(c);
        } else if (c == ' ') {
            out += '+';
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

QByteArray dataUrlencode(const QString& argument, const FileReader& readFile, QString* error)
{
    const qsizetype at = argument.indexOf(QLatin1Char('@'));
    const qsizetype eq = argument.indexOf(QLatin1Char('='));
    // The first of '=' and '@' decides: "name=content" or "name@file".
    if (eq >= 0 && (at < 0 || eq < at)) {
        const QString name = argument.left(eq);
        const QByteArray encoded = formEncode(argument.mid(eq + 1).toUtf8());
        return name.isEmpty() ? encoded : name.toUtf8() + '=' + encoded;
    }
    if (at >= 0) {
        const QString name = argument.left(at);
        const QByteArray bytes = readFile(argument.mid(at + 1), error);
        if (error && !error->isEmpty())
            return {};
        const QByteArray encoded = formEncode(bytes);
        return name.isEmpty() ? encoded : name.toUtf8() + '=' + encoded;
    }
    return formEncode(argument.toUtf8());
}

} // namespace CurlEncoding
