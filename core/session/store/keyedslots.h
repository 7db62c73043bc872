// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An open-addressing hash table of 32-bit numbers (a text's id, an attempt's row) whose keys live elsewhere:
// the key of a number is read back from what it names (the caller's KEYOF), so the table costs 4 bytes a
// slot, and 1 for a tag — the hash's top byte, which the slot index never uses, so a probe passes another
// key's slot on its tag alone (255 times in 256) without reading that key. Linear probing, at most half
// full, grown by doubling or sized once for what is coming. Numbers are stored as given and 0 marks a free
// slot: callers store an index + 1. The string pool's dedupe table, a session's attempt-id lookup and the
// timeline's lab-tick lanes are each one of these.

#include <QByteArrayView>

#include <cstring>
#include <vector>

class KeyedSlots
{
public:
    explicit KeyedSlots(size_t width = 1024) { reset(width); }

    // The table's hash: eight bytes at a time with a multiply-xorshift mix. Inline and cheap for the short
    // texts a session interns twenty times per attempt (qHash's general byte hash showed up at 4 % of
    // opening a 1M-attempt file); the tables are private, so the hash only has to spread, not be stable.
    static size_t hash(QByteArrayView key)
    {
        constexpr quint64 k = 0x9E3779B97F4A7C15ULL;
        quint64 h = quint64(key.size()) * k;
        const char* p = key.data();
        qsizetype n = key.size();
        for (; n >= 8; p += 8, n -= 8) {
            quint64 w;
            std::memcpy(&w, p, 8);
            h = (h ^ w) * k;
            h ^= h >> 29;
        }
        quint64 tail = 0;
        if (n)
            std::memcpy(&tail, p, size_t(n));
        h = (h ^ tail) * k;
        h ^= h >> 32;
        return size_t(h);
    }

    // Empty, with WIDTH slots (a power of two).
    void reset(size_t width)
    {
        m_values.assign(width, 0u);
        m_tags.assign(width, 0u);
        m_count = 0;
    }
    size_t slotCount() const { return m_values.size(); }
    qsizetype count() const { return m_count; }
    // Inserting one more entry would make the table more than half full.
    bool full() const { return size_t(m_count + 1) * 2 > m_values.size(); }

    // The slot holding KEY (HASH is hash(KEY)), or the free slot where it would go: value() says which.
    // KEYOF(number) gives the key of a number in the table.
    template <typename KeyOf>
    size_t probe(QByteArrayView key, size_t hash, const KeyOf& keyOf) const
    {
        const size_t mask = m_values.size() - 1;
        const quint8 tag = tagOf(hash);
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            const quint32 v = m_values[i];
            if (!v || (m_tags[i] == tag && keyOf(v) == key))
                return i;
        }
    }
    quint32 value(size_t slot) const { return m_values[slot]; } // 0: free
    // Puts NUMBER (not 0) at SLOT, free or holding the same key (whose hash is HASH).
    void set(size_t slot, quint32 number, size_t hash)
    {
        if (!m_values[slot])
            ++m_count;
        m_values[slot] = number;
        m_tags[slot] = tagOf(hash);
    }

    // Room for ENTRIES at most half full (never smaller than now): every number placed again by its key.
    template <typename KeyOf>
    void reserve(size_t entries, const KeyOf& keyOf)
    {
        size_t width = m_values.size();
        while (entries * 2 > width)
            width *= 2;
        if (width == m_values.size())
            return;
        std::vector<quint32> values(width, 0u);
        std::vector<quint8> tags(width, 0u);
        const size_t mask = width - 1;
        for (const quint32 v : m_values) {
            if (!v)
                continue;
            const size_t h = hash(keyOf(v));
            size_t i = h & mask;
            while (values[i])
                i = (i + 1) & mask;
            values[i] = v;
            tags[i] = tagOf(h);
        }
        m_values.swap(values);
        m_tags.swap(tags);
    }
    // Room for one more entry: doubled when it would be more than half full.
    template <typename KeyOf>
    void reserveOneMore(const KeyOf& keyOf)
    {
        if (full())
            reserve(size_t(m_count + 1), keyOf);
    }

    qsizetype memoryBytes() const { return qsizetype(m_values.capacity() * sizeof(quint32) + m_tags.capacity()); }

private:
    static quint8 tagOf(size_t hash) { return quint8(hash >> (8 * sizeof(size_t) - 8)); }

    std::vector<quint32> m_values;
    std::vector<quint8> m_tags;
    qsizetype m_count = 0;
};
