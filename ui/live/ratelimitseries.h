// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The rate-limit chart's data: for each host and quota policy seen (one track per host + policy +
// dialect), the remaining and limit values over time as the responses reported them, the moments the
// quota resets (response time + reset seconds), and the 429 answers. Rate-limit fields are read with
// core/http's parseRateLimits(), measured from core's rateLimitInstant(): the response's Date header when
// it has one, else the moment it was received (WALL_ORIGIN_UTC + its headers' moment), as the exports do.

#include "engine/attemptrecord.h"
#include "http/ratelimitparser.h"

#include <QDateTime>
#include <QList>
#include <QPointF>
#include <QString>

struct RateLimitTrack
{
    QString host; // "127.0.0.1:8080"
    QString policy; // the quota's policy name, empty when the dialect has none
    QString dialect; // "ietf-draft-11", "github", …
    QString unit; // "requests", … empty when unstated
    QList<QPointF> remaining; // (seconds, remaining)
    QList<QPointF> limit; // (seconds, limit)
    QList<double> resets; // seconds on the session axis, ascending, de-duplicated
    QString label() const; // "127.0.0.1:8080 · burst (ietf-draft-11)"
};

// A value that holds until the next sample, drawn as steps: (t0,v0) (t1,v0) (t1,v1) … then flat to END.
QList<QPointF> stepPoints(const QList<QPointF>& samples, double end);
// The lowest value reported in each INTERVAL-second slot, at the slot's first sample: answers that arrive
// together (concurrent runs report 8, 0, 7, 0 within milliseconds) draw one step, not a comb of spikes.
QList<QPointF> lowestPerInterval(const QList<QPointF>& samples, double interval);
// Resets (ascending) closer than WITHIN seconds to the previous one kept are one marker.
QList<double> mergedResets(const QList<double>& resets, double within);

class RateLimitSeries
{
public:
    void clear();
    // One finished attempt: a sample per quota it reported, and a rejection when it was a 429.
    void add(const AttemptRecord& attempt, const QDateTime& wallOriginUtc);

    const QList<RateLimitTrack>& tracks() const { return m_tracks; }
    const QList<QPointF>& rejections() const { return m_rejections; } // (seconds, remaining or 0) of 429s
    qsizetype sampleCount() const { return m_samples; }
    double maxValue() const { return m_maxValue; }
    double maxSeconds() const { return m_maxSeconds; }
    double minSeconds() const { return m_minSeconds; }

private:
    QList<RateLimitTrack> m_tracks;
    QList<QPointF> m_rejections;
    qsizetype m_samples = 0;
    double m_maxValue = 0;
    double m_minSeconds = 0;
    double m_maxSeconds = 0;
    bool m_any = false;
    // The last answer's fields and what they read as: consecutive answers of a batch often carry the same
    // fields (parsing them is most of the cost of adding an attempt), and a parse depends only on them and
    // on the moment they are read against (and on that only when a reset was a point in time).
    HttpHeaderList m_lastFields;
    QDateTime m_lastNow;
    RateLimitParse m_lastParse;
    bool m_parsed = false; // the three above are set
    QUrl m_lastUrl; // and its host[:port], the track's name
    QString m_lastHost;
};
