// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/transport.h"

#include <QNetworkRequest>
#include <QPointer>

class Clock;
class NonRewindableBody;
class QNetworkAccessManager;
class QNetworkReply;
class QUrl;
class QTimer;

// One attempt on QNetworkAccessManager, recorded honestly, where Qt 6.4 alone would re-send and queue behind the
// caller's back:
// - the body goes through a NonRewindableBody with DoNotBufferUploadDataAttribute and a Content-Length,
//   sent with sendCustomRequest for every method, so Qt cannot re-send it behind the engine's back;
// - redirects manual, cookies manual (the engine keeps a jar per run), no cache, HTTP/2 as asked;
// - its own Qt::PreciseTimer timers for the total and connect timeouts; the reason is stored before
//   abort(), because QNetworkReply::finished fires inside abort();
// - phase timestamps from the injected clock, and the error class by the phase reached.
class AttemptTransport final : public Transport
{
    Q_OBJECT
public:
    AttemptTransport(QNetworkAccessManager& nam, const Clock& clock, QObject* parent = nullptr);
    ~AttemptTransport() override;

    void start(AttemptRecord record, QByteArray body, AttemptLimits limits) override;

    // The request as every attempt sends it (send it with sendCustomRequest and a NonRewindableBody): the
    // headers given, Content-Length, no buffering of the body, manual redirects and cookies, no cache, Qt's
    // transfer timeout off, HTTP/2 only when allowed.
    static QNetworkRequest honestRequest(
        const QUrl& url, const QList<SentHeader>& headers, qint64 bodySize, const AttemptLimits& limits);
    void abort(AbortReason reason) override;

private:
    void reach(AttemptPhase phase);
    void onMetaData();
    void onReadyRead();
    void onFinished();
    void onConnectTimer();
    bool connectionProven() const;

    QNetworkAccessManager& m_nam;
    const Clock& m_clock;
    AttemptRecord m_record;
    AttemptLimits m_limits;
    QPointer<QNetworkReply> m_reply;
    NonRewindableBody* m_body = nullptr;
    QTimer* m_totalTimer = nullptr;
    QTimer* m_connectTimer = nullptr;
    AbortReason m_abort = AbortReason::None;
    AbortReason m_totalReason = AbortReason::AttemptTimeout;
    bool m_sawConnecting = false;
    bool m_done = false;
};
