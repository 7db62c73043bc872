// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which header values are secrets: credentials, tokens and keys that saved sessions, exports and the
// journal redact and that every view hides. This is the one list: the engine marks sent headers with it,
// Redactor (exports, journal) and the window's views ask it, so they cannot disagree.

#include <QByteArrayView>
#include <QList>

namespace SecretHeaders {
// Secret whatever their case: Authorization, Proxy-Authorization, Cookie, Set-Cookie, Set-Cookie2.
QList<QByteArrayView> exactNames();
// A name containing one of these (any case) is secret too: X-Api-Key, X-Auth-Token, X-Refresh-Token,
// X-Client-Secret, Api-Password…
QList<QByteArrayView> nameParts();

// How a secret value is written where it is hidden (sessions, exports, the journal, the lab's ledger and
// JSON lines): "[redacted:LENGTH-CLASS:HASH]" — the length class (0, 1-8, 9-16, 17-32, 33-64, 65-128,
// 129+) and the first 8 hex digits of SHA-256(SALT ‖ VALUE), so equal secrets compare equal under one salt.
QByteArray redactedValue(QByteArrayView value, QByteArrayView salt);
QByteArray lengthClass(qsizetype length);
}

// True when NAME is on the list above. Compared in place (no allocation): it runs for several headers of
// every attempt.
bool isSecretHeader(QByteArrayView name);
