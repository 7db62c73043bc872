// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/upstreamtarget.h"

#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

class QTcpSocket;
class QTimer;
class UpstreamResponseReader;

// What became of one forwarded request: the upstream's answer, or why there is none (error: "refused",
// "dns", "reset", "tls", "garbage", "too_large" (a body longer than the target's maxBodyBytes),
// "timeout"), with the moments on the lab's clock.
struct UpstreamResult
{
    bool ok = false;
    int status = 0;
    HttpHeaderList headers; // as the upstream sent them
    QByteArray body; // de-chunked
    QString error;
    QString detail; // one line: what happened
    std::optional<qint64> connectedMs; // TCP connected
    std::optional<qint64> tlsMs; // TLS handshake done
    std::optional<qint64> firstByteMs; // the first byte of the answer
    std::optional<qint64> endMs; // the answer complete, or the failure
};

// One request sent to the upstream on its own connection — exactly once: nothing here ever retries.
// finished() is emitted once; abort() (the client left, the lab stops) ends it without the signal.
class UpstreamCall : public QObject
{
    Q_OBJECT
public:
    // REUSED: an idle connection to the upstream to send on (the call owns it from now), or null.
    UpstreamCall(const UpstreamTarget& target, QByteArray request, bool headRequest, std::function<qint64()> nowMs,
        QTcpSocket* reused = nullptr, QObject* parent = nullptr);
    ~UpstreamCall() override;

    // Streaming (a plain forward): headReceived() once the answer's head is in, bodyReceived() whenever body
    // bytes are (takeBody() hands them over, nothing is held), then finished() — whose result then has no
    // body. A failure after the head still ends in finished() with ok false. Call before start().
    void setStreaming(bool streaming) { m_streaming = streaming; }
    // Backpressure: while paused nothing is read from the upstream (its bytes wait in the kernel, and TCP
    // slows the upstream down); resuming reads what waits.
    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    QByteArray takeBody();
    const UpstreamResponseReader& reader() const { return *m_reader; }

    // The request's body relayed as it arrives (a streamed upload): the request given is the head, sendBody()
    // adds framed body bytes (held until the connection is up, then written), endBody() says the body is
    // whole. While the body goes, the timeout counts from the last progress (bytes taken from the client or
    // written to the upstream) and from endBody() the answer's. An answer that ends before the body does
    // leaves the connection unusable (closed); abort() before endBody() resets it, so the upstream sees a
    // broken request, never a short one that looks whole. Call setRequestStreaming() before start().
    void setRequestStreaming(bool streaming) { m_requestStreaming = streaming; }
    void sendBody(const QByteArray& framed);
    void endBody();
    bool bodyEnded() const { return !m_requestStreaming || m_bodyEnded; }
    // Request bytes given but not yet taken by the kernel: what the lab holds for this upload.
    qint64 unsentRequestBytes() const;

    void start();
    void abort();
    const UpstreamResult& result() const { return m_result; } // so far
    // After a successful finished(): the connection, when it may carry another request (else null).
    // The caller owns it.
    QTcpSocket* takeReusableConnection();
    QString poolKey() const { return m_poolKey; } // set by the server: which pool a kept connection goes to
    void setPoolKey(const QString& key) { m_poolKey = key; }

signals:
    void finished(const UpstreamResult& result);
    void headReceived(); // streaming: result() has the status and headers
    void bodyReceived(); // streaming: takeBody() has bytes
    void requestBytesWritten(); // a streamed upload: unsentRequestBytes() went down

private:
    void onConnected();
    void onReadyRead();
    void onError();
    void fail(const QString& error, const QString& detail);
    void succeed();

    UpstreamTarget m_target;
    QByteArray m_request;
    std::function<qint64()> m_now;
    QTcpSocket* m_socket; // a QSslSocket for an https:// upstream
    QTimer* m_timer;
    std::unique_ptr<UpstreamResponseReader> m_reader;
    QString m_tlsErrors;
    UpstreamResult m_result;
    bool m_done = false;
    bool m_reused = false;
    bool m_reusable = false;
    bool m_streaming = false;
    QString m_poolKey;
    bool m_paused = false;
    bool m_headEmitted = false;
    bool m_requestStreaming = false;
    bool m_bodyEnded = false;
    bool m_writing = false; // the connection is up: request bytes go to the socket
};
