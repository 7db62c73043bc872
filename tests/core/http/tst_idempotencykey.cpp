// SPDX-License-Identifier: GPL-3.0-or-later
// Idempotency keys (core/http/idempotencykey.h). Rows cite /work/shared/reference/headers.md §6
// (draft-ietf-httpapi-idempotency-key-header -06, Stripe docs) and RFC 8941/9651 §3.3.3 (sf-string).
#include "http/idempotencykey.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestIdempotencyKey : public QObject
{
    Q_OBJECT

private slots:
    void newKeysAreUuidV4();
    void formats_data();
    void formats();
    void roundTrips_data();
    void roundTrips();
    void parses_data();
    void parses();
    void readsHeaderList();
};

void TestIdempotencyKey::newKeysAreUuidV4()
{
    // headers.md §6: "It is RECOMMENDED that a UUID [RFC4122] or a similar random identifier be used".
    const QString a = newIdempotencyKey();
    const QString b = newIdempotencyKey();
    QVERIFY(a != b);
    QCOMPARE(a.size(), 36);
    QCOMPARE(a.at(14), u'4'); // version 4
    QVERIFY(QStringLiteral("89ab").contains(a.at(19))); // RFC 4122 variant
    QCOMPARE(a.count(u'-'), 4);
    // retry-systems.md §9: stripe-node's "stripe-node-retry-<uuid4>".
    const QString prefixed = newIdempotencyKey(u"stripe-node-retry-"_s);
    QVERIFY(prefixed.startsWith(u"stripe-node-retry-"_s));
    QCOMPARE(prefixed.size(), 18 + 36);
    // Both formats can carry a generated key.
    QCOMPARE(formatIdempotencyKey(a, IdempotencyKeyFormat::Quoted), '"' + a.toLatin1() + '"');
    QCOMPARE(formatIdempotencyKey(a, IdempotencyKeyFormat::Bare), a.toLatin1());
}

void TestIdempotencyKey::formats_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<IdempotencyKeyFormat>("format");
    QTest::addColumn<QByteArray>("field");

    const auto quoted = IdempotencyKeyFormat::Quoted;
    const auto bare = IdempotencyKeyFormat::Bare;
    QTest::addRow("draft example, quoted (headers.md 6)") << u"8e03978e-40d5-43e8-bc93-6894a57f9324"_s << quoted << "\"8e03978e-40d5-43e8-bc93-6894a57f9324\""_ba;
    QTest::addRow("stripe docs example, bare (headers.md 6)") << u"KG5LxwFBepaKHyUD"_s << bare << "KG5LxwFBepaKHyUD"_ba;
    QTest::addRow("sf-string escapes quote and backslash (RFC 9651 3.3.3)") << u"a\"b\\c"_s << quoted << "\"a\\\"b\\\\c\""_ba;
    QTest::addRow("sf-string keeps spaces (RFC 9651 3.3.3)") << u"a b"_s << quoted << "\"a b\""_ba;
    QTest::addRow("sf-string refuses a tab (RFC 9651 3.3.3)") << u"a\tb"_s << quoted << QByteArray();
    QTest::addRow("sf-string refuses non-ASCII (RFC 9651 3.3.3)") << u"clé"_s << quoted << QByteArray();
    QTest::addRow("bare refuses a space") << u"a b"_s << bare << QByteArray();
    QTest::addRow("bare refuses a quote") << u"a\"b"_s << bare << QByteArray();
    QTest::addRow("empty key") << QString() << quoted << QByteArray();
}

void TestIdempotencyKey::formats()
{
    QFETCH(QString, key);
    QFETCH(IdempotencyKeyFormat, format);
    QFETCH(QByteArray, field);
    QCOMPARE(formatIdempotencyKey(key, format), field);
}

void TestIdempotencyKey::roundTrips_data()
{
    QTest::addColumn<QString>("key");
    QTest::addRow("uuid") << u"8e03978e-40d5-43e8-bc93-6894a57f9324"_s;
    QTest::addRow("quotes and backslashes") << u"\\\"\\\""_s;
    QTest::addRow("every printable ASCII") << [] {
        QString all;
        for (char16_t c = 0x20; c <= 0x7e; ++c)
            all += QChar(c);
        return all;
    }();
}

void TestIdempotencyKey::roundTrips()
{
    QFETCH(QString, key);
    const IdempotencyKey back = parseIdempotencyKey(formatIdempotencyKey(key, IdempotencyKeyFormat::Quoted));
    QVERIFY2(back.isValid(), qPrintable(back.error));
    QCOMPARE(back.key, key);
    QVERIFY(back.quoted);
    QVERIFY(back.conformant);
}

