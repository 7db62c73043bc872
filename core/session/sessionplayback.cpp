// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/sessionplayback.h"

#include "session/attemptwaits.h"

#include <algorithm>
#include <limits>
#include <tuple>

SessionPlayback::SessionPlayback(const Session& session, QObject* parent)
    : QObject(parent)
{
    m_events.reserve(size_t(session.attemptCount()) * 2 + size_t(session.runs.size()) + size_t(session.labEvents.size()));
    for (qsizetype i = 0; i < session.attemptCount(); ++i) {
        const PackedAttemptHot& p = session.attempts.hot(i);
        const qint64 start = p.at[PackedAttempt::Started] != PackedAttempt::kUnset ? p.at[PackedAttempt::Started]
                                                                                   : p.at[PackedAttempt::Scheduled];
        const qint64 end = p.at[PackedAttempt::Finished];
        if (p.coldRow && start != PackedAttempt::kUnset) {
            if (const std::optional<WaitInfo> hold = AttemptWaits::throttleHold(session.attempts, i))
                m_events.push_back({ hold->scheduledAt.count(), quint32(i), PlaybackEvent::Kind::ThrottleHold });
        }
        if (start != PackedAttempt::kUnset)
            m_events.push_back({ start, quint32(i), PlaybackEvent::Kind::AttemptStarted });
        if (end != PackedAttempt::kUnset)
            m_events.push_back({ end, quint32(i), PlaybackEvent::Kind::AttemptFinished });
    }
    // A run's outcome is reached when the run finished (live, the engine reports it then: after its last
    // attempt, or later when it ended while waiting); one with no end recorded, with its last attempt.
    const auto runsFrom = m_events.end() - m_events.begin();
    for (qsizetype r = 0; r < session.runs.size(); ++r) {
        const SessionRun& run = session.runs.at(r);
        if (run.outcome != FinalKind::None && run.finishedNs != PackedAttempt::kUnset)
            m_events.push_back({ run.finishedNs, quint32(r), PlaybackEvent::Kind::RunFinished });
    }
    const auto labFrom = m_events.end() - m_events.begin();
    // The lab's events are reached in the order they were recorded (views show the first N of them): one
    // stamped earlier than the one before it (a file edited by hand) is reached with that one.
    qint64 labReached = std::numeric_limits<qint64>::min();
    for (qsizetype i = 0; i < session.labEvents.size(); ++i) {
        labReached = std::max(labReached, session.labEvents.atMs(i) * 1000000);
        m_events.push_back({ labReached, quint32(i), PlaybackEvent::Kind::Lab });
    }
    // In time; at the same moment, in the order put in above: attempts' events first (by row, then start,
    // end), runs' ends next (by run), the lab's last (by index). That order as a key (the same as a stable
    // sort by time) lets the three parts, each in time order already unless runs overlapped, be merged
    // instead of sorted.
    const auto part = [](PlaybackEvent::Kind kind) {
        return kind == PlaybackEvent::Kind::Lab ? 2 : kind == PlaybackEvent::Kind::RunFinished ? 1 : 0;
    };
    const auto before = [&part](const PlaybackEvent& a, const PlaybackEvent& b) {
        return std::tuple(a.atNs, part(a.kind), a.index, a.kind) < std::tuple(b.atNs, part(b.kind), b.index, b.kind);
    };
    const auto runs = m_events.begin() + runsFrom;
    const auto labs = m_events.begin() + labFrom;
    if (std::is_sorted(m_events.begin(), runs, before) && std::is_sorted(runs, labs, before)
        && std::is_sorted(labs, m_events.end(), before)) {
        std::inplace_merge(m_events.begin(), runs, labs, before);
        std::inplace_merge(m_events.begin(), labs, m_events.end(), before);
    } else {
        std::sort(m_events.begin(), m_events.end(), before);
    }
    m_position = startNs();
    m_timer.setInterval(16);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &SessionPlayback::onTick);
}

qint64 SessionPlayback::startNs() const
{
    return m_events.empty() ? 0 : m_events.front().atNs;
}

qint64 SessionPlayback::endNs() const
{
    return m_events.empty() ? 0 : m_events.back().atNs;
}

void SessionPlayback::stepForward()
{
    if (m_cursor >= eventCount())
        return;
    m_position = m_events[size_t(m_cursor)].atNs;
    Q_EMIT eventReached(m_cursor++);
    Q_EMIT positionChanged(m_position);
    if (m_cursor == eventCount())
        Q_EMIT finished();
}

void SessionPlayback::stepBackward()
{
    if (m_cursor == 0)
        return;
    Q_EMIT eventUndone(--m_cursor);
    m_position = m_cursor > 0 ? m_events[size_t(m_cursor - 1)].atNs : startNs();
    Q_EMIT positionChanged(m_position);
}

void SessionPlayback::seek(qint64 ns)
{
    while (m_cursor > 0 && m_events[size_t(m_cursor - 1)].atNs > ns)
        Q_EMIT eventUndone(--m_cursor);
    m_reaching = ns;
    while (m_cursor < eventCount() && m_events[size_t(m_cursor)].atNs <= ns)
        Q_EMIT eventReached(m_cursor++);
    m_reaching = std::numeric_limits<qint64>::min();
    m_position = ns;
    Q_EMIT positionChanged(m_position);
}

void SessionPlayback::advance(qint64 wallNs)
{
    const qint64 target = m_position + qint64(double(wallNs) * m_speed);
    seek(std::min(target, endNs()));
    if (m_cursor >= eventCount()) {
        pause();
        Q_EMIT finished();
    }
}

void SessionPlayback::play(double speed)
{
    m_speed = speed > 0 ? speed : 1.0;
    m_wall.start();
    m_timer.start();
}

void SessionPlayback::pause()
{
    m_timer.stop();
}

void SessionPlayback::onTick()
{
    advance(m_wall.nsecsElapsed());
    m_wall.restart();
}
