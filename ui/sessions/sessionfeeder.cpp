// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/sessionfeeder.h"

#include "livesession.h"

#include "session/attemptwaits.h"
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
        showBreakerChangesUpTo(ns);
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
        m_live->show(m_session, LiveSession::Reveal::ByPlayback);
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
    m_live->show(m_session, LiveSession::Reveal::ByPlayback);
    m_finishedPerRun.assign(size_t(m_session->runs.size()), -1);
    for (qsizetype i = 0; i < m_playback->cursor(); ++i)
        apply(i);
}

void SessionFeeder::showBreakerChangesUpTo(qint64 ns)
{
    // In the order they happened: each is reached at its moment (one stamped earlier than the one before it,
    // a file edited by hand, with that one), as a live batch showed it when it happened.
    const QList<BreakerChange>& changes = m_session->breakerChanges;
    qsizetype shown = m_live->breakerChangeCount();
    while (shown < changes.size() && changes.at(shown).at.count() <= ns)
        ++shown;
    if (shown > m_live->breakerChangeCount())
        m_live->onBreakerChangeStored(shown - 1);
}

void SessionFeeder::startRun(qsizetype runIndex)
{
    if (m_finishedPerRun[size_t(runIndex)] >= 0)
        return;
    m_finishedPerRun[size_t(runIndex)] = 0;
    // Started: what was known then. The outcome, end and totals come with its last attempt.
    RunRecord started = m_session->runRecord(runIndex, false);
    started.outcome = FinalKind::None;
    started.finishedAt.reset();
    started.reason.clear();
    started.serverAskedFor.reset();
    started.totalWait = Millis(0);
    started.attemptCount = 0;
    m_live->onRunStarted(started);
}

void SessionFeeder::apply(qsizetype eventIndex)
{
    const PlaybackEvent& e = m_playback->event(eventIndex);
    const Session& s = *m_session;
    if (e.kind == PlaybackEvent::Kind::Lab) {
        m_live->onLabEventStored(e.labIndex());
        return;
    }
    if (e.kind == PlaybackEvent::Kind::RunFinished) {
        // Final now (a run that never started is shown with its end, as the engine reports one cancelled
        // while queued); the feeder's record of it no longer matters.
        m_finishedPerRun[e.index] = std::max(m_finishedPerRun[e.index], 0);
        m_live->onRunFinished(m_session->runRecord(qsizetype(e.index), false));
        return;
    }
    const StoredAttempt p(s.attempts, e.row());
    // Events come a run's attempts after another: the run of the last one is looked up again most often.
    if (m_lastRunIndex < 0 || p.runId() != m_lastRunId) {
        m_lastRunId = p.runId();
        m_lastRunIndex = s.runIndex(p.runId());
    }
    const qsizetype runIndex = m_lastRunIndex;
    if (runIndex < 0)
        return;
    switch (e.kind) {
    case PlaybackEvent::Kind::AttemptStarted: {
        startRun(runIndex);
        // An attempt that finishes within this same move (opening a file shows every attempt at once) is
        // never drawn in flight: it is shown when its finish is reached, with no record built for it here.
        const std::optional<MonoTime> end = p.finished();
        if (end && end->count() >= e.atNs && end->count() <= m_playback->reachingNs())
            break;
        // In flight: only the moments reached when it was handed to the transport (read field by field: no
        // whole record is built for an attempt about to finish).
        AttemptRecord started;
        started.runId = p.runId();
        started.index = p.index();
        started.method = QString::fromUtf8(p.method());
        if (p.urlId() != m_urlId || m_url.isEmpty()) { // a run's attempts share their URL: parsed once a run
            m_urlId = p.urlId();
            m_url = QUrl::fromEncoded(p.url().toByteArray());
        }
        started.url = m_url;
        started.at.scheduled = p.scheduled();
        // The waits before the wire, as the engine reported them when it started the attempt.
        started.at.queued = p.at(StoredAttempt::Moment::Queued);
        started.at.verdictWait = p.verdictWait();
        started.at.started = p.started();
        started.phaseReached = AttemptPhase::Started;
        // A hedged copy goes as a copy (its row in the lane); whether it wins is known when it ends.
        if (std::optional<HedgeFacts> hedge = p.hedge()) {
            hedge->won = false;
            started.hedge = hedge;
        }
        m_live->onAttemptStarted(started);
        break;
    }
    case PlaybackEvent::Kind::AttemptFinished: {
        qint32& finished = m_finishedPerRun[size_t(runIndex)];
        if (finished < 0)
            return; // not started in the views
        m_live->onAttemptStored(e.row());
        // A run with no end recorded is final with its last attempt (else at its end: RunFinished).
        const SessionRun& run = s.runs.at(runIndex);
        if (++finished == run.rows.size() && run.outcome != FinalKind::None && run.finishedNs == PackedAttempt::kUnset)
            m_live->onRunFinished(s.runRecord(runIndex, false));
        break;
    }
    case PlaybackEvent::Kind::ThrottleHold: {
        // Before its attempt starts (and its run, when it is the first): shown from when it began, as live.
        startRun(runIndex);
        if (const std::optional<WaitInfo> hold = AttemptWaits::throttleHold(s.attempts, e.row()))
            m_live->onWaitScheduled(*hold);
        break;
    }
    case PlaybackEvent::Kind::Lab:
    case PlaybackEvent::Kind::RunFinished:
        break;
    }
}
