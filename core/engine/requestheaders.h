// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The request headers an attempt sends, all set explicitly so that what is recorded is what goes out.
// Qt 6.4's HTTP thread (QHttpNetworkConnectionPrivate::prepareRequest) adds Connection: Keep-Alive,
// Accept-Encoding (its decompressors: "zstd, br, gzip, deflate" on Debian 12, and then decompresses the
// answer), Accept-Language (from the system locale), User-Agent: Mozilla/5.0 and Host to every request that
// lacks them — or has them with an empty value — after the request left the engine's hands. So these can
// be changed but never left out; the engine sets them itself, Qt's value included when the user turns one
// of them off, and tst_defaultheaders checks on the wire that the record is what a real server received.

#include "engine/attemptrecord.h"
#include "engine/requestspec.h"
#include "http/secretheaders.h" // isSecretHeader(): which values are marked secret
#include "policy/retrypolicy.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

// The engine's own headers, before the user's: Host, User-Agent: retrylab/VERSION, Accept: */*,
// Accept-Encoding: identity (answers are recorded as sent, never decompressed), Accept-Language: en,
// Connection: keep-alive. RequestSpec::omittedDefaults turns them off by name.
QList<SentHeader> defaultRequestHeaders(const QUrl& url);
// True for the names Qt adds when missing or empty (connection, accept-encoding, accept-language,
// user-agent, host; any case).
bool isQtAddedHeader(QByteArrayView name);
// The value Qt 6.4 gives such a header for URL (empty for any other name). Accept-Language follows
// QLocale::system(): "en,*" for C, "en-GB,*" for en-GB, "de-DE,en,*" otherwise.
QByteArray qtOwnHeaderValue(QByteArrayView name, const QUrl& url);

QList<SentHeader> buildRequestHeaders(const RequestSpec& spec, const RetryPolicy& policy, const QUrl& url,
    const QString& idempotencyKey, const QString& attemptId, const QByteArray& cookie);

// The key every attempt of the run carries, or empty: as RequestSpec::keyMode and the policy say. A new key
// is the policy's prefix and a UUID (newIdempotencyKey); it is the key itself, not yet formatted.
QString chooseIdempotencyKey(const RequestSpec& spec, const RetryPolicy& policy);
// KEY as the field value the policy's idempotency.format writes: an sf-string ("…") or a bare token.
QByteArray idempotencyKeyField(const QString& key, KeyFormat format);

QString newAttemptId(); // a UUID
// The attempt-id header's value: "RUN;attempt=N", RUN a UUID drawn once per run (newAttemptId()). Unique per
// attempt, and the part before ";" is the same on every attempt of a run, so whoever watches the traffic
// (core/observe) can tell which attempts belong together.
QString attemptIdFor(const QString& run, int index);
QByteArray bodyHash(const QByteArray& body); // SHA-256, hex

// The rate-limit fields of a response (RateLimit*, X-RateLimit-*, X-Rate-Limit-*, Retry-After…).
HttpHeaderList rateLimitFieldsOf(const HttpHeaderList& headers);
