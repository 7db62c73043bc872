// SPDX-License-Identifier: GPL-3.0-or-later
// "Paste curl command" (core/http/curlrequest): the request a curl command line sends. The rules come from
// curl 7.88.1's behaviour, and agreesWithCurl() checks them against the real thing: Debian's curl runs the
// same command (through bash, so the quoting is bash's too) against a loopback listener that records the
// request, and the method, target, headers and body must be exactly what the parser said.
#include "http/curloptions.h"
#include "http/curlrequest.h"
#include "http/shellwords.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

// Accepts one request at a time, keeps its bytes and answers 200 (and 100 Continue to Expect).
class RecordingServer : public QTcpServer
{
public:
    QByteArray request;
    bool complete = false;

    RecordingServer()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onData(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }

private:
    void onData(QTcpSocket* s)
    {
        request += s->readAll();
        const qsizetype end = request.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QByteArray head = request.left(end).toLower();
        qint64 length = 0;
        for (const QByteArray& line : head.split('\n')) {
            if (line.startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        }
        if (request.size() - end - 4 < length) {
            if (head.contains("expect: 100-continue") && !s->property("continued").toBool()) {
                s->setProperty("continued", true);
                s->write("HTTP/1.1 100 Continue\r\n\r\n");
            }
            return;
        }
        complete = true;
        s->write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        s->disconnectFromHost();
    }
};

struct Wire
{
    QByteArray method;
    QByteArray target;
    HttpHeaderList headers; // without curl's own Host, User-Agent, Accept: */*, Content-Length, Expect
    QList<QByteArray> allNames; // every header name, lower case
    QByteArray body;
};

Wire parseWire(const QByteArray& raw)
{
    Wire w;
    const qsizetype end = raw.indexOf("\r\n\r\n");
    const QList<QByteArray> lines = raw.left(end).split('\n');
    const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
    w.method = first.value(0);
    w.target = first.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = line.left(colon).trimmed();
        const QByteArray value = line.mid(colon + 1).trimmed();
        const QByteArray lower = name.toLower();
        w.allNames << lower;
        if (lower == "host" || lower == "content-length" || lower == "expect" || (lower == "user-agent" && value.startsWith("curl/"))
            || (lower == "accept" && value == "*/*"))
            continue;
        w.headers.append({ name, value });
    }
    w.body = raw.mid(end + 4);
    return w;
}

QStringList sortedLines(const HttpHeaderList& headers)
{
    QStringList out;
    for (const auto& [name, value] : headers)
        out << QString::fromLatin1(name.toLower()) + u": "_s + QString::fromUtf8(value);
    out.sort();
    return out;
}

QStringList headerLines(const HttpHeaderList& headers)
{
    QStringList out;
    for (const auto& [name, value] : headers)
        out << QString::fromLatin1(name) + u": "_s + QString::fromUtf8(value);
    return out;
}

} // namespace

