// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/timelinemodel.h"

#include "live/phasespans.h"
#include "live/timelinelayout.h"
#include "run/answerwords.h"
#include "run/hedgewords.h"
#include "policy/retrydecision.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

constexpr int kLabWaitUpdates = 3; // refreshes a lab event waits for its attempt to be known

QString seconds(double ms)
{
    return QString::number(ms / 1000.0, 'f', 3) + u" s"_s;
}

QString duration(double ms)
{
    return ms < 1000 ? QString::number(ms, 'f', ms < 10 ? 2 : 1) + u" ms"_s : QString::number(ms / 1000.0, 'f', 2) + u" s"_s;
}

bool isLab(TimelineMark::Kind kind)
{
    return kind == TimelineMark::Kind::LabReceived || kind == TimelineMark::Kind::LabApplied;
}

bool endsRefused(FinalKind kind)
{
    return kind == FinalKind::CircuitOpen || kind == FinalKind::LimiterFull;
}

// A hedged copy's facts on its mark: why it went, and whether it won or was cancelled when another won.
void markCopy(TimelineMark& mark, const std::optional<HedgeFacts>& hedge, AbortReason abort)
{
    mark.hedge = hedge ? quint8(hedge->trigger) : 0;
    mark.flags = !hedge ? 0
        : hedge->won    ? quint8(TimelineMark::Won)
        : abort == AbortReason::HedgeLost ? quint8(TimelineMark::Lost)
                                          : 0;
}

} // namespace

void TimelineModel::clear()
{
    *this = TimelineModel();
}

void TimelineModel::addLab(const LabEventStore& events, int ref, int lane)
{
    const TimelineMark::Kind kind = events.kind(ref) == LabEvent::Kind::OperationApplied ? TimelineMark::Kind::LabApplied
                                                                                          : TimelineMark::Kind::LabReceived;
    if (lane >= 0 && lane < m_lanes.size()) {
        appendEntry(lane, kind, ref);
    } else {
        TimelineMark mark;
        mark.kind = kind;
        mark.ref = ref;
        mark.startMs = mark.endMs = double(events.atMs(ref));
        m_unmatched.append(mark);
    }
    ++m_labTicks;
}

void TimelineModel::appendEntry(int lane, TimelineMark::Kind kind, int ref)
{
    const auto at = qint32(m_entries.size());
    m_entries.append(Entry { ref, -1, kind });
    Lane& l = m_lanes[lane];
    if (l.last >= 0)
        m_entries[l.last].next = at;
    else
        l.first = at;
    l.last = at;
}

TimelineLaneMarks::const_iterator::const_iterator(const TimelineModel* model, qint32 entry, quint8 kinds)
    : m_model(model)
    , m_entry(entry)
    , m_kinds(kinds)
{
    load();
}

TimelineLaneMarks::const_iterator& TimelineLaneMarks::const_iterator::operator++()
{
    if (m_entry < 0)
        return *this;
    if (m_model->m_entries[m_entry].kind == TimelineMark::Kind::Phase && m_span + 1 < m_spans.count) {
        ++m_span;
        const PhaseSpan& span = m_spans.spans[m_span];
        m_mark.detail = quint8(span.phase);
        m_mark.startMs = span.startMs;
        m_mark.endMs = span.endMs;
        m_mark.flags &= ~quint8(TimelineMark::FirstSpan | TimelineMark::LastSpan);
        m_mark.flags |= m_span + 1 == m_spans.count ? TimelineMark::LastSpan : 0;
        return *this;
    }
    m_entry = m_model->m_entries[m_entry].next;
    m_span = 0;
    load();
    return *this;
}

