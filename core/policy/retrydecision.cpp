// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/retrydecision.h"

QString verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Retry:
        return QStringLiteral("retry");
    case Verdict::Stop:
        return QStringLiteral("stop");
    case Verdict::Success:
        return QStringLiteral("success");
    }
    return {};
}

QString delaySourceName(DelaySource source)
{
    switch (source) {
    case DelaySource::None:
        return QStringLiteral("none");
    case DelaySource::Backoff:
        return QStringLiteral("backoff");
    case DelaySource::RetryAfter:
        return QStringLiteral("retry-after");
    case DelaySource::RetryAfterMs:
        return QStringLiteral("retry-after-ms");
    case DelaySource::ServerHint:
        return QStringLiteral("hint");
    case DelaySource::Throttle:
        return QStringLiteral("throttle");
    }
    return {};
}

QString finalKindName(FinalKind kind)
{
    switch (kind) {
    case FinalKind::None:
        return QString();
    case FinalKind::Success:
        return QStringLiteral("success");
    case FinalKind::RateLimited:
        return QStringLiteral("rate-limited");
    case FinalKind::ServerError:
        return QStringLiteral("server-error");
    case FinalKind::ClientError:
        return QStringLiteral("client-error");
    case FinalKind::Network:
        return QStringLiteral("network");
    case FinalKind::Deadline:
        return QStringLiteral("deadline");
    case FinalKind::BudgetExhausted:
        return QStringLiteral("budget-exhausted");
    case FinalKind::RetryAfterTooLong:
        return QStringLiteral("retry-after-too-long");
    case FinalKind::BodyNotRewindable:
        return QStringLiteral("body-not-rewindable");
    case FinalKind::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

QString formatMillis(Millis value)
{
    const qint64 ms = value.count();
    if (ms < 0)
        return QStringLiteral("-") + formatMillis(Millis(-ms));
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60'000) {
        if (ms % 1000 == 0)
            return QStringLiteral("%1 s").arg(ms / 1000);
        return QStringLiteral("%1 s").arg(double(ms) / 1000.0, 0, 'g', 4);
    }
    if (ms < 3'600'000)
        return QStringLiteral("%1 min %2 s").arg(ms / 60'000).arg((ms % 60'000) / 1000);
    return QStringLiteral("%1 h %2 min").arg(ms / 3'600'000).arg((ms % 3'600'000) / 60'000);
}
