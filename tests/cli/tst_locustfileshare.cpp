// SPDX-License-Identifier: GPL-3.0-or-later
// A fleet's locustfile handed to a worker on another machine (issue 32 §1, "fetches the locustfile from the
// master"): the master's side is Python's own http.server serving a copy (checked here with curl, a client
// nobody here wrote), the worker's side fetches it and runs it only when its SHA-256 is the one the master
// printed. Refusals: another digest, nothing listening, a 404, a file too large, a server that never answers.
#include "fleet/locustfileshare.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QByteArray kText = "# a locustfile\nfrom locust import User\nprint('{{n}} is not a template here')\n"_ba;

QString sha256Of(const QByteArray& bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

} // namespace

class TestLocustfileShare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void servedAndFetched();
    void anotherDigestIsRefused();
    void badDigestsAreNotDigests_data();
    void badDigestsAreNotDigests();
    void nothingListening();
    void notFound();
    void tooLarge();
    void silentServerTimesOut();

private:
    QString writeFile(const QString& name, const QByteArray& text);
    QTemporaryDir m_dir;
};

void TestLocustfileShare::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (QStandardPaths::findExecutable(u"python3"_s).isEmpty())
        QSKIP("python3 is needed (packaging/install-deps.sh installs it with python3-locust)");
}

QString TestLocustfileShare::writeFile(const QString& name, const QByteArray& text)
{
    QFile f(m_dir.filePath(name));
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return QString();
    return f.fileName();
}

void TestLocustfileShare::servedAndFetched()
{
    const QString path = writeFile(u"fleet.py"_s, kText);
    LocustfileShare share;
    QVERIFY2(share.start(path, u"127.0.0.1"_s), qPrintable(share.errorString()));
    QVERIFY(share.port() > 0);
    QCOMPARE(share.sha256(), sha256Of(kText));
    QVERIFY(LocustfileShare::isSha256(share.sha256()));

    // What python serves is the file, byte for byte (curl as the client)…
    if (!QStandardPaths::findExecutable(u"curl"_s).isEmpty()) {
        QProcess curl;
        curl.start(u"curl"_s, { u"-sS"_s, u"--fail"_s, u"http://127.0.0.1:%1/retrylab_fleet.py"_s.arg(share.port()) });
        QVERIFY(curl.waitForFinished(10000));
        QCOMPARE(curl.exitCode(), 0);
        QCOMPARE(curl.readAllStandardOutput(), kText);
        // …and only that file: the folder holds nothing else.
        curl.start(u"curl"_s, { u"-s"_s, u"-o"_s, u"/dev/null"_s, u"-w"_s, u"%{http_code}"_s,
                                  u"http://127.0.0.1:%1/fleet.py"_s.arg(share.port()) });
        QVERIFY(curl.waitForFinished(10000));
        QCOMPARE(curl.readAllStandardOutput(), "404"_ba);
    }
    // The worker's side, with the digest in upper case as a user may copy it.
    QString error;
    const std::optional<QByteArray> got = LocustfileShare::fetch(u"127.0.0.1"_s, share.port(), share.sha256().toUpper(), 10000, &error);
    QVERIFY2(got, qPrintable(error));
    QCOMPARE(*got, kText);

    share.stop();
    QVERIFY(!LocustfileShare::fetch(u"127.0.0.1"_s, share.port(), share.sha256(), 5000, &error));
}

void TestLocustfileShare::anotherDigestIsRefused()
{
    const QString path = writeFile(u"other.py"_s, kText);
    LocustfileShare share;
    QVERIFY2(share.start(path, u"127.0.0.1"_s), qPrintable(share.errorString()));
    const QString wrong = sha256Of("something else"_ba);
    QString error;
    QVERIFY(!LocustfileShare::fetch(u"127.0.0.1"_s, share.port(), wrong, 10000, &error));
    QVERIFY2(error.contains(u"refused"_s) && error.contains(share.sha256()) && error.contains(wrong), qPrintable(error));
}

void TestLocustfileShare::badDigestsAreNotDigests_data()
{
    QTest::addColumn<QString>("text");
    QTest::addRow("empty") << QString();
    QTest::addRow("63 digits") << QString(63, u'a');
    QTest::addRow("65 digits") << QString(65, u'a');
    QTest::addRow("not hex") << QString(64, u'g');
    QTest::addRow("with a space") << (QString(63, u'a') + u' ');
}

void TestLocustfileShare::badDigestsAreNotDigests()
{
    QFETCH(QString, text);
    QVERIFY(!LocustfileShare::isSha256(text));
}

void TestLocustfileShare::nothingListening()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    QString error;
    QVERIFY(!LocustfileShare::fetch(u"127.0.0.1"_s, port, sha256Of(kText), 5000, &error));
    QVERIFY2(error.contains(u"http://127.0.0.1:%1/retrylab_fleet.py"_s.arg(port)), qPrintable(error));
}

// Python's http.server on a folder without the file: its own 404.
void TestLocustfileShare::notFound()
{
    QTemporaryDir empty;
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        port = probe.serverPort();
    }
    QProcess server;
    server.setProcessChannelMode(QProcess::MergedChannels);
    server.start(u"python3"_s, { u"-m"_s, u"http.server"_s, QString::number(port), u"--bind"_s, u"127.0.0.1"_s,
                                  u"--directory"_s, empty.path() });
    QVERIFY(server.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, port);
            return s.waitForConnected(200);
        }(),
        10000);
    QString error;
    QVERIFY(!LocustfileShare::fetch(u"127.0.0.1"_s, port, sha256Of(kText), 10000, &error));
    QVERIFY2(error.contains(u"answered 404"_s), qPrintable(error));
    server.kill();
    server.waitForFinished();
}

void TestLocustfileShare::tooLarge()
{
    const QByteArray big(9 * 1024 * 1024, '#');
    const QString path = writeFile(u"big.py"_s, big);
    LocustfileShare share;
    QVERIFY2(share.start(path, u"127.0.0.1"_s), qPrintable(share.errorString()));
    QString error;
    QVERIFY(!LocustfileShare::fetch(u"127.0.0.1"_s, share.port(), share.sha256(), 20000, &error));
    QVERIFY2(error.contains(u"8 MiB"_s), qPrintable(error));
}

// A server that takes the connection and never answers: the fetch ends at its time limit.
void TestLocustfileShare::silentServerTimesOut()
{
    QTcpServer silent;
    QVERIFY(silent.listen(QHostAddress::LocalHost));
    QString error;
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!LocustfileShare::fetch(u"127.0.0.1"_s, silent.serverPort(), sha256Of(kText), 700, &error));
    QVERIFY2(error.contains(u"no answer within 0.7 s"_s), qPrintable(error));
    QCOMPARE_LT(clock.elapsed(), 10000);
}

QTEST_GUILESS_MAIN(TestLocustfileShare)
#include "tst_locustfileshare.moc"
