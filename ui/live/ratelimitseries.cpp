// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/ratelimitseries.h"

#include "http/ratelimitparser.h"
#include "session/ratelimit/attemptratelimits.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {
constexpr double kResetMergeSeconds = 0.25; // resets closer than this are one marker
} // namespace

QString RateLimitTrack::label() const
{
    const QString what = policy.isEmpty() ? host : host + u" · "_s + policy;
    return what + u" ("_s + dialect + u')';
}

QList<QPointF> stepPoints(const QList<QPointF>& samples, double end)
{
    QList<QPointF> out;
    out.reserve(samples.size() * 2 + 1);
    for (qsizetype i = 0; i < samples.size(); ++i) {
        if (i > 0)
            out.append({ samples.at(i).x(), samples.at(i - 1).y() });
        out.append(samples.at(i));
    }
    if (!samples.isEmpty() && end > samples.last().x())
        out.append({ end, samples.last().y() });
    return out;
}

QList<QPointF> lowestPerInterval(const QList<QPointF>& samples, double interval)
{
    if (!(interval > 0) || samples.size() < 2)
        return samples;
    QList<QPointF> out;
    double slotStart = 0;
    for (const QPointF& p : samples) {
        if (out.isEmpty() || p.x() >= slotStart + interval) {
            out.append(p);
            slotStart = p.x();
        } else if (p.y() < out.last().y()) {
            out.last().setY(p.y());
        }
    }
    return out;
}

QList<double> mergedResets(const QList<double>& resets, double within)
{
    QList<double> out;
    for (const double r : resets) {
        if (out.isEmpty() || r - out.last() >= within)
            out.append(r);
    }
    return out;
}

void RateLimitSeries::clear()
{
    *this = RateLimitSeries();
}

void RateLimitSeries::add(const AttemptRecord& a, const QDateTime& wallOriginUtc)
{
    const std::optional<MonoTime> when = a.at.headersReceived ? a.at.headersReceived : a.at.finished;
    if (!when)
        return;
    const double t = toMs(*when) / 1000.0;
    const auto seen = [this](double seconds) {
        m_minSeconds = m_any ? std::min(m_minSeconds, seconds) : seconds;
        m_maxSeconds = m_any ? std::max(m_maxSeconds, seconds) : seconds;
        m_any = true;
    };

    std::optional<qint64> constraining;
    if (!a.rateLimitHeaders.isEmpty()) {
        const QDateTime now = rateLimitInstant(combinedHeader(a.responseHeaders, "date"),
            AttemptRateLimits::receivedAt(wallOriginUtc, a.at.headersReceived, a.at.finished));
        if (!m_parsed || a.rateLimitHeaders != m_lastFields || (m_lastParse.dependsOnNow && now != m_lastNow)) {
            m_parsed = true;
            m_lastParse = parseRateLimits(a.rateLimitHeaders, now);
            m_lastFields = a.rateLimitHeaders;
            m_lastNow = now;
        }
        const RateLimitParse& parse = m_lastParse;
        if (m_lastHost.isEmpty() || a.url != m_lastUrl) {
            m_lastUrl = a.url;
            m_lastHost = a.url.host() + (a.url.port() > 0 ? u':' + QString::number(a.url.port()) : QString());
        }
        const QString& host = m_lastHost;
        for (const RateLimitSnapshot& s : parse.snapshots) {
            auto it = std::find_if(m_tracks.begin(), m_tracks.end(), [&](const RateLimitTrack& track) {
                return track.host == host && track.policy == s.policy && track.dialect == s.dialect;
            });
            if (it == m_tracks.end()) {
                m_tracks.append(RateLimitTrack { host, s.policy, s.dialect, s.quotaUnit, {}, {}, {} });
                it = m_tracks.end() - 1;
            }
            if (s.remaining) {
                it->remaining.append({ t, double(*s.remaining) });
                m_maxValue = std::max(m_maxValue, double(*s.remaining));
            }
            if (s.limit) {
                it->limit.append({ t, double(*s.limit) });
                m_maxValue = std::max(m_maxValue, double(*s.limit));
            }
            if (s.resetSeconds) {
                const double reset = t + *s.resetSeconds;
                if (it->resets.isEmpty() || std::abs(reset - it->resets.last()) > kResetMergeSeconds) {
                    it->resets.insert(std::upper_bound(it->resets.begin(), it->resets.end(), reset), reset);
                    seen(reset);
                }
            }
            ++m_samples;
        }
        if (const RateLimitSnapshot* most = parse.mostRestrictive(); most && most->remaining)
            constraining = *most->remaining;
        seen(t);
    }
    if (a.status && *a.status == 429) {
        m_rejections.append({ t, double(constraining.value_or(0)) });
        seen(t);
    }
}
