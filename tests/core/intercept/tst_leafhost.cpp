// SPDX-License-Identifier: GPL-3.0-or-later
// The hosts a leaf can be minted for, as a client names them, and how the certificate spells them.
#include "intercept/leafhost.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestLeafHost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void accepted_data();
    void accepted();
    void refused_data();
    void refused();
};

void TestLeafHost::accepted_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("subjectAltName");
    QTest::addRow("a DNS name") << u"api.test"_s << u"DNS:api.test"_s;
    QTest::addRow("upper case is folded (DNS names compare case-insensitively, RFC 4343)")
        << u"API.Stripe.COM"_s << u"DNS:api.stripe.com"_s;
    QTest::addRow("a trailing dot names the same host") << u"api.test."_s << u"DNS:api.test"_s;
    QTest::addRow("a single label") << u"localhost"_s << u"DNS:localhost"_s;
    QTest::addRow("an underscore in a service name") << u"_acme.example.com"_s << u"DNS:_acme.example.com"_s;
    QTest::addRow("a 63-character label")
        << QString(63, u'a') + u".test"_s << u"DNS:"_s + QString(63, u'a') + u".test"_s;
    QTest::addRow("an IDN in its ASCII form") << u"bücher.example"_s << u"DNS:xn--bcher-kva.example"_s;
    QTest::addRow("IPv4") << u"127.0.0.1"_s << u"IP:127.0.0.1"_s;
    QTest::addRow("IPv6") << u"::1"_s << u"IP:::1"_s;
    QTest::addRow("IPv6 in brackets, as CONNECT's authority has it") << u"[2001:DB8::1]"_s << u"IP:2001:db8::1"_s;
}

void TestLeafHost::accepted()
{
    QFETCH(QString, host);
    QFETCH(QString, subjectAltName);
    QString error;
    const std::optional<LeafHost> parsed = LeafHost::parse(host, &error);
    QVERIFY2(parsed, qPrintable(error));
    QCOMPARE(parsed->subjectAltName(), subjectAltName);
}

void TestLeafHost::refused_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("message");
    QTest::addRow("empty") << QString() << u"no host name given"_s;
    QTest::addRow("a space") << u"api test"_s << u"host \"api test\" contains \" \", which no host name has"_s;
    QTest::addRow("a comma would add a second SAN entry")
        << u"a.test,DNS:evil.test"_s << u"host \"a.test,DNS:evil.test\" contains \",\", which no host name has"_s;
    QTest::addRow("a comma without a colon")
        << u"a.test,evil"_s << u"host \"a.test,evil\" contains \",\", which no host name has"_s;
    QTest::addRow("a wildcard")
        << u"*.example.com"_s
        << u"host \"*.example.com\" is a wildcard: leaves are minted for the name a client asked for"_s;
    QTest::addRow("a leading hyphen") << u"-a.test"_s
                                      << u"host \"-a.test\" is not a DNS name (letters, digits, hyphens and dots)"_s;
    QTest::addRow("an empty label") << u"a..test"_s << u"host \"a..test\" has an empty label"_s;
    QTest::addRow("a 64-character label")
        << QString(64, u'a') << u"host \"%1\" has a label longer than 63 characters"_s.arg(QString(64, u'a'));
    QTest::addRow("longer than 253") << QString(QString(60, u'a') + u'.').repeated(5) + u"test"_s
                                     << u"host \"…\" is longer than 253 characters"_s;
    QTest::addRow("an IPv4 octet above 255") << u"256.1.1.1"_s << u"host \"256.1.1.1\" is not an IPv4 address"_s;
    QTest::addRow("a short numeric form")
        << u"127.1"_s << u"host \"127.1\" is neither an IPv4 address nor a DNS name"_s;
    QTest::addRow("an IPv6 zone") << u"fe80::1%eth0"_s
                                  << u"host \"fe80::1%eth0\" contains \"%\", which no host name has"_s;
    QTest::addRow("a port") << u"api.test:443"_s << u"host \"api.test:443\" has a port: give the host alone"_s;
    QTest::addRow("IPv6 in brackets with a port") << u"[::1]:443"_s << u"host \"[::1]:443\" is not an IPv6 address"_s;
    QTest::addRow("a bracket inside") << u"a[b].test"_s
                                      << u"host \"a[b].test\" is not a DNS name (letters, digits, hyphens and dots)"_s;
}

void TestLeafHost::refused()
{
    QFETCH(QString, host);
    QFETCH(QString, message);
    QString error;
    QVERIFY(!LeafHost::parse(host, &error));
    if (message.contains(u'…'))
        QVERIFY2(error.startsWith(message.section(u'…', 0, 0)) && error.endsWith(message.section(u'…', 1)),
            qPrintable(error));
    else
        QCOMPARE(error, message);
}

QTEST_GUILESS_MAIN(TestLeafHost)
#include "tst_leafhost.moc"
