// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/labresponse.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <optional>

// What the server remembers per Idempotency-Key (scoped by route), following
// draft-ietf-httpapi-idempotency-key-header: a finished request's answer is replayed, a different payload
// under a used key is 422, a key whose first request is still being processed is 409.
class IdempotencyStore
{
public:
    enum class Verdict { Proceed, Replay, InFlight, PayloadMismatch };

    // Looks KEY up; REPLAY receives the stored answer when the verdict is Replay.
    Verdict check(const QString& scope, const QString& key, const QByteArray& fingerprint,
        LabResponse* replay = nullptr) const;
    // The request under KEY starts being processed (records the fingerprint on first sight).
    void begin(const QString& scope, const QString& key, const QByteArray& fingerprint);
    // Processing ended; STORED is the answer later repeats get (none: the key may be tried again).
    void finish(const QString& scope, const QString& key, std::optional<LabResponse> stored);
    void clear() { m_entries.clear(); }
    // KEY was seen: check() then compares payloads, so it needs the whole body.
    bool knows(const QString& scope, const QString& key) const { return m_entries.contains(entryKey(scope, key)); }
    qsizetype size() const { return m_entries.size(); }

    // SHA-256 over method, path and body: what "the same payload" means here.
    static QByteArray fingerprint(const QByteArray& method, const QString& path, const QByteArray& body);
    // The key as sent, without the quotes of an sf-string ("abc" → abc); raw tokens pass unchanged.
    static QString keyFromField(const QByteArray& fieldValue);

private:
    struct Entry
    {
        QByteArray fingerprint;
        bool inFlight = false;
        std::optional<LabResponse> stored;
    };
    static QString entryKey(const QString& scope, const QString& key) { return scope + QChar(0x1f) + key; }
    QHash<QString, Entry> m_entries;
};
