// SPDX-License-Identifier: GPL-3.0-or-later
// TargetUrl (core/http/targeturl.h): the one check for the URL requests go to, and the RFC 9110 token
// rule for methods (isHttpToken). Issue 15: "127.0.0.1:18080/charge" was refused as "not a URL with a
// host" although only its scheme was missing, and http://127.0.0.1:0/x was sent before failing.
#include "http/httptoken.h"
#include "http/targeturl.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestTargetUrl : public QObject
{
    Q_OBJECT

private slots:
    void accepted_data();
    void accepted();
    void refused_data();
    void refused();
    void problemOfAResolvedUrl();
    void tokens_data();
    void tokens();
};

void TestTargetUrl::accepted_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::addRow("http with a port and path") << u"http://127.0.0.1:18080/charge"_s << u"127.0.0.1"_s << 18080;
    QTest::addRow("https without a port") << u"https://api.example.test/v1/charges"_s << u"api.example.test"_s << -1;
    QTest::addRow("RFC 3986 §3.1: the scheme is case-insensitive") << u"HTTP://Example.COM/a"_s << u"example.com"_s << -1;
    QTest::addRow("the highest port") << u"http://h:65535"_s << u"h"_s << 65535;
    QTest::addRow("an IPv6 literal") << u"http://[::1]:8080/x"_s << u"::1"_s << 8080;
    QTest::addRow("surrounding spaces of a pasted URL") << u"  http://h/x \n"_s << u"h"_s << -1;
    QTest::addRow("a query is part of the target") << u"http://h/x?a=1&b=2"_s << u"h"_s << -1;
}

void TestTargetUrl::accepted()
{
    QFETCH(QString, text);
    QFETCH(QString, host);
    QFETCH(int, port);
    const TargetUrl::Parsed parsed = TargetUrl::parse(text);
    QVERIFY2(parsed.ok(), qPrintable(parsed.problem));
    QCOMPARE(parsed.url.host(), host);
    QCOMPARE(parsed.url.port(), port);
    QVERIFY(TargetUrl::problem(parsed.url).isEmpty());
}

void TestTargetUrl::refused_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message"); // the exact sentence
    QTest::addRow("issue 15: host, port and path without a scheme")
        << u"127.0.0.1:18080/charge"_s << u"\"127.0.0.1:18080/charge\" has no scheme: write http://127.0.0.1:18080/charge (or https://127.0.0.1:18080/charge)"_s;
    QTest::addRow("a host name with a port reads as a scheme to QUrl, still no scheme")
        << u"localhost:8080/x"_s << u"\"localhost:8080/x\" has no scheme: write http://localhost:8080/x (or https://localhost:8080/x)"_s;
    QTest::addRow("a host and path without a scheme")
        << u"api.example.test/v1"_s << u"\"api.example.test/v1\" has no scheme: write http://api.example.test/v1 (or https://api.example.test/v1)"_s;
    QTest::addRow("scheme-relative") << u"//h/x"_s << u"\"//h/x\" has no scheme: write http://h/x (or https://h/x)"_s;
    QTest::addRow("issue 15: port 0 is never connectable")
        << u"http://127.0.0.1:0/x"_s << u"\"http://127.0.0.1:0/x\": port 0 cannot be connected to; use a port from 1 to 65535"_s;
    QTest::addRow("RFC 3986 §3.2.3 port above 65535")
        << u"http://h:70000/x"_s << u"\"http://h:70000/x\" is not a valid URL: Invalid port or port number out of range"_s;
    QTest::addRow("another scheme")
        << u"ftp://h/x"_s << u"\"ftp://h/x\": the scheme \"ftp\" is not supported; use http:// or https://"_s;
    QTest::addRow("a scheme that is not followed by a port")
        << u"mailto:a@b"_s << u"\"mailto:a@b\": the scheme \"mailto\" is not supported; use http:// or https://"_s;
    QTest::addRow("no host") << u"http:///x"_s << u"\"http:///x\" has no host: write it as http://HOST[:PORT]/path"_s;
    QTest::addRow("no host, no slashes") << u"http:x"_s << u"\"http:x\" has no host: write it as http://HOST[:PORT]/path"_s;
    QTest::addRow("a space in the host")
        << u"http://exa mple.com/"_s << u"\"http://exa mple.com/\" is not a valid URL: Invalid hostname (contains invalid characters)"_s;
    QTest::addRow("a space in the path (strict parsing: nothing is re-encoded behind the user's back)")
        << u"http://h/a b"_s << u"\"http://h/a b\" is not a valid URL: Invalid path (character ' ' not permitted)"_s;
    QTest::addRow("nothing") << u"   "_s << u"no URL given: write one like http://127.0.0.1:8080/path"_s;
    QTest::addRow("not a URL at all")
        << u"ht!tp://x"_s << u"\"ht!tp://x\" is not a valid URL: Relative URL's path component contains ':' before any '/'"_s;
}

void TestTargetUrl::refused()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const TargetUrl::Parsed parsed = TargetUrl::parse(text);
    QVERIFY(!parsed.ok());
    QVERIFY(parsed.url.isEmpty());
    QCOMPARE(parsed.problem, message);
}

void TestTargetUrl::problemOfAResolvedUrl()
{
    // The run controller resolves the lab's path against the lab URL and checks the result.
    QVERIFY(TargetUrl::problem(QUrl(u"http://127.0.0.1:4000/"_s).resolved(QUrl(u"/api/orders"_s))).isEmpty());
    QCOMPARE(TargetUrl::problem(QUrl(u"http://127.0.0.1:0/x"_s)),
        u"\"http://127.0.0.1:0/x\": port 0 cannot be connected to; use a port from 1 to 65535"_s);
    QCOMPARE(TargetUrl::problem(QUrl()), u"no URL given: write one like http://127.0.0.1:8080/path"_s);
    QVERIFY(TargetUrl::problem(QUrl(u"http://h:99999/"_s)).startsWith(u"not a valid URL: Invalid port"_s));
    QVERIFY(TargetUrl::problem(QUrl(u"file:///etc/passwd"_s)).contains(u"\"file\" is not supported"_s));
}

void TestTargetUrl::tokens_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("token");
    // RFC 9110 §5.6.2 tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
    QTest::addRow("RFC 9110 §9.3.1 GET") << u"GET"_s << true;
    QTest::addRow("an extension method (RFC 9110 §16.1)") << u"PROPFIND"_s << true;
    QTest::addRow("every tchar symbol") << u"!#$%&'*+-.^_`|~09azAZ"_s << true;
    QTest::addRow("issue 15: a space splits a method") << u"G ET"_s << false;
    QTest::addRow("empty") << QString() << false;
    QTest::addRow("a separator: '('") << u"GET("_s << false;
    QTest::addRow("a separator: ':'") << u"X:Y"_s << false;
    QTest::addRow("a tab") << u"GET\t"_s << false;
    QTest::addRow("non-ASCII") << u"GËT"_s << false;
}

void TestTargetUrl::tokens()
{
    QFETCH(QString, text);
    QFETCH(bool, token);
    QCOMPARE(isHttpToken(text), token);
}

QTEST_GUILESS_MAIN(TestTargetUrl)
#include "tst_targeturl.moc"
