// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every live view shows of a LiveSession, taken the way each view takes it (from the refreshes, delta by
// delta) and written out as lines of text: the timeline's lanes and marks, the delay chart's points, the
// rate-limit chart's tracks and 429s, the summary, the attempts table's cells and the lab's events. Two
// sessions shown the same have the same lines: what a test compares to say an opened session shows what
// the live one showed.

#include "live/delayseries.h"
#include "live/ratelimitseries.h"
#include "live/sessionsummary.h"
#include "live/timelinemodel.h"
#include "livesession.h"
#include "run/attemptstablemodel.h"

#include <QAbstractItemModelTester>
#include <QObject>
#include <QStringList>

class ViewsData
{
public:
    // Follows SESSION from now on (attach before anything is shown in it).
    explicit ViewsData(LiveSession* session)
        : m_session(session)
        , m_table(session)
        , m_tester(&m_table, QAbstractItemModelTester::FailureReportingMode::QtTest)
    {
        QObject::connect(session, &LiveSession::refreshed, &m_table, [this](const LiveSessionDelta& d) { update(d); });
        QObject::connect(session, &LiveSession::cleared, &m_table, [this] { clear(); });
    }

    QStringList lines() const
    {
        QStringList out;
        const auto ms = [](double v) { return QString::number(v, 'f', 3); };
        for (int lane = 0; lane < m_timeline.laneCount(); ++lane) {
            QStringList marks;
            if (const int rows = m_timeline.copyRows(lane))
                marks << QStringLiteral("(copy rows %1)").arg(rows);
            for (const TimelineMark& m : m_timeline.lane(lane)) {
                marks << QStringLiteral("%1/%2/%3 %4-%5")
                             .arg(int(m.kind))
                             .arg(m.detail)
                             .arg(m.attempt)
                             .arg(ms(m.startMs), ms(m.endMs))
                        + (m.hedge ? QStringLiteral(" copy %1/%2").arg(m.hedge).arg(m.flags) : QString());
            }
            // What a lane draws; the order they were added in is the order the refreshes brought them (a file
            // opened at once brings them in one), not something drawn.
            marks.sort();
            out << QStringLiteral("timeline lane %1 run %2: %3").arg(lane).arg(m_timeline.runIdOfLane(lane)).arg(marks.join(u", "));
        }
        const BreakerBands& bands = m_timeline.breakers();
        for (int b = 0; b < bands.count(); ++b) {
            QStringList segments;
            for (const BreakerSegment& seg : bands.band(b).segments)
                segments << QStringLiteral("%1 %2-%3 #%4")
                                .arg(stateName(seg.state), ms(seg.startMs),
                                    seg.endMs == BreakerSegment::kNoEnd ? QStringLiteral("now") : ms(seg.endMs))
                                .arg(seg.change);
            out << QStringLiteral("timeline breaker %1 · %2: %3").arg(bands.band(b).policy, bands.band(b).scope, segments.join(u", "));
        }
        out << QStringLiteral("timeline in flight %1, on the axis %2, span %3-%4")
                   .arg(m_timeline.live().size())
                   .arg(m_timeline.unmatchedLab().size())
                   .arg(ms(m_timeline.startMs()), ms(m_timeline.contentEndMs()));
        const auto points = [&](const QList<QPointF>& list) {
            QStringList p;
            for (const QPointF& x : list)
                p << QStringLiteral("(%1 %2)").arg(x.x(), 0, 'f', 3).arg(x.y(), 0, 'f', 3);
            return p.join(u' ');
        };
        out << QStringLiteral("delays backoff: ") + points(m_delays.backoffPoints());
        out << QStringLiteral("delays server: ") + points(m_delays.serverPoints());
        for (const RateLimitTrack& t : m_limits.tracks()) {
            QStringList resets;
            for (const double r : t.resets)
                resets << QString::number(r, 'f', 3);
            out << QStringLiteral("rate limit %1: remaining %2; limit %3; resets %4")
                       .arg(t.label(), points(t.remaining), points(t.limit), resets.join(u' '));
        }
        out << QStringLiteral("rate limit 429s: ") + points(m_limits.rejections());
        const SessionSummary s = m_summary.summary();
        out << QStringLiteral("summary runs %1 finished %2 succeeded %3 attempts %4 max/run %5 amplification %6 "
                              "p50 %7 p95 %8 waiting %9 run time %10 requests %11 applied %12 twice %13")
                   .arg(s.runs)
                   .arg(s.finishedRuns)
                   .arg(s.succeededRuns)
                   .arg(s.attempts)
                   .arg(s.maxAttemptsPerRun)
                   .arg(s.amplification, 0, 'f', 3)
                   .arg(ms(s.p50Ms), ms(s.p95Ms), ms(s.waitingMs), ms(s.runTimeMs))
                   .arg(s.serverRequests)
                   .arg(s.operationsApplied)
                   .arg(s.duplicateApplications);
        if (s.hasBreaker) {
            out << QStringLiteral("summary breaker: refused %1, opened %2").arg(s.refusedByBreaker).arg(s.breakerOpenings);
            for (const BreakerSummary& b : s.breakers)
                out << QStringLiteral("summary ") + breakerSummaryLine(b);
        }
        if (s.hasHedges)
            out << QStringLiteral("summary ") + hedgeSummaryLine(s.hedges);
        for (int row = 0; row < m_table.rowCount(); ++row) {
            QStringList cells;
            for (int column = 0; column < m_table.columnCount(); ++column)
                cells << m_table.index(row, column).data().toString();
            out << QStringLiteral("table: ") + cells.join(u" | ");
        }
        const LabEventStore& events = m_session->labEvents();
        for (qsizetype i = 0; i < m_session->labEventCount(); ++i)
            out << QStringLiteral("lab %1 at %2 #%3 %4").arg(int(events.kind(i))).arg(events.atMs(i)).arg(events.at(i).requestId).arg(events.attemptId(i));
        return out;
    }

    const TimelineModel& timeline() const { return m_timeline; }
    const DelaySeries& delays() const { return m_delays; }

private:
    void update(const LiveSessionDelta& d)
    {
        m_timeline.update(*m_session, d);
        const WaitStore& waits = m_session->waits();
        for (qsizetype i = d.waitsBefore; i < d.waitsAfter && i < waits.size(); ++i)
            m_delays.add(waits.at(i));
        // As the chart reads them: resets from the answer's Date, else from when it came on the session's axis.
        for (qsizetype i = d.attemptsBefore; i < d.attemptsAfter && i < m_session->finishedAttempts(); ++i)
            m_limits.add(m_session->attemptRecord(i), m_session->wallOriginUtc());
        m_summary.update(*m_session, d);
    }
    void clear()
    {
        m_timeline.clear();
        m_delays.clear();
        m_limits.clear();
        m_summary.clear();
    }

    LiveSession* m_session;
    AttemptsTableModel m_table;
    QAbstractItemModelTester m_tester;
    TimelineModel m_timeline;
    DelaySeries m_delays;
    RateLimitSeries m_limits;
    SessionSummaryBuilder m_summary;
};
