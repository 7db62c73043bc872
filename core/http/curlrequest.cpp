// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/curlrequest.h"

#include "http/curlencoding.h"
#include "http/curloptions.h"
#include "http/curlrequestbuilder.h"
#include "http/shellwords.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("CurlRequestParser", text);
}

bool isCurlWord(const QString& w)
{
    return w == u"curl"_s || w == u"curl.exe"_s || w.endsWith(u"/curl"_s);
}

// What a Refused option says instead of "cannot be taken into one request".
QString refusal(QLatin1StringView name)
{
    if (name == "form"_L1 || name == "form-string"_L1)
        return tr("multipart form data is not supported: send the body with --data-binary and a Content-Type header");
    if (name == "config"_L1)
        return tr("reads more options from a file: paste them instead");
    if (name == "next"_L1)
        return tr("starts a second request: paste one request at a time");
    if (name == "help"_L1 || name == "manual"_L1 || name == "version"_L1)
        return tr("prints information and sends nothing");
    if (name == "request-target"_L1)
        return tr("a request target other than the URL's path cannot be sent");
    if (name == "aws-sigv4"_L1)
        return tr("signs each request (AWS Signature V4): a signature cannot be sent again");
    if (name == "time-cond"_L1)
        return tr("computes If-Modified-Since from a date or a file: add the header with -H instead");
    if (name == "etag-compare"_L1)
        return tr("reads an ETag from a file: add If-None-Match with -H instead");
    return CurlOptions::whyNotApplied(CurlOptionEffect::Refused);
}

} // namespace

QList<CurlOptionNote> CurlRequest::notApplied() const
{
    QList<CurlOptionNote> out;
    for (const CurlOptionNote& n : notes) {
        if (!n.applied)
            out.append(n);
    }
    return out;
}

CurlRequest CurlRequestParser::parse(const QString& commandLine, const QString& baseDir)
{
    CurlRequestBuilder b(baseDir);
    const ShellWords::Result split = ShellWords::split(commandLine);
    if (!split.error.isEmpty())
        return b.fail(split.error);
    QStringList words = split.words;
    if (!words.isEmpty() && (words.first() == u"$"_s || words.first() == u"%"_s))
        words.removeFirst();
    if (!words.isEmpty() && isCurlWord(words.first()))
        words.removeFirst();
    if (words.isEmpty())
        return b.fail(tr("the command is empty"));

    for (qsizetype i = 0; i < words.size() && b.ok(); ++i) {
        const QString& w = words.at(i);
        const auto valueFor = [&](const CurlOption& o, const QString& written, QString attached) -> std::optional<QString> {
            if (!o.takesValue)
                return QString();
            if (!attached.isEmpty())
                return attached;
            if (i + 1 >= words.size()) {
                b.fail(tr("%1 needs a value").arg(written));
                return std::nullopt;
            }
            return words.at(++i);
        };
        if (w.startsWith(u"--"_s) && w.size() > 2) {
            const QString name = w.mid(2);
            const CurlOption* o = CurlOptions::byName(name);
            bool off = false;
            if (!o && name.startsWith(u"no-"_s)) { // --no-location turns a boolean option off
                o = CurlOptions::byName(name.mid(3));
                off = o && !o->takesValue;
                if (!off)
                    o = nullptr;
            }
            if (!o) {
                return b.fail(name.contains(u'=')
                        ? tr("curl has no option %1 (curl reads an option's value from the next word: %2 %3)")
                              .arg(w, w.section(u'=', 0, 0), w.section(u'=', 1))
                        : tr("curl has no option %1").arg(w));
            }
            const std::optional<QString> value = valueFor(*o, w, QString());
            if (value)
                b.apply(*o, w, *value, off, refusal(o->name));
            continue;
        }
        if (w.startsWith(u'-') && w.size() > 1) { // -sSL, -XPOST, -d@file, -H'X: 1'
            for (qsizetype j = 1; j < w.size() && b.ok(); ++j) {
                const CurlOption* o = CurlOptions::byShort(w.at(j));
                if (!o)
                    return b.fail(tr("curl has no option -%1").arg(w.at(j)));
                const QString written = u"-"_s + w.at(j);
                const std::optional<QString> value = valueFor(*o, written, w.mid(j + 1));
                if (!value)
                    break;
                b.apply(*o, written, *value, false, refusal(o->name));
                if (o->takesValue)
                    break; // the rest of the word was its value
            }
            continue;
        }
        b.addUrl(w);
    }
    return b.finish();
}
