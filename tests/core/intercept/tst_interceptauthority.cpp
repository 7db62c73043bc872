// SPDX-License-Identifier: GPL-3.0-or-later
// InterceptAuthority: the CA's files (created once, reopened the same, refused when unsafe or damaged)
// and the leaves it mints (names, extensions, lifetimes, one key, the LRU cache).
#include "intercept/certificatesigning.h"
#include "intercept/interceptauthority.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QRegularExpression>
#include <QSslCertificateExtension>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace Qt::StringLiterals;

namespace {

mode_t modeOf(const QString& path)
{
    struct stat st
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode & 0777 : 0;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QVariant extension(const QSslCertificate& certificate, const QString& name)
{
    const QList<QSslCertificateExtension> extensions = certificate.extensions();
    for (const QSslCertificateExtension& e : extensions) {
        if (e.name() == name)
            return e.value();
    }
    return {};
}

} // namespace

class TestInterceptAuthority : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void createThenReopen();
    void absentWithoutCreate();
    void defaultDirectoryFollowsEnvironment();
    void looseKeyRefused_data();
    void looseKeyRefused();
    void corruptPemRefused_data();
    void corruptPemRefused();
    void mismatchedKeyRefused();
    void incompleteRefused();
    void expiredRefused();
    void removeDeletes();
    void leafForDnsName();
    void leafForIpAddresses_data();
    void leafForIpAddresses();
    void leafSharesOneKey();
    void invalidHostGivesNullLeaf();
    void cacheHits();
    void leastRecentlyUsedEvicted();
    void trustBundleEndsWithTheCa();

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString caDir() const { return m_tmp->filePath(u"data/ca"_s); }
    QString keyPath() const { return caDir() + u"/ca-key.pem"_s; }
    QString certPath() const { return caDir() + u"/ca-cert.pem"_s; }
    std::shared_ptr<InterceptAuthority> make()
    {
        QString error;
        auto ca = InterceptAuthority::open(caDir(), true, &error);
        if (!ca)
            qWarning("%s", qPrintable(error));
        return ca;
    }
    QString refusal()
    {
        QString error;
        const auto ca = InterceptAuthority::open(caDir(), false, &error);
        return ca ? u"(opened)"_s : error;
    }
};

void TestInterceptAuthority::init()
{
    m_tmp = std::make_unique<QTemporaryDir>();
    QVERIFY(m_tmp->isValid());
}

void TestInterceptAuthority::createThenReopen()
{
    const auto made = make();
    QVERIFY(made);
    QCOMPARE(modeOf(caDir()), mode_t(0700));
    QCOMPARE(modeOf(keyPath()), mode_t(0600));
    QCOMPARE(made->certificatePath(), certPath());
    const QSslCertificate ca = made->certificate();
    QVERIFY(ca.isSelfSigned());
    QVERIFY(ca.subjectDisplayName().startsWith(u"Retrylab CA ("_s));
    QVERIFY(ca.subjectDisplayName().contains(u'@'));
    const QVariantMap constraints = extension(ca, u"basicConstraints"_s).toMap();
    QCOMPARE(constraints.value(u"ca"_s).toBool(), true);
    QCOMPARE(constraints.value(u"pathLenConstraint"_s).toInt(), 0);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QVERIFY(ca.effectiveDate() < now.addSecs(-86000));
    QVERIFY(ca.expiryDate() > now.addDays(3640));
    QVERIFY(made->fingerprintSha256().contains(QRegularExpression(u"^([0-9A-F]{2}:){31}[0-9A-F]{2}$"_s)));

    // Reopened, created or not, it is the same CA: one per user, never replaced behind their back.
    QString error;
    const auto again = InterceptAuthority::open(caDir(), false, &error);
    QVERIFY2(again, qPrintable(error));
    QCOMPARE(again->fingerprintSha256(), made->fingerprintSha256());
    QCOMPARE(make()->fingerprintSha256(), made->fingerprintSha256());
}

void TestInterceptAuthority::absentWithoutCreate()
{
    QCOMPARE(refusal(), u"no CA in \"%1\" yet"_s.arg(caDir()));
    QVERIFY(!QFileInfo::exists(caDir()));
}

