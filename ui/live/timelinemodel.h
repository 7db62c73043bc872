// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the timeline draws, derived from a LiveSession: one lane per run (in start order) holding the
// phase spans of its finished attempts, its waits, its final outcome, the lab's events for its attempts
// and the calls a pipeline refused (never sent: a mark at the moment of the refusal, no bar); under the
// lanes, a band per circuit breaker with its states over time. The copies of a hedged request overlap in
// time: its lane is split into a row per copy (copy N in row N − 1), so each is seen whole. Grows incrementally from each refresh delta; attempts still in flight are rebuilt each
// refresh (there are at most as many as the concurrency). No widgets here: tested on its own.

#include "live/breakerbands.h"
#include "live/phasespans.h"
#include "livesession.h"
#include "session/store/chunkedrows.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>

#include <algorithm>

#include <iterator>
#include <optional>
#include <vector>

struct TimelineMark
{
    // Refused: a call the pipeline refused (never sent), at the moment it was refused.
    enum class Kind : quint8 { Phase, Wait, Outcome, LabReceived, LabApplied, Refused };
    Kind kind = Kind::Phase;
    quint8 detail = 0; // TimelinePhase (Phase), DelaySource (Wait), FinalKind (Outcome)
    bool live = false; // Phase of an attempt still in flight: ref indexes liveAttempts()
    // A copy of a hedged request (Phase, Refused): why it went (HedgeFacts::Trigger), 0 for any other attempt.
    quint8 hedge = 0;
    quint8 flags = 0; // Flag bits: a copy's end (won, lost) and which of its spans this is
    enum Flag : quint8 {
        Won = 1, // its answer was the request's
        Lost = 2, // still in flight when another copy won: cancelled (AbortReason::HedgeLost)
        FirstSpan = 4, // the attempt's first phase span
        LastSpan = 8, // its last one (where it ended)
    };
    int attempt = 0; // attempt number (Phase, Refused), the attempt it waits for (Wait), 0 otherwise
    int ref = -1; // attempts() (Phase, Refused), waits() (Wait), runs() (Outcome), labEvents() (Lab*)
    double startMs = 0;
    double endMs = 0;
};

class TimelineModel;

// The marks of one lane in the order they were added. A lane keeps 12-byte entries, chained through the
// model's one arena (kind, what it refers to, the next entry), and each entry is made into its marks from
// the session's stores as it is read: a finished attempt into its phase spans, a wait, the run's outcome,
// a lab tick. (Marks kept whole cost 32 bytes each, about six an attempt.) The iterator yields marks by
// value: bind them as const TimelineMark& or copy them.
class TimelineLaneMarks
{
public:
    class const_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = TimelineMark;
        using difference_type = qsizetype;
        using pointer = const TimelineMark*;
        using reference = const TimelineMark&;
        const_iterator() = default;
        const_iterator(const TimelineModel* model, qint32 entry, quint8 kinds = 0xFF);
        const TimelineMark& operator*() const { return m_mark; }
        const TimelineMark* operator->() const { return &m_mark; }
        const_iterator& operator++();
        const_iterator operator++(int)
        {
            const_iterator before = *this;
            ++*this;
            return before;
        }
        friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.m_entry == b.m_entry && a.m_span == b.m_span; }

    private:
        void load(); // m_mark from entry m_entry (span m_span of an attempt), skipping an attempt without spans
        const TimelineModel* m_model = nullptr;
        qint32 m_entry = -1;
        quint8 m_kinds = 0xFF; // the marks yielded: bit 1 << Kind
        int m_span = 0;
        PhaseSpanArray m_spans; // the current attempt's
        TimelineMark m_mark;
    };

    // The marks of KINDS (bits 1 << TimelineMark::Kind) only, entries of other kinds passed without building them.
    TimelineLaneMarks(const TimelineModel* model, qint32 first, quint8 kinds = 0xFF) : m_model(model), m_first(first), m_kinds(kinds) { }
    const_iterator begin() const { return { m_model, m_first, m_kinds }; }
    const_iterator end() const { return { m_model, -1 }; }
    bool isEmpty() const { return m_first < 0; }

private:
    const TimelineModel* m_model;
    qint32 m_first;
    quint8 m_kinds;
};

struct TimelineHit
{
    int lane = -1;
    TimelineMark mark;
};

class TimelineModel
{
    Q_DECLARE_TR_FUNCTIONS(TimelineModel)
public:
    void clear();
    void update(const LiveSession& session, const LiveSessionDelta& delta);

    int laneCount() const { return int(m_lanes.size()); }
    int runIdOfLane(int lane) const { return lane >= 0 && lane < m_lanes.size() ? m_lanes[lane].runId : 0; }
    TimelineLaneMarks lane(int index, quint8 kinds = 0xFF) const { return { this, m_lanes[index].first, kinds }; } // valid until the next update()
    // Phase spans of attempts in flight, with their lanes (rebuilt on every update).
    const QList<QPair<int, TimelineMark>>& live() const { return m_live; }
    const QList<AttemptRecord>& liveAttempts() const { return m_liveAttempts; }
    // Lab events whose attempt is unknown (no attempt-id header): drawn on the axis, not in a lane.
    const QList<TimelineMark>& unmatchedLab() const { return m_unmatched; }
    double endMs() const { return m_endMs; } // the session's now (LiveSession::nowMs())
    // The end of the last thing drawn (never past the playback clock).
    double contentEndMs() const { return m_clipMs ? std::min(m_contentEndMs, *m_clipMs) : m_contentEndMs; }
    // The playback clock: nothing is drawn past it (a wait due later ends there). Unset for a live batch.
    std::optional<double> clipMs() const { return m_clipMs; }
    TimelineMark clipped(const TimelineMark& mark) const; // MARK as drawn: its end at most the clock
    bool isActive() const { return !m_live.isEmpty() || m_outcomes < laneCount(); } // a run is still going
    double startMs() const { return m_startMs; }

