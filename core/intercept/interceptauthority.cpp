// SPDX-License-Identifier: GPL-3.0-or-later
#include "intercept/interceptauthority.h"
#include "intercept/interceptwords.h"

#include "intercept/authorityfiles.h"
#include "intercept/certificatesigning.h"
#include "intercept/leafcache.h"
#include "intercept/leafhost.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSaveFile>
#include <QSslConfiguration>
#include <QStandardPaths>
#include <QSysInfo>

#include <pwd.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

using InterceptWords::tr;

std::shared_ptr<InterceptAuthority> refuse(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return nullptr;
}

QString userName()
{
    if (const passwd* entry = ::getpwuid(::geteuid()); entry && entry->pw_name)
        return QString::fromLocal8Bit(entry->pw_name);
    const QString fromEnvironment = qEnvironmentVariable("USER");
    return fromEnvironment.isEmpty() ? QString::number(::geteuid()) : fromEnvironment;
}

QByteArray readSmallFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read \"%1\": %2").arg(path, file.errorString());
        return {};
    }
    const QByteArray bytes = file.read(256 * 1024);
    if (bytes.isEmpty())
        *error = tr("\"%1\" is empty").arg(path);
    return bytes;
}

} // namespace

struct InterceptAuthority::Private
{
    QString directory;
    OpenSsl::Key caKey;
    OpenSsl::Certificate caCertificate;
    QSslCertificate certificate;
    OpenSsl::Key leafKey; // one key pair for every leaf, made on the first miss
    QSslKey leafQtKey;
    LeafCache cache { leafCacheCapacity() };
    qint64 minted = 0;
    qint64 hits = 0;
};

InterceptAuthority::InterceptAuthority(std::unique_ptr<Private> p)
    : d(std::move(p))
{ }

InterceptAuthority::~InterceptAuthority() = default;

QString InterceptAuthority::defaultDirectory()
{
    const QString data = qEnvironmentVariable("RETRYLAB_DATA_DIR");
    if (!data.isEmpty())
        return QDir(data).filePath(u"ca"_s);
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + u"/ca"_s;
}

std::shared_ptr<InterceptAuthority> InterceptAuthority::open(const QString& dir, bool create, QString* error)
{
    if (dir.isEmpty())
        return refuse(error, tr("no CA folder given"));
    const QDir folder(dir);
    const QString keyPath = folder.filePath(QLatin1String(AuthorityFiles::kKeyFile));
    const QString certificatePath = folder.filePath(QLatin1String(AuthorityFiles::kCertificateFile));
    std::unique_ptr<QLockFile> lock;
    if (create && !QFileInfo::exists(keyPath) && !QFileInfo::exists(certificatePath)) {
        QString problem;
        if (!AuthorityFiles::makePrivateFolder(dir, &problem))
            return refuse(error, problem);
        lock = std::make_unique<QLockFile>(folder.filePath(QLatin1String(AuthorityFiles::kLockFile)));
        if (!lock->tryLock(10000))
            return refuse(error, tr("another process holds \"%1\"").arg(lock->fileName()));
        // Another process may have made the CA while this one waited for the lock: then use that one.
        if (!QFileInfo::exists(keyPath) && !QFileInfo::exists(certificatePath)) {
            auto d = std::make_unique<Private>();
            d->caKey = CertificateSigning::generateKey(&problem);
            if (d->caKey) {
                const QString commonName = u"Retrylab CA (%1@%2)"_s.arg(userName(), QSysInfo::machineHostName());
                d->caCertificate = CertificateSigning::makeAuthority(d->caKey.get(), commonName, &problem);
            }
            if (!d->caCertificate)
                return refuse(error, problem);
            // The key first: a certificate without its key would be a CA nobody can use or replace quietly.
            if (!AuthorityFiles::writeAtomically(
                    keyPath, CertificateSigning::privateKeyPem(d->caKey.get()), 0600, &problem)
                || !AuthorityFiles::writeAtomically(
                    certificatePath, CertificateSigning::certificatePem(d->caCertificate.get()), 0644, &problem))
                return refuse(error, problem);
        }
    }
    const bool hasKey = QFileInfo::exists(keyPath);
    const bool hasCertificate = QFileInfo::exists(certificatePath);
    if (!hasKey && !hasCertificate)
        return refuse(error, tr("no CA in \"%1\" yet").arg(dir));
    if (!hasKey || !hasCertificate)
        return refuse(error,
            tr("the CA in \"%1\" is incomplete: %2 is missing (`retrylab ca remove` clears it)")
                .arg(dir, QLatin1String(hasKey ? AuthorityFiles::kCertificateFile : AuthorityFiles::kKeyFile)));
    if (const QString problem = AuthorityFiles::privateKeyProblem(keyPath); !problem.isEmpty())
        return refuse(error, problem);

    QString problem;
    const QByteArray keyPem = readSmallFile(keyPath, &problem);
    if (keyPem.isEmpty())
        return refuse(error, problem);
    const QByteArray certificatePem = readSmallFile(certificatePath, &problem);
    if (certificatePem.isEmpty())
        return refuse(error, problem);
    auto d = std::make_unique<Private>();
    d->directory = dir;
    d->caKey = CertificateSigning::readPrivateKeyPem(keyPem);
    if (!d->caKey)
        return refuse(
            error, tr("\"%1\" is not a PEM private key (%2)").arg(keyPath, CertificateSigning::lastOpenSslError()));
    d->caCertificate = CertificateSigning::readCertificatePem(certificatePem);
    if (!d->caCertificate)
        return refuse(error,
            tr("\"%1\" is not a PEM certificate (%2)").arg(certificatePath, CertificateSigning::lastOpenSslError()));
    if (X509_check_private_key(d->caCertificate.get(), d->caKey.get()) != 1) {
        CertificateSigning::lastOpenSslError();
        return refuse(error, tr("the key \"%1\" does not match the certificate \"%2\"").arg(keyPath, certificatePath));
    }
    if (X509_check_ca(d->caCertificate.get()) != 1)
        return refuse(error, tr("\"%1\" is not a CA certificate").arg(certificatePath));
    d->certificate = QSslCertificate(certificatePem, QSsl::Pem);
    if (d->certificate.isNull())
        return refuse(error, tr("\"%1\" is not a PEM certificate Qt can read").arg(certificatePath));
    if (X509_cmp_current_time(X509_get0_notAfter(d->caCertificate.get())) <= 0)
        return refuse(error,
            tr("the CA certificate \"%1\" expired on %2 (`retrylab ca remove`, then make a new one)")
                .arg(certificatePath, d->certificate.expiryDate().toUTC().toString(Qt::ISODate)));
    return std::shared_ptr<InterceptAuthority>(new InterceptAuthority(std::move(d)));
}

