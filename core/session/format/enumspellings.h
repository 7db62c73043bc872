// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The spellings of the enumerations a session file carries, as UTF-8 made once from the one table of each
// (policy/enumtext.h, engine/enumtext.h): the session reader and writer compare and copy bytes instead of
// building a QString per field.

#include "engine/enumtext.h"
#include "policy/enumtext.h"

#include <QByteArray>
#include <QByteArrayView>

#include <optional>
#include <vector>

template<typename E>
class EnumSpellings
{
public:
    EnumSpellings()
    {
        for (int i = 0; i < EnumText::enumCount<E>(); ++i) {
            const std::string_view text = enumText(E(i));
            m_names.emplace_back(text.data(), qsizetype(text.size()));
        }
    }

    // Empty for a value out of range, as the name functions answer.
    QByteArrayView name(E value) const
    {
        const auto i = size_t(value);
        return i < m_names.size() ? QByteArrayView(m_names[i]) : QByteArrayView();
    }

    std::optional<E> find(QByteArrayView text) const
    {
        for (size_t i = 0; i < m_names.size(); ++i) {
            if (QByteArrayView(m_names[i]) == text)
                return E(i);
        }
        return std::nullopt;
    }

private:
    std::vector<QByteArray> m_names;
};

namespace EnumSpelling {
inline const EnumSpellings<Verdict>& verdicts()
{
    static const EnumSpellings<Verdict> t;
    return t;
}
inline const EnumSpellings<DelaySource>& delaySources()
{
    static const EnumSpellings<DelaySource> t;
    return t;
}
inline const EnumSpellings<FinalKind>& finalKinds()
{
    static const EnumSpellings<FinalKind> t;
    return t;
}
inline const EnumSpellings<AttemptPhase>& phases()
{
    static const EnumSpellings<AttemptPhase> t;
    return t;
}
inline const EnumSpellings<AbortReason>& abortReasons()
{
    static const EnumSpellings<AbortReason> t;
    return t;
}
inline const EnumSpellings<ErrorClass>& errorClasses()
{
    static const EnumSpellings<ErrorClass> t;
    return t;
}
}
