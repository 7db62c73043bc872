// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/export/curlcommand.h"

using namespace Qt::StringLiterals;

namespace CurlCommand {

QString shellQuote(const QString& text)
{
    QString quoted = text;
    quoted.replace(u"'"_s, u"'\\''"_s);
    return u'\'' + quoted + u'\'';
}

QString forAttempt(const Session& session, quint32 row, const Redactor& redactor)
{
    const AttemptStore& store = session.attempts;
    const PackedAttempt& p = store.packed(row);
    const StringPool& s = store.strings();
    QStringList parts { u"curl"_s, u"-X"_s, shellQuote(s.string(p.method)), shellQuote(redactor.url(s.string(p.url))) };
    if (!p.http2)
        parts << u"--http1.1"_s;
    for (int i = 0; i < store.headerCount(p.requestHeaders); ++i) {
        const QByteArrayView name = store.headerName(p.requestHeaders, i);
        // curl adds its own Host and Content-Length; sending them twice would change the request.
        if (name.compare("content-length", Qt::CaseInsensitive) == 0)
            continue;
        parts << u"-H"_s << shellQuote(QString::fromUtf8(name) + u": "_s
                                + QString::fromUtf8(redactor.header(name, store.headerValue(p.requestHeaders, i))));
    }
    const SessionRun* run = session.findRun(p.runId);
    if (run && run->request < session.requests.size()) {
        const QByteArray& body = session.requests.at(run->request).body;
        if (!body.isEmpty())
            parts << u"--data-binary"_s << shellQuote(QString::fromUtf8(body));
    }
    return parts.join(u' ');
}

} // namespace CurlCommand