bool InterceptAuthority::remove(const QString& dir, QString* error)
{
    const QDir folder(dir);
    for (const char* name : { AuthorityFiles::kKeyFile, AuthorityFiles::kCertificateFile, AuthorityFiles::kLockFile }) {
        const QString path = folder.filePath(QLatin1String(name));
        QFile file(path);
        if (QFileInfo(path).isSymLink() || file.exists()) {
            if (!file.remove()) {
                if (error)
                    *error = tr("cannot delete \"%1\": %2").arg(path, file.errorString());
                return false;
            }
        }
    }
    if (folder.exists() && folder.isEmpty(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot))
        QDir().rmdir(dir);
    return true;
}

QSslCertificate InterceptAuthority::certificate() const
{
    return d->certificate;
}

QString InterceptAuthority::certificatePath() const
{
    return QDir(d->directory).filePath(QLatin1String(AuthorityFiles::kCertificateFile));
}

QString InterceptAuthority::directory() const
{
    return d->directory;
}

QString InterceptAuthority::fingerprintSha256() const
{
    return QString::fromLatin1(d->certificate.digest(QCryptographicHash::Sha256).toHex(':').toUpper());
}

MintedLeaf InterceptAuthority::leafFor(const QString& host, QString* error)
{
    const std::optional<LeafHost> name = LeafHost::parse(host, error);
    if (!name)
        return MintedLeaf();
    if (const MintedLeaf* cached = d->cache.find(name->name, QDateTime::currentDateTimeUtc())) {
        ++d->hits;
        return *cached;
    }
    QString problem;
    if (!d->leafKey) {
        d->leafKey = CertificateSigning::generateKey(&problem);
        if (d->leafKey)
            d->leafQtKey = QSslKey(CertificateSigning::privateKeyPem(d->leafKey.get()), QSsl::Ec, QSsl::Pem);
        if (!d->leafKey || d->leafQtKey.isNull()) {
            d->leafKey.reset();
            if (error)
                *error = problem.isEmpty() ? tr("cannot use the leaf key") : problem;
            return MintedLeaf();
        }
    }
    const OpenSsl::Certificate leaf
        = CertificateSigning::makeLeaf(d->caCertificate.get(), d->caKey.get(), d->leafKey.get(), *name, &problem);
    MintedLeaf minted;
    if (leaf)
        minted
            = MintedLeaf { QSslCertificate(CertificateSigning::certificatePem(leaf.get()), QSsl::Pem), d->leafQtKey };
    if (minted.isNull()) {
        if (error)
            *error = problem.isEmpty() ? tr("cannot mint a certificate for \"%1\"").arg(name->name) : problem;
        return MintedLeaf();
    }
    ++d->minted;
    d->cache.insert(name->name, minted);
    return minted;
}

qint64 InterceptAuthority::mintedCount() const
{
    return d->minted;
}

qint64 InterceptAuthority::cacheHits() const
{
    return d->hits;
}

bool InterceptAuthority::writeTrustBundle(const QString& path, QString* error) const
{
    QByteArray bundle;
    for (const QSslCertificate& system : QSslConfiguration::systemCaCertificates())
        bundle += system.toPem();
    bundle += "# Retrylab CA " + fingerprintSha256().toLatin1() + '\n' + d->certificate.toPem();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bundle) != bundle.size() || !file.commit()) {
        if (error)
            *error = tr("cannot write \"%1\": %2").arg(path, file.errorString());
        return false;
    }
    return true;
}
