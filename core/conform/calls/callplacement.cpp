// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/calls/callplacement.h"

#include <algorithm>
#include <cmath>

namespace {

Millis arrival(const AttemptRecord& a)
{
    return std::chrono::duration_cast<Millis>(a.at.started.value_or(MonoTime { 0 }));
}

// The value at share Q (0…1) of VALUES, sorted in place.
qint64 quantile(QList<qint64>& values, double q)
{
    std::sort(values.begin(), values.end());
    const qsizetype at
        = std::clamp<qsizetype>(qsizetype(std::floor(q * double(values.size() - 1) + 0.5)), 0, values.size() - 1);
    return values.at(at);
}

} // namespace

std::optional<int> callNumberOf(const AttemptRecord& attempt)
{
    for (const SentHeader& sent : attempt.requestHeaders) {
        if (sent.name.compare(kCallHeader, Qt::CaseInsensitive) != 0)
            continue;
        bool ok = false;
        const int n = sent.value.trimmed().toInt(&ok);
        return ok ? std::optional<int>(n) : std::nullopt;
    }
    return std::nullopt;
}

CallPlacement placeCalls(const QList<AttemptRecord>& attempts, const CallPlan& plan, std::optional<Millis> until)
{
    CallPlacement out;
    const qint64 interval = std::max<qint64>(1, plan.interval.count());
    QList<QList<int>> byCall(plan.count);
    out.byHeader = std::any_of(
        attempts.cbegin(), attempts.cend(), [](const AttemptRecord& a) { return callNumberOf(a).has_value(); });
    if (out.byHeader) {
        for (qsizetype i = 0; i < attempts.size(); ++i) {
            const std::optional<int> n = callNumberOf(attempts.at(i));
            if (n && *n >= 1 && *n <= plan.count)
                byCall[*n - 1].append(int(i));
            else
                out.strays.append(int(i));
        }
    } else if (!attempts.isEmpty()) {
        // The nearest call's time from the first request, which is call 1's.
        const qint64 first = arrival(attempts.first()).count();
        for (qsizetype i = 0; i < attempts.size(); ++i) {
            const qint64 n
                = plan.count == 1 ? 1 : (arrival(attempts.at(i)).count() - first + interval / 2) / interval + 1;
            if (n >= 1 && n <= plan.count)
                byCall[n - 1].append(int(i));
            else
                out.strays.append(int(i));
        }
    }

    QList<qint64> offsets; // each call's first request, less its place in the plan
    for (int n = 1; n <= plan.count; ++n) {
        if (!byCall.at(n - 1).isEmpty())
            offsets.append(arrival(attempts.at(byCall.at(n - 1).first())).count() - (n - 1) * interval);
    }
    if (!offsets.isEmpty()) {
        QList<qint64> sorted = offsets;
        out.origin = Millis { quantile(sorted, 0.5) };
        QList<qint64> spread;
        for (const qint64 o : std::as_const(offsets))
            spread.append(std::abs(o - out.origin.count()));
        const qint64 half = std::max<qint64>(10, interval / 2);
        out.slack = Millis { std::clamp<qint64>(2 * quantile(spread, 0.9), 10, half) };
    }

    for (int n = 1; n <= plan.count; ++n) {
        PlacedCall call;
        call.number = n;
        call.due = out.origin + Millis { (n - 1) * interval };
        call.requests = byCall.at(n - 1);
        if (call.requests.isEmpty() && (offsets.isEmpty() || (until && call.due > *until - out.slack)))
            continue; // not due while the client was watched: never made, not refused
        out.calls.append(call);
    }
    return out;
}
