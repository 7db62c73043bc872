// SPDX-License-Identifier: GPL-3.0-or-later
// The one list of secret headers (core/http/secretheaders): exact names, and names containing a secret
// word, in any case. Every user of it is checked against it in tests/ui/tst_redactionagreement.
#include "http/secretheaders.h"

#include <QTest>

class TestSecretHeaders : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void names_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<bool>("secret");
        // RFC 9110 §11.6.2 / §11.7.2 credentials, RFC 6265 cookies.
        QTest::addRow("Authorization") << QByteArray("Authorization") << true;
        QTest::addRow("authorization, lower case") << QByteArray("authorization") << true;
        QTest::addRow("Proxy-Authorization") << QByteArray("Proxy-Authorization") << true;
        QTest::addRow("Cookie") << QByteArray("Cookie") << true;
        QTest::addRow("Set-Cookie") << QByteArray("SET-COOKIE") << true;
        QTest::addRow("Set-Cookie2 (RFC 2965)") << QByteArray("Set-Cookie2") << true;
        // Vendor names: a key, a token or a secret somewhere in the name.
        QTest::addRow("X-Api-Key") << QByteArray("X-Api-Key") << true;
        QTest::addRow("Api-Key") << QByteArray("api-key") << true;
        QTest::addRow("X-ApiKey") << QByteArray("X-ApiKey") << true;
        QTest::addRow("X-Auth-Token") << QByteArray("X-Auth-Token") << true;
        QTest::addRow("X-Refresh-Token (was shown in clear by the detail pane)") << QByteArray("X-Refresh-Token") << true;
        QTest::addRow("X-Amz-Security-Token") << QByteArray("X-Amz-Security-Token") << true;
        QTest::addRow("X-Client-Secret") << QByteArray("X-Client-Secret") << true;
        QTest::addRow("X-Password") << QByteArray("X-Password") << true;
        QTest::addRow("X-Credential") << QByteArray("X-Goog-Credential") << true;
        // Not secrets.
        QTest::addRow("WWW-Authenticate is a challenge") << QByteArray("WWW-Authenticate") << false;
        QTest::addRow("Content-Type") << QByteArray("Content-Type") << false;
        QTest::addRow("Idempotency-Key is not a credential") << QByteArray("Idempotency-Key") << false;
        QTest::addRow("X-Retrylab-Attempt") << QByteArray("X-Retrylab-Attempt") << false;
        QTest::addRow("Cookies-Policy is not Cookie") << QByteArray("Cookies-Policy") << false;
        QTest::addRow("empty") << QByteArray() << false;
    }
    void names()
    {
        QFETCH(QByteArray, name);
        QTEST(isSecretHeader(name), "secret");
    }

    void listsAreLowerCaseAndNonEmpty()
    {
        QVERIFY(!SecretHeaders::exactNames().isEmpty());
        QVERIFY(!SecretHeaders::nameParts().isEmpty());
        for (const QByteArrayView n : SecretHeaders::exactNames() + SecretHeaders::nameParts()) {
            QCOMPARE(n.toByteArray(), n.toByteArray().toLower());
            QVERIFY(isSecretHeader(n));
        }
    }
};

QTEST_GUILESS_MAIN(TestSecretHeaders)
#include "tst_secretheaders.moc"
