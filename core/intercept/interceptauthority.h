// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "intercept/mintedleaf.h"

#include <QSslCertificate>
#include <QString>

#include <memory>

// Retrylab's certificate authority for TLS interception (one per user), and the leaves it mints for the
// hosts a client reaches through the proxy. The CA is an EC P-256 key in DIR/ca-key.pem (mode 0600, in a
// 0700 folder) and a self-signed certificate in DIR/ca-cert.pem: ten years, CN "Retrylab CA (user@host)",
// BasicConstraints critical CA:TRUE pathlen:0, KeyUsage keyCertSign|cRLSign. Leaves share one EC P-256
// key pair made when the authority opens (mitmproxy and mockttp do the same: no key generation per host)
// and are cached, so a warm handshake costs no signing. Not thread-safe: use it on one thread.
class InterceptAuthority
{
public:
    ~InterceptAuthority();
    InterceptAuthority(const InterceptAuthority&) = delete;
    InterceptAuthority& operator=(const InterceptAuthority&) = delete;

    // $RETRYLAB_DATA_DIR/ca when that variable is set, else the application's local data folder + "/ca".
    static QString defaultDirectory();

    // The CA in DIR. With CREATE, one is made when DIR holds none (the folder 0700, the key written 0600
    // atomically, a lock file keeping two processes from making two). nullptr and *ERROR (one line) when
    // there is none and CREATE is false, or when its files are refused: a key readable or writable by
    // group or others, or owned by another user; an unreadable or corrupt PEM; a key that does not match
    // the certificate; a certificate that is not a CA or has expired.
    static std::shared_ptr<InterceptAuthority> open(const QString& dir, bool create, QString* error);
    // Deletes the CA's files in DIR, and DIR when that leaves it empty. True when no CA is left there
    // (also when there was none).
    static bool remove(const QString& dir, QString* error);

    QSslCertificate certificate() const;
    QString certificatePath() const;
    QString directory() const;
    QString fingerprintSha256() const; // "AB:CD:…", upper-case hex pairs separated by colons

    // A leaf for HOST (a DNS name; an IPv4 or IPv6 literal, brackets allowed, gets an IP subjectAltName),
    // signed by this CA; from the cache (LRU of leafCacheCapacity() hosts) when minted before.
    // A null MintedLeaf and *ERROR for a host no certificate can name (spaces, wildcards, empty labels…).
    MintedLeaf leafFor(const QString& host, QString* error = nullptr);
    qint64 mintedCount() const; // leaves actually minted (cache misses)
    qint64 cacheHits() const;
    static constexpr qsizetype leafCacheCapacity() { return 1000; }

    // The system's CA certificates (QSslConfiguration::systemCaCertificates()) followed by this CA, as PEM,
    // written atomically to PATH: the file SSL_CERT_FILE, CURL_CA_BUNDLE and the like point to.
    bool writeTrustBundle(const QString& path, QString* error) const;

private:
    struct Private;
    explicit InterceptAuthority(std::unique_ptr<Private> d);
    std::unique_ptr<Private> d;
};