void TestInterceptAuthority::defaultDirectoryFollowsEnvironment()
{
    const QByteArray before = qgetenv("RETRYLAB_DATA_DIR");
    qputenv("RETRYLAB_DATA_DIR", m_tmp->path().toUtf8());
    QCOMPARE(InterceptAuthority::defaultDirectory(), m_tmp->filePath(u"ca"_s));
    qunsetenv("RETRYLAB_DATA_DIR");
    QVERIFY(InterceptAuthority::defaultDirectory().endsWith(u"/ca"_s));
    if (!before.isEmpty())
        qputenv("RETRYLAB_DATA_DIR", before);
}

void TestInterceptAuthority::looseKeyRefused_data()
{
    QTest::addColumn<int>("mode");
    QTest::addRow("0644: readable by everyone") << 0644;
    QTest::addRow("0640: readable by the group") << 0640;
    QTest::addRow("0602: writable by others") << 0602;
}

void TestInterceptAuthority::looseKeyRefused()
{
    QFETCH(int, mode);
    QVERIFY(make());
    QCOMPARE(::chmod(QFile::encodeName(keyPath()).constData(), mode_t(mode)), 0);
    QCOMPARE(refusal(),
        u"\"%1\" has permissions 0%2, open to group or others: the CA key must be mode 0600 (chmod 600 it, or "
        "`retrylab ca remove` and make a new CA)"_s.arg(keyPath(), QString::number(mode, 8)));
    // Not "repaired" by creating either: a loose key is the user's to look at.
    QString error;
    QVERIFY(!InterceptAuthority::open(caDir(), true, &error));
    QCOMPARE(modeOf(keyPath()), mode_t(mode));
}

void TestInterceptAuthority::corruptPemRefused_data()
{
    QTest::addColumn<bool>("key");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message");
    QTest::addRow("key: random text") << true << QByteArray("not a key\n")
                                      << u"\"%KEY%\" is not a PEM private key (…)"_s;
    QTest::addRow("key: empty") << true << QByteArray() << u"\"%KEY%\" is empty"_s;
    QTest::addRow("key: a truncated PEM") << true << QByteArray("-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n")
                                          << u"\"%KEY%\" is not a PEM private key (…)"_s;
    QTest::addRow("certificate: random text")
        << false << QByteArray("garbage") << u"\"%CERT%\" is not a PEM certificate (…)"_s;
    QTest::addRow("certificate: half of it") << false << QByteArray() << u"\"%CERT%\" is not a PEM certificate (…)"_s;
}

void TestInterceptAuthority::corruptPemRefused()
{
    QFETCH(bool, key);
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    QVERIFY(make());
    const QString path = key ? keyPath() : certPath();
    if (!key && content.isEmpty()) {
        const QByteArray whole = readFile(path);
        content = whole.left(whole.size() / 2);
    }
    QVERIFY(writeFile(path, content));
    QVERIFY(QFile::setPermissions(keyPath(), QFile::ReadOwner | QFile::WriteOwner));
    const QString error = refusal();
    message.replace(u"%KEY%"_s, keyPath()).replace(u"%CERT%"_s, certPath());
    const QString head = message.section(u'…', 0, 0);
    QVERIFY2(error.startsWith(head) && error.endsWith(message.section(u'…', 1)), qPrintable(error));
    QVERIFY2(!error.contains(u'\n'), qPrintable(error));
}

void TestInterceptAuthority::mismatchedKeyRefused()
{
    QVERIFY(make());
    QString error;
    const QString other = m_tmp->filePath(u"other"_s);
    QVERIFY(InterceptAuthority::open(other, true, &error));
    QVERIFY(QFile::remove(keyPath()));
    QVERIFY(QFile::copy(other + u"/ca-key.pem"_s, keyPath()));
    QVERIFY(QFile::setPermissions(keyPath(), QFile::ReadOwner | QFile::WriteOwner));
    QCOMPARE(refusal(), u"the key \"%1\" does not match the certificate \"%2\""_s.arg(keyPath(), certPath()));
}

void TestInterceptAuthority::incompleteRefused()
{
    QVERIFY(make());
    QVERIFY(QFile::remove(certPath()));
    QCOMPARE(refusal(),
        u"the CA in \"%1\" is incomplete: ca-cert.pem is missing (`retrylab ca remove` clears it)"_s.arg(caDir()));
    QString error;
    QVERIFY(!InterceptAuthority::open(caDir(), true, &error)); // never overwrites half a CA
}

