// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/attemptphase.h"

QString attemptPhaseName(AttemptPhase phase)
{
    switch (phase) {
    case AttemptPhase::Scheduled:
        return QStringLiteral("scheduled");
    case AttemptPhase::Started:
        return QStringLiteral("started");
    case AttemptPhase::Connecting:
        return QStringLiteral("connecting");
    case AttemptPhase::TlsDone:
        return QStringLiteral("tls-done");
    case AttemptPhase::RequestSent:
        return QStringLiteral("request-sent");
    case AttemptPhase::HeadersReceived:
        return QStringLiteral("headers-received");
    case AttemptPhase::FirstByte:
        return QStringLiteral("first-byte");
    case AttemptPhase::Finished:
        return QStringLiteral("finished");
    }
    return {};
}

QString abortReasonName(AbortReason reason)
{
    switch (reason) {
    case AbortReason::None:
        return {};
    case AbortReason::ConnectTimeout:
        return QStringLiteral("connect-timeout");
    case AbortReason::AttemptTimeout:
        return QStringLiteral("attempt-timeout");
    case AbortReason::Deadline:
        return QStringLiteral("deadline");
    case AbortReason::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}
