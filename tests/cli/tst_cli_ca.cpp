// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab ca show|create|export|remove` on the real binary, in a temporary RETRYLAB_DATA_DIR (the
// user's own CA is never touched), with openssl reading what it exports.
#include "cliprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSslCertificate>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace Qt::StringLiterals;
using CliProcess::retrylab;

namespace {

QString text(const QByteArray& bytes)
{
    return QString::fromUtf8(bytes);
}

// "SHA-256:      AB:CD:…" in show's output.
QString fingerprintIn(const QString& shown)
{
    const QRegularExpressionMatch m
        = QRegularExpression(u"^SHA-256: +([0-9A-F:]{95})$"_s, QRegularExpression::MultilineOption).match(shown);
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace

class TestCliCa : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void showWithoutCa();
    void lifecycle();
    void exportDerReadByOpenssl();
    void explicitDir();
    void looseKeyRefused();
    void help();

private:
    QTemporaryDir m_tmp;
    QString m_data;
    QString caDir() const { return m_data + u"/ca"_s; }
};

void TestCliCa::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    m_data = m_tmp.filePath(u"data"_s);
    qputenv("RETRYLAB_DATA_DIR", QFile::encodeName(m_data)); // inherited by every retrylab started here
}

void TestCliCa::init()
{
    QDir(m_data).removeRecursively();
}

void TestCliCa::showWithoutCa()
{
    const CliProcess::Result r = retrylab({ u"ca"_s, u"show"_s });
    QCOMPARE(r.exit, 0);
    QCOMPARE(text(r.out),
        u"no CA in \"%1\" yet: it is made on the first `retrylab serve --proxy`, or now by `retrylab ca create`\n"_s
            .arg(caDir()));
    QVERIFY(r.err.isEmpty());
    QVERIFY(!QFileInfo::exists(m_data)); // showing creates nothing
}

void TestCliCa::lifecycle()
{
    const CliProcess::Result made = retrylab({ u"ca"_s, u"create"_s });
    QVERIFY2(made.exit == 0, made.err.constData());
    const QString shown = text(made.out);
    QVERIFY2(shown.startsWith(u"made a new CA:\n"_s), qPrintable(shown));
    QVERIFY(shown.contains(u"certificate:  %1/ca-cert.pem\n"_s.arg(caDir())));
    QVERIFY(shown.contains(u"subject:      CN=Retrylab CA ("_s));
    QVERIFY(shown.contains(u"(3649 days left)"_s) || shown.contains(u"(3650 days left)"_s));
    const QString fingerprint = fingerprintIn(shown);
    QVERIFY2(!fingerprint.isEmpty(), qPrintable(shown));
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(caDir() + u"/ca-key.pem"_s).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, mode_t(0600));

    const CliProcess::Result again = retrylab({ u"ca"_s, u"create"_s });
    QCOMPARE(again.exit, 0);
    QVERIFY(text(again.out).startsWith(u"a CA exists already; it is kept:\n"_s));
    QCOMPARE(fingerprintIn(text(again.out)), fingerprint);
    const CliProcess::Result show = retrylab({ u"ca"_s, u"show"_s });
    QCOMPARE(show.exit, 0);
    QCOMPARE(fingerprintIn(text(show.out)), fingerprint);

    // export: PEM on stdout is the certificate file itself; never the key.
    const CliProcess::Result pem = retrylab({ u"ca"_s, u"export"_s });
    QCOMPARE(pem.exit, 0);
    QFile certificate(caDir() + u"/ca-cert.pem"_s);
    QVERIFY(certificate.open(QIODevice::ReadOnly));
    QCOMPARE(pem.out, certificate.readAll());
    QVERIFY(!pem.out.contains("PRIVATE KEY"));
    const QString out = m_tmp.filePath(u"exported.pem"_s);
    const CliProcess::Result written = retrylab({ u"ca"_s, u"export"_s, u"--out"_s, out });
    QCOMPARE(written.exit, 0);
    QCOMPARE(text(written.out), u"wrote the CA certificate to %1 (PEM, SHA-256 %2)\n"_s.arg(out, fingerprint));
    QCOMPARE(QSslCertificate::fromPath(out).value(0).digest(QCryptographicHash::Sha256).toHex(':').toUpper(),
        fingerprint.toLatin1());

    const CliProcess::Result unconfirmed = retrylab({ u"ca"_s, u"remove"_s });
    QCOMPARE(unconfirmed.exit, 2);
    QVERIFY(QFileInfo::exists(caDir() + u"/ca-key.pem"_s));
    const CliProcess::Result removed = retrylab({ u"ca"_s, u"remove"_s, u"--yes"_s });
    QCOMPARE(removed.exit, 0);
    QCOMPARE(text(removed.out), u"removed the CA in \"%1\" (SHA-256 %2)\n"_s.arg(caDir(), fingerprint));
    QVERIFY(!QFileInfo::exists(caDir()));
    const CliProcess::Result none = retrylab({ u"ca"_s, u"remove"_s, u"--yes"_s });
    QCOMPARE(none.exit, 0);
    QCOMPARE(text(none.out), u"no CA in \"%1\": nothing to remove\n"_s.arg(caDir()));
    const CliProcess::Result exportNone = retrylab({ u"ca"_s, u"export"_s });
    QCOMPARE(exportNone.exit, 1);
    QVERIFY(exportNone.out.isEmpty());
    QVERIFY(text(exportNone.err).startsWith(u"retrylab ca export: no CA in \"%1\" yet"_s.arg(caDir())));

    // A new CA is another CA: clients must be told to trust it again.
    const CliProcess::Result remade = retrylab({ u"ca"_s, u"create"_s });
    QCOMPARE(remade.exit, 0);
    QVERIFY(fingerprintIn(text(remade.out)) != fingerprint);
}