void TestInterceptAuthority::expiredRefused()
{
    // A CA whose ten years are over: the same recipe, its notAfter moved into the past and signed again.
    QString error;
    const OpenSsl::Key key = CertificateSigning::generateKey(&error);
    QVERIFY(key);
    const OpenSsl::Certificate ca = CertificateSigning::makeAuthority(key.get(), u"Retrylab CA (old)"_s, &error);
    QVERIFY(ca);
    QVERIFY(X509_time_adj_ex(X509_getm_notBefore(ca.get()), -3660, 0, nullptr));
    QVERIFY(X509_time_adj_ex(X509_getm_notAfter(ca.get()), -10, 0, nullptr));
    QVERIFY(X509_sign(ca.get(), key.get(), EVP_sha256()) > 0);
    QVERIFY(QDir().mkpath(caDir()));
    QVERIFY(writeFile(keyPath(), CertificateSigning::privateKeyPem(key.get())));
    QVERIFY(QFile::setPermissions(keyPath(), QFile::ReadOwner | QFile::WriteOwner));
    QVERIFY(writeFile(certPath(), CertificateSigning::certificatePem(ca.get())));
    const QString message = refusal();
    QVERIFY2(message.startsWith(u"the CA certificate \"%1\" expired on "_s.arg(certPath())), qPrintable(message));
}

void TestInterceptAuthority::removeDeletes()
{
    QVERIFY(make());
    QString error;
    QVERIFY2(InterceptAuthority::remove(caDir(), &error), qPrintable(error));
    QVERIFY(!QFileInfo::exists(caDir()));
    QVERIFY(InterceptAuthority::remove(caDir(), &error)); // nothing left to delete is no failure
    // A folder holding other files stays, without the CA.
    QVERIFY(make());
    QVERIFY(writeFile(caDir() + u"/notes.txt"_s, "mine"));
    QVERIFY(InterceptAuthority::remove(caDir(), &error));
    QVERIFY(QFileInfo::exists(caDir() + u"/notes.txt"_s));
    QVERIFY(!QFileInfo::exists(keyPath()));
}

void TestInterceptAuthority::leafForDnsName()
{
    const auto ca = make();
    QVERIFY(ca);
    QString error;
    const MintedLeaf leaf = ca->leafFor(u"API.Test"_s, &error);
    QVERIFY2(!leaf.isNull(), qPrintable(error));
    QVERIFY(!leaf.key.isNull());
    QCOMPARE(leaf.key.algorithm(), QSsl::Ec);
    QCOMPARE(leaf.certificate.subjectAlternativeNames().values(QSsl::DnsEntry), QStringList { u"api.test"_s });
    QCOMPARE(leaf.certificate.subjectInfo(QSslCertificate::CommonName), QStringList { u"api.test"_s });
    QCOMPARE(leaf.certificate.issuerDisplayName(), ca->certificate().subjectDisplayName());
    QVERIFY(!leaf.certificate.isSelfSigned());
    QCOMPARE(extension(leaf.certificate, u"basicConstraints"_s).toMap().value(u"ca"_s).toBool(), false);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QVERIFY(leaf.certificate.effectiveDate() <= now.addSecs(-86300)); // back-dated a day
    QVERIFY(leaf.certificate.expiryDate() > now.addDays(29));
    QVERIFY(leaf.certificate.expiryDate() < now.addDays(31));
    QCOMPARE(leaf.certificate.serialNumber().size(), 16 * 3 - 1); // 16 bytes, "xx:" each
}

void TestInterceptAuthority::leafForIpAddresses_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("address");
    QTest::addRow("IPv4") << u"127.0.0.1"_s << u"127.0.0.1"_s;
    QTest::addRow("IPv6") << u"::1"_s << u"::1"_s;
    QTest::addRow("IPv6 in brackets") << u"[2001:db8::2]"_s << u"2001:db8::2"_s;
}

