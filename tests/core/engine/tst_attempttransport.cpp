// SPDX-License-Identifier: GPL-3.0-or-later
// One attempt on QNetworkAccessManager against real faults on 127.0.0.1 (plus an .invalid DNS name):
// each error class from a real fault, no hidden re-sends, timeouts with their reason, headers as sent.
#include "engine/attempttransport.h"
#include "engine/clock.h"
#include "engine/requestheaders.h"
#include "rawfaultserver.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QSignalSpy>
#include <QSslKey>
#include <QSslServer>
#include <QTest>

using B = RawFaultServer::Behaviour;

namespace {

struct Shot
{
    AttemptRecord record;
    bool done = false;
};

} // namespace

class TestAttemptTransport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void realFaults_data();
    void realFaults();
    void staleKeepAlivePostIsNotResent();
    void attemptTimeoutRecordsReason();
    void headersRecordedAreHeadersSent();
    void bodyExcerptIsCapped();

private:
    AttemptRecord runOne(const QString& method, const QUrl& url, const QByteArray& body, AttemptLimits limits = {});

    ElapsedClock m_clock;
    QNetworkAccessManager m_nam;
};

void TestAttemptTransport::initTestCase()
{
    m_nam.setProxy(QNetworkProxy::NoProxy);
}

AttemptRecord TestAttemptTransport::runOne(const QString& method, const QUrl& url, const QByteArray& body,
    AttemptLimits limits)
{
    RequestSpec spec;
    spec.method = method;
    spec.url = url;
    spec.body = body;
    AttemptRecord a;
    a.method = method;
    a.url = url;
    a.attemptId = newAttemptId();
    a.requestHeaders = buildRequestHeaders(spec, RetryPolicy {}, url, {}, a.attemptId, {});
    a.bodySize = body.size();
    AttemptTransport transport(m_nam, m_clock);
    Shot shot;
    connect(&transport, &Transport::finished, this, [&shot](const AttemptRecord& r) {
        shot.record = r;
        shot.done = true;
    });
    transport.start(a, body, limits);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(shot.done, 20000); }();
    return shot.record;
}

void TestAttemptTransport::realFaults_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("serverSaw"); // -1: not counted
    QTest::addRow("dns: nonexistent.invalid") << QStringLiteral("dns") << QStringLiteral("GET") << QStringLiteral("dns") << -1;
    QTest::addRow("refused: closed port") << QStringLiteral("closed") << QStringLiteral("GET") << QStringLiteral("refused") << -1;
    QTest::addRow("tls: untrusted certificate") << QStringLiteral("badcert") << QStringLiteral("GET") << QStringLiteral("tls") << -1;
    QTest::addRow("tls: closed during the handshake") << QStringLiteral("tlsclose") << QStringLiteral("GET") << QStringLiteral("tls") << -1;
    QTest::addRow("connect-timeout: black-holed connect (full backlog)") << QStringLiteral("blackhole") << QStringLiteral("POST") << QStringLiteral("connect-timeout") << -1;
    QTest::addRow("connection-lost: POST dropped after send, sent once") << QStringLiteral("drop") << QStringLiteral("POST") << QStringLiteral("connection-lost") << 1;
    QTest::addRow("connection-lost: GET dropped after send, sent once") << QStringLiteral("drop") << QStringLiteral("GET") << QStringLiteral("connection-lost") << 1;
    QTest::addRow("protocol: truncated body") << QStringLiteral("truncate") << QStringLiteral("GET") << QStringLiteral("protocol") << 1;
    // Qt reads a status line that is not HTTP as an early EOF and wants to re-send (§1.1 trigger 2): the
    // answer is lost, the request may have been applied.
    QTest::addRow("connection-lost: garbage status line, sent once") << QStringLiteral("garbage") << QStringLiteral("POST") << QStringLiteral("connection-lost") << 1;
}

