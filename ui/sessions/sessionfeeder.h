// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shows a saved session in the live views: its attempts, waits and lab events are fed into a LiveSession
// in time order, as the engine and the lab would have reported them — all at once (opening a file) or as
// a SessionPlayback reaches them (playback at 1×, 10×, …), each fact only once its moment is reached (a
// run's outcome with its last attempt, not when it starts), and the playhead is the LiveSession's clock.
// Going back in time rebuilds the views from the start up to the playback cursor, in one batch.
// Finished attempts reach the views as rows of the session's own store (LiveSession::show()): nothing is
// copied, so a session of any size is shown whole. The breakers' changes of state are shown as the playhead
// reaches them.

#include "session/playbackevent.h"
#include "session/session.h"

#include <QHash>
#include <QObject>

#include <memory>
#include <vector>

class LiveSession;
class SessionPlayback;

class SessionFeeder final : public QObject
{
    Q_OBJECT
public:
    // Clears LIVE and takes it over. ALREADY_SHOWN: LIVE already shows the whole session (it was just
    // recorded into it), so the feeder starts at the end without feeding anything again.
    SessionFeeder(std::shared_ptr<const Session> session, LiveSession* live, bool alreadyShown = false,
        QObject* parent = nullptr);
    ~SessionFeeder() override;

    const Session& session() const { return *m_session; }
    SessionPlayback* playback() const { return m_playback; }
    void showAll(); // the whole session, at once
    void showNone(); // an empty timeline, playback at the start

private:
    void apply(qsizetype eventIndex);
    void startRun(qsizetype runIndex); // shown as started, once
    void showBreakerChangesUpTo(qint64 ns); // the breakers' changes of state reached at NS
    void rebuild();

    std::shared_ptr<const Session> m_session;
    LiveSession* m_live;
    SessionPlayback* m_playback;
    std::vector<qint32> m_finishedPerRun; // by run index: attempts finished so far, -1 before the run started
    qint32 m_lastRunId = 0; // the run of the last event applied, and its index in the session
    qsizetype m_lastRunIndex = -1;
    quint32 m_urlId = 0; // the last started attempt's URL, by the store's text id, and parsed
    QUrl m_url;
    bool m_needsRebuild = false;
    bool m_silent = false; // moving the cursor without feeding (alreadyShown)
};
