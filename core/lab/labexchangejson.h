// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A LabExchange as JSON: one object, the same in the ledger (GET /_lab/ledger), in `retrylab serve --json`
// (one object per line) and in sessions ("exchanges"). Field by field in resources/docs/scenario-format.md
// ("Exchanges"); schema resources/schemas/exchange.schema.json.

#include "lab/labexchange.h"

#include <QByteArrayView>
#include <QJsonObject>
#include <QString>

#include <functional>

namespace LabExchangeJson {
// What a header value is written as (a secret one redacted); null: every value as received.
using HeaderFilter = std::function<QByteArray(QByteArrayView name, QByteArrayView value)>;

QJsonObject toJson(const LabExchange& exchange, const HeaderFilter& filter = {});
// Reads what toJson wrote; false with PROBLEM ("field: message") for the first thing wrong. Unknown
// fields are refused, "_" fields are free.
bool fromJson(const QJsonObject& object, LabExchange* exchange, QString* problem);

// The lab's own redaction (ledger, JSON lines): the one secret-header list and the one redacted form
// (http/secretheaders.h), hashed with SALT.
HeaderFilter secretRedactor(const QByteArray& salt);
}