void TestIdempotencyKey::parses_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("key");
    QTest::addColumn<bool>("quoted");
    QTest::addColumn<bool>("conformant");

    // headers.md §6: the draft's examples are sf-strings.
    QTest::addRow("draft: uuid sf-string") << "\"8e03978e-40d5-43e8-bc93-6894a57f9324\""_ba << true << u"8e03978e-40d5-43e8-bc93-6894a57f9324"_s << true << true;
    QTest::addRow("draft: random sf-string") << "\"clkyoesmbgybucifusbbtdsbohtyuuwz\""_ba << true << u"clkyoesmbgybucifusbbtdsbohtyuuwz"_s << true << true;
    QTest::addRow("RFC 9651 4.2: surrounding spaces ignored") << "  \"abc\" "_ba << true << u"abc"_s << true << true;
    QTest::addRow("RFC 9651 3.3.3: escapes read") << "\"a\\\"b\\\\c\""_ba << true << u"a\"b\\c"_s << true << true;
    QTest::addRow("RFC 9651 3.1.2: parameters tolerated") << "\"abc\";v=1"_ba << true << u"abc"_s << true << true;
    // headers.md §6: Stripe sends unquoted keys, shown as "non-SF (raw)".
    QTest::addRow("stripe: bare key") << "KG5LxwFBepaKHyUD"_ba << true << u"KG5LxwFBepaKHyUD"_s << false << false;
    QTest::addRow("stripe-node: bare prefixed uuid") << "stripe-node-retry-8e03978e-40d5-43e8-bc93-6894a57f9324"_ba << true
                                                    << u"stripe-node-retry-8e03978e-40d5-43e8-bc93-6894a57f9324"_s << false << false;
    // Invalid: RFC 9651 §4.2.5 string parsing failures, and empty values.
    QTest::addRow("RFC 9651 4.2.5: unterminated") << "\"abc"_ba << false << QString() << false << false;
    QTest::addRow("RFC 9651 4.2.5: bad escape") << "\"a\\qb\""_ba << false << QString() << false << false;
    QTest::addRow("RFC 9651 4.2.5: control byte") << "\"ab\x01" "c\""_ba << false << QString() << false << false;
    QTest::addRow("RFC 9651 4.2.5: non-ASCII") << "\"cl\xc3\xa9\""_ba << false << QString() << false << false;
    QTest::addRow("RFC 9651 4.2: junk after the string") << "\"abc\" x"_ba << false << QString() << false << false;
    QTest::addRow("empty sf-string") << "\"\""_ba << false << QString() << false << false;
    QTest::addRow("empty value") << "  "_ba << false << QString() << false << false;
    QTest::addRow("bare key with a space") << "abc def"_ba << false << QString() << false << false;
}

void TestIdempotencyKey::parses()
{
    QFETCH(QByteArray, value);
    QFETCH(bool, valid);
    QFETCH(QString, key);
    QFETCH(bool, quoted);
    QFETCH(bool, conformant);

    const IdempotencyKey k = parseIdempotencyKey(value);
    QCOMPARE(k.raw, value);
    QCOMPARE(k.isValid(), valid);
    QCOMPARE(k.conformant, conformant);
    if (valid) {
        QCOMPARE(k.key, key);
        QCOMPARE(k.quoted, quoted);
        // A bare key always says it is one.
        QCOMPARE(k.warnings.isEmpty(), quoted && !value.contains(';'));
    } else {
        QVERIFY(!k.error.isEmpty());
    }
}

void TestIdempotencyKey::readsHeaderList()
{
    using H = QPair<QByteArray, QByteArray>;
    QVERIFY(!parseIdempotencyKeyHeader({ H("Content-Type", "text/plain") }).has_value());

    const std::optional<IdempotencyKey> one = parseIdempotencyKeyHeader({ H("idempotency-key", "\"k1\"") });
    QVERIFY(one.has_value());
    QVERIFY(one->isValid());
    QCOMPARE(one->key, u"k1"_s);

    // headers.md §6: "Clients MUST NOT include more than one Idempotency-Key header field".
    const std::optional<IdempotencyKey> two = parseIdempotencyKeyHeader({ H("Idempotency-Key", "\"k1\""), H("Idempotency-Key", "\"k2\"") });
    QVERIFY(two.has_value());
    QVERIFY(!two->isValid());
    QVERIFY(two->key.isEmpty());
    QCOMPARE(two->raw, "\"k1\""_ba);

    // headers.md §6: other names for the same concept (OpenBanking x-idempotency-key).
    const std::optional<IdempotencyKey> other = parseIdempotencyKeyHeader({ H("X-Idempotency-Key", "abc") }, "x-idempotency-key");
    QVERIFY(other.has_value());
    QCOMPARE(other->key, u"abc"_s);
    QVERIFY(!other->conformant);
}

QTEST_GUILESS_MAIN(TestIdempotencyKey)
#include "tst_idempotencykey.moc"
