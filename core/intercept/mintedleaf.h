// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSslCertificate>
#include <QSslKey>

// A server certificate minted for one host and its private key, ready for QSslSocket::setLocalCertificate
// and setPrivateKey. Null (certificate.isNull()) when minting failed.
struct MintedLeaf
{
    QSslCertificate certificate;
    QSslKey key;

    bool isNull() const { return certificate.isNull(); }
};
