// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The spellings of the enumerations a session file carries, as UTF-8 computed once: the session reader
// and writer compare and copy bytes instead of building a QString per field. The names come from the
// engine's and policy's own name functions (verdictName(), finalKindName()…), so they cannot drift.

#include "engine/attemptphase.h"
#include "policy/errorclass.h"
#include "policy/retrydecision.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>
#include <vector>

template<typename E>
class EnumSpellings
{
public:
    EnumSpellings(QString (*nameOf)(E), int count)
    {
        for (int i = 0; i < count; ++i)
            m_names.push_back(nameOf(E(i)).toUtf8());
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
    static const EnumSpellings<Verdict> t(&verdictName, 3);
    return t;
}
inline const EnumSpellings<DelaySource>& delaySources()
{
    static const EnumSpellings<DelaySource> t(&delaySourceName, 6);
    return t;
}
inline const EnumSpellings<FinalKind>& finalKinds()
{
    static const EnumSpellings<FinalKind> t(&finalKindName, 11);
    return t;
}
inline const EnumSpellings<AttemptPhase>& phases()
{
    static const EnumSpellings<AttemptPhase> t(&attemptPhaseName, 8);
    return t;
}
inline const EnumSpellings<AbortReason>& abortReasons()
{
    static const EnumSpellings<AbortReason> t(&abortReasonName, 5);
    return t;
}
inline const EnumSpellings<ErrorClass>& errorClasses()
{
    static const EnumSpellings<ErrorClass> t(&errorClassName, 7);
    return t;
}
}
