// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/idempotencystore.h"

#include <QCryptographicHash>

IdempotencyStore::Verdict IdempotencyStore::check(const QString& scope, const QString& key,
    const QByteArray& fingerprint, LabResponse* replay) const
{
    const auto it = m_entries.constFind(entryKey(scope, key));
    if (it == m_entries.constEnd())
        return Verdict::Proceed;
    if (it->fingerprint != fingerprint)
        return Verdict::PayloadMismatch;
    if (it->inFlight)
        return Verdict::InFlight;
    if (it->stored) {
        if (replay)
            *replay = *it->stored;
        return Verdict::Replay;
    }
    return Verdict::Proceed;
}

void IdempotencyStore::begin(const QString& scope, const QString& key, const QByteArray& fingerprint)
{
    Entry& entry = m_entries[entryKey(scope, key)];
    if (entry.fingerprint.isEmpty())
        entry.fingerprint = fingerprint;
    entry.inFlight = true;
}

void IdempotencyStore::finish(const QString& scope, const QString& key, std::optional<LabResponse> stored)
{
    const auto it = m_entries.find(entryKey(scope, key));
    if (it == m_entries.end())
        return;
    it->inFlight = false;
    if (stored && !it->stored)
        it->stored = std::move(stored);
}

QByteArray IdempotencyStore::fingerprint(const QByteArray& method, const QString& path, const QByteArray& body)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(method);
    hash.addData(QByteArrayView("\n"));
    hash.addData(path.toUtf8());
    hash.addData(QByteArrayView("\n"));
    hash.addData(body);
    return hash.result();
}

QString IdempotencyStore::keyFromField(const QByteArray& fieldValue)
{
    QByteArray v = fieldValue.trimmed();
    if (v.size() >= 2 && v.startsWith('"') && v.endsWith('"')) {
        v = v.mid(1, v.size() - 2);
        v.replace("\\\"", "\"");
        v.replace("\\\\", "\\");
    }
    return QString::fromUtf8(v);
}
