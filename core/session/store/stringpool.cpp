// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/store/stringpool.h"

StringPool::StringPool()
{
    clear();
}

void StringPool::clear()
{
    m_arena.clear();
    m_offsets.assign({ 0u, 0u }); // id 0: the empty string
    m_table.reset(1024);
}

QByteArrayView StringPool::view(quint32 id) const
{
    if (id + 1 >= m_offsets.size())
        return {};
    return QByteArrayView(m_arena.constData() + m_offsets[id], qsizetype(m_offsets[id + 1] - m_offsets[id]));
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
    const auto textOf = [this](quint32 slot) { return view(slot - 1); };
    m_table.reserveOneMore(textOf);
    const size_t hash = KeyedSlots::hash(text);
    const size_t slot = m_table.probe(text, hash, textOf);
    if (const quint32 found = m_table.value(slot))
        return found - 1;
    const quint32 id = quint32(m_offsets.size() - 1);
    m_arena.append(text.data(), text.size());
    m_offsets.push_back(quint32(m_arena.size()));
    m_table.set(slot, id + 1, hash);
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
    // OTHER's interned texts are findable here too; one interned here already keeps its id (OTHER interned
    // each text once, so a text found is one of this pool's own).
    const auto textOf = [this](quint32 slot) { return view(slot - 1); };
    const auto interned = [&](quint32 otherId) {
        const quint32 id = base + otherId - 1;
        m_table.reserveOneMore(textOf);
        const QByteArrayView text = view(id);
        const size_t hash = KeyedSlots::hash(text);
        const size_t slot = m_table.probe(text, hash, textOf);
        if (const quint32 here = m_table.value(slot))
            ids[otherId] = here - 1;
        else
            m_table.set(slot, id + 1, hash);
    };
    other.forEachInterned(interned);
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
    const size_t slot = m_table.probe(text, KeyedSlots::hash(text), [this](quint32 s) { return view(s - 1); });
    if (const quint32 found = m_table.value(slot))
        return found - 1;
    return std::nullopt;
}

qsizetype StringPool::memoryBytes() const
{
    return m_arena.capacity() + qsizetype(m_offsets.capacity() * sizeof(quint32)) + m_table.memoryBytes();
}
