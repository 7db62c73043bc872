// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/labevent.h"

using namespace Qt::StringLiterals;

QString LabEvent::kindName(Kind kind)
{
    switch (kind) {
    case Kind::ConnectionOpened:
        return u"connection-opened"_s;
    case Kind::RequestReceived:
        return u"request-received"_s;
    case Kind::ResponseStarted:
        return u"response-started"_s;
    case Kind::ResponseFinished:
        return u"response-finished"_s;
    case Kind::ConnectionDropped:
        return u"connection-dropped"_s;
    case Kind::OperationApplied:
        return u"operation-applied"_s;
    case Kind::ListeningChanged:
        return u"listening-changed"_s;
    case Kind::ControlRequest:
        return u"control-request"_s;
    case Kind::Rejected:
        return u"rejected"_s;
    case Kind::UpstreamFailed:
        return u"upstream-failed"_s;
    case Kind::Tunnel:
        return u"tunnel"_s;
    }
    return u"unknown"_s;
}

QString LabEvent::toLogLine() const
{
    QString line = u"+%1ms %2"_s.arg(atMs).arg(kindName(kind));
    if (connectionId)
        line += u" conn=%1"_s.arg(connectionId);
    if (requestId)
        line += u" req=%1"_s.arg(requestId);
    if (!method.isEmpty())
        line += u' ' + QString::fromLatin1(method) + u' ' + path;
    if (!route.isEmpty())
        line += u" route="_s + route;
    if (!stepKind.isEmpty())
        line += u" step="_s + stepKind;
    if (status)
        line += u" status=%1"_s.arg(status);
    if (!attemptId.isEmpty())
        line += u" attempt="_s + attemptId;
    if (!idempotencyKey.isEmpty())
        line += u" key="_s + idempotencyKey;
    if (applied)
        line += u" applied"_s;
    if (!detail.isEmpty())
        line += u" — "_s + detail;
    return line;
}
