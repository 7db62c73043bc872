// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/targeturl.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TargetUrl", text); }

// QUrl's message without the "; source was …" tail that repeats the whole input.
QString reasonOf(const QUrl& url)
{
    const QString message = url.errorString();
    const qsizetype tail = message.indexOf(u"; source was"_s);
    return tail >= 0 ? message.left(tail) : message;
}

// True for "host:port/path" and "host/path": text that becomes an http URL with a host once "http://" is
// put in front. "localhost:8080/x" parses as the scheme "localhost"; a digit after the colon shows it is
// a port, whereas "mailto:a@b" really has a scheme.
bool lacksOnlyScheme(const QString& text, const QUrl& asGiven)
{
    if (text.contains(u"://"_s))
        return false;
    const QString scheme = asGiven.scheme();
    if (!scheme.isEmpty()) {
        const qsizetype after = scheme.size() + 1;
        if (after >= text.size() || !text.at(after).isDigit())
            return false;
    }
    const QString rest = text.startsWith(u"//"_s) ? text.mid(2) : text;
    const QUrl withScheme(u"http://"_s + rest, QUrl::StrictMode);
    return withScheme.isValid() && !withScheme.host().isEmpty();
}

// SHOWN is the text as the user gave it: an invalid QUrl prints as an empty string.
QString problemFor(const QUrl& url, const QString& shown)
{
    if (url.isEmpty())
        return tr("no URL given: write one like http://127.0.0.1:8080/path");
    if (!url.isValid()) {
        return shown.isEmpty() ? tr("not a valid URL: %1").arg(reasonOf(url))
                               : tr("\"%1\" is not a valid URL: %2").arg(shown, reasonOf(url));
    }
    if (url.scheme().isEmpty())
        return tr("\"%1\" has no scheme: write http:// or https:// in front").arg(shown);
    if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        return tr("\"%1\": the scheme \"%2\" is not supported; use http:// or https://").arg(shown, url.scheme());
    if (url.host().isEmpty())
        return tr("\"%1\" has no host: write it as %2://HOST[:PORT]/path").arg(shown, url.scheme());
    if (url.port() == 0)
        return tr("\"%1\": port 0 cannot be connected to; use a port from 1 to 65535").arg(shown);
    return {};
}

} // namespace

TargetUrl::Parsed TargetUrl::parse(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return { {}, tr("no URL given: write one like http://127.0.0.1:8080/path") };
    const QUrl url(trimmed, QUrl::StrictMode);
    if (lacksOnlyScheme(trimmed, url)) {
        const QString rest = trimmed.startsWith(u"//"_s) ? trimmed.mid(2) : trimmed;
        return { {}, tr("\"%1\" has no scheme: write http://%2 (or https://%2)").arg(trimmed, rest) };
    }
    const QString problemText = problemFor(url, trimmed);
    if (!problemText.isEmpty())
        return { {}, problemText };
    return { url, {} };
}

QString TargetUrl::problem(const QUrl& url)
{
    return problemFor(url, url.toString());
}