class TestCurlRequest : public QObject
{
    Q_OBJECT
    QTemporaryDir m_files;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_files.isValid());
        const auto write = [this](const char* name, const QByteArray& bytes) {
            QFile f(m_files.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        };
        write("body.txt", "line1\nline2\r\n");
        write("body.json", "{\"from\": \"file\"}\n");
        write("hdrs.txt", "X-From-File: 1\nX-Other: two words\n");
    }

    void shellWords_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("words");
        QTest::addRow("single quotes keep everything") << u"a 'b \\ \"c\"' d"_s << QStringList { u"a"_s, u"b \\ \"c\""_s, u"d"_s };
        QTest::addRow("double quotes escape \\\" and \\\\ only") << u"\"x \\\"y\\\" \\n\""_s << QStringList { u"x \"y\" \\n"_s };
        QTest::addRow("backslash-newline continues") << u"a \\\n  b"_s << QStringList { u"a"_s, u"b"_s };
        QTest::addRow("$'…' ANSI-C escapes") << u"$'a\\nb\\t\\x41\\'c'"_s << QStringList { u"a\nb\tA'c"_s };
        QTest::addRow("$'…' UTF-8 bytes") << u"$'\\xc3\\xa9'"_s << QStringList { u"é"_s };
        QTest::addRow("adjacent parts are one word") << u"-H'X: '\"1\""_s << QStringList { u"-HX: 1"_s };
        QTest::addRow("empty quotes are a word") << u"-d ''"_s << QStringList { u"-d"_s, QString() };
    }
    void shellWords()
    {
        QFETCH(QString, text);
        const ShellWords::Result r = ShellWords::split(text);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QTEST(r.words, "words");
    }

    void optionTableIsCurls()
    {
        QCOMPARE(CurlOptions::count(), 250); // `curl --help all` of 7.88.1
        QVERIFY(CurlOptions::byName(u"retry") && CurlOptions::byName(u"retry")->takesValue);
        QVERIFY(CurlOptions::byName(u"compressed") && !CurlOptions::byName(u"compressed")->takesValue);
        QCOMPARE(CurlOptions::byShort(u'X')->name, "request"_L1);
        QVERIFY(!CurlOptions::byName(u"bogus"));
    }

    void parses_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("url");
        QTest::addColumn<QStringList>("headers");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("notApplied");
        const QStringList none;
        QTest::addRow("plain GET") << u"curl https://api.example.com/v1/x"_s << u"GET"_s << u"https://api.example.com/v1/x"_s << none << QByteArray() << 0;
        QTest::addRow("issue 15: --retry 3 is an option, not a URL") << u"curl --retry 3 http://h/p"_s << u"GET"_s << u"http://h/p"_s << none << QByteArray() << 0;
        QTest::addRow("issue 15: -u and -H Authorization give one row")
            << u"curl -u user:pass -H 'Authorization: Bearer x' http://h/"_s << u"GET"_s << u"http://h/"_s
            << QStringList { u"Authorization: Bearer x"_s } << QByteArray() << 1;
        QTest::addRow("issue 15: --compressed is mapped") << u"curl --compressed http://h/"_s << u"GET"_s << u"http://h/"_s
            << QStringList { u"Accept-Encoding: deflate, gzip, br, zstd"_s } << QByteArray() << 0;
        QTest::addRow("issue 15: --data-raw is a form post")
            << u"curl --data-raw '{\"a\":1}' http://h/"_s << u"POST"_s << u"http://h/"_s
            << QStringList { u"Content-Type: application/x-www-form-urlencoded"_s } << QByteArray("{\"a\":1}") << 0;
        QTest::addRow("-X and headers, quoted")
            << u"curl -X put -H 'Content-Type: application/json' -H \"X-Id: 7\" --data-raw '{\"k\": \"v w\"}' 'http://h/p?q=1'"_s
            << u"PUT"_s << u"http://h/p?q=1"_s << QStringList { u"Content-Type: application/json"_s, u"X-Id: 7"_s }
            << QByteArray("{\"k\": \"v w\"}") << 0;
        QTest::addRow("output flags are reported, not applied") << u"curl -s -S -o /dev/null -w '%{http_code}' -k https://h/"_s
            << u"GET"_s << u"https://h/"_s << none << QByteArray() << 5;
        QTest::addRow("--json adds two headers") << u"curl --json '{}' https://h/j"_s << u"POST"_s << u"https://h/j"_s
            << QStringList { u"Content-Type: application/json"_s, u"Accept: application/json"_s } << QByteArray("{}") << 0;
        QTest::addRow("-I is HEAD") << u"curl -I https://h/"_s << u"HEAD"_s << u"https://h/"_s << none << QByteArray() << 0;
        QTest::addRow("-G moves data to the query") << u"curl -G -d a=1 -d b=2 'http://h/p?q=0'"_s << u"GET"_s
            << u"http://h/p?q=0&a=1&b=2"_s << none << QByteArray() << 0;
        QTest::addRow("no scheme: http:// as curl assumes") << u"curl 127.0.0.1:18080/charge"_s << u"GET"_s
            << u"http://127.0.0.1:18080/charge"_s << none << QByteArray() << 0;
        QTest::addRow("clustered short options") << u"curl -sSLXPATCH -dx http://h/"_s << u"PATCH"_s << u"http://h/"_s
            << QStringList { u"Content-Type: application/x-www-form-urlencoded"_s } << QByteArray("x") << 2;
        QTest::addRow("-H 'Accept:' removes curl's own") << u"curl -H 'Accept:' http://h/"_s << u"GET"_s << u"http://h/"_s
            << none << QByteArray() << 0;
        QTest::addRow("a proxy is reported") << u"curl -x http://proxy:3128 http://h/"_s << u"GET"_s << u"http://h/"_s
            << none << QByteArray() << 1;
        QTest::addRow("--no-location") << u"curl -L --no-location http://h/"_s << u"GET"_s << u"http://h/"_s << none << QByteArray() << 0;
    }
    void parses()
    {
        QFETCH(QString, command);
        const CurlRequest c = CurlRequestParser::parse(command, m_files.path());
        QVERIFY2(c.ok(), qPrintable(c.error));
        QTEST(c.method, "method");
        QTEST(c.url, "url");
        QTEST(headerLines(c.headers), "headers");
        QTEST(c.body, "body");
        QTEST(int(c.notApplied().size()), "notApplied");
        for (const CurlOptionNote& n : c.notes)
            QVERIFY2(!n.text.isEmpty(), qPrintable(n.option));
    }

    void retryOptions()
    {
        const CurlRequest c = CurlRequestParser::parse(
            u"curl --retry 3 --retry-delay 2 --retry-max-time 30 --retry-all-errors --retry-connrefused -m 5 "
            "--connect-timeout 1.5 -L --http1.1 http://h/"_s);
        QVERIFY2(c.ok(), qPrintable(c.error));
        QCOMPARE(c.retry.retries, 3);
        QCOMPARE(c.retry.delay, std::chrono::milliseconds(2000));
        QCOMPARE(c.retry.maxTime, std::chrono::milliseconds(30000));
        QVERIFY(c.retry.allErrors && c.retry.connectionRefused);
        QCOMPARE(c.maxTime, std::chrono::milliseconds(5000));
        QCOMPARE(c.connectTimeout, std::chrono::milliseconds(1500));
        QVERIFY(c.followRedirects);
        QCOMPARE(c.http2, false);
        QVERIFY(c.notApplied().isEmpty());
        QCOMPARE(c.removedHeaders, QList<QByteArray>());
        QCOMPARE(CurlRequestParser::parse(u"curl -H 'User-Agent:' -H 'Accept:' http://h/"_s).removedHeaders,
            (QList<QByteArray> { "user-agent", "accept" }));
    }

    void reportsProblems_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("error");
        QTest::addRow("quote left open") << u"curl 'http://h/"_s << u"quote is not closed"_s;
        QTest::addRow("-H without a value") << u"curl -H"_s << u"-H needs a value"_s;
        QTest::addRow("no URL") << u"curl -s"_s << u"no URL"_s;
        QTest::addRow("two URLs") << u"curl http://a/ http://b/"_s << u"more than one URL"_s;
        QTest::addRow("unknown option") << u"curl --bogus http://h/"_s << u"curl has no option --bogus"_s;
        QTest::addRow("--retry=3 (curl takes the next word)") << u"curl --retry=3 http://h/"_s << u"--retry 3"_s;
        QTest::addRow("unknown short option") << u"curl -ç http://h/"_s << u"no option -ç"_s;
        QTest::addRow("bad --retry") << u"curl --retry many http://h/"_s << u"not a number of retries"_s;
        QTest::addRow("bad -m") << u"curl -m soon http://h/"_s << u"not a number of seconds"_s;
        QTest::addRow("multipart") << u"curl -F a=1 http://h/"_s << u"multipart"_s;
        QTest::addRow("--next") << u"curl http://a/ --next http://b/"_s << u"one request"_s;
        QTest::addRow("-u without a password") << u"curl -u me http://h/"_s << u"no password"_s;
        QTest::addRow("digest with -u") << u"curl --digest -u a:b http://h/"_s << u"challenge"_s;
        QTest::addRow("-I with a body") << u"curl -I -d x http://h/"_s << u"-I cannot send a body"_s;
        QTest::addRow("a missing @file") << u"curl -d @nosuchfile http://h/"_s << u"cannot be read"_s;
        QTest::addRow("stdin") << u"curl --data-binary @- http://h/"_s << u"standard input"_s;
        QTest::addRow("a glob") << u"curl 'http://h/p/[1-3]'"_s << u"--globoff"_s;
        QTest::addRow("empty") << u"curl"_s << u"empty"_s;
    }
    void reportsProblems()
    {
        QFETCH(QString, command);
        QFETCH(QString, error);
        const CurlRequest c = CurlRequestParser::parse(command, m_files.path());
        QVERIFY(!c.ok());
        QVERIFY2(c.error.contains(error), qPrintable(c.error));
    }

    void agreesWithCurl_data()
    {
        QTest::addColumn<QString>("command");
        const QString rows[] = {
            u"curl -u user:pass -H 'Authorization: Bearer x' URL"_s,
            u"curl --compressed URL"_s,
            u"curl --data-raw '{\"a\":1}' URL"_s,
            u"curl --retry 3 --retry-delay 1 --retry-max-time 30 -m 5 --connect-timeout 3 URL"_s,
            u"curl -H 'Accept:' -H 'X-Empty;' URL"_s,
            u"curl -d a=1 -d 'b=2 3' URL"_s,
            u"curl -G -d a=1 -d b=2 'URL?q=0'"_s,
            u"curl --json '{}' URL"_s,
            u"curl -d a=1 --json '{}' URL"_s,
            u"curl --json '{}' -d a=1 URL"_s,
            u"curl --json @body.json URL"_s,
            u"curl --data-urlencode 'name=a b&c' --data-urlencode '=x y' --data-urlencode 'plain z' URL"_s,
            u"curl --data-urlencode 'k=~a.b-c_d*!' --data-urlencode $'\\xc3\\xa9 \\xc3\\xbc' URL"_s,
            u"curl -A agent -H 'User-Agent: h' URL"_s,
            u"curl -e ref -b 'a=1; b=2' --oauth2-bearer tok URL"_s,
            u"curl -b a=1 -b c=2 URL"_s,
            u"curl -XPUT -HX-A:1 -sSL -d x URL"_s,
            u"curl -I URL"_s,
            u"curl -d @body.txt URL"_s,
            u"curl --data-binary @body.txt URL"_s,
            u"curl -T body.txt URL"_s,
            u"curl -H 'Content-Type: text/plain' -d x -H 'X-B: 1' -H 'X-B: 2' URL"_s,
            u"curl --data-binary $'a\\nb' URL"_s,
            u"curl -X POST URL"_s,
            u"curl -X post URL"_s,
            u"curl -u justuser: URL"_s,
            u"curl 'http://us%40er:p%3Ass@HOST/userinfo'"_s,
            u"curl -r 0-99 URL"_s,
            u"curl -C 10 URL"_s,
            u"curl HOST/noscheme"_s,
            u"curl -H 'x-lower: v' -H 'Content-Type:' -d q=1 URL"_s,
            u"curl --url-query 'a=b c' --url-query '+raw=xy' 'URL?z=1'"_s,
            u"curl -H @hdrs.txt -H 'X-Sp:    lots  ' URL"_s,
            u"curl -s -S -o /dev/null -w '%{http_code}' --http1.1 -k URL"_s,
            u"curl \\\n  --request PATCH \\\n  --url URL/line \\\n  --header 'X-Y: z'"_s,
            u"curl -H 'User-Agent:' URL"_s,
        };
        for (const QString& row : rows)
            QTest::addRow("%s", qPrintable(row.mid(5).simplified().remove(u'\\').left(70))) << row;
    }
    void agreesWithCurl()
    {
        QFETCH(QString, command);
        const QString curl = QStandardPaths::findExecutable(u"curl"_s);
        const QString bash = QStandardPaths::findExecutable(u"bash"_s);
        if (curl.isEmpty() || bash.isEmpty())
            QFAIL("curl and bash are needed (packaging/install-deps.sh installs curl)");
        RecordingServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        const QString host = u"127.0.0.1:"_s + QString::number(server.serverPort());
        command.replace(u"URL"_s, u"http://"_s + host + u"/p"_s).replace(u"HOST"_s, host);

        const CurlRequest parsed = CurlRequestParser::parse(command, m_files.path());
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));

        QProcess process;
        process.setWorkingDirectory(m_files.path());
        process.setProgram(bash);
        // -q first: no ~/.curlrc; output to nowhere so curl's own printing never blocks.
        process.setArguments({ u"-c"_s, command.replace(0, 4, u"curl -q -o /dev/null -s"_s) });
        process.start();
        QVERIFY(process.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(process.state() == QProcess::NotRunning, 20000);
        QVERIFY2(server.complete, qPrintable(QString::fromLatin1(server.request + process.readAllStandardError())));

        const Wire wire = parseWire(server.request);
        QCOMPARE(QString::fromLatin1(wire.method).toUpper(), parsed.method);
        const QUrl url(parsed.url);
        const QString target = url.path(QUrl::FullyEncoded) + (url.hasQuery() ? u"?"_s + url.query(QUrl::FullyEncoded) : QString());
        QCOMPARE(QString::fromLatin1(wire.target), target);
        QCOMPARE(sortedLines(wire.headers), sortedLines(parsed.headers));
        for (const QByteArray& removed : parsed.removedHeaders)
            QVERIFY2(!wire.allNames.contains(removed), removed.constData());
        QCOMPARE(wire.body, parsed.body);
    }
};

QTEST_GUILESS_MAIN(TestCurlRequest)
#include "tst_curlrequest.moc"
