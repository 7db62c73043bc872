// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/curlcommand.h"

#include <QCoreApplication>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("CurlCommand", text);
}

// Shell-like word splitting; false when a quote is left open.
bool splitWords(const QString& text, QStringList* words)
{
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (!quote.isNull()) {
            if (c == quote) {
                quote = QChar();
            } else if (c == u'\\' && quote == u'"' && i + 1 < text.size()) {
                word += text.at(++i);
            } else {
                word += c;
            }
            continue;
        }
        if (c == u'\'' || c == u'"') {
            quote = c;
            inWord = true;
        } else if (c == u'\\' && i + 1 < text.size()) {
            const QChar next = text.at(++i);
            if (next != u'\n') {
                word += next;
                inWord = true;
            }
        } else if (c.isSpace()) {
            if (inWord)
                *words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        *words << word;
    return quote.isNull();
}

} // namespace

CurlCommand CurlCommand::parse(const QString& text)
{
    CurlCommand result;
    QStringList words;
    if (!splitWords(text.trimmed(), &words)) {
        result.error = tr("a quote is not closed");
        return result;
    }
    if (!words.isEmpty() && (words.first() == QLatin1String("curl") || words.first().endsWith(QLatin1String("/curl"))))
        words.removeFirst();
    static const QStringList withValue { u"-X"_s, u"--request"_s, u"-H"_s, u"--header"_s, u"-d"_s, u"--data"_s,
        u"--data-raw"_s, u"--data-binary"_s, u"--data-ascii"_s, u"--json"_s, u"--url"_s, u"-u"_s, u"--user"_s,
        u"-A"_s, u"--user-agent"_s, u"-o"_s, u"--output"_s, u"-m"_s, u"--max-time"_s, u"--connect-timeout"_s,
        u"-e"_s, u"--referer"_s, u"-b"_s, u"--cookie"_s };
    for (qsizetype i = 0; i < words.size(); ++i) {
        const QString& w = words.at(i);
        if (!w.startsWith(u'-')) {
            if (!result.url.isEmpty()) {
                result.error = tr("more than one URL: \"%1\"").arg(w);
                return result;
            }
            result.url = w;
            continue;
        }
        if (w == QLatin1String("-I") || w == QLatin1String("--head")) {
            result.method = u"HEAD"_s;
            continue;
        }
        if (!withValue.contains(w))
            continue; // flags that do not change the request (-s, -v, -L, -k, --compressed…)
        if (i + 1 >= words.size()) {
            result.error = tr("%1 needs a value").arg(w);
            return result;
        }
        const QString value = words.at(++i);
        if (w == QLatin1String("-X") || w == QLatin1String("--request")) {
            result.method = value.toUpper();
        } else if (w == QLatin1String("-H") || w == QLatin1String("--header")) {
            const qsizetype colon = value.indexOf(u':');
            if (colon <= 0) {
                result.error = tr("header \"%1\" has no name").arg(value);
                return result;
            }
            result.headers.append({ value.left(colon).trimmed().toLatin1(), value.mid(colon + 1).trimmed().toUtf8() });
        } else if (w.startsWith(QLatin1String("-d")) || w.startsWith(QLatin1String("--data")) || w == QLatin1String("--json")) {
            if (result.hasBody)
                result.body += '&';
            result.body += value.toUtf8();
            result.hasBody = true;
            if (w == QLatin1String("--json")) {
                result.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
                result.headers.append(qMakePair(QByteArray("Accept"), QByteArray("application/json")));
            }
        } else if (w == QLatin1String("--url")) {
            result.url = value;
        } else if (w == QLatin1String("-A") || w == QLatin1String("--user-agent")) {
            result.headers.append(qMakePair(QByteArray("User-Agent"), value.toUtf8()));
        } else if (w == QLatin1String("-u") || w == QLatin1String("--user")) {
            result.headers.append(qMakePair(QByteArray("Authorization"), QByteArray("Basic " + value.toUtf8().toBase64())));
        }
    }
    if (result.method.isEmpty())
        result.method = result.hasBody ? u"POST"_s : u"GET"_s;
    if (result.url.isEmpty() && result.error.isEmpty())
        result.error = tr("no URL in the command");
    return result;
}
