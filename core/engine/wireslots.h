// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Gives every attempt in flight a wire slot of its own: a QNetworkAccessManager that carries no other
// attempt while this one is under way. Qt 6.4 opens at most 6 connections per host and manager and queues
// the rest inside its HTTP thread, out of sight (no QHttp1Configuration before Qt 6.5), so "20 at once" on
// one manager put 6 on the wire and timed the others while they sat in Qt's queue. With one attempt per
// manager nothing queues inside Qt, and Qt's socketStartedConnecting reaches the reply that opened the
// connection (Qt sends it to the last request queued on a connection), so "a new connection" is true.
//
// A slot keeps the connections its manager left open (keep-alive), like a client's connection pool: an
// attempt to a host prefers the free slot that last talked to that host, newest first, so connections are
// reused when a real pool would reuse them. An optional per-host cap models a client's pool limit
// (connections per host): beyond it acquire() says no and the caller queues the attempt itself.

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

class QNetworkAccessManager;
class QUrl;

class WireSlots final : public QObject
{
    Q_OBJECT
public:
    explicit WireSlots(QObject* parent = nullptr);
    ~WireSlots() override;

    // "scheme://host:port": what Qt keys a connection on.
    static QString hostKey(const QUrl& url);

    // A free slot for an attempt to HOSTKEY, made when none is free; nullopt when LIMIT attempts to that
    // host are already in flight.
    std::optional<int> acquire(const QString& hostKey, std::optional<int> limit = std::nullopt);
    void release(int slot);

    QNetworkAccessManager& manager(int slot);
    int inFlight(const QString& hostKey) const { return m_inFlight.value(hostKey); }
    int slotCount() const { return int(m_slots.size()); }
    int busyCount() const { return m_busy; }

private:
    struct Slot
    {
        QNetworkAccessManager* manager = nullptr;
        QString host; // the host it carries now, or carried last
        bool busy = false;
    };
    QNetworkAccessManager* makeManager();

    std::vector<Slot> m_slots;
    QList<int> m_free; // most recently released last
    QHash<QString, int> m_inFlight;
    int m_busy = 0;
};
