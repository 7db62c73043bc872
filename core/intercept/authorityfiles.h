// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>

// File-system rules for the CA's files: its key stays readable by its owner only, from the first byte.
namespace AuthorityFiles {

inline constexpr char kKeyFile[] = "ca-key.pem";
inline constexpr char kCertificateFile[] = "ca-cert.pem";
inline constexpr char kLockFile[] = "ca.lock";

// Creates DIR (and its parents) when missing, and makes DIR itself mode 0700 when this call created it.
bool makePrivateFolder(const QString& dir, QString* error);

// Writes BYTES to PATH atomically (a temporary file created with MODE, flushed to disk, then renamed
// over PATH), so no other user can read a key even while it is written.
bool writeAtomically(const QString& path, const QByteArray& bytes, unsigned mode, QString* error);

// Empty when PATH, a private key, is a regular file owned by this user with no group or other
// permission bits; else why not ("permissions 0644 are too open…").
QString privateKeyProblem(const QString& path);

} // namespace AuthorityFiles
