// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet/fleetattempt.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

std::optional<FleetAttempt> FleetAttempt::fromJson(const QJsonObject& o, QString* error)
{
    for (const QString& field : { u"logical"_s, u"attempt"_s, u"method"_s, u"start"_s, u"end"_s }) {
        if (!o.contains(field)) {
            if (error)
                *error = u"an attempt without \"%1\""_s.arg(field);
            return std::nullopt;
        }
    }
    FleetAttempt a;
    a.logical = o.value(u"logical"_s).toString();
    a.attempt = o.value(u"attempt"_s).toInt();
    a.worker = o.value(u"worker"_s).toString();
    a.user = o.value(u"user"_s).toInt();
    a.method = o.value(u"method"_s).toString();
    a.url = o.value(u"url"_s).toString();
    a.key = o.value(u"key"_s).toString();
    a.startS = o.value(u"start"_s).toDouble();
    a.endS = o.value(u"end"_s).toDouble();
    if (o.value(u"status"_s).isDouble())
        a.status = o.value(u"status"_s).toInt();
    a.error = o.value(u"error"_s).toString();
    a.waitS = o.value(u"wait"_s).toDouble();
    a.decision = o.value(u"decision"_s).toString();
    a.delayS = o.value(u"delay"_s).toDouble();
    a.bytes = o.value(u"bytes"_s).toInteger();
    const QJsonArray headers = o.value(u"headers"_s).toArray();
    for (const QJsonValue& h : headers) {
        const QJsonArray pair = h.toArray();
        if (pair.size() == 2)
            a.responseHeaders.append({ pair.at(0).toString().toLatin1(), pair.at(1).toString().toUtf8() });
    }
    if (a.logical.isEmpty() || a.attempt < 1 || a.endS < a.startS) {
        if (error)
            *error = u"an attempt with an empty id, a number below 1 or an end before its start"_s;
        return std::nullopt;
    }
    return a;
}
