// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/stringpool.h"

#include <cstring>

namespace {

// The table's hash: eight bytes at a time with a multiply-xorshift mix. Inline and cheap for the short
// texts a session interns twenty times per attempt (qHash's general byte hash showed up at 4% of opening
// a 1M-attempt file); the table is private, so the hash only has to spread, not be stable or keyed.
size_t hashBytes(QByteArrayView text)
{
    constexpr quint64 k = 0x9E3779B97F4A7C15ULL;
    quint64 h = quint64(text.size()) * k;
    const char* p = text.data();
    qsizetype n = text.size();
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

} // namespace

StringPool::StringPool()
{
    clear();
}

void StringPool::clear()
{
    m_arena.clear();
    m_offsets.assign({ 0u, 0u }); // id 0: the empty string
    m_table.assign(1024, 0u);
    m_used = 0;
}

QByteArrayView StringPool::view(quint32 id) const
{
    if (id + 1 >= m_offsets.size())
        return {};
    return QByteArrayView(m_arena.constData() + m_offsets[id], qsizetype(m_offsets[id + 1] - m_offsets[id]));
}

void StringPool::grow()
{
    std::vector<quint32> table(m_table.size() * 2, 0u);
    const size_t mask = table.size() - 1;
    for (quint32 slot : m_table) {
        if (!slot)
            continue;
        size_t i = hashBytes(view(slot - 1)) & mask;
        while (table[i])
            i = (i + 1) & mask;
        table[i] = slot;
    }
    m_table.swap(table);
}

quint32 StringPool::add(QByteArrayView text)
{
    if (text.isEmpty())
        return 0;
    const quint32 id = quint32(m_offsets.size() - 1);
    m_arena.append(text.data(), text.size());
    m_offsets.push_back(quint32(m_arena.size()));
    return id;
}

quint32 StringPool::intern(QByteArrayView text, bool* added)
{
    if (added)
        *added = false;
    if (text.isEmpty())
        return 0;
    if (qsizetype(m_used + 1) * 2 > qsizetype(m_table.size()))
        grow();
    const size_t mask = m_table.size() - 1;
    size_t i = hashBytes(text) & mask;
    while (const quint32 slot = m_table[i]) {
        if (view(slot - 1) == text)
            return slot - 1;
        i = (i + 1) & mask;
    }
    const quint32 id = quint32(m_offsets.size() - 1);
    m_arena.append(text.data(), text.size());
    m_offsets.push_back(quint32(m_arena.size()));
    m_table[i] = id + 1;
    ++m_used;
    if (added)
        *added = true;
    return id;
}

void StringPool::append(const StringPool& other, std::vector<quint32>& ids)
{
    const auto base = quint32(count()); // other's text i > 0 is text base + i - 1 here
    const auto shift = quint32(m_arena.size());
    m_arena.append(other.m_arena);
    m_offsets.reserve(m_offsets.size() + other.m_offsets.size() - 2);
    for (size_t i = 2; i < other.m_offsets.size(); ++i)
        m_offsets.push_back(shift + other.m_offsets[i]);
    ids.resize(size_t(other.count()));
    for (size_t i = 0; i < ids.size(); ++i)
        ids[i] = i ? base + quint32(i) - 1 : 0u;
    for (const quint32 slot : other.m_table) {
        if (!slot)
            continue;
        const quint32 id = base + slot - 2;
        if (qsizetype(m_used + 1) * 2 > qsizetype(m_table.size()))
            grow();
        const QByteArrayView text = view(id);
        const size_t mask = m_table.size() - 1;
        size_t i = hashBytes(text) & mask;
        quint32 here = 0;
        for (; m_table[i]; i = (i + 1) & mask) {
            if (m_table[i] - 1 < base && view(m_table[i] - 1) == text) {
                here = m_table[i];
                break;
            }
        }
        if (here) {
            ids[slot - 1] = here - 1;
        } else {
            m_table[i] = id + 1;
            ++m_used;
        }
    }
}

quint32 StringPool::intern(const QString& text)
{
    // Most texts interned from a QString (paths, routes, step kinds, ids, keys, reasons) are short ASCII:
    // narrowed into a stack buffer, they cost no allocation (toUtf8() allocated one per call, about 3.5 %
    // of opening a session that feeds every lab event through a packed store).
    constexpr qsizetype kStack = 256;
    const qsizetype n = text.size();
    if (n > 0 && n <= kStack) {
        char buffer[kStack];
        const char16_t* utf16 = reinterpret_cast<const char16_t*>(text.utf16());
        qsizetype i = 0;
        for (; i < n && utf16[i] < 0x80; ++i)
            buffer[i] = char(utf16[i]);
        if (i == n)
            return intern(QByteArrayView(buffer, n));
    }
    return intern(QByteArrayView(text.toUtf8()));
}

std::optional<quint32> StringPool::find(QByteArrayView text) const
{
    if (text.isEmpty())
        return 0u;
    const size_t mask = m_table.size() - 1;
    for (size_t i = hashBytes(text) & mask; const quint32 slot = m_table[i]; i = (i + 1) & mask) {
        if (view(slot - 1) == text)
            return slot - 1;
    }
    return std::nullopt;
}

qsizetype StringPool::memoryBytes() const
{
    return m_arena.capacity() + qsizetype((m_offsets.capacity() + m_table.capacity()) * sizeof(quint32));
}
