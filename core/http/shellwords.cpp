// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/shellwords.h"

#include <QCoreApplication>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ShellWords", text);
}

int hexValue(QChar c)
{
    if (c >= u'0' && c <= u'9')
        return c.unicode() - u'0';
    if (c >= u'a' && c <= u'f')
        return c.unicode() - u'a' + 10;
    if (c >= u'A' && c <= u'F')
        return c.unicode() - u'A' + 10;
    return -1;
}

// Reads up to MAX hex digits at TEXT[*i]; -1 when there is none.
int readHex(QStringView text, qsizetype* i, int max)
{
    int value = -1;
    for (int n = 0; n < max && *i < text.size(); ++n) {
        const int d = hexValue(text.at(*i));
        if (d < 0)
            break;
        value = (value < 0 ? 0 : value * 16) + d;
        ++*i;
    }
    return value;
}

// One escape of $'…' after the backslash at TEXT[*i - 1]; bytes (\xHH) go to BYTES so that a UTF-8
// sequence written as \xC3\xA9 decodes as one character.
void ansiEscape(QStringView text, qsizetype* i, QString* word, QByteArray* bytes)
{
    const auto flush = [&] {
        if (!bytes->isEmpty())
            *word += QString::fromUtf8(std::exchange(*bytes, QByteArray()));
    };
    if (*i >= text.size()) {
        flush();
        *word += u'\\';
        return;
    }
    const QChar c = text.at((*i)++);
    if (c == u'x') {
        const int v = readHex(text, i, 2);
        if (v >= 0) {
            *bytes += char(v);
            return;
        }
        flush();
        *word += u"\\x";
        return;
    }
    flush();
    switch (c.unicode()) {
    case 'n': *word += u'\n'; return;
    case 't': *word += u'\t'; return;
    case 'r': *word += u'\r'; return;
    case 'a': *word += QChar(7); return;
    case 'b': *word += QChar(8); return;
    case 'e': case 'E': *word += QChar(27); return;
    case 'f': *word += QChar(12); return;
    case 'v': *word += QChar(11); return;
    case '\\': case '\'': case '"': case '?': *word += c; return;
    case 'u': case 'U': {
        const int v = readHex(text, i, c == u'u' ? 4 : 8);
        if (v >= 0) {
            const char32_t cp = char32_t(v);
            *word += QString::fromUcs4(&cp, 1);
        } else {
            *word += u'\\';
            *word += c;
        }
        return;
    }
    default:
        if (c >= u'0' && c <= u'7') { // up to three octal digits
            int v = c.unicode() - u'0';
            for (int n = 0; n < 2 && *i < text.size() && text.at(*i) >= u'0' && text.at(*i) <= u'7'; ++n)
                v = v * 8 + (text.at((*i)++).unicode() - u'0');
            *bytes += char(v & 0xff);
            return;
        }
        *word += u'\\';
        *word += c;
    }
}

} // namespace

namespace ShellWords {

Result split(QStringView text)
{
    Result out;
    QString word;
    bool inWord = false;
    qsizetype i = 0;
    const auto endWord = [&] {
        if (inWord)
            out.words << word;
        word.clear();
        inWord = false;
    };
    while (i < text.size()) {
        const QChar c = text.at(i++);
        if (c == u'\\') {
            if (i >= text.size()) {
                inWord = true;
                word += c;
            } else if (text.at(i) == u'\n') {
                ++i; // line continuation
            } else if (text.at(i) == u'\r' && i + 1 < text.size() && text.at(i + 1) == u'\n') {
                i += 2;
            } else {
                word += text.at(i++);
                inWord = true;
            }
        } else if (c == u'\'') {
            const qsizetype close = text.indexOf(u'\'', i);
            if (close < 0) {
                out.error = tr("a single quote is not closed");
                return out;
            }
            word += text.mid(i, close - i);
            i = close + 1;
            inWord = true;
        } else if (c == u'$' && i < text.size() && text.at(i) == u'\'') {
            ++i;
            QByteArray bytes;
            bool closed = false;
            while (i < text.size()) {
                const QChar d = text.at(i++);
                if (d == u'\'') {
                    closed = true;
                    break;
                }
                if (d == u'\\') {
                    ansiEscape(text, &i, &word, &bytes);
                } else {
                    if (!bytes.isEmpty())
                        word += QString::fromUtf8(std::exchange(bytes, QByteArray()));
                    word += d;
                }
            }
            if (!bytes.isEmpty())
                word += QString::fromUtf8(bytes);
            if (!closed) {
                out.error = tr("a $'…' quote is not closed");
                return out;
            }
            inWord = true;
        } else if (c == u'"') {
            bool closed = false;
            while (i < text.size()) {
                const QChar d = text.at(i++);
                if (d == u'"') {
                    closed = true;
                    break;
                }
                if (d == u'\\' && i < text.size()) {
                    const QChar e = text.at(i);
                    if (e == u'\n') {
                        ++i;
                        continue;
                    }
                    if (e == u'"' || e == u'\\' || e == u'$' || e == u'`') {
                        word += e;
                        ++i;
                        continue;
                    }
                }
                word += d;
            }
            if (!closed) {
                out.error = tr("a double quote is not closed");
                return out;
            }
            inWord = true;
        } else if (c.isSpace()) {
            endWord();
        } else {
            word += c;
            inWord = true;
        }
    }
    endWord();
    return out;
}

} // namespace ShellWords