void TestAttemptTransport::realFaults()
{
    QFETCH(QString, fault);
    QFETCH(QString, method);
    QFETCH(QString, expected);
    QFETCH(int, serverSaw);

    RawFaultServer raw;
    QUrl url = QUrl::fromEncoded(raw.url());
    AttemptLimits limits;
    limits.attemptTimeout = Millis(10000);
    QTcpServer closed;
    QTcpServer blackhole;
    QList<QTcpSocket*> fillers;
    QSslServer tls;
    QTcpServer tlsClose;
    const QByteArray body = method == QLatin1String("POST") ? QByteArray(500, 'x') : QByteArray();

    if (fault == QLatin1String("dns")) {
        url = QUrl(QStringLiteral("http://nonexistent.invalid/"));
    } else if (fault == QLatin1String("closed")) {
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        url.setPort(closed.serverPort());
        closed.close();
    } else if (fault == QLatin1String("blackhole")) {
        blackhole.setListenBacklogSize(0);
        QVERIFY(blackhole.listen(QHostAddress::LocalHost));
        blackhole.pauseAccepting();
        for (int i = 0; i < 4; ++i) { // fill the accept queue; further SYNs are dropped
            auto* s = new QTcpSocket(this);
            s->connectToHost(QHostAddress::LocalHost, blackhole.serverPort());
            fillers << s;
        }
        QTest::qWait(200);
        url.setPort(blackhole.serverPort());
        limits.connectTimeout = Millis(400);
    } else if (fault == QLatin1String("badcert")) {
        QFile certFile(QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/tls/localhost-cert.pem"));
        QFile keyFile(QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/tls/localhost-key.pem"));
        QVERIFY(certFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly));
        QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
        conf.setLocalCertificate(QSslCertificate(certFile.readAll()));
        conf.setPrivateKey(QSslKey(keyFile.readAll(), QSsl::Rsa));
        tls.setSslConfiguration(conf);
        QVERIFY(tls.listen(QHostAddress::LocalHost));
        url = QUrl(QStringLiteral("https://127.0.0.1:%1/").arg(tls.serverPort()));
    } else if (fault == QLatin1String("tlsclose")) {
        QVERIFY(tlsClose.listen(QHostAddress::LocalHost));
        connect(&tlsClose, &QTcpServer::newConnection, this, [&tlsClose] {
            while (QTcpSocket* s = tlsClose.nextPendingConnection()) {
                s->close();
                s->deleteLater();
            }
        });
        url = QUrl(QStringLiteral("https://127.0.0.1:%1/").arg(tlsClose.serverPort()));
    } else if (fault == QLatin1String("drop")) {
        raw.setBehaviour(B::DropAfterRead);
    } else if (fault == QLatin1String("truncate")) {
        raw.setBehaviour(B::Truncate);
    } else if (fault == QLatin1String("garbage")) {
        raw.setBehaviour(B::Garbage);
    } else if (fault == QLatin1String("garbagechunk")) {
        raw.setBehaviour(B::GarbageHeader);
    }

    const AttemptRecord r = runOne(method, url, body, limits);
    qDeleteAll(fillers);
    QVERIFY2(r.error.has_value(), qPrintable(QStringLiteral("no error; status %1").arg(r.status.value_or(0))));
    QCOMPARE(errorClassName(*r.error), expected);
    QVERIFY(!r.qtError.isEmpty());
    if (fault == QLatin1String("blackhole"))
        QCOMPARE(r.abortReason, AbortReason::ConnectTimeout);
    if (serverSaw >= 0) {
        QTest::qWait(100); // anything re-sent would have arrived by now
        QCOMPARE(raw.requests, serverSaw);
    }
    QVERIFY(r.requestSentSignals <= 1);
}

void TestAttemptTransport::staleKeepAlivePostIsNotResent()
{
    // qt-internals §1.2 #7: without the non-rewindable body, POST#2 on the reused connection is sent twice
    // and reported as a clean 200.
    RawFaultServer raw;
    raw.queue({ B::Ok, B::DropAfterRead, B::Ok });
    const QUrl url = QUrl::fromEncoded(raw.url("/pay"));
    const AttemptRecord first = runOne(QStringLiteral("POST"), url, "amount=1");
    QCOMPARE(first.status.value_or(0), 200);
    const AttemptRecord second = runOne(QStringLiteral("POST"), url, "amount=2");
    QTest::qWait(200);
    QCOMPARE(raw.requests, 2); // exactly one transmission per attempt
    QVERIFY(!second.status.has_value());
    QVERIFY(second.error.has_value());
    QCOMPARE(*second.error, ErrorClass::ConnectionLost);
    QCOMPARE(second.qtErrorCode, int(QNetworkReply::ContentReSendError));
    QVERIFY(second.connectionReused || second.at.connecting.has_value());
}

void TestAttemptTransport::attemptTimeoutRecordsReason()
{
    RawFaultServer raw;
    raw.setBehaviour(B::Hang);
    AttemptLimits limits;
    limits.attemptTimeout = Millis(300);
    const AttemptRecord r = runOne(QStringLiteral("POST"), QUrl::fromEncoded(raw.url()), "x", limits);
    QCOMPARE(r.abortReason, AbortReason::AttemptTimeout);
    QVERIFY(r.error.has_value());
    QCOMPARE(*r.error, ErrorClass::ResponseTimeout);
    const double ms = toMs(*r.duration());
    QVERIFY2(ms >= 295 && ms < 450, qPrintable(QString::number(ms)));
    QCOMPARE(raw.requests, 1);
}

void TestAttemptTransport::headersRecordedAreHeadersSent()
{
    RawFaultServer raw;
    const AttemptRecord r = runOne(QStringLiteral("GET"), QUrl::fromEncoded(raw.url("/h")), {});
    QCOMPARE(r.status.value_or(0), 200);
    QCOMPARE(raw.requests, 1);
    QStringList sent;
    for (const QByteArray& line : raw.heads.at(0).split('\n').mid(1)) {
        const int colon = line.indexOf(':');
        if (colon > 0)
            sent << QString::fromLatin1(line.left(colon).trimmed().toLower());
    }
    QStringList recorded;
    for (const SentHeader& h : r.requestHeaders)
        recorded << QString::fromLatin1(h.name.toLower());
    sent.sort();
    recorded.sort();
    QCOMPARE(sent, recorded);
    QCOMPARE(raw.header(0, "x-retrylab-attempt"), r.attemptId.toLatin1());
    QVERIFY(!r.http2Used);
    QVERIFY(r.at.started && r.at.headersReceived && r.at.finished);
    QVERIFY(*r.at.started <= *r.at.headersReceived && *r.at.headersReceived <= *r.at.finished);
    QCOMPARE(r.bodyExcerpt, QByteArray("ok"));
}

void TestAttemptTransport::bodyExcerptIsCapped()
{
    RawFaultServer raw;
    AttemptLimits limits;
    limits.bodyExcerptCap = 1;
    const AttemptRecord r = runOne(QStringLiteral("GET"), QUrl::fromEncoded(raw.url()), {}, limits);
    QCOMPARE(r.bodyExcerpt, QByteArray("o"));
    QVERIFY(r.bodyExcerptTruncated);
    QCOMPARE(r.bytesDown, 2);
}

QTEST_GUILESS_MAIN(TestAttemptTransport)
#include "tst_attempttransport.moc"