void TimelineLaneMarks::const_iterator::load()
{
    const LiveSession* session = m_model ? m_model->m_session : nullptr;
    for (; m_entry >= 0 && session; m_entry = m_model->m_entries[m_entry].next) {
        const TimelineModel::Entry& e = m_model->m_entries[m_entry];
        if (!(m_kinds & (1u << quint8(e.kind))))
            continue;
        m_mark = TimelineMark { .kind = e.kind, .ref = e.ref };
        switch (e.kind) {
        case TimelineMark::Kind::Phase: {
            m_spans = attemptPhaseSpanArray(session->attemptMoments(e.ref));
            if (m_spans.count == 0)
                continue; // nothing drawn for this attempt (its entry is not added then, but be safe)
            const PhaseSpan& span = m_spans.spans[0];
            const StoredAttempt a = session->attempt(e.ref);
            m_mark.detail = quint8(span.phase);
            m_mark.attempt = a.index();
            m_mark.startMs = span.startMs;
            m_mark.endMs = span.endMs;
            markCopy(m_mark, a.hedge(), a.abortReason());
            m_mark.flags |= TimelineMark::FirstSpan | (m_spans.count == 1 ? TimelineMark::LastSpan : 0);
            return;
        }
        case TimelineMark::Kind::Wait: {
            const WaitStore& waits = session->waits();
            m_mark.detail = quint8(waits.source(e.ref));
            m_mark.attempt = waits.nextIndex(e.ref);
            m_mark.startMs = toMs(waits.scheduledAt(e.ref));
            m_mark.endMs = toMs(waits.dueAt(e.ref));
            return;
        }
        case TimelineMark::Kind::Outcome: {
            const TimelineModel::Lane& lane = m_model->m_lanes[e.ref];
            m_mark.detail = lane.outcome;
            m_mark.startMs = m_mark.endMs = lane.outcomeMs;
            return;
        }
        case TimelineMark::Kind::LabReceived:
        case TimelineMark::Kind::LabApplied:
            m_mark.startMs = m_mark.endMs = double(session->labEvents().atMs(e.ref));
            return;
        case TimelineMark::Kind::Refused: {
            const StoredAttempt a = session->attempt(e.ref);
            m_mark.attempt = a.index();
            markCopy(m_mark, a.hedge(), a.abortReason());
            const std::optional<MonoTime> at = a.finished() ? a.finished() : a.scheduled();
            m_mark.startMs = m_mark.endMs = at ? toMs(*at) : 0.0;
            return;
        }
        }
    }
    m_entry = -1;
    m_span = 0;
}

void TimelineModel::addFinishedIds(const LiveSession& session)
{
    // Only when an id is looked up (a shown session's lab events mostly know their run already): every
    // attempt finished since, in order, so a later attempt with the same id is the one found. The table is
    // sized once for what is coming (a shown session's million attempts at once): growing by doubling
    // re-hashed every id already in, each a read of its attempt's row and text, as often again as inserting.
    const qsizetype finished = session.finishedAttempts();
    if (m_idsAdded >= finished)
        return;
    const auto idOf = [&session](quint32 slot) { return session.attempt(slot - 1).attemptId(); };
    m_ids.reserve(size_t(m_ids.count() + (finished - m_idsAdded)), idOf);
    for (; m_idsAdded < finished; ++m_idsAdded) {
        const StoredAttempt attempt = session.attempt(m_idsAdded);
        const int lane = session.runIndex(attempt.runId());
        const QByteArrayView id = attempt.attemptId();
        if (lane < 0 || lane >= m_lanes.size() || id.isEmpty())
            continue;
        m_ids.reserveOneMore(idOf);
        const size_t hash = KeyedSlots::hash(id);
        // The same id again: the newer attempt's lane.
        m_ids.set(m_ids.probe(id, hash, idOf), quint32(m_idsAdded + 1), hash);
    }
}

int TimelineModel::attemptLane(const LiveSession& session, QByteArrayView attemptId) const
{
    if (attemptId.isEmpty())
        return -1;
    // fromRawData: a key to look up with, without copying the id for every lab event
    if (const auto live = m_liveIdLane.constFind(QByteArray::fromRawData(attemptId.data(), attemptId.size()));
        live != m_liveIdLane.cend())
        return *live;
    if (m_ids.count() == 0)
        return -1;
    const auto idOf = [&session](quint32 slot) { return session.attempt(slot - 1).attemptId(); };
    if (const quint32 found = m_ids.value(m_ids.probe(attemptId, KeyedSlots::hash(attemptId), idOf)))
        return session.runIndex(session.attempt(found - 1).runId());
    return -1;
}

