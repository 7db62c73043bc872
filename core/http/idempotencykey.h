// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Idempotency keys (draft-ietf-httpapi-idempotency-key-header; headers.md §6): making one for a request,
// writing it as the draft's sf-string or as the bare token Stripe takes, and reading a received field.
//
// The policy's KeyFormat (core/policy/retrypolicy.h) maps onto IdempotencyKeyFormat; core/http does not
// depend on core/policy.

#include "http/httpfield.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <optional>

enum class IdempotencyKeyFormat {
    Quoted, // sf-string, as the draft says: "8e03978e-40d5-43e8-bc93-6894a57f9324"
    Bare, // unquoted, as Stripe sends: KG5LxwFBepaKHyUD
};

// One Idempotency-Key field as read.
struct IdempotencyKey
{
    QString key; // the key itself, unescaped; empty when invalid
    QByteArray raw; // the field value as received (the first line when there were several)
    bool quoted = false; // sent as an sf-string
    bool conformant = false; // an sf-string Item, once, as the draft says; a bare key is "non-SF (raw)"
    QStringList warnings; // lenient readings, in English
    QString error; // why it is not a usable key; empty when valid

    bool isValid() const { return error.isEmpty(); }
};

// A fresh random key: PREFIX followed by a UUID v4 without braces (QUuid::createUuid), as stripe-node's
// "stripe-node-retry-<uuid4>". Callers that need reproducible keys pass their own string to
// formatIdempotencyKey instead.
QString newIdempotencyKey(const QString& prefix = {});

// The field value for KEY. Quoted: an sf-string with \ and " escaped; KEY must be printable ASCII
// (0x20–0x7E). Bare: KEY as is; it must be visible ASCII without '"' (0x21–0x7E). Empty when KEY is empty
// or cannot be written in FORMAT.
QByteArray formatIdempotencyKey(const QString& key, IdempotencyKeyFormat format);

// Reads one field value (leading and trailing SP/HTAB ignored). An sf-string is conformant (parameters
// are tolerated and reported); an unquoted run of visible ASCII is accepted as a bare key, non-conformant;
// a broken sf-string (bad escape, unterminated, control or non-ASCII byte) or an empty value is invalid.
IdempotencyKey parseIdempotencyKey(QByteArrayView value);

// The field NAME in HEADERS; nullopt when absent. Several field lines are invalid ("Clients MUST NOT
// include more than one Idempotency-Key header field in the same request").
std::optional<IdempotencyKey> parseIdempotencyKeyHeader(const HttpHeaderList& headers,
                                                        QByteArrayView name = "Idempotency-Key");
