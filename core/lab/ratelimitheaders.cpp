// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/ratelimitheaders.h"

#include "lab/httpdateformat.h"
#include "lab/labresponse.h"

namespace {

qint64 ceilSeconds(std::chrono::milliseconds ms)
{
    return (ms.count() + 999) / 1000;
}

} // namespace

void RateLimitHeaders::apply(LabResponse& response, const RateLimitSpec& spec, const RateLimitVerdict& v,
    const QDateTime& nowUtc)
{
    const QByteArray limit = QByteArray::number(v.limit);
    const QByteArray remaining = QByteArray::number(v.remaining);
    const qint64 resetSeconds = ceilSeconds(v.resetIn);
    const QByteArray reset = QByteArray::number(resetSeconds);
    const QByteArray windowSeconds = QByteArray::number(std::max<qint64>(1, ceilSeconds(spec.window)));
    const QByteArray epochReset = QByteArray::number(nowUtc.toSecsSinceEpoch() + resetSeconds);
    const QByteArray name = '"' + spec.policyName + '"';
    switch (spec.dialect) {
    case RateLimitSpec::Dialect::None:
        break;
    case RateLimitSpec::Dialect::Ietf11:
        response.setHeader("RateLimit-Policy", name + ";q=" + limit + ";w=" + windowSeconds);
        response.setHeader("RateLimit", name + ";r=" + remaining + ";t=" + reset);
        break;
    case RateLimitSpec::Dialect::Ietf07:
        response.setHeader("RateLimit-Policy", limit + ";w=" + windowSeconds);
        response.setHeader("RateLimit", "limit=" + limit + ", remaining=" + remaining + ", reset=" + reset);
        break;
    case RateLimitSpec::Dialect::Legacy:
        response.setHeader("RateLimit-Policy", limit + ";w=" + windowSeconds);
        response.setHeader("RateLimit-Limit", limit);
        response.setHeader("RateLimit-Remaining", remaining);
        response.setHeader("RateLimit-Reset", reset);
        break;
    case RateLimitSpec::Dialect::XRateLimit:
        response.setHeader("X-RateLimit-Limit", limit);
        response.setHeader("X-RateLimit-Remaining", remaining);
        response.setHeader("X-RateLimit-Reset", epochReset);
        break;
    case RateLimitSpec::Dialect::GitHub:
        response.setHeader("x-ratelimit-limit", limit);
        response.setHeader("x-ratelimit-remaining", remaining);
        response.setHeader("x-ratelimit-used", QByteArray::number(v.limit - v.remaining));
        response.setHeader("x-ratelimit-reset", epochReset);
        response.setHeader("x-ratelimit-resource", "core");
        break;
    }
}

void RateLimitHeaders::applyRetryAfter(LabResponse& response, RetryAfterForm form, std::chrono::milliseconds wait,
    const QDateTime& nowUtc)
{
    // An HTTP-date has whole seconds: round the instant up so the client never retries early.
    const QDateTime at = nowUtc.addSecs(ceilSeconds(wait) + (nowUtc.time().msec() > 0 ? 1 : 0));
    switch (form) {
    case RetryAfterForm::None:
        break;
    case RetryAfterForm::Seconds:
        response.setHeader("Retry-After", QByteArray::number(ceilSeconds(wait)));
        break;
    case RetryAfterForm::ImfFixdate:
        response.setHeader("Retry-After", HttpDateFormat::format(at, HttpDateFormat::Form::ImfFixdate));
        break;
    case RetryAfterForm::Rfc850:
        response.setHeader("Retry-After", HttpDateFormat::format(at, HttpDateFormat::Form::Rfc850));
        break;
    case RetryAfterForm::Asctime:
        response.setHeader("Retry-After", HttpDateFormat::format(at, HttpDateFormat::Form::Asctime));
        break;
    case RetryAfterForm::Milliseconds:
        response.setHeader("retry-after-ms", QByteArray::number(wait.count()));
        break;
    }
}
