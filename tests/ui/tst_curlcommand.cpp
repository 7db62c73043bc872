// SPDX-License-Identifier: GPL-3.0-or-later
// "Paste curl command": shell-like splitting and the options that shape a request.
#include "editors/curlcommand.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestCurlCommand : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parses_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("url");
        QTest::addColumn<int>("headers");
        QTest::addColumn<QByteArray>("body");
        QTest::addRow("plain GET") << u"curl https://api.example.com/v1/x"_s << u"GET"_s << u"https://api.example.com/v1/x"_s << 0 << QByteArray();
        QTest::addRow("body implies POST") << u"curl -d 'a=1' http://h/p"_s << u"POST"_s << u"http://h/p"_s << 0 << QByteArray("a=1");
        QTest::addRow("-X and headers, quoted") << u"curl -X put -H 'Content-Type: application/json' -H \"X-Id: 7\" --data-raw '{\"k\": \"v w\"}' 'http://h/p?q=1'"_s
                                                << u"PUT"_s << u"http://h/p?q=1"_s << 2 << QByteArray("{\"k\": \"v w\"}");
        QTest::addRow("line continuations and flags") << u"curl -s -L \\\n  --compressed \\\n  -H 'Accept: */*' https://h/"_s << u"GET"_s << u"https://h/"_s << 1 << QByteArray();
        QTest::addRow("--json adds two headers") << u"curl --json '{}' https://h/j"_s << u"POST"_s << u"https://h/j"_s << 2 << QByteArray("{}");
        QTest::addRow("-I is HEAD") << u"curl -I https://h/"_s << u"HEAD"_s << u"https://h/"_s << 0 << QByteArray();
    }
    void parses()
    {
        QFETCH(QString, command);
        const CurlCommand c = CurlCommand::parse(command);
        QVERIFY2(c.ok(), qPrintable(c.error));
        QTEST(c.method, "method");
        QTEST(c.url, "url");
        QTEST(int(c.headers.size()), "headers");
        QTEST(c.body, "body");
    }

    void reportsProblems()
    {
        QVERIFY(!CurlCommand::parse(u"curl 'http://h/"_s).ok());
        QVERIFY(!CurlCommand::parse(u"curl -H"_s).ok());
        QVERIFY(!CurlCommand::parse(u"curl -H nocolon http://h/"_s).ok());
        QVERIFY(!CurlCommand::parse(u"curl -s"_s).ok());
    }
};

QTEST_GUILESS_MAIN(TestCurlCommand)
#include "tst_curlcommand.moc"
