// SPDX-License-Identifier: GPL-3.0-or-later
// The minted certificates checked by verifiers nobody here wrote: `openssl verify` (strict X.509, the
// server purpose, host names and IP addresses), curl and python's ssl module over TLS against a
// QSslServer on loopback serving a leaf, as the intercepting proxy will.
#include "intercept/interceptauthority.h"

#include <QFile>
#include <QProcess>
#include <QSslServer>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Finished
{
    int exit = -1;
    QString out;
    QString err;
};

// Runs PROGRAM to its end while this thread's event loop keeps serving (QTRY spins it).
Finished runTool(const QString& program, const QStringList& args)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : { "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE", "REQUESTS_CA_BUNDLE", "https_proxy",
             "HTTPS_PROXY", "all_proxy", "ALL_PROXY" })
        env.remove(QString::fromLatin1(name));
    process.setProcessEnvironment(env);
    process.start(program, args);
    if (!process.waitForStarted(10000))
        return {};
    Finished result;
    [&] { QTRY_VERIFY_WITH_TIMEOUT(process.state() == QProcess::NotRunning, 60000); }();
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(3000);
        return result;
    }
    result.exit = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput()).trimmed();
    result.err = QString::fromUtf8(process.readAllStandardError()).trimmed();
    return result;
}

// A TLS server on 127.0.0.1 answering every request with 200 "ok", its certificate a minted leaf.
class LeafServer : public QObject
{
public:
    explicit LeafServer(const MintedLeaf& leaf)
    {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setLocalCertificate(leaf.certificate);
        tls.setPrivateKey(leaf.key);
        tls.setPeerVerifyMode(QSslSocket::VerifyNone);
        m_server.setSslConfiguration(tls);
        m_server.setHandshakeTimeout(10000);
        connect(&m_server, &QTcpServer::pendingConnectionAvailable, this, &LeafServer::accept);
        m_server.listen(QHostAddress::LocalHost, 0);
    }
    quint16 port() const { return m_server.serverPort(); }
    int answered() const { return m_answered; }

private:
    void accept()
    {
        while (QTcpSocket* socket = m_server.nextPendingConnection()) {
            socket->setParent(this);
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
                m_buffers[socket] += socket->readAll();
                if (!m_buffers[socket].contains("\r\n\r\n"))
                    return;
                socket->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                socket->disconnectFromHost();
                ++m_answered;
            });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    }

    QSslServer m_server;
    QHash<QTcpSocket*, QByteArray> m_buffers;
    int m_answered = 0;
};

const char kPythonClient[] = R"(
import socket, ssl, sys
cafile, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
context = ssl.create_default_context(cafile=cafile)
with socket.create_connection(("127.0.0.1", port), timeout=20) as raw:
    with context.wrap_socket(raw, server_hostname=host) as tls:
        tls.sendall(b"GET / HTTP/1.1\r\nHost: " + host.encode() + b"\r\nConnection: close\r\n\r\n")
        print(tls.recv(4096).split(b"\r\n")[0].decode())
)";

} // namespace

class TestInterceptClients : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void opensslVerify_data();
    void opensslVerify();
    void curl_data();
    void curl();
    void curlWithTrustBundle();
    void python_data();
    void python();

private:
    QString leafFile(const QString& host);

    QTemporaryDir m_tmp;
    std::shared_ptr<InterceptAuthority> m_ca;
    std::shared_ptr<InterceptAuthority> m_otherCa;
    QString m_python;
};

void TestInterceptClients::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    QString error;
    m_ca = InterceptAuthority::open(m_tmp.filePath(u"ca"_s), true, &error);
    QVERIFY2(m_ca, qPrintable(error));
    m_otherCa = InterceptAuthority::open(m_tmp.filePath(u"other"_s), true, &error);
    QVERIFY2(m_otherCa, qPrintable(error));
    if (QStandardPaths::findExecutable(u"openssl"_s).isEmpty() || QStandardPaths::findExecutable(u"curl"_s).isEmpty())
        QSKIP("openssl and curl are needed (Debian: apt-get install openssl curl)");
    m_python
        = QFile::exists(u"/usr/bin/python3"_s) ? u"/usr/bin/python3"_s : QStandardPaths::findExecutable(u"python3"_s);
}

QString TestInterceptClients::leafFile(const QString& host)
{
    const QString path = m_tmp.filePath(u"leaf-%1.pem"_s.arg(QString(host).replace(u':', u'_')));
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(m_ca->leafFor(host).certificate.toPem());
    return path;
}

void TestInterceptClients::opensslVerify_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QStringList>("check"); // the name options `openssl verify` checks the leaf against
    QTest::addColumn<bool>("ours"); // signed by the CA given as -CAfile
    QTest::addColumn<bool>("passes");
    const QString longName = QString(60, u'a') + u'.' + QString(10, u'b') + u".test"_s; // no CN: SAN only
    QTest::addRow("DNS name") << u"api.test"_s << QStringList { u"-verify_hostname"_s, u"api.test"_s } << true << true;
    QTest::addRow("DNS name over 64 characters")
        << longName << QStringList { u"-verify_hostname"_s, longName } << true << true;
    QTest::addRow("IPv4") << u"127.0.0.1"_s << QStringList { u"-verify_ip"_s, u"127.0.0.1"_s } << true << true;
    QTest::addRow("IPv6") << u"::1"_s << QStringList { u"-verify_ip"_s, u"::1"_s } << true << true;
    QTest::addRow("another host's name fails")
        << u"api.test"_s << QStringList { u"-verify_hostname"_s, u"evil.test"_s } << true << false;
    QTest::addRow("another address fails")
        << u"127.0.0.1"_s << QStringList { u"-verify_ip"_s, u"127.0.0.2"_s } << true << false;
    QTest::addRow("another CA fails") << u"api.test"_s << QStringList { u"-verify_hostname"_s, u"api.test"_s } << false
                                      << false;
}