void TimelineModel::update(const LiveSession& session, const LiveSessionDelta& delta)
{
    const RunProgressStore& runs = session.runs();
    const auto seen = [this](double ms) {
        m_startMs = m_anything ? std::min(m_startMs, ms) : ms;
        m_anything = true;
    };
    while (m_lanes.size() < runs.size()) {
        const RunProgress& run = runs.at(m_lanes.size());
        if (run.startedAt)
            seen(toMs(*run.startedAt));
        Lane lane;
        lane.runId = run.runId;
        m_lanes.append(lane);
    }

    // Field by field: the run and the moments, no record built per attempt.
    m_session = &session;
    for (qsizetype i = delta.attemptsBefore; i < delta.attemptsAfter && i < session.finishedAttempts(); ++i) {
        const StoredAttempt attempt = session.attempt(i);
        const int lane = session.runIndex(attempt.runId());
        if (lane < 0 || lane >= m_lanes.size())
            continue;
        const PhaseSpanArray spans = attemptPhaseSpanArray(session.attemptMoments(i));
        // A hedged copy: its lane gets a row for it (copies overlap in time; each is drawn whole in its row).
        if (attempt.hedge()) {
            Lane& l = m_lanes[lane];
            l.copies = quint8(std::max<int>(l.copies, std::min(attempt.index(), kMaxCopyRows)));
            ++m_hedgedCopies;
        }
        if (spans.count > 0) {
            appendEntry(lane, TimelineMark::Kind::Phase, int(i));
            for (const PhaseSpan& span : spans) {
                seen(span.startMs);
                m_verdictWaits += span.phase == TimelinePhase::VerdictWait ? 1 : 0;
            }
            m_phases += spans.count;
        }
        // A call the pipeline refused: its mark where it was refused (a wait for the verdict before it, if any,
        // is its only span: nothing of it went on the wire).
        if (attempt.refused()) {
            appendEntry(lane, TimelineMark::Kind::Refused, int(i));
            if (const std::optional<MonoTime> at = attempt.finished())
                seen(toMs(*at));
            ++m_refused;
        }
    }

    const WaitStore& waits = session.waits();
    for (qsizetype i = delta.waitsBefore; i < delta.waitsAfter && i < waits.size(); ++i) {
        const int lane = session.runIndex(waits.runId(i));
        if (lane < 0 || lane >= m_lanes.size())
            continue;
        appendEntry(lane, TimelineMark::Kind::Wait, int(i));
        ++m_waits;
    }

    for (const int index : delta.changedRuns) {
        if (index < 0 || index >= m_lanes.size() || m_lanes[index].finalMarked)
            continue;
        const RunProgress& run = runs.at(index);
        if (run.outcome == FinalKind::None)
            continue;
        double at = run.finishedAt ? toMs(*run.finishedAt) : 0.0;
        if (!run.finishedAt) {
            if (const std::optional<MonoTime> last = session.lastAttemptFinished(index))
                at = toMs(*last);
        }
        Lane& lane = m_lanes[index];
        lane.finalMarked = true;
        lane.outcome = quint8(run.outcome);
        lane.outcomeMs = at;
        appendEntry(index, TimelineMark::Kind::Outcome, index);
        ++m_outcomes;
    }

    // Attempts in flight: rebuilt, and their ids make the lab's events findable.
    m_live.clear();
    m_liveIdLane.clear();
    m_liveAttempts = session.inFlight();
    const double now = session.nowMs();
    m_clipMs = session.clockMs();
    for (int i = 0; i < int(m_liveAttempts.size()); ++i) {
        const AttemptRecord& a = m_liveAttempts.at(i);
        const int lane = session.runIndex(a.runId);
        if (lane < 0 || lane >= m_lanes.size())
            continue;
        if (!a.attemptId.isEmpty())
            m_liveIdLane.insert(a.attemptId.toUtf8(), lane);
        if (a.hedge) { // its row from when it went: the row count only grows (the copy is stored when it ends)
            m_lanes[lane].copies = quint8(std::max<int>(m_lanes[lane].copies, std::min(a.index, kMaxCopyRows)));
            m_liveHedge = true;
        }
        const QList<PhaseSpan> spans = attemptPhaseSpans(a, now);
        for (qsizetype s = 0; s < spans.size(); ++s) {
            const PhaseSpan& span = spans.at(s);
            m_liveVerdictWait = m_liveVerdictWait || span.phase == TimelinePhase::VerdictWait;
            TimelineMark mark { .kind = TimelineMark::Kind::Phase, .detail = quint8(span.phase), .live = true, .attempt = a.index,
                .ref = i, .startMs = span.startMs, .endMs = span.endMs };
            markCopy(mark, a.hedge, a.abortReason);
            mark.flags |= (s == 0 ? TimelineMark::FirstSpan : 0) | (s + 1 == spans.size() ? TimelineMark::LastSpan : 0);
            m_live.append({ lane, mark });
        }
    }

    const LabEventStore& events = session.labEvents();
    // A lab event's lane: a shown session's own event from the run worked out for it beforehand; any other
    // by its attempt id among the attempts finished or in flight.
    const auto labLane = [&](qsizetype ref) {
        if (const std::optional<int> run = session.shownLabEventRun(ref)) {
            if (const int lane = session.runIndex(*run); lane >= 0 && lane < m_lanes.size())
                return lane;
        }
        addFinishedIds(session);
        return attemptLane(session, events.attemptIdUtf8(ref));
    };
    QList<QPair<int, int>> pending;
    for (const auto& [ref, waited] : std::as_const(m_pendingLab)) {
        if (ref < 0 || ref >= events.size())
            continue;
        const int lane = labLane(ref);
        if (lane >= 0 || waited + 1 >= kLabWaitUpdates)
            addLab(events, ref, lane);
        else
            pending.append({ ref, waited + 1 });
    }
    for (qsizetype i = delta.labEventsBefore; i < delta.labEventsAfter && i < events.size(); ++i) {
        const LabEvent::Kind kind = events.kind(i);
        if (kind != LabEvent::Kind::RequestReceived && kind != LabEvent::Kind::OperationApplied)
            continue;
        seen(double(events.atMs(i)));
        const bool hasId = events.hasAttemptId(i);
        const int lane = hasId ? labLane(i) : -1;
        if (lane >= 0 || !hasId)
            addLab(events, int(i), lane);
        else
            pending.append({ int(i), 0 });
    }
    m_pendingLab = pending;
    const QList<BreakerChange>& changes = session.breakerChanges();
    const qsizetype changesShown = std::min(delta.breakerChangesAfter, session.breakerChangeCount());
    m_breakers.add(changes, delta.breakerChangesBefore, changesShown, m_startMs);
    for (qsizetype i = delta.breakerChangesBefore; i < changesShown && i < changes.size(); ++i)
        m_contentEndMs = std::max(m_contentEndMs, toMs(changes.at(i).at));
    m_endMs = m_clipMs ? now : std::max(m_endMs, now);
    for (qsizetype i = 0; i < delta.changedRuns.size(); ++i) {
        const int lane = delta.changedRuns.at(i);
        if (lane >= 0 && lane < m_lanes.size()) {
            for (const TimelineMark& m : this->lane(lane))
                m_contentEndMs = std::max(m_contentEndMs, m.endMs);
        }
    }
    for (const auto& [lane, m] : std::as_const(m_live))
        m_contentEndMs = std::max(m_contentEndMs, m.endMs);
}

