// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The spelling tables of the engine's enumerations (see policy/enumtext.h for the rules).

#include "engine/attemptphase.h"
#include "policy/enumtext.h"

constexpr std::string_view enumText(AttemptPhase p)
{
    switch (p) {
    case AttemptPhase::Scheduled: return "scheduled";
    case AttemptPhase::Started: return "started";
    case AttemptPhase::Connecting: return "connecting";
    case AttemptPhase::TlsDone: return "tls-done";
    case AttemptPhase::RequestSent: return "request-sent";
    case AttemptPhase::HeadersReceived: return "headers-received";
    case AttemptPhase::FirstByte: return "first-byte";
    case AttemptPhase::Finished: return "finished";
    }
    return {};
}

constexpr std::string_view enumText(AbortReason r)
{
    switch (r) {
    case AbortReason::None: return "";
    case AbortReason::ConnectTimeout: return "connect-timeout";
    case AbortReason::AttemptTimeout: return "attempt-timeout";
    case AbortReason::Deadline: return "deadline";
    case AbortReason::Cancelled: return "cancelled";
    case AbortReason::HedgeLost: return "hedge-lost";
    }
    return {};
}

static_assert(EnumText::enumCount<AttemptPhase>() == int(AttemptPhase::Finished) + 1);
static_assert(EnumText::enumCount<AbortReason>() == int(AbortReason::HedgeLost) + 1);
