// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/enumnames.h"

#include <QString>

namespace {

template<typename E>
std::optional<E> find(QString (*nameOf)(E), int count, QByteArrayView name)
{
    const QString text = QString::fromUtf8(name);
    for (int i = 0; i < count; ++i) {
        if (nameOf(E(i)) == text)
            return E(i);
    }
    return std::nullopt;
}

} // namespace

namespace EnumNames {
std::optional<Verdict> verdict(QByteArrayView n) { return find(&verdictName, 3, n); }
std::optional<DelaySource> delaySource(QByteArrayView n) { return find(&delaySourceName, 6, n); }
std::optional<FinalKind> finalKind(QByteArrayView n) { return find(&finalKindName, 11, n); }
std::optional<AttemptPhase> phase(QByteArrayView n) { return find(&attemptPhaseName, 8, n); }
std::optional<AbortReason> abortReason(QByteArrayView n) { return find(&abortReasonName, 5, n); }
std::optional<ErrorClass> errorClass(QByteArrayView n) { return errorClassFromName(QString::fromUtf8(n)); }
}
