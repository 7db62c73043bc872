// SPDX-License-Identifier: GPL-3.0-or-later
#include "intercept/leafcache.h"

LeafCache::LeafCache(qsizetype capacity)
    : m_capacity(std::max<qsizetype>(1, capacity))
{ }

const MintedLeaf* LeafCache::find(const QString& host, const QDateTime& now)
{
    const auto found = m_index.constFind(host);
    if (found == m_index.cend())
        return nullptr;
    const Order::iterator entry = *found;
    if (entry->refreshAt <= now)
        return nullptr;
    m_order.splice(m_order.begin(), m_order, entry); // iterators stay valid
    return &entry->leaf;
}

void LeafCache::insert(const QString& host, const MintedLeaf& leaf)
{
    const QDateTime refreshAt = leaf.certificate.expiryDate().addSecs(-3600);
    if (const auto found = m_index.constFind(host); found != m_index.cend()) {
        const Order::iterator entry = *found;
        entry->leaf = leaf;
        entry->refreshAt = refreshAt;
        m_order.splice(m_order.begin(), m_order, entry);
        return;
    }
    if (m_index.size() >= m_capacity) {
        m_index.remove(m_order.back().host);
        m_order.pop_back();
    }
    m_order.push_front(Entry { host, leaf, refreshAt });
    m_index.insert(host, m_order.begin());
}
