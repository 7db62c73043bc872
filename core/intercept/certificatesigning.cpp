// SPDX-License-Identifier: GPL-3.0-or-later
#include "intercept/certificatesigning.h"
#include "intercept/interceptwords.h"

#include "intercept/leafhost.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rand.h>

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

using InterceptWords::tr;

constexpr int kAuthorityDays = 3650;
constexpr int kLeafDays = 30;


void fail(QString* error, const QString& what)
{
    if (!error)
        return;
    const QString reason = CertificateSigning::lastOpenSslError();
    *error = reason.isEmpty() ? what : what + u" ("_s + reason + u')';
}

bool addExtension(X509* x, X509V3_CTX* context, int nid, const char* value)
{
    const OpenSsl::Extension extension(X509V3_EXT_conf_nid(nullptr, context, nid, value));
    return extension && X509_add_ext(x, extension.get(), -1) == 1;
}

bool setRandomSerial(X509* x)
{
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        return false;
    bytes[0] = (bytes[0] & 0x7f) | 0x40; // positive (RFC 5280 §4.1.2.2) and never zero, always 16 bytes
    const OpenSsl::BigNumber number(BN_bin2bn(bytes, sizeof bytes, nullptr));
    return number && BN_to_ASN1_INTEGER(number.get(), X509_get_serialNumber(x));
}

bool setCommonName(X509_NAME* name, const QString& commonName)
{
    const QByteArray utf8 = commonName.toUtf8();
    return X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
               reinterpret_cast<const unsigned char*>(utf8.constData()), int(utf8.size()), -1, 0)
        == 1;
}

// Version 3, a random serial, notBefore a day ago (clients whose clocks run slow still accept it), and PUBLICKEY.
OpenSsl::Certificate newCertificate(EVP_PKEY* publicKey, int days)
{
    OpenSsl::Certificate x(X509_new());
    if (!x || X509_set_version(x.get(), 2) != 1 || !setRandomSerial(x.get())
        || !X509_time_adj_ex(X509_getm_notBefore(x.get()), -1, 0, nullptr)
        || !X509_time_adj_ex(X509_getm_notAfter(x.get()), days, 0, nullptr) || X509_set_pubkey(x.get(), publicKey) != 1)
        return {};
    return x;
}

} // namespace

namespace CertificateSigning {

OpenSsl::Key generateKey(QString* error)
{
    OpenSsl::Key key(EVP_EC_gen("P-256"));
    if (!key)
        fail(error, tr("cannot generate an EC P-256 key"));
    return key;
}

OpenSsl::Certificate makeAuthority(EVP_PKEY* key, const QString& commonName, QString* error)
{
    OpenSsl::Certificate x = newCertificate(key, kAuthorityDays);
    X509V3_CTX context;
    bool ok = x && setCommonName(X509_get_subject_name(x.get()), commonName)
        && X509_NAME_add_entry_by_txt(X509_get_subject_name(x.get()), "O", MBSTRING_UTF8,
               reinterpret_cast<const unsigned char*>("Retrylab"), -1, -1, 0)
            == 1
        && X509_set_issuer_name(x.get(), X509_get_subject_name(x.get())) == 1;
    if (ok) {
        X509V3_set_ctx_nodb(&context);
        X509V3_set_ctx(&context, x.get(), x.get(), nullptr, nullptr, 0);
        ok = addExtension(x.get(), &context, NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
            && addExtension(x.get(), &context, NID_key_usage, "critical,keyCertSign,cRLSign")
            && addExtension(x.get(), &context, NID_subject_key_identifier, "hash")
            && X509_sign(x.get(), key, EVP_sha256()) > 0;
    }
    if (!ok) {
        fail(error, tr("cannot make the CA certificate"));
        return {};
    }
    return x;
}

OpenSsl::Certificate makeLeaf(X509* ca, EVP_PKEY* caKey, EVP_PKEY* leafKey, const LeafHost& host, QString* error)
{
    OpenSsl::Certificate x = newCertificate(leafKey, kLeafDays);
    bool ok = bool(x);
    if (ok && ASN1_TIME_compare(X509_get0_notAfter(x.get()), X509_get0_notAfter(ca)) > 0)
        ok = X509_set1_notAfter(x.get(), X509_get0_notAfter(ca)) == 1;
    // A CN is at most 64 characters (RFC 5280 ub-common-name); clients read the subjectAltName anyway.
    if (ok && host.name.size() <= 64)
        ok = setCommonName(X509_get_subject_name(x.get()), host.name);
    ok = ok && X509_set_issuer_name(x.get(), X509_get_subject_name(ca)) == 1;
    if (ok) {
        X509V3_CTX context;
        X509V3_set_ctx_nodb(&context);
        X509V3_set_ctx(&context, ca, x.get(), nullptr, nullptr, 0);
        const QByteArray altName = host.subjectAltName().toLatin1();
        // Without a CN the subjectAltName is the whole identity and must be critical (RFC 5280 §4.2.1.6).
        const QByteArray altValue = host.name.size() <= 64 ? altName : "critical," + altName;
        ok = addExtension(x.get(), &context, NID_basic_constraints, "critical,CA:FALSE")
            && addExtension(x.get(), &context, NID_key_usage, "critical,digitalSignature")
            && addExtension(x.get(), &context, NID_ext_key_usage, "serverAuth")
            && addExtension(x.get(), &context, NID_subject_alt_name, altValue.constData())
            && addExtension(x.get(), &context, NID_subject_key_identifier, "hash")
            && addExtension(x.get(), &context, NID_authority_key_identifier, "keyid:always")
            && X509_sign(x.get(), caKey, EVP_sha256()) > 0;
    }
    if (!ok) {
        fail(error, tr("cannot mint a certificate for \"%1\"").arg(host.name));
        return {};
    }
    return x;
}

QByteArray certificatePem(X509* certificate)
{
    const OpenSsl::Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), certificate) != 1)
        return {};
    return OpenSsl::bioBytes(bio.get());
}

QByteArray privateKeyPem(EVP_PKEY* key)
{
    const OpenSsl::Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return {};
    return OpenSsl::bioBytes(bio.get());
}

OpenSsl::Certificate readCertificatePem(const QByteArray& pem)
{
    const OpenSsl::Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    return OpenSsl::Certificate(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

OpenSsl::Key readPrivateKeyPem(const QByteArray& pem)
{
    const OpenSsl::Bio bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    // An empty passphrase callback result: an encrypted key is refused instead of prompting on the terminal.
    const auto noPassphrase = [](char*, int, int, void*) -> int { return 0; };
    return OpenSsl::Key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, noPassphrase, nullptr) : nullptr);
}

QString lastOpenSslError()
{
    const unsigned long code = ERR_peek_last_error();
    ERR_clear_error();
    if (code == 0)
        return {};
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    return QString::fromLatin1(text);
}

} // namespace CertificateSigning
