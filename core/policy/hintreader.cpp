// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/hintreader.h"

#include <algorithm>

namespace {

HintValueFormat valueFormat(HintFormat format)
{
    switch (format) {
    case HintFormat::RetryAfter:
        return HintValueFormat::RetryAfter;
    case HintFormat::Milliseconds:
        return HintValueFormat::Milliseconds;
    case HintFormat::Seconds:
        return HintValueFormat::Seconds;
    }
    return HintValueFormat::RetryAfter;
}

} // namespace

bool hintAppliesTo(const DelayHint& hint, const AttemptOutcome& outcome)
{
    if (hint.statuses.isEmpty())
        return true;
    if (outcome.isError() || !outcome.status)
        return false;
    const int status = *outcome.status;
    return std::any_of(hint.statuses.begin(), hint.statuses.end(), [status](const StatusRange& r) { return r.contains(status); });
}

std::optional<RetryAfterValue> readDelayHint(const DelayHint& hint, const AttemptOutcome& outcome, const QDateTime& now)
{
    if (hint.alsoRetryAfterMs && hint.format == HintFormat::RetryAfter
        && hint.header.compare(u"Retry-After", Qt::CaseInsensitive) == 0)
        return parseRetryAfter(outcome.headers, now);
    return parseHintHeader(outcome.headers, hint.header.toLatin1(), valueFormat(hint.format), now);
}