    int segmentCount() const { return m_phases + int(m_live.size()); } // phase spans, finished and live
    int waitCount() const { return m_waits; }
    int outcomeCount() const { return m_outcomes; }
    int labTickCount() const { return m_labTicks; }
    int hedgedCopyCount() const { return m_hedgedCopies; } // finished copies of hedged requests drawn
    bool hasHedgedCopies() const { return m_hedgedCopies > 0 || m_liveHedge; } // finished or in flight
    // The rows LANE is split into for its hedged copies (at most kMaxCopyRows), 0 when it has none.
    int copyRows(int lane) const { return lane >= 0 && lane < m_lanes.size() ? m_lanes[lane].copies : 0; }
    static constexpr int kMaxCopyRows = 6;
    static int copyRow(int attempt) { return std::max(0, attempt - 1) % kMaxCopyRows; } // copy N's row
    // Whether attempt ATTEMPT of LANE is drawn as a hedged copy (in its own row of the lane).
    bool isHedgedCopy(int lane, int attempt) const;
    int refusedCount() const { return m_refused; } // calls refused by the pipeline (never sent)
    int verdictWaitCount() const { return m_verdictWaits; } // finished attempts that waited for a verdict
    // Whether anything a circuit breaker does is drawn: a band, a refused call, a wait for a verdict.
    bool hasBreakerMarks() const { return !m_breakers.isEmpty() || m_refused > 0 || m_verdictWaits > 0 || m_liveVerdictWait; }

    // The circuit breakers' bands, from the breaker changes shown; drawn up to bandEndMs().
    const BreakerBands& breakers() const { return m_breakers; }
    double bandEndMs() const { return m_clipMs ? *m_clipMs : m_endMs; }
    // Every fact about segment SEGMENT of band BAND, for its tooltip.
    QString describeBreaker(int band, int segment, const LiveSession& session) const;

    // The element under (LANE, MS): outcome marks, refused calls and lab ticks within TOLERANCE_MS first,
    // then the phase span or wait containing MS. In a lane split for hedged copies, LANE_FRACTION (where
    // in the lane, 0 at its top, 1 at its bottom; < 0: unknown) picks the copy whose row is nearest.
    std::optional<TimelineHit> hitTest(int lane, double ms, double toleranceMs, double laneFraction = -1) const;
    // Every fact about HIT, one per line, for its tooltip.
    QString describe(const TimelineHit& hit, const LiveSession& session) const;
    // The span [start, end] in ms of attempt INDEX of run RUN_ID, if drawn.
    std::optional<std::pair<double, double>> attemptSpan(int lane, int attempt) const;

private:
    friend class TimelineLaneMarks::const_iterator;
    void addLab(const LabEventStore& events, int ref, int lane);
    QString describeAttempt(const AttemptRecord& a, const TimelineMark& mark, const LiveSession& session) const;
    QString describeRefused(const AttemptRecord& a, const LiveSession& session) const;

    struct Entry
    {
        qint32 ref; // as TimelineMark::ref
        qint32 next; // this lane's next entry, -1 at its end
        TimelineMark::Kind kind; // Phase: a finished attempt, all its phase spans
    };
    void appendEntry(int lane, TimelineMark::Kind kind, int ref);

    struct Lane
    {
        qint32 first = -1; // into m_entries; -1: none yet
        qint32 last = -1;
        int runId = 0;
        bool finalMarked = false;
        quint8 copies = 0; // rows for hedged copies: the highest copy number seen, at most kMaxCopyRows
        quint8 outcome = 0; // FinalKind, once finalMarked
        double outcomeMs = 0;
    };
    const LiveSession* m_session = nullptr; // the one update() read: the entries refer to its stores
    ChunkedRows<Lane, 4096> m_lanes; // one per run, in start order
    ChunkedRows<Entry, 4096> m_entries; // every lane's entries, 48 KiB a chunk
    QList<QPair<int, TimelineMark>> m_live;
    QList<AttemptRecord> m_liveAttempts;
    QList<TimelineMark> m_unmatched;
    // Attempt id (UTF-8) → lane, for the lab's ticks. A finished attempt is found through a table of its
    // index in the session, by a hash of its id, and compared with the id the session's store keeps (no
    // copy of the id here: 8 bytes an attempt, where a pool of the ids cost their bytes and 16 more); an
    // attempt in flight through a small map rebuilt on every update.
    void addFinishedIds(const LiveSession& session); // the attempts finished since the last call, into the id table
    int attemptLane(const LiveSession& session, QByteArrayView attemptId) const;
    KeyedSlots m_ids; // attempt ids: a finished attempt's index + 1
    qsizetype m_idsAdded = 0; // the finished attempts [0, m_idsAdded) are in the id table
    QHash<QByteArray, int> m_liveIdLane; // the ids of the attempts in flight → lane
    QList<QPair<int, int>> m_pendingLab; // (labEvents index, updates waited)
    double m_startMs = 0;
    double m_endMs = 0;
    double m_contentEndMs = 0;
    std::optional<double> m_clipMs;
    bool m_anything = false;
    int m_phases = 0;
    int m_waits = 0;
    int m_outcomes = 0;
    int m_labTicks = 0;
    int m_refused = 0;
    int m_hedgedCopies = 0;
    int m_verdictWaits = 0;
    bool m_liveVerdictWait = false;
    bool m_liveHedge = false; // a hedged copy was seen in flight
    BreakerBands m_breakers;
};
