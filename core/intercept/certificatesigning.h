// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "intercept/opensslhandles.h"

#include <QByteArray>
#include <QString>

struct LeafHost;

// The OpenSSL 3 steps that make Retrylab's CA and its leaves (Qt has no API that generates either).
// Each returns an empty handle and sets *ERROR (one line, OpenSSL's reason appended) when OpenSSL fails.
namespace CertificateSigning {

// A fresh EC P-256 key pair.
OpenSsl::Key generateKey(QString* error);

// A self-signed CA certificate for KEY: COMMONNAME, valid from a day ago for ten years,
// BasicConstraints critical CA:TRUE pathlen:0, KeyUsage keyCertSign|cRLSign, subject key identifier.
OpenSsl::Certificate makeAuthority(EVP_PKEY* key, const QString& commonName, QString* error);

// A server certificate for HOST carrying LEAFKEY's public key, signed SHA-256 by CA/CAKEY: valid from a day
// ago for 30 days (never past the CA's end), a random 128-bit serial, CN and subjectAltName HOST, EKU
// serverAuth, KU digitalSignature, CA:FALSE, subject and authority key identifiers.
OpenSsl::Certificate makeLeaf(X509* ca, EVP_PKEY* caKey, EVP_PKEY* leafKey, const LeafHost& host, QString* error);

QByteArray certificatePem(X509* certificate);
QByteArray privateKeyPem(EVP_PKEY* key); // unencrypted PKCS#8
OpenSsl::Certificate readCertificatePem(const QByteArray& pem);
OpenSsl::Key readPrivateKeyPem(const QByteArray& pem);

// OpenSSL's reason for the last failure on this thread ("" when it gave none); empties its error queue.
QString lastOpenSslError();

} // namespace CertificateSigning
