// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Interned UTF-8 strings in one arena: an attempt refers to its texts by 32-bit ids, so a million
// attempts that repeat the same reasons, URLs and header names store each text once and allocate nothing
// per string. Id 0 is the empty string. Texts known to be unique (attempt ids, per-attempt header values)
// are added without the dedupe table, which would otherwise grow with every attempt and miss the cache.

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include "session/store/keyedslots.h"

#include <optional>
#include <vector>

class StringPool
{
public:
    StringPool();

    quint32 intern(QByteArrayView text, bool* added = nullptr); // ADDED: true when TEXT was new
    quint32 add(QByteArrayView text); // stored as is, not looked up nor findable by intern()
    std::optional<quint32> find(QByteArrayView text) const; // an interned TEXT's id, without adding it
    quint32 intern(const QString& text); // its UTF-8; a short ASCII text is converted without allocating
    QByteArrayView view(quint32 id) const;
    QByteArray bytes(quint32 id) const { return view(id).toByteArray(); }
    QString string(quint32 id) const { return QString::fromUtf8(view(id)); }
    // Every text of OTHER after this pool's, copied in one piece; IDS[i] becomes the id here of OTHER's
    // text i. A text OTHER interned that is interned here already maps to the id it has here; the rest
    // stay as they were there, findable by intern() or not.
    void append(const StringPool& other, std::vector<quint32>& ids);

    qsizetype count() const { return qsizetype(m_offsets.size()) - 1; }
    qsizetype memoryBytes() const;
    void clear();

private:
    // F(id) for every interned text, in the table's order.
    template <typename F>
    void forEachInterned(const F& f) const
    {
        for (size_t slot = 0; slot < m_table.slotCount(); ++slot) {
            if (const quint32 v = m_table.value(slot))
                f(v - 1);
        }
    }

    std::vector<quint32> m_offsets; // start of string i; one extra entry at the end
    QByteArray m_arena;
    KeyedSlots m_table; // the interned texts: id + 1
};
