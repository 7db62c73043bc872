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
    QTest::addColumn<QString>("expected"); // error class name, empty = no error

    const int none = int(AbortReason::None);
    QTest::addRow("§2.5 DNS failure: HostNotFoundError") << int(E::HostNotFoundError) << P::Started << none << false << true << QStringLiteral("dns");
    QTest::addRow("§2.5 port closed: ConnectionRefusedError") << int(E::ConnectionRefusedError) << P::Connecting << none << false << true << QStringLiteral("refused");
    QTest::addRow("§2.5 untrusted certificate") << int(E::SslHandshakeFailedError) << P::Connecting << none << true << false << QStringLiteral("tls");
    QTest::addRow("§2.5 closed during TLS handshake: RemoteHostClosed = tls") << int(E::RemoteHostClosedError) << P::Connecting << none << true << false << QStringLiteral("tls");
    QTest::addRow("§2.5 closed after the request was sent = connection-lost") << int(E::RemoteHostClosedError) << P::RequestSent << none << false << true << QStringLiteral("connection-lost");
    QTest::addRow("§2.5 https closed after handshake = connection-lost") << int(E::RemoteHostClosedError) << P::TlsDone << none << true << false << QStringLiteral("connection-lost");
    QTest::addRow("§2.5 mid-body drop = protocol (truncated)") << int(E::RemoteHostClosedError) << P::FirstByte << none << false << true << QStringLiteral("protocol");
    QTest::addRow("§1.4 would-be re-send: ContentReSendError = connection-lost") << int(E::ContentReSendError) << P::Connecting << none << false << false << QStringLiteral("connection-lost");
    QTest::addRow("socket TimeoutError before sending = connect-timeout") << int(E::TimeoutError) << P::Connecting << none << false << true << QStringLiteral("connect-timeout");
    QTest::addRow("socket TimeoutError after sending = response-timeout") << int(E::TimeoutError) << P::RequestSent << none << false << true << QStringLiteral("response-timeout");
    QTest::addRow("engine connect timer = connect-timeout") << int(E::OperationCanceledError) << P::Connecting << int(AbortReason::ConnectTimeout) << false << true << QStringLiteral("connect-timeout");
    QTest::addRow("attempt timer, request sent = response-timeout") << int(E::OperationCanceledError) << P::RequestSent << int(AbortReason::AttemptTimeout) << false << true << QStringLiteral("response-timeout");
    QTest::addRow("attempt timer, body observable, not sent = connect-timeout") << int(E::OperationCanceledError) << P::Connecting << int(AbortReason::AttemptTimeout) << false << true << QStringLiteral("connect-timeout");
    QTest::addRow("attempt timer, empty body on plain HTTP: unknowable = response-timeout") << int(E::OperationCanceledError) << P::Connecting << int(AbortReason::AttemptTimeout) << false << false << QStringLiteral("response-timeout");
    QTest::addRow("attempt timer, TLS handshake unfinished = connect-timeout") << int(E::OperationCanceledError) << P::Connecting << int(AbortReason::AttemptTimeout) << true << false << QStringLiteral("connect-timeout");
    QTest::addRow("deadline during the body = response-timeout") << int(E::OperationCanceledError) << P::FirstByte << int(AbortReason::Deadline) << false << true << QStringLiteral("response-timeout");
    QTest::addRow("user cancel is not an error class") << int(E::OperationCanceledError) << P::RequestSent << int(AbortReason::Cancelled) << false << true << QString();
    QTest::addRow("§1.5 a 503 answer is not an error") << int(E::ServiceUnavailableError) << P::FirstByte << none << false << true << QString();
    QTest::addRow("§1.5 a 429 answer (UnknownContentError) is not an error") << int(E::UnknownContentError) << P::HeadersReceived << none << false << true << QString();
    QTest::addRow("a 404 answer is not an error") << int(E::ContentNotFoundError) << P::FirstByte << none << false << true << QString();
    QTest::addRow("ProtocolFailure = protocol") << int(E::ProtocolFailure) << P::RequestSent << none << false << true << QStringLiteral("protocol");
    QTest::addRow("no error") << int(E::NoError) << P::FirstByte << none << false << true << QString();
}

void TestErrorClassifier::classify()
{
    QFETCH(int, code);
    QFETCH(P, reached);
    QFETCH(int, abort);
    QFETCH(bool, tls);
    QFETCH(bool, sendObservable);
    QFETCH(QString, expected);
    ClassifierInput in;
    in.code = E(code);
    in.reached = reached;
    in.abort = AbortReason(abort);
    in.tls = tls;
    in.sendObservable = sendObservable;
    const auto got = classifyError(in);
    QCOMPARE(got ? errorClassName(*got) : QString(), expected);
}

QTEST_GUILESS_MAIN(TestErrorClassifier)
#include "tst_errorclassifier.moc"
