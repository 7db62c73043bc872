// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The end of a large file, read on a thread of its own while the main reader is in the first half: the lab
// events, then the runs from the middle of the file up to them, each into a session of its own.
// The writer puts the lab events last, after a raw newline ("\n\"lab_events\":["), and writes each run
// after ",\n" with its attempts ending in "]}": no JSON string holds a raw newline, so the section and a
// boundary between two runs ("]},\n{") are found without parsing what comes before them. What the helper
// read is only ever taken where the main reader's own parse meets it at the very byte it started at: the
// runs when it is about to read a run there, with the lab events right after them and only the document's
// '}' after those; the lab events alone at their top-level key. Anywhere else (a file written by other
// software, a field after the events, an error in what the helper read, a cut file) the main reader reads
// on by itself, with the same result and the same errors as without the helper.
// Part of the session reader (sessionreader.h): the main reader's side is in sessionreaderhandover.cpp.

#include "session/format/sessionfile.h"
#include "session/session.h"

#include <QByteArrayView>
#include <QString>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

class TailAhead
{
public:
    TailAhead(const QString& path, qint64 size)
        : m_half(size / 2)
        , m_thread([this, path, size] { run(path, size); })
    {
    }
    ~TailAhead()
    {
        m_stop = true;
        m_dropRuns = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    // Waits up to MS for the helper to end; true once it has.
    bool waitFor(int ms)
    {
        std::unique_lock lock(m_mutex);
        return m_ended.wait_for(lock, std::chrono::milliseconds(ms), [this] { return m_done; });
    }
    qint64 bytesRead() const { return m_bytes; } // of the part it is reading, so far
    // The byte of the run the helper reads the runs from ('{'), or -1: none. Decided before the main reader
    // (at byte AT) is halfway through the file, and waited for from there: it cannot have gone past it.
    qint64 runsFrom(qint64 at)
    {
        if (at < m_half)
            return m_runsFrom.load(std::memory_order_acquire);
        std::unique_lock lock(m_mutex);
        m_ended.wait(lock, [this] { return m_runsFrom.load(std::memory_order_acquire) != kUndecided; });
        return m_runsFrom;
    }
    void dropRuns() { m_dropRuns = true; } // the main reader will not take them: the helper stops reading them
    // Once the helper ended: its lab events when the array it read starts at byte OFFSET (its '[').
    std::optional<LabEventStore> take(qint64 offset)
    {
        join();
        if (!m_events || offset != m_offset)
            return std::nullopt;
        return std::exchange(m_events, std::nullopt);
    }
    // Once the helper ended: the runs from runsFrom() on and the lab events right after them, when it read
    // both whole.
    struct Tail
    {
        std::unique_ptr<Session> runs;
        LabEventStore events;
    };
    const Session* tailRuns()
    {
        join();
        return m_events ? m_runs.get() : nullptr;
    }
    std::optional<Tail> takeTail()
    {
        join();
        if (!m_events || !m_runs)
            return std::nullopt;
        Tail tail { std::move(m_runs), std::move(*m_events) };
        m_events.reset();
        return tail;
    }

    static constexpr qint64 kMinBytes = 1 << 20; // below this, one thread reads it all about as fast

private:
    static constexpr qint64 kUndecided = -2;
    static constexpr double kLabEventCost = 2.2; // a lab-event byte's reading time, in run bytes'
    static constexpr QByteArrayView kLabMarker = "\n\"lab_events\":[";
    static constexpr QByteArrayView kRunBoundary = "]},\n{"; // a run's end, and the next one's '{'
    static constexpr QByteArrayView kRunsEnd = ",\n\"lab_events\":["; // between the runs' ']' and the events' '['

    void join()
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    void run(const QString& path, qint64 size)
    {
        read(path, size);
        {
            const std::lock_guard lock(m_mutex);
            m_done = true;
            if (m_runsFrom == kUndecided)
                m_runsFrom = -1;
        }
        m_ended.notify_all();
    }
    void decideRuns(qint64 from)
    {
        {
            const std::lock_guard lock(m_mutex);
            m_runsFrom = from;
        }
        m_ended.notify_all();
    }
    void read(const QString& path, qint64 size);
    bool readLabEvents(const QString& path, qint64 size, qint64 at);
    // The runs from byte FROM (a '{') to their array's ']', which must end right before byte END.
    void readRuns(const QString& path, qint64 size, qint64 from, qint64 end);
    // The byte of the '[' after the last "\n\"lab_events\":" in PATH, searched from its end backwards.
    std::optional<qint64> findLabEvents(const QString& path, qint64 size) const;
    // The '{' of the first run boundary at or after byte FROM that leaves a run before byte END.
    std::optional<qint64> findRunBoundary(const QString& path, qint64 from, qint64 end) const;

    const qint64 m_half;
    const SessionProgress m_noProgress;
    std::atomic<bool> m_stop = false;
    std::atomic<bool> m_dropRuns = false;
    std::atomic<qint64> m_bytes = 0;
    std::atomic<qint64> m_runsFrom = kUndecided;
    std::mutex m_mutex;
    std::condition_variable m_ended; // the helper ended, or decided where its runs start
    bool m_done = false;
    std::optional<LabEventStore> m_events;
    qint64 m_offset = -1;
    std::unique_ptr<Session> m_runs;
    std::thread m_thread; // last: started once the rest is built
};
