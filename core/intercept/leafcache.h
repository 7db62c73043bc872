// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "intercept/mintedleaf.h"

#include <QDateTime>
#include <QHash>
#include <QString>

#include <list>

// The leaves minted so far, by host, least recently used first out when CAPACITY is reached
// (HTTP Toolkit's mockttp keeps an LRU of 1 000; mitmproxy a FIFO of 100). An entry is fresh until
// its refresh time, an hour before the certificate expires, so a long-running proxy never serves an
// expired leaf.
class LeafCache
{
public:
    explicit LeafCache(qsizetype capacity);

    // The fresh leaf for HOST, now the most recently used; nullptr when absent or stale.
    const MintedLeaf* find(const QString& host, const QDateTime& now);
    // Stores LEAF for HOST (replacing a stale one), evicting the least recently used entry when full.
    void insert(const QString& host, const MintedLeaf& leaf);

    qsizetype size() const { return m_index.size(); }
    qsizetype capacity() const { return m_capacity; }

private:
    struct Entry
    {
        QString host;
        MintedLeaf leaf;
        QDateTime refreshAt;
    };
    using Order = std::list<Entry>; // most recently used first

    qsizetype m_capacity;
    Order m_order;
    QHash<QString, Order::iterator> m_index;
};