TimelineMark TimelineModel::clipped(const TimelineMark& mark) const
{
    if (!m_clipMs || mark.endMs <= *m_clipMs)
        return mark;
    TimelineMark m = mark;
    m.endMs = std::max(m.startMs, *m_clipMs);
    return m;
}

std::optional<TimelineHit> TimelineModel::hitTest(int lane, double ms, double toleranceMs, double laneFraction) const
{
    if (lane < 0 || lane >= m_lanes.size())
        return std::nullopt;
    const int rows = m_lanes[lane].copies;
    // How far LANE_FRACTION is from a hedged copy's row (0 inside it): copies overlapping in time are told
    // apart by their rows.
    const auto rowDistance = [&](const TimelineMark& m) {
        if (!m.hedge || rows < 2 || laneFraction < 0)
            return 0.0;
        const auto [top, bottom] = copyRowInLane(copyRow(m.attempt), rows);
        return laneFraction < top ? top - laneFraction : laneFraction > bottom ? laneFraction - bottom : 0.0;
    };
    std::optional<TimelineHit> best;
    double bestDistance = toleranceMs;
    int bestRank = 99;
    const auto consider = [&](const TimelineMark& drawn) {
        const TimelineMark m = clipped(drawn);
        int rank = 3;
        double distance = 0;
        if (m.kind == TimelineMark::Kind::Outcome || m.kind == TimelineMark::Kind::Refused || isLab(m.kind)) {
            rank = isLab(m.kind) ? 1 : 0;
            // A run that ended with a refused call: its outcome is drawn past the refused call's mark, which
            // sits at the moment itself (some 1.4 times the view's tolerance on): measured from there.
            double centre = m.startMs;
            if (m.kind == TimelineMark::Kind::Outcome && endsRefused(FinalKind(m.detail)))
                centre += toleranceMs * 1.4;
            distance = std::abs(ms - centre);
            if (distance > toleranceMs)
                return;
        } else if (ms >= m.startMs && ms <= m.endMs) {
            rank = m.kind == TimelineMark::Kind::Phase ? 2 : 3;
            distance = m.kind == TimelineMark::Kind::Phase ? rowDistance(m) : 0.0; // compared among phases only
            // Inside a hedged copy's own row: the copy, before a lab tick drawn over it (ticks at the lane's
            // top) — ranked with the ticks, ahead of any of them.
            if (m.kind == TimelineMark::Kind::Phase && m.hedge && rows >= 2 && laneFraction >= 0 && distance == 0) {
                rank = 1;
                distance = -1;
            }
        } else {
            return;
        }
        if (rank < bestRank || (rank == bestRank && distance < bestDistance)) {
            best = TimelineHit { lane, m };
            bestRank = rank;
            bestDistance = distance;
        }
    };
    for (const TimelineMark& m : this->lane(lane))
        consider(m);
    for (const auto& [l, m] : m_live) {
        if (l == lane)
            consider(m);
    }
    return best;
}

