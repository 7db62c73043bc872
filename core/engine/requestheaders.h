// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The request headers an attempt sends, all set explicitly: Qt adds Host, Connection, Accept-Encoding,
// Accept-Language and User-Agent in its HTTP thread when they are missing (qt-internals.md §1.5), where the
// engine could not record them.

#include "engine/attemptrecord.h"
#include "engine/requestspec.h"
#include "http/secretheaders.h" // isSecretHeader(): which values are marked secret
#include "policy/retrypolicy.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

QList<SentHeader> buildRequestHeaders(const RequestSpec& spec, const RetryPolicy& policy, const QUrl& url,
    const QString& idempotencyKey, const QString& attemptId, const QByteArray& cookie);

// The key every attempt of the run carries, or empty: as RequestSpec::keyMode and the policy say. A new key
// is the policy's prefix and a UUID (newIdempotencyKey); it is the key itself, not yet formatted.
QString chooseIdempotencyKey(const RequestSpec& spec, const RetryPolicy& policy);
// KEY as the field value the policy's idempotency.format writes: an sf-string ("…") or a bare token.
QByteArray idempotencyKeyField(const QString& key, KeyFormat format);

QString newAttemptId();
QByteArray bodyHash(const QByteArray& body); // SHA-256, hex

// The rate-limit fields of a response (RateLimit*, X-RateLimit-*, X-Rate-Limit-*, Retry-After…).
HttpHeaderList rateLimitFieldsOf(const HttpHeaderList& headers);
