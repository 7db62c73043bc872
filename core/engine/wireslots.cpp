// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/wireslots.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QUrl>

WireSlots::WireSlots(QObject* parent)
    : QObject(parent)
{
}

WireSlots::~WireSlots() = default; // the managers are children

QString WireSlots::hostKey(const QUrl& url)
{
    const QString scheme = url.scheme().toLower();
    const int port = url.port(scheme == QLatin1String("https") ? 443 : 80);
    return scheme + QStringLiteral("://") + url.host().toLower() + u':' + QString::number(port);
}

QNetworkAccessManager* WireSlots::makeManager()
{
    auto* nam = new QNetworkAccessManager(this);
    // No proxy unless the user sets one: Debian's Qt reads the system's and http_proxy by default.
    nam->setProxy(QNetworkProxy::NoProxy);
    nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    nam->setAutoDeleteReplies(false);
    return nam;
}

std::optional<int> WireSlots::acquire(const QString& hostKey, std::optional<int> limit)
{
    int& inFlight = m_inFlight[hostKey];
    if (limit && inFlight >= *limit)
        return std::nullopt;
    int chosen = -1;
    // Newest free slot that last carried this host (its connection may still be open), else the newest
    // free slot, else a new one.
    for (qsizetype i = m_free.size() - 1; i >= 0 && chosen < 0; --i) {
        if (m_slots[size_t(m_free.at(i))].host == hostKey) {
            chosen = m_free.at(i);
            m_free.removeAt(i);
        }
    }
    if (chosen < 0 && !m_free.isEmpty())
        chosen = m_free.takeLast();
    if (chosen < 0) {
        m_slots.push_back(Slot { makeManager(), {}, false });
        chosen = int(m_slots.size()) - 1;
    }
    Slot& slot = m_slots[size_t(chosen)];
    slot.busy = true;
    slot.host = hostKey;
    ++inFlight;
    ++m_busy;
    return chosen;
}

void WireSlots::release(int index)
{
    if (index < 0 || size_t(index) >= m_slots.size())
        return;
    Slot& slot = m_slots[size_t(index)];
    if (!slot.busy)
        return;
    slot.busy = false;
    --m_busy;
    if (--m_inFlight[slot.host] <= 0)
        m_inFlight.remove(slot.host);
    m_free.append(index);
}

QNetworkAccessManager& WireSlots::manager(int slot)
{
    return *m_slots.at(size_t(slot)).manager;
}
