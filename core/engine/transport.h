// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One attempt on the wire. The engine talks to this interface so whole-engine tests can script outcomes
// on a fake scheduler; AttemptTransport is the real one on QNetworkAccessManager.

#include "engine/attemptrecord.h"

#include <QList>
#include <QObject>
#include <QSslCertificate>

#include <functional>
#include <optional>

struct AttemptLimits
{
    std::optional<Millis> attemptTimeout; // total, connect to last byte
    std::optional<Millis> connectTimeout;
    std::optional<MonoTime> deadline; // the run's overall deadline (clock time): aborts with reason `deadline`
    bool http2Allowed = false;
    qsizetype bodyExcerptCap = 64 * 1024;
    QList<QSslCertificate> extraCaCertificates;
};

class Transport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    // Sends one attempt. RECORD arrives with the request part filled (method, URL, headers as sent, ids,
    // scheduled time); the transport fills in the rest and emits finished() exactly once.
    virtual void start(AttemptRecord record, QByteArray body, AttemptLimits limits) = 0;
    // Ends the attempt now; finished() is emitted (with REASON recorded) before this returns.
    virtual void abort(AbortReason reason) = 0;

Q_SIGNALS:
    void phaseReached(AttemptPhase phase, MonoTime at);
    void finished(const AttemptRecord& record);
};

class QNetworkAccessManager;

// Makes one transport per attempt on NAM, the attempt's wire slot (engine/wireslots.h), which carries no
// other attempt meanwhile; the engine parents and deletes the transport.
using TransportFactory = std::function<Transport*(QNetworkAccessManager& nam, QObject* parent)>;
