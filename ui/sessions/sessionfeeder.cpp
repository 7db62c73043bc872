// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/sessionfeeder.h"

#include "livesession.h"

#include "session/sessionplayback.h"

SessionFeeder::SessionFeeder(std::shared_ptr<const Session> session, LiveSession* live, bool alreadyShown, QObject* parent)
    : QObject(parent)
    , m_session(std::move(session))
    , m_live(live)
    , m_playback(new SessionPlayback(*m_session, this))
    , m_finishedPerRun(size_t(m_session->runs.size()), -1)
{
    connect(m_playback, &SessionPlayback::eventReached, this, [this](qsizetype i) {
        if (!m_needsRebuild && !m_silent)
            apply(i);
    });
    connect(m_playback, &SessionPlayback::eventUndone, this, [this] { m_needsRebuild = true; });
    connect(m_playback, &SessionPlayback::positionChanged, this, [this](qint64 ns) {
        if (m_silent)
            return;
        if (m_needsRebuild)
            rebuild();
        // One clock for every view: the playhead (waits end there, attempts in flight reach it).
        m_live->setClockMs(double(ns) / 1e6);
        m_live->flush();
    });
    if (alreadyShown) {
        m_silent = true;
        m_playback->seek(m_playback->endNs());
        m_silent = false;
    } else {
        m_live->clear(); // from now on the views show this session
        m_live->showStore(m_session);
    }
}

SessionFeeder::~SessionFeeder() = default;

void SessionFeeder::showAll()
{
    m_playback->pause();
    m_playback->seek(m_playback->endNs());
}

void SessionFeeder::showNone()
{
    m_playback->pause();
    m_needsRebuild = true;
    m_playback->seek(m_playback->startNs() - 1);
}

void SessionFeeder::rebuild()
{
    m_needsRebuild = false;
    m_live->clear();
    m_live->showStore(m_session);
    m_finishedPerRun.assign(size_t(m_session->runs.size()), -1);
    for (qsizetype i = 0; i < m_playback->cursor(); ++i)
        apply(i);
}

void SessionFeeder::apply(qsizetype eventIndex)
{
    const PlaybackEvent& e = m_playback->event(eventIndex);
    const Session& s = *m_session;
    if (e.kind == PlaybackEvent::Kind::Lab) {
        m_live->onLabEventFrom(s.labEvents, e.labIndex());
        return;
    }
    const PackedAttemptHot& p = s.attempts.hot(e.row());
    // Events come a run's attempts after another: the run of the last one is looked up again most often.
    if (m_lastRunIndex < 0 || p.runId != m_lastRunId) {
        m_lastRunId = p.runId;
        m_lastRunIndex = s.runIndex(p.runId);
    }
    const qsizetype runIndex = m_lastRunIndex;
    if (runIndex < 0)
        return;
    switch (e.kind) {
    case PlaybackEvent::Kind::AttemptStarted: {
        if (m_finishedPerRun[size_t(runIndex)] < 0) {
            m_finishedPerRun[size_t(runIndex)] = 0;
            // Started: what was known then. The outcome, end and totals come with its last attempt.
            RunRecord started = s.runRecord(runIndex, false);
            started.outcome = FinalKind::None;
            started.finishedAt.reset();
            started.reason.clear();
            started.serverAskedFor.reset();
            started.totalWait = Millis(0);
            started.attemptCount = 0;
            m_live->onRunStarted(started);
        }
        // An attempt that finishes within this same move (opening a file shows every attempt at once) is
        // never drawn in flight: it is shown when its finish is reached, with no record built for it here.
        const qint64 end = p.at[PackedAttempt::Finished];
        if (end != PackedAttempt::kUnset && end >= e.atNs && end <= m_playback->reachingNs())
            break;
        // In flight: only the moments reached when it was handed to the transport (read from the packed
        // row: no whole record is built for an attempt about to finish).
        const AttemptTimestamps at = s.attempts.timestamps(e.row());
        AttemptRecord started;
        started.runId = p.runId;
        started.index = p.index;
        started.method = s.attempts.strings().string(p.method);
        if (p.url != m_urlId || m_url.isEmpty()) { // a run's attempts share their URL: parsed once a run
            m_urlId = p.url;
            m_url = QUrl::fromEncoded(s.attempts.strings().view(p.url).toByteArray());
        }
        started.url = m_url;
        started.at.scheduled = at.scheduled;
        started.at.started = at.started;
        started.phaseReached = AttemptPhase::Started;
        m_live->onAttemptStarted(started);
        break;
    }
    case PlaybackEvent::Kind::AttemptFinished: {
        qint32& finished = m_finishedPerRun[size_t(runIndex)];
        if (finished < 0)
            return; // not started in the views
        m_live->onAttemptStored(e.row());
        const SessionRun& run = s.runs.at(runIndex);
        if (++finished == run.rows.size() && run.outcome != FinalKind::None)
            m_live->onRunFinished(s.runRecord(runIndex, false));
        break;
    }
    case PlaybackEvent::Kind::WaitStarted: {
        if (m_finishedPerRun[size_t(runIndex)] < 0)
            return;
        m_live->onWaitAfter(s.attempts, e.row(), e.atNs); // its decision read from the row, no record built
        break;
    }
    case PlaybackEvent::Kind::Lab:
        break;
    }
}
