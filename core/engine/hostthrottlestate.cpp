// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hostthrottlestate.h"

#include "policy/retrydecision.h"

#include <QCoreApplication>

#include <cmath>

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("HostThrottleState", text);
}

} // namespace

QString HostThrottleState::hostKey(const QUrl& url)
{
    const int port = url.port(url.scheme() == QLatin1String("https") ? 443 : 80);
    return url.host() + u':' + QString::number(port);
}

std::optional<HostReset> HostThrottleState::reportedReset(const AttemptRecord& attempt, MonoTime receivedAt)
{
    if (!attempt.status)
        return std::nullopt;
    std::optional<HostReset> found;
    if (const RateLimitSnapshot* q = attempt.rateLimit.mostRestrictive();
        q && q->remaining && *q->remaining == 0 && q->resetSeconds) {
        const auto in = std::chrono::duration_cast<MonoTime>(
            std::chrono::duration<double>(std::max(0.0, *q->resetSeconds)));
        const QString name = q->policy.isEmpty() ? q->dialect : q->dialect + QStringLiteral(" \"") + q->policy + u'"';
        found = HostReset { receivedAt + in,
            tr("%1 remaining 0, reset in %2")
                .arg(name, formatMillis(std::chrono::ceil<Millis>(in))) };
    }
    const int status = *attempt.status;
    if ((status == 429 || status == 503) && attempt.retryAfter && attempt.retryAfter->delay
        && attempt.retryAfter->delay->count() >= 0) {
        const MonoTime at = receivedAt + *attempt.retryAfter->delay;
        if (!found || at > found->at)
            found = HostReset { at, tr("%1 %2 %3").arg(status).arg(attempt.retryAfter->source == u"retry-after-ms"
                                                                      ? QStringLiteral("retry-after-ms")
                                                                      : QStringLiteral("Retry-After"),
                                      formatMillis(*attempt.retryAfter->delay)) };
    }
    return found;
}

void HostThrottleState::note(const QString& host, const HostReset& reset)
{
    auto it = m_resets.find(host);
    if (it == m_resets.end())
        m_resets.insert(host, reset);
    else if (reset.at > it->at)
        *it = reset;
}

std::optional<MonoTime> HostThrottleState::resetIn(const QString& host, MonoTime now) const
{
    const auto it = m_resets.constFind(host);
    if (it == m_resets.constEnd() || it->at <= now)
        return std::nullopt;
    return it->at - now;
}

std::optional<HostReset> HostThrottleState::resetOf(const QString& host) const
{
    const auto it = m_resets.constFind(host);
    if (it == m_resets.constEnd())
        return std::nullopt;
    return *it;
}

ThrottleHold HostThrottleState::check(const QUrl& url, const HostThrottle& throttle, MonoTime now) const
{
    ThrottleHold hold;
    if (!throttle.enabled)
        return hold;
    const QString host = hostKey(url);
    const std::optional<MonoTime> in = resetIn(host, now);
    if (!in)
        return hold;
    hold.wait = std::chrono::ceil<Millis>(*in);
    hold.cause = m_resets.value(host).cause;
    hold.kind = hold.wait > throttle.maxWait ? ThrottleHold::Kind::FailFast : ThrottleHold::Kind::Wait;
    return hold;
}