void TestInterceptClients::opensslVerify()
{
    QFETCH(QString, host);
    QFETCH(QStringList, check);
    QFETCH(bool, ours);
    QFETCH(bool, passes);
    const QString leaf = leafFile(host);
    const QString caFile = (ours ? m_ca : m_otherCa)->certificatePath();
    const Finished r = runTool(u"openssl"_s,
        QStringList { u"verify"_s, u"-x509_strict"_s, u"-purpose"_s, u"sslserver"_s, u"-CAfile"_s, caFile } + check
            + QStringList { leaf });
    if (passes) {
        QVERIFY2(r.exit == 0, qPrintable(r.out + u' ' + r.err));
        QCOMPARE(r.out, leaf + u": OK"_s);
    } else {
        QVERIFY2(r.exit != 0 && r.exit != -1, qPrintable(r.out + u' ' + r.err));
    }
}

void TestInterceptClients::curl_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("caFile"); // "ours", "other" or "" (the system's CAs)
    QTest::addColumn<int>("exit");
    QTest::addRow("localhost, our CA: 200") << u"localhost"_s << u"ours"_s << 0;
    QTest::addRow("127.0.0.1 (IP SAN), our CA: 200") << u"127.0.0.1"_s << u"ours"_s << 0;
    QTest::addRow("the system's CAs only: error 60") << u"localhost"_s << QString() << 60;
    QTest::addRow("another Retrylab CA: error 60") << u"localhost"_s << u"other"_s << 60;
}

void TestInterceptClients::curl()
{
    QFETCH(QString, host);
    QFETCH(QString, caFile);
    QFETCH(int, exit);
    LeafServer server(m_ca->leafFor(host));
    QVERIFY(server.port() != 0);
    const QString port = QString::number(server.port());
    QStringList args { u"-sS"_s, u"--max-time"_s, u"20"_s, u"-o"_s, u"/dev/null"_s, u"-w"_s, u"%{http_code}"_s };
    if (host == u"localhost")
        args << u"--resolve"_s << u"localhost:%1:127.0.0.1"_s.arg(port);
    if (!caFile.isEmpty())
        args << u"--cacert"_s << (caFile == u"ours" ? m_ca : m_otherCa)->certificatePath();
    args << u"https://%1:%2/"_s.arg(host, port);
    const Finished r = runTool(u"curl"_s, args);
    QVERIFY2(r.exit == exit, qPrintable(u"exit %1: %2"_s.arg(r.exit).arg(r.err)));
    if (exit == 0) {
        QCOMPARE(r.out, u"200"_s);
        QCOMPARE(server.answered(), 1);
    }
}

void TestInterceptClients::curlWithTrustBundle()
{
    // The bundle observe --proxy points SSL_CERT_FILE and CURL_CA_BUNDLE to: the system's CAs and ours.
    const QString bundle = m_tmp.filePath(u"bundle.pem"_s);
    QString error;
    QVERIFY2(m_ca->writeTrustBundle(bundle, &error), qPrintable(error));
    LeafServer server(m_ca->leafFor(u"api.test"_s));
    const QString port = QString::number(server.port());
    const Finished r = runTool(u"curl"_s,
        { u"-sS"_s, u"--max-time"_s, u"20"_s, u"-o"_s, u"/dev/null"_s, u"-w"_s, u"%{http_code}"_s, u"--resolve"_s,
            u"api.test:%1:127.0.0.1"_s.arg(port), u"--cacert"_s, bundle, u"https://api.test:%1/"_s.arg(port) });
    QVERIFY2(r.exit == 0, qPrintable(r.err));
    QCOMPARE(r.out, u"200"_s);
}

void TestInterceptClients::python_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("ours");
    QTest::addColumn<QString>("expected"); // the status line printed, or what stderr contains
    QTest::addRow("localhost") << u"localhost"_s << true << u"HTTP/1.1 200 OK"_s;
    QTest::addRow("127.0.0.1 (IP SAN)") << u"127.0.0.1"_s << true << u"HTTP/1.1 200 OK"_s;
    QTest::addRow("another CA") << u"localhost"_s << false << u"CERTIFICATE_VERIFY_FAILED"_s;
}

void TestInterceptClients::python()
{
    QFETCH(QString, host);
    QFETCH(bool, ours);
    QFETCH(QString, expected);
    if (m_python.isEmpty())
        QSKIP("python3 is needed");
    LeafServer server(m_ca->leafFor(host));
    const Finished r = runTool(m_python,
        { u"-c"_s, QString::fromLatin1(kPythonClient), (ours ? m_ca : m_otherCa)->certificatePath(), host,
            QString::number(server.port()) });
    if (ours) {
        QVERIFY2(r.exit == 0, qPrintable(r.err));
        QCOMPARE(r.out, expected);
    } else {
        QVERIFY(r.exit != 0);
        QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    }
}

QTEST_GUILESS_MAIN(TestInterceptClients)
#include "tst_interceptclients.moc"
