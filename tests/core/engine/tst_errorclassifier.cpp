// SPDX-License-Identifier: GPL-3.0-or-later
// The phase-based error classification as a table (qt-internals.md §2.5).
#include "engine/errorclassifier.h"

#include <QTest>

using E = QNetworkReply::NetworkError;
using P = AttemptPhase;

class TestErrorClassifier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void classify_data();
    void classify();
};

void TestErrorClassifier::classify_data()
{
    QTest::addColumn<int>("code");
    QTest::addColumn<P>("reached");
    QTest::addColumn<int>("abort");
    QTest::addColumn<bool>("tls");
    QTest::addColumn<bool>("sendObservable");
    QTest::addColumn<int>("status"); // the answer's status when its head arrived, 0 = none
    QTest::addColumn<QString>("expected"); // error class name, empty = no error

    const int none = int(AbortReason::None);
    QTest::addRow("§2.5 DNS failure: HostNotFoundError") << int(E::HostNotFoundError) << P::Started << none << false << true << 0 << QStringLiteral("dns");
    QTest::addRow("§2.5 port closed: ConnectionRefusedError") << int(E::ConnectionRefusedError) << P::Connecting << none << false << true << 0 << QStringLiteral("refused");
    QTest::addRow("§2.5 untrusted certificate") << int(E::SslHandshakeFailedError) << P::Connecting << none << true << false << 0 << QStringLiteral("tls");
    QTest::addRow("§2.5 closed during TLS handshake: RemoteHostClosed = tls") << int(E::RemoteHostClosedError) << P::Connecting << none << true << false << 0 << QStringLiteral("tls");
    QTest::addRow("§2.5 closed after the request was sent = connection-lost") << int(E::RemoteHostClosedError) << P::RequestSent << none << false << true << 0 << QStringLiteral("connection-lost");
    QTest::addRow("§2.5 https closed after handshake = connection-lost") << int(E::RemoteHostClosedError) << P::TlsDone << none << true << false << 0 << QStringLiteral("connection-lost");
    QTest::addRow("§2.5 mid-body drop = protocol (truncated)") << int(E::RemoteHostClosedError) << P::FirstByte << none << false << true << 200 << QStringLiteral("protocol");
    QTest::addRow("§1.4 would-be re-send: ContentReSendError = connection-lost") << int(E::ContentReSendError) << P::Connecting << none << false << false << 0 << QStringLiteral("connection-lost");
    QTest::addRow("socket TimeoutError before sending = connect-timeout") << int(E::TimeoutError) << P::Connecting << none << false << true << 0 << QStringLiteral("connect-timeout");
    QTest::addRow("socket TimeoutError after sending = response-timeout") << int(E::TimeoutError) << P::RequestSent << none << false << true << 0 << QStringLiteral("response-timeout");
    QTest::addRow("engine connect timer = connect-timeout") << int(E::OperationCanceledError) << P::Connecting << int(AbortReason::ConnectTimeout) << false << true << 0 << QStringLiteral("connect-timeout");
    QTest::addRow("attempt timer, request sent = response-timeout") << int(E::OperationCanceledError) << P::RequestSent << int(AbortReason::AttemptTimeout) << false << true << 0 << QStringLiteral("response-timeout");
    QTest::addRow("attempt timer, body observable, not sent = connect-timeout") << int(E::OperationCanceledError) << P::Connecting << int(AbortReason::AttemptTimeout) << false << true << 0 << QStringLiteral("connect-timeout");
    QTest::addRow("attempt timer, empty body on plain HTTP: unknowable = response-timeout") << int(E::OperationCanceledError) << P::Connecting << int(AbortReason::AttemptTimeout) << false << false << 0 << QStringLiteral("response-timeout");
    QTest::addRow("attempt timer, TLS handshake unfinished = connect-timeout") << int(E::OperationCanceledError) << P::Connecting << int(AbortReason::AttemptTimeout) << true << false << 0 << QStringLiteral("connect-timeout");
    QTest::addRow("deadline during the body = response-timeout") << int(E::OperationCanceledError) << P::FirstByte << int(AbortReason::Deadline) << false << true << 200 << QStringLiteral("response-timeout");
    QTest::addRow("user cancel is not an error class") << int(E::OperationCanceledError) << P::RequestSent << int(AbortReason::Cancelled) << false << true << 0 << QString();
    QTest::addRow("§1.5 a 503 answer is not an error") << int(E::ServiceUnavailableError) << P::FirstByte << none << false << true << 503 << QString();
    QTest::addRow("§1.5 a 429 answer (UnknownContentError) is not an error") << int(E::UnknownContentError) << P::HeadersReceived << none << false << true << 429 << QString();
    QTest::addRow("a 404 answer is not an error") << int(E::ContentNotFoundError) << P::FirstByte << none << false << true << 404 << QString();
    QTest::addRow("ProtocolFailure = protocol") << int(E::ProtocolFailure) << P::RequestSent << none << false << true << 0 << QStringLiteral("protocol");
    QTest::addRow("no error") << int(E::NoError) << P::FirstByte << none << false << true << 200 << QString();

    // Issue 10 §2: every code Qt raises once the status line and headers arrived. The codes Qt derives from
    // the status (qhttpthreaddelegate.cpp statusCodeFromHttp) mean a complete answer; the others a body cut
    // short. HTTP/2 maps RST_STREAM codes onto some of the same names (http2protocol.cpp qt_error), which
    // is why only the exact code for the status is an answer.
    const struct
    {
        int status;
        E code;
    } answers[] = {
        { 400, E::ProtocolInvalidOperationError }, { 418, E::ProtocolInvalidOperationError },
        { 401, E::AuthenticationRequiredError }, { 403, E::ContentAccessDenied }, { 404, E::ContentNotFoundError },
        { 405, E::ContentOperationNotPermittedError }, { 407, E::ProxyAuthenticationRequiredError },
        { 409, E::ContentConflictError }, { 410, E::ContentGoneError }, { 429, E::UnknownContentError },
        { 422, E::UnknownContentError }, { 499, E::UnknownContentError }, { 500, E::InternalServerError },
        { 501, E::OperationNotImplementedError }, { 502, E::UnknownServerError }, { 503, E::ServiceUnavailableError },
        { 504, E::UnknownServerError }, { 599, E::UnknownServerError },
    };
    for (const auto& a : answers) {
        QTest::addRow("after headers: %d answer (Qt code %d) is an answer", a.status, int(a.code))
            << int(a.code) << P::FirstByte << none << false << true << a.status << QString();
        QTest::addRow("after headers: %d answer with an empty body (Qt code %d)", a.status, int(a.code))
            << int(a.code) << P::HeadersReceived << none << true << false << a.status << QString();
    }
    QTest::addRow("after headers: a 307 Qt will not follow with an unrewindable body (ContentReSendError)")
        << int(E::ContentReSendError) << P::HeadersReceived << none << false << true << 307 << QString();
    QTest::addRow("after headers: a 401 challenge Qt would answer itself (ContentReSendError)")
        << int(E::ContentReSendError) << P::HeadersReceived << none << false << true << 401 << QString();
    QTest::addRow("after headers: body cut short (RemoteHostClosedError) = protocol")
        << int(E::RemoteHostClosedError) << P::HeadersReceived << none << false << true << 400 << QStringLiteral("protocol");
    QTest::addRow("after headers: broken chunked encoding or decompression (ProtocolFailure) = protocol")
        << int(E::ProtocolFailure) << P::FirstByte << none << false << true << 200 << QStringLiteral("protocol");
    QTest::addRow("after headers: HTTP/2 stream error (ProtocolUnknownError) = protocol")
        << int(E::ProtocolUnknownError) << P::FirstByte << none << true << false << 200 << QStringLiteral("protocol");
    QTest::addRow("after headers: HTTP/2 RST_STREAM INTERNAL_ERROR after a 200 head = protocol")
        << int(E::InternalServerError) << P::FirstByte << none << true << false << 200 << QStringLiteral("protocol");
    QTest::addRow("after headers: HTTP/2 ENHANCE_YOUR_CALM after a 200 head = protocol")
        << int(E::UnknownServerError) << P::HeadersReceived << none << true << false << 200 << QStringLiteral("protocol");
    QTest::addRow("after headers: HTTP/2 INADEQUATE_SECURITY after a 200 head = protocol")
        << int(E::ContentAccessDenied) << P::HeadersReceived << none << true << false << 200 << QStringLiteral("protocol");
    QTest::addRow("after headers: a 400 code on a 404 answer is not that answer's = protocol")
        << int(E::ProtocolInvalidOperationError) << P::HeadersReceived << none << false << true << 404 << QStringLiteral("protocol");
    QTest::addRow("after headers: socket read error (UnknownNetworkError) = connection-lost")
        << int(E::UnknownNetworkError) << P::FirstByte << none << false << true << 200 << QStringLiteral("connection-lost");
    QTest::addRow("after headers: socket TimeoutError = response-timeout")
        << int(E::TimeoutError) << P::FirstByte << none << false << true << 200 << QStringLiteral("response-timeout");
    QTest::addRow("after headers: the engine's attempt timer = response-timeout")
        << int(E::OperationCanceledError) << P::HeadersReceived << int(AbortReason::AttemptTimeout) << false << true << 503
        << QStringLiteral("response-timeout");
    QTest::addRow("after headers: the engine's connect timer cannot fire, but would say connect-timeout")
        << int(E::OperationCanceledError) << P::HeadersReceived << int(AbortReason::ConnectTimeout) << false << true << 200
        << QStringLiteral("connect-timeout");
    QTest::addRow("after headers: user cancel is no error class")
        << int(E::OperationCanceledError) << P::FirstByte << int(AbortReason::Cancelled) << false << true << 500 << QString();
    QTest::addRow("before headers: ProtocolInvalidOperationError is a protocol failure")
        << int(E::ProtocolInvalidOperationError) << P::RequestSent << none << false << true << 0 << QStringLiteral("protocol");
}

void TestErrorClassifier::classify()
{
    QFETCH(int, code);
    QFETCH(P, reached);
    QFETCH(int, abort);
    QFETCH(bool, tls);
    QFETCH(bool, sendObservable);
    QFETCH(int, status);
    QFETCH(QString, expected);
    ClassifierInput in;
    in.code = E(code);
    in.reached = reached;
    in.abort = AbortReason(abort);
    in.tls = tls;
    in.sendObservable = sendObservable;
    if (status)
        in.status = status;
    const auto got = classifyError(in);
    QCOMPARE(got ? errorClassName(*got) : QString(), expected);
}

QTEST_GUILESS_MAIN(TestErrorClassifier)
#include "tst_errorclassifier.moc"