bool TimelineModel::isHedgedCopy(int lane, int attempt) const
{
    if (lane < 0 || lane >= m_lanes.size() || m_lanes[lane].copies == 0)
        return false;
    const auto copy = [&](const TimelineMark& m) { return m.attempt == attempt && m.hedge != 0; };
    const quint8 kinds = quint8(1u << quint8(TimelineMark::Kind::Phase));
    for (const TimelineMark& m : this->lane(lane, kinds)) {
        if (copy(m))
            return true;
    }
    return std::any_of(m_live.cbegin(), m_live.cend(), [&](const auto& l) { return l.first == lane && copy(l.second); });
}

std::optional<std::pair<double, double>> TimelineModel::attemptSpan(int lane, int attempt) const
{
    if (lane < 0 || lane >= m_lanes.size())
        return std::nullopt;
    std::optional<std::pair<double, double>> span;
    const auto take = [&](const TimelineMark& m) {
        if ((m.kind != TimelineMark::Kind::Phase && m.kind != TimelineMark::Kind::Refused) || m.attempt != attempt)
            return;
        span = span ? std::pair { std::min(span->first, m.startMs), std::max(span->second, m.endMs) }
                    : std::pair { m.startMs, m.endMs };
    };
    for (const TimelineMark& m : this->lane(lane))
        take(m);
    for (const auto& [l, m] : m_live) {
        if (l == lane)
            take(m);
    }
    return span;
}