void TestCliCa::exportDerReadByOpenssl()
{
    if (QStandardPaths::findExecutable(u"openssl"_s).isEmpty())
        QSKIP("openssl is needed");
    const CliProcess::Result made = retrylab({ u"ca"_s, u"create"_s });
    QCOMPARE(made.exit, 0);
    const QString der = m_tmp.filePath(u"ca.der"_s);
    QCOMPARE(retrylab({ u"ca"_s, u"export"_s, u"--format"_s, u"der"_s, u"--out"_s, der }).exit, 0);
    QProcess openssl;
    openssl.start(u"openssl"_s,
        { u"x509"_s, u"-inform"_s, u"der"_s, u"-in"_s, der, u"-noout"_s, u"-fingerprint"_s, u"-sha256"_s, u"-ext"_s,
            u"basicConstraints,keyUsage"_s });
    QVERIFY(openssl.waitForFinished(20000));
    QCOMPARE(openssl.exitCode(), 0);
    const QString described = text(openssl.readAllStandardOutput());
    QVERIFY2(
        described.contains(u"=" + fingerprintIn(text(made.out))), qPrintable(described)); // "sha256 Fingerprint=AB:…"
    QVERIFY2(described.contains(u"CA:TRUE, pathlen:0"_s), qPrintable(described));
    QVERIFY2(described.contains(u"Certificate Sign, CRL Sign"_s), qPrintable(described));
}

void TestCliCa::explicitDir()
{
    const QString dir = m_tmp.filePath(u"elsewhere/ca"_s);
    const CliProcess::Result made = retrylab({ u"ca"_s, u"create"_s, u"--dir"_s, dir });
    QCOMPARE(made.exit, 0);
    QVERIFY(text(made.out).contains(u"folder:       %1\n"_s.arg(dir)));
    QVERIFY(!QFileInfo::exists(caDir()));
    QCOMPARE(retrylab({ u"ca"_s, u"show"_s, u"--dir="_s + dir }).exit, 0);
    QCOMPARE(retrylab({ u"ca"_s, u"remove"_s, u"--yes"_s, u"--dir"_s, dir }).exit, 0);
    QVERIFY(!QFileInfo::exists(dir));
}

void TestCliCa::looseKeyRefused()
{
    QCOMPARE(retrylab({ u"ca"_s, u"create"_s }).exit, 0);
    const QString key = caDir() + u"/ca-key.pem"_s;
    QCOMPARE(::chmod(QFile::encodeName(key).constData(), 0644), 0);
    const QString expected
        = u"\"%1\" has permissions 0644, open to group or others: the CA key must be mode 0600 (chmod 600 it, "
          "or `retrylab ca remove` and make a new CA)\n"_s.arg(key);
    for (const QString& action : { u"show"_s, u"export"_s, u"create"_s }) {
        const CliProcess::Result r = retrylab({ u"ca"_s, action });
        QCOMPARE(r.exit, 1);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(text(r.err), u"retrylab ca "_s + action + u": "_s + expected);
    }
    // remove still deletes it: it is how a user gets out of this.
    QCOMPARE(retrylab({ u"ca"_s, u"remove"_s, u"--yes"_s }).exit, 0);
    QVERIFY(!QFileInfo::exists(key));
}

void TestCliCa::help()
{
    const CliProcess::Result r = retrylab({ u"help"_s, u"ca"_s });
    QCOMPARE(r.exit, 0);
    QVERIFY(text(r.out).startsWith(u"Usage: retrylab ca show"_s));
    const CliProcess::Result list = retrylab({ u"--help"_s });
    QVERIFY(text(list.out).contains(u"  ca        show, create, export or remove the CA"_s));
}

QTEST_GUILESS_MAIN(TestCliCa)
#include "tst_cli_ca.moc"