void TestInterceptAuthority::leafForIpAddresses()
{
    QFETCH(QString, host);
    QFETCH(QString, address);
    const auto ca = make();
    QVERIFY(ca);
    const MintedLeaf leaf = ca->leafFor(host);
    QVERIFY(!leaf.isNull());
    const QMultiMap<QSsl::AlternativeNameEntryType, QString> names = leaf.certificate.subjectAlternativeNames();
    QCOMPARE(names.values(QSsl::IpAddressEntry).size(), 1);
    QCOMPARE(QHostAddress(names.value(QSsl::IpAddressEntry)), QHostAddress(address));
    QVERIFY(names.values(QSsl::DnsEntry).isEmpty());
}

void TestInterceptAuthority::leafSharesOneKey()
{
    const auto ca = make();
    QVERIFY(ca);
    const MintedLeaf a = ca->leafFor(u"a.test"_s);
    const MintedLeaf b = ca->leafFor(u"b.test"_s);
    QVERIFY(!a.isNull() && !b.isNull());
    QCOMPARE(a.key, b.key);
    QCOMPARE(a.certificate.publicKey(), b.certificate.publicKey());
    QVERIFY(a.certificate.serialNumber() != b.certificate.serialNumber());
    QVERIFY(a.certificate.publicKey() != ca->certificate().publicKey()); // never the CA's own key
}

void TestInterceptAuthority::invalidHostGivesNullLeaf()
{
    const auto ca = make();
    QVERIFY(ca);
    QString error;
    QVERIFY(ca->leafFor(u"a b"_s, &error).isNull());
    QCOMPARE(error, u"host \"a b\" contains \" \", which no host name has"_s);
    QVERIFY(ca->leafFor(QString()).isNull());
    QCOMPARE(ca->mintedCount(), 0);
}

void TestInterceptAuthority::cacheHits()
{
    const auto ca = make();
    QVERIFY(ca);
    const MintedLeaf first = ca->leafFor(u"api.test"_s);
    QCOMPARE(ca->mintedCount(), 1);
    QCOMPARE(ca->cacheHits(), 0);
    // The same host however the client spells it: one leaf.
    for (const QString& spelling : { u"api.test"_s, u"API.TEST"_s, u"api.test."_s })
        QCOMPARE(ca->leafFor(spelling).certificate, first.certificate);
    QCOMPARE(ca->mintedCount(), 1);
    QCOMPARE(ca->cacheHits(), 3);
    ca->leafFor(u"other.test"_s);
    QCOMPARE(ca->mintedCount(), 2);
}

void TestInterceptAuthority::leastRecentlyUsedEvicted()
{
    const auto ca = make();
    QVERIFY(ca);
    const qsizetype capacity = InterceptAuthority::leafCacheCapacity();
    QCOMPARE(capacity, 1000);
    for (qsizetype i = 0; i < capacity; ++i)
        QVERIFY(!ca->leafFor(u"h%1.test"_s.arg(i)).isNull());
    QCOMPARE(ca->mintedCount(), capacity);
    ca->leafFor(u"h0.test"_s); // h0 is now the most recently used; h1 the least
    QCOMPARE(ca->cacheHits(), 1);
    ca->leafFor(u"new.test"_s); // a full cache: h1 goes
    QCOMPARE(ca->mintedCount(), capacity + 1);
    ca->leafFor(u"h0.test"_s);
    QCOMPARE(ca->cacheHits(), 2);
    QCOMPARE(ca->mintedCount(), capacity + 1);
    ca->leafFor(u"h1.test"_s);
    QCOMPARE(ca->mintedCount(), capacity + 2);
    ca->leafFor(u"h999.test"_s);
    QCOMPARE(ca->cacheHits(), 3);
}

void TestInterceptAuthority::trustBundleEndsWithTheCa()
{
    const auto ca = make();
    QVERIFY(ca);
    const QString path = m_tmp->filePath(u"bundle.pem"_s);
    QString error;
    QVERIFY2(ca->writeTrustBundle(path, &error), qPrintable(error));
    const QList<QSslCertificate> bundle = QSslCertificate::fromPath(path);
    QVERIFY(!bundle.isEmpty());
    QCOMPARE(bundle.last(), ca->certificate());
    QCOMPARE(bundle.size(), QSslConfiguration::systemCaCertificates().size() + 1);
    QVERIFY(!ca->writeTrustBundle(m_tmp->filePath(u"missing/bundle.pem"_s), &error));
    QVERIFY(error.startsWith(u"cannot write"_s));
}

QTEST_GUILESS_MAIN(TestInterceptAuthority)
#include "tst_interceptauthority.moc"
