// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/requestoptions.h"

#include "engine/requestheaders.h"
#include "engine/requestspec.h"

#include <QUrl>

void RequestOptions::applyTo(RequestSpec& spec, bool targetLab) const
{
    spec.omittedDefaults = omittedDefaults;
    spec.attemptIdEnabled = attemptIdFor(targetLab);
    spec.attemptIdHeader = attemptIdHeader;
    spec.followRedirects = followRedirects;
    spec.http2Allowed = http2Allowed;
}

QStringList RequestOptions::sentNames(bool targetLab) const
{
    QStringList out;
    for (const SentHeader& h : defaultRequestHeaders(QUrl())) {
        if (h.name.compare("host", Qt::CaseInsensitive) == 0)
            continue; // always there: not worth listing
        if (!omittedDefaults.contains(h.name.toLower()))
            out << QString::fromLatin1(h.name);
        else if (isQtAddedHeader(h.name)) // Qt sends its own
            out << QString::fromLatin1(h.name) + QStringLiteral(" (Qt's)");
    }
    if (attemptIdFor(targetLab))
        out << QString::fromLatin1(attemptIdHeader);
    return out;
}
