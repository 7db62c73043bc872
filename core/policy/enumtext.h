// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one spelling table of each enumeration that files, the CLI and the policy format carry: enumText(),
// found by argument-dependent lookup (the engine's enumerations have theirs in engine/enumtext.h). Each is a
// switch without a default, so the compiler (-Wswitch, an error in every preset) refuses an enumerator
// without a spelling; a value outside the enumeration spells as a null view. enumCount() finds the end of
// an enumeration from its table, so no count is written down anywhere. verdictName() and the other
// QString functions, the session reader and writer (session/format/enumspellings.h) all read these.

#include "policy/errorclass.h"
#include "policy/retrydecision.h"

#include <string_view>

constexpr std::string_view enumText(Verdict v)
{
    switch (v) {
    case Verdict::Retry: return "retry";
    case Verdict::Stop: return "stop";
    case Verdict::Success: return "success";
    }
    return {};
}

constexpr std::string_view enumText(DelaySource s)
{
    switch (s) {
    case DelaySource::None: return "none";
    case DelaySource::Backoff: return "backoff";
    case DelaySource::RetryAfter: return "retry-after";
    case DelaySource::RetryAfterMs: return "retry-after-ms";
    case DelaySource::ServerHint: return "hint";
    case DelaySource::Throttle: return "throttle";
    }
    return {};
}

constexpr std::string_view enumText(FinalKind k)
{
    switch (k) {
    case FinalKind::None: return ""; // not final: written as an empty or absent field
    case FinalKind::Success: return "success";
    case FinalKind::RateLimited: return "rate-limited";
    case FinalKind::ServerError: return "server-error";
    case FinalKind::ClientError: return "client-error";
    case FinalKind::Network: return "network";
    case FinalKind::Deadline: return "deadline";
    case FinalKind::BudgetExhausted: return "budget-exhausted";
    case FinalKind::RetryAfterTooLong: return "retry-after-too-long";
    case FinalKind::BodyNotRewindable: return "body-not-rewindable";
    case FinalKind::Cancelled: return "cancelled";
    case FinalKind::CircuitOpen: return "circuit-open";
    case FinalKind::LimiterFull: return "limiter-full";
    }
    return {};
}

// The names are part of the policy format, the CLI and the session format: never rename them.
constexpr std::string_view enumText(ErrorClass e)
{
    switch (e) {
    case ErrorClass::Dns: return "dns";
    case ErrorClass::Refused: return "refused";
    case ErrorClass::Tls: return "tls";
    case ErrorClass::ConnectTimeout: return "connect-timeout";
    case ErrorClass::ResponseTimeout: return "response-timeout";
    case ErrorClass::ConnectionLost: return "connection-lost";
    case ErrorClass::Protocol: return "protocol";
    }
    return {};
}

namespace EnumText {

// How many enumerators E has: they are numbered from 0 without gaps, and the first value with no
// spelling is the end.
template<typename E>
constexpr int enumCount()
{
    int n = 0;
    while (enumText(E(n)).data() != nullptr)
        ++n;
    return n;
}

static_assert(enumCount<Verdict>() == int(Verdict::Success) + 1);
static_assert(enumCount<DelaySource>() == int(DelaySource::Throttle) + 1);
static_assert(enumCount<FinalKind>() == int(FinalKind::LimiterFull) + 1);
static_assert(enumCount<ErrorClass>() == int(ErrorClass::Protocol) + 1);

template<typename E>
QString name(E value)
{
    const std::string_view text = enumText(value);
    return text.empty() ? QString() : QString::fromLatin1(text.data(), qsizetype(text.size()));
}

} // namespace EnumText
