// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The reader behind SessionFile::read and ::open: a streaming reader for versions 0 (the engine's attempt
// log) and 1, one JSON value at a time. Its jobs, a file each:
//   sessionreader.cpp          the document: its top-level fields, the checks at its end, SessionFile's entry points
//   sessionreaderruns.cpp      a run and its attempts
//   labeventreader.h           a lab event (LabEventReader)
//   tailahead.h                the thread that reads a large file's end ahead (TailAhead)
//   sessionreaderhandover.cpp  the two-thread read: what each side's reader does, and where what the helper
//                              read is taken
// Internal to the session library: the rest of the program reads through session/format/sessionfile.h.

#include "json/jsonpullreader.h"
#include "session/format/labeventreader.h"
#include "session/format/sessionfile.h"

#include <QJsonValue>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class TailAhead;

class SessionReader
{
public:
    SessionReader(QIODevice& device, qint64 total, const SessionProgress& progress);
    SessionReader(JsonChunkSource& source, qint64 total, const SessionProgress& progress);
    ~SessionReader();

    std::unique_ptr<Session> read(QString* error, SessionFile::Status* status);
    // Reads the end of the file ahead on another thread (TailAhead) when the file is PATH.
    void readTailAheadFrom(const QString& path, qint64 size);
    // The lab_events array from here on, into this reader's session: the helper's part. True when it was
    // read whole and only the document's closing '}' (and whitespace) follows it. Stops early when STOP.
    bool readLabEventsTail(const std::atomic<bool>& stop, std::atomic<qint64>& bytes, const QString& path, qint64 from,
        qint64 size);
    // Runs from here on to the end of their array (the source starts with a '[' of its own before the
    // first run's '{'), into this reader's session: the helper's part. A run only version 0 writes (its
    // policy inline, or no request_ref) is refused: the main reader reads those. Stops early when STOP.
    bool readRunsTail(const std::atomic<bool>& stop, std::atomic<qint64>& bytes);
    Session& session() { return *m_session; }
    std::unique_ptr<Session> takeSession() { return std::move(m_session); }
    qint64 offset() const { return m_in.offset(); }
    bool labEventsWereReadAhead() const { return m_labEventsReadAhead; }
    bool runsWereReadAhead() const { return m_runsReadAhead; }

private:
    bool fail(const QString& path, const QString& message)
    {
        if (!m_failed) {
            m_in.fail(message);
            m_path = path;
            m_failed = true;
        }
        return false;
    }
    bool readDocument();
    bool finishDocument(); // the checks once every field is read
    // Until the helper thread ends, with progress (from byte AT on, plus what it read) and a cancel heard:
    // false when cancelled.
    bool waitForHelper(qint64 at);
    bool takeLabEventsAhead(); // at the top-level "lab_events" key: the helper's events when they are these
    // At a run of the top-level "runs" array: when the helper read the runs from here on and the lab events
    // after them, joins them to what was read (Taken: the document is read to its end).
    enum class Handover { NotHere, Taken, Failed };
    Handover takeRunsAhead();
    bool readRun(qsizetype index);
    bool readLabEvent(qsizetype index)
    {
        QString path;
        QString message;
        return m_labEvents.read(index, m_session->labEvents, &path, &message) || fail(path, message);
    }
    bool readLabEvents(const QString& path);
    bool readArray(const QString& path, const std::function<bool(const QJsonValue&, const QString&)>& each);
    bool checkVersion(const QString& path);

    JsonPullReader m_in;
    LabEventReader m_labEvents { m_in };
    std::unique_ptr<TailAhead> m_ahead;
    qint64 m_total;
    const SessionProgress& m_progress;
    std::unique_ptr<Session> m_session = std::make_unique<Session>();
    QString m_format;
    std::optional<qint64> m_version;
    QString m_path = QStringLiteral("$");
    bool m_cancelled = false;
    bool m_labEventsReadAhead = false;
    bool m_runsReadAhead = false;
    bool m_tailPart = false; // the helper's reader of the runs' second half
    bool m_failed = false;
    qint64 m_attemptsRead = 0;
};
