// SPDX-License-Identifier: GPL-3.0-or-later
// The two-thread read of a large file (tailahead.h), the session reader's side of it: what the helper's
// readers read (the lab events, the runs of the second half), starting the helper, and where the main
// reader takes what it read.
#include "session/format/sessionreader.h"

#include "session/format/tailahead.h"

#include <QFile>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>

bool SessionReader::readLabEventsTail(const std::atomic<bool>& stop, std::atomic<qint64>& bytes, const QString& path,
    qint64 from, qint64 size)
{
    if (!m_in.enterArray())
        return false;
    for (qsizetype i = 0; m_in.nextElement(); ++i) {
        if (!readLabEvent(i))
            return false;
        if ((i & 1023) == 1023) {
            if (stop)
                return false;
            bytes = m_in.offset();
        }
    }
    if (m_in.hasError())
        return false;
    // After the array: the document's '}' and JSON whitespace, nothing else (else this was not the last field).
    const qint64 end = from + m_in.offset();
    if (size - end > 4096)
        return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(end))
        return false;
    const QByteArray tail = file.read(size - end);
    int closes = 0;
    for (const char c : tail) {
        if (c == '}')
            ++closes;
        else if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            return false;
    }
    return closes == 1 && tail.size() == size - end;
}

bool SessionReader::readRunsTail(const std::atomic<bool>& stop, std::atomic<qint64>& bytes)
{
    m_tailPart = true;
    if (!m_in.enterArray())
        return false;
    for (qsizetype i = 0; m_in.nextElement(); ++i) {
        if (!readRun(i) || stop.load(std::memory_order_relaxed))
            return false;
        if ((i & 63) == 63)
            bytes = m_in.offset();
    }
    return !m_in.hasError();
}

void SessionReader::readTailAheadFrom(const QString& path, qint64 size)
{
    if (size >= TailAhead::kMinBytes)
        m_ahead = std::make_unique<TailAhead>(path, size);
}

bool SessionReader::waitForHelper(qint64 at)
{
    while (!m_ahead->waitFor(100)) {
        if (m_progress && !m_progress(std::min(m_total, at + m_ahead->bytesRead()), m_total)) {
            m_cancelled = true;
            return false;
        }
    }
    return true;
}

bool SessionReader::takeLabEventsAhead()
{
    if (!m_ahead || !m_session->labEvents.isEmpty() || m_in.peek() != JsonPullReader::Kind::Array)
        return false;
    m_ahead->dropRuns(); // read here already
    // Usually done already (the runs before took longer); else progress goes on, and so can a cancel.
    const qint64 at = m_in.offset();
    if (!waitForHelper(at))
        return false;
    std::optional<LabEventStore> events = m_ahead->take(at);
    m_ahead.reset();
    if (!events)
        return false;
    m_session->labEvents = std::move(*events);
    m_labEventsReadAhead = true;
    return true;
}

SessionReader::Handover SessionReader::takeRunsAhead()
{
    const qint64 at = m_in.offset();
    const qint64 from = m_ahead->runsFrom(at);
    if (from < 0 || at < from)
        return Handover::NotHere;
    // Past it (it was not a run's start here), or a file whose runs the helper cannot stand in for.
    if (at > from || !m_session->labEvents.isEmpty() || m_version.value_or(0) < 1
        || m_format != QLatin1String(SessionFile::formatName)) {
        m_ahead->dropRuns();
        return Handover::NotHere;
    }
    if (m_progress && !m_progress(at, m_total)) { // half the file at once: a cancel is heard here too
        m_cancelled = true;
        return Handover::Failed;
    }
    if (!waitForHelper(at))
        return Handover::Failed;
    // A run the helper read that is here already: read on here, and fail where reading in order fails.
    const Session* runs = m_ahead->tailRuns();
    if (!runs || std::any_of(runs->runs.cbegin(), runs->runs.cend(), [this](const SessionRun& r) { return m_session->findRun(r.runId); }))
        return Handover::NotHere; // the lab events may still be the helper's
    std::optional<TailAhead::Tail> tail = m_ahead->takeTail();
    m_ahead.reset();
    Session& s = *m_session;
    Session& t = *tail->runs;
    const auto base = quint32(s.attempts.size());
    s.attempts.append(std::move(t.attempts));
    s.runs.reserve(s.runs.size() + t.runs.size());
    for (SessionRun& run : t.runs) {
        for (quint32& row : run.rows)
            row += base;
        s.appendRun(std::move(run));
    }
    s.labEvents = std::move(tail->events);
    m_labEventsReadAhead = true;
    m_runsReadAhead = true;
    tail.reset();
#ifdef __GLIBC__
    // The helper's store, copied over and freed, was allocated on its thread: glibc keeps a thread's freed
    // heap for that thread, and this one has ended (about 120 MB kept at a million attempts, without this).
    malloc_trim(0);
#endif
    return Handover::Taken;
}