QString TimelineModel::describeAttempt(const AttemptRecord& a, const TimelineMark& mark, const LiveSession& session) const
{
    QStringList lines;
    lines << tr("Run %1 · attempt %2 — %3 %4").arg(a.runId).arg(a.index).arg(a.method, a.url.path());
    // A hedged copy: why it went and how it ended, first (its copies overlap: which one is this?).
    const HedgeWords::CopyContext copy = HedgeWords::contextOf(session.session(), a);
    if (a.hedge)
        lines << HedgeWords::sentence(a, copy);
    lines << tr("%1: %2 (%3 → %4)").arg(timelinePhaseName(TimelinePhase(mark.detail)), duration(mark.endMs - mark.startMs),
                                        seconds(mark.startMs), seconds(mark.endMs));
    if (mark.live) {
        lines << tr("Still in flight (reached: %1)").arg(attemptPhaseName(a.phaseReached));
        return lines.join(u'\n');
    }
    if (const auto d = a.duration())
        lines << tr("Attempt took %1%2").arg(duration(toMs(*d)), a.connectionReused ? tr(" on a reused connection") : QString());
    if (HedgeWords::isLost(a)) {
        lines << tr("No answer: %1").arg(HedgeWords::lostReason(a, copy));
        return lines.join(u'\n');
    }
    lines << tr("Answer: %1").arg(AnswerWords::answer(a));
    if (a.abortReason != AbortReason::None)
        lines << tr("Aborted: %1").arg(abortReasonName(a.abortReason));
    if (a.decision) {
        lines << tr("Decision: %1 — %2").arg(verdictName(a.decision->verdict), a.decision->reason);
        if (a.decision->verdict == Verdict::Retry)
            lines << tr("Next wait: %1 (%2)").arg(formatMillis(a.decision->delay), delaySourceName(a.decision->source));
        if (const QString unread = AnswerWords::unreadRetryAfter(a); !unread.isEmpty())
            lines << unread;
    }
    return lines.join(u'\n');
}

QString TimelineModel::describeRefused(const AttemptRecord& a, const LiveSession& session) const
{
    QStringList lines;
    lines << tr("Run %1 · attempt %2 — %3 %4").arg(a.runId).arg(a.index).arg(a.method, a.url.path());
    if (a.hedge)
        lines << HedgeWords::sentence(a, HedgeWords::contextOf(session.session(), a));
    const double at = a.at.finished ? toMs(*a.at.finished) : 0.0;
    lines << tr("Not sent: refused at %1, it never reached the wire").arg(seconds(at));
    lines << AnswerWords::notSent(a);
    if (const QString waited = AnswerWords::verdictWait(a); !waited.isEmpty())
        lines << waited;
    if (a.decision) {
        lines << tr("Decision: %1 — %2").arg(verdictName(a.decision->verdict), a.decision->reason);
        if (a.decision->verdict == Verdict::Retry)
            lines << tr("Next wait: %1 (%2)").arg(formatMillis(a.decision->delay), delaySourceName(a.decision->source));
    }
    return lines.join(u'\n');
}

QString TimelineModel::describeBreaker(int band, int segment, const LiveSession& session) const
{
    if (band < 0 || band >= m_breakers.count() || segment < 0 || segment >= m_breakers.band(band).segments.size())
        return {};
    const BreakerBand& b = m_breakers.band(band);
    const BreakerSegment& seg = b.segments.at(segment);
    QStringList lines;
    lines << tr("Circuit breaker of %1 · %2").arg(b.policy, b.scope);
    const QString state = breakerStateLabel(seg.state);
    const bool ongoing = seg.endMs == BreakerSegment::kNoEnd;
    const double end = ongoing ? std::max(seg.startMs, bandEndMs()) : seg.endMs;
    if (seg.change < 0)
        lines << tr("%1 until %2 (its first change)").arg(state, seconds(end));
    else if (ongoing)
        lines << tr("%1 since %2 (%3 so far)").arg(state, seconds(seg.startMs), duration(end - seg.startMs));
    else
        lines << tr("%1 from %2 to %3 (%4)").arg(state, seconds(seg.startMs), seconds(end), duration(end - seg.startMs));
    const QList<BreakerChange>& changes = session.breakerChanges();
    if (seg.change >= 0 && seg.change < changes.size()) {
        const BreakerChange& c = changes.at(seg.change);
        lines << tr("Changed from %1; its window then held %2 failure(s) in %3 call(s)")
                     .arg(stateName(c.from))
                     .arg(c.window.failures)
                     .arg(c.window.calls);
        if (c.to == CircuitBreaker::State::Open && c.breakFor.count() > 0)
            lines << tr("Break: %1, calls refused until it ends").arg(formatMillis(c.breakFor));
        else if (c.to == CircuitBreaker::State::HalfOpen)
            lines << tr("Half-open: a probe call decides whether it closes again");
    }
    return lines.join(u'\n');
}

