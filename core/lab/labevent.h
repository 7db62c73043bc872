// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QMetaType>
#include <QString>

// One fact the fault lab observed or did, stamped on the lab's monotonic clock (milliseconds since the
// origin the owner of the FaultServer chose; see FaultServer::setClockOrigin). The UI draws these on the
// same time axis as the client's attempts.
struct LabEvent
{
    enum class Kind {
        ConnectionOpened,
        RequestReceived,
        ResponseStarted, // status line and headers written
        ResponseFinished, // the step finished (answer complete, or the fault done)
        ConnectionDropped, // the connection closed, by either side
        OperationApplied, // the server applied the operation (ledger entry)
        ListeningChanged, // a refusal or an outage (window or step) began or ended (detail says which)
        ControlRequest, // a /_lab/ request (not counted as a scenario request)
        Rejected, // malformed or oversized request answered 4xx
        UpstreamFailed, // a forwarded request got no answer from the upstream (the lab answered 502/504)
        Tunnel, // the lab as a forward proxy: a CONNECT tunnel intercepted, relayed untouched, refused or failed
    };

    Kind kind = Kind::RequestReceived;
    qint64 atMs = 0;
    quint64 connectionId = 0;
    quint64 requestId = 0; // 0 when not about one request
    QByteArray method;
    QString path;
    QString route; // name of the matched route, empty when none
    QString stepKind; // respond, late, close, reset, truncate, garbage, hang, refuse, rate-limit, outage, replay…
    int status = 0; // HTTP status written, or 0 when none
    QString attemptId; // value of the attempt-id header, if any
    QString idempotencyKey;
    bool applied = false; // the operation was applied by this request
    QString detail; // human-readable summary

    static QString kindName(Kind kind);
    // One log line: "+1234ms #3 POST /pix/payments → respond 201 (applied settlement, key k1)".
    QString toLogLine() const;
};

Q_DECLARE_METATYPE(LabEvent)
