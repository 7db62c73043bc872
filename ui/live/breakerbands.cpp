// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/breakerbands.h"

#include <QCoreApplication>

#include <algorithm>

QString breakerStateLabel(CircuitBreaker::State state)
{
    switch (state) {
    case CircuitBreaker::State::Closed:
        return QCoreApplication::translate("BreakerBands", "Closed");
    case CircuitBreaker::State::Open:
        return QCoreApplication::translate("BreakerBands", "Open");
    case CircuitBreaker::State::HalfOpen:
        return QCoreApplication::translate("BreakerBands", "Half-open");
    }
    return {};
}

void BreakerBands::add(const QList<BreakerChange>& changes, qsizetype from, qsizetype to, double startMs)
{
    for (qsizetype i = std::max<qsizetype>(0, from); i < to && i < changes.size(); ++i) {
        const BreakerChange& c = changes.at(i);
        const auto found = std::find_if(m_bands.begin(), m_bands.end(),
            [&](const BreakerBand& b) { return b.scope == c.scope && b.policy == c.policy; });
        BreakerBand* band = found != m_bands.end() ? &*found : nullptr;
        const double at = toMs(c.at);
        if (!band) {
            m_bands.append(BreakerBand { c.policy, c.scope, {} });
            band = &m_bands.last();
            band->segments.append(BreakerSegment { c.from, std::min(startMs, at), BreakerSegment::kNoEnd, -1 });
        }
        // A change stamped before the one it follows (a file edited by hand) begins where that one did.
        BreakerSegment& last = band->segments.last();
        const double begins = std::max(at, last.startMs);
        last.endMs = begins;
        band->segments.append(BreakerSegment { c.to, begins, BreakerSegment::kNoEnd, i });
    }
}

int BreakerBands::firstEndingAfter(int band, double ms) const
{
    if (band < 0 || band >= m_bands.size())
        return -1;
    const QList<BreakerSegment>& s = m_bands.at(band).segments;
    const auto it = std::upper_bound(s.cbegin(), s.cend(), ms, [](double t, const BreakerSegment& seg) { return t < seg.endMs; });
    return it == s.cend() ? -1 : int(it - s.cbegin());
}

int BreakerBands::segmentAt(int band, double ms) const
{
    const int i = firstEndingAfter(band, ms);
    if (i < 0)
        return -1;
    return m_bands.at(band).segments.at(i).startMs <= ms ? i : -1;
}