QString TimelineModel::describe(const TimelineHit& hit, const LiveSession& session) const
{
    const TimelineMark& m = hit.mark;
    switch (m.kind) {
    case TimelineMark::Kind::Phase: {
        if (m.live)
            return m.ref >= 0 && m.ref < m_liveAttempts.size() ? describeAttempt(m_liveAttempts.at(m.ref), m, session) : QString();
        return m.ref >= 0 && m.ref < session.finishedAttempts() ? describeAttempt(session.attemptRecord(m.ref), m, session) : QString();
    }
    case TimelineMark::Kind::Wait: {
        if (m.ref < 0 || m.ref >= session.waits().size())
            return {};
        const WaitInfo w = session.waits().at(m.ref);
        const RetryDecision& d = w.decision;
        QStringList lines;
        lines << tr("Run %1 · wait before attempt %2").arg(w.runId).arg(w.nextIndex);
        lines << tr("Waiting %1, chosen by %2 (%3 → %4)").arg(formatMillis(d.delay), delaySourceName(d.source),
                                                               seconds(m.startMs), seconds(m.endMs));
        if (!d.hintHeader.isEmpty())
            lines << tr("Header: %1").arg(d.hintHeader);
        if (d.source == DelaySource::Backoff || d.ceiling.count() > 0)
            lines << tr("Backoff ceiling %1, jitter range %2 – %3")
                         .arg(formatMillis(d.ceiling), formatMillis(d.delayLow), formatMillis(d.delayHigh));
        if (d.serverAskedFor)
            lines << tr("The server asked for %1").arg(formatMillis(*d.serverAskedFor));
        if (!d.ruleName.isEmpty())
            lines << tr("Rule: %1").arg(d.ruleName);
        lines << tr("Reason: %1").arg(d.reason);
        return lines.join(u'\n');
    }
    case TimelineMark::Kind::Outcome: {
        if (m.ref < 0 || m.ref >= session.runs().size())
            return {};
        const RunProgress& r = session.runs().at(m.ref);
        QStringList lines;
        lines << tr("Run %1 finished: %2").arg(r.runId).arg(finalKindName(r.outcome));
        lines << r.reason;
        double took = 0;
        if (r.startedAt && r.finishedAt)
            took = toMs(*r.finishedAt - *r.startedAt);
        lines << tr("Attempts: %1, waited %2, took %3")
                     .arg(session.attemptCount(m.ref))
                     .arg(formatMillis(r.totalWait), duration(took));
        if (r.serverAskedFor)
            lines << tr("The server asked for %1").arg(formatMillis(*r.serverAskedFor));
        return lines.join(u'\n');
    }
    case TimelineMark::Kind::Refused:
        return m.ref >= 0 && m.ref < session.finishedAttempts() ? describeRefused(session.attemptRecord(m.ref), session) : QString();
    case TimelineMark::Kind::LabReceived:
    case TimelineMark::Kind::LabApplied: {
        if (m.ref < 0 || m.ref >= session.labEventCount())
            return {};
        const LabEvent e = session.labEvents().at(m.ref);
        const QString what = m.kind == TimelineMark::Kind::LabApplied ? tr("Fault lab: operation applied")
                                                                       : tr("Fault lab: request received");
        return what + u'\n' + e.toLogLine();
    }
    }
    return {};
}
