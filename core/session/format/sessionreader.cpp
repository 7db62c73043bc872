// SPDX-License-Identifier: GPL-3.0-or-later
// SessionFile::read and ::open: a streaming reader for versions 0 (the engine's attempt log) and 1.
#include "session/format/sessionfile.h"

#include "policy/policyjson.h"
#include "session/format/attemptjson.h"
#include "session/format/enumnames.h"
#include "session/format/enumspellings.h"
#include "json/filereadahead.h"
#include "json/jsonpullreader.h"
#include "json/jsontext.h"
#include "session/format/sessionjson.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring> // memrchr (glibc and musl)
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("session", text); }

class Reader
{
public:
    Reader(QIODevice& device, qint64 total, const SessionProgress& progress)
        : m_in(device)
        , m_total(total)
        , m_progress(progress)
    {
    }
    Reader(JsonChunkSource& source, qint64 total, const SessionProgress& progress)
        : m_in(source)
        , m_total(total)
        , m_progress(progress)
    {
    }

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
    bool readLabEvent(qsizetype index);
    bool laxInteger(qint64* out);
    bool laxText(QByteArray& out);
    bool readLabEvents(const QString& path);
    bool readArray(const QString& path, const std::function<bool(const QJsonValue&, const QString&)>& each);
    bool checkVersion(const QString& path);

    JsonPullReader m_in;
    std::unique_ptr<class TailAhead> m_ahead;
    qint64 m_total;
    const SessionProgress& m_progress;
    std::unique_ptr<Session> m_session = std::make_unique<Session>();
    QString m_format;
    std::optional<qint64> m_version;
    QString m_path = u"$"_s;
    bool m_cancelled = false;
    bool m_labEventsReadAhead = false;
    bool m_runsReadAhead = false;
    bool m_tailPart = false; // the helper's reader of the runs' second half
    bool m_failed = false;
    qint64 m_attemptsRead = 0;
    // A lab event's texts while its object is read (their capacity is kept from one event to the next).
    std::array<QByteArray, 8> m_labTexts;
};

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
    void read(const QString& path, qint64 size)
    {
        const std::optional<qint64> at = findLabEvents(path, size);
        if (!at || m_stop) {
            decideRuns(-1);
            return;
        }
        const qint64 runsEnd = *at - (kRunsEnd.size() - 1); // the byte after the runs' ']', as the writer puts it
        // Where both threads end together: a byte of lab events takes about twice as long to read as a byte of
        // runs (6.1 against 2.8 ns on the machine of issue 11's figures), so the helper's share of the runs is
        // smaller by that. Never before the middle: the main reader waits for this decision from there on.
        const qint64 split = std::max(m_half, qint64((double(runsEnd) + kLabEventCost * double(size - *at)) / 2));
        const std::optional<qint64> runsFrom = findRunBoundary(path, split, runsEnd);
        decideRuns(runsFrom.value_or(-1));
        if (!readLabEvents(path, size, *at) || !runsFrom || m_stop || m_dropRuns)
            return;
        m_bytes = 0;
        readRuns(path, size, *runsFrom, runsEnd);
    }
    bool readLabEvents(const QString& path, qint64 size, qint64 at)
    {
        FileReadAhead file(path, 1 << 20, 4, at);
        if (!file.isOpen())
            return false;
        Reader reader(file, size, m_noProgress);
        if (!reader.readLabEventsTail(m_stop, m_bytes, path, at, size))
            return false;
        m_events = std::move(reader.session().labEvents);
        m_offset = at;
        return true;
    }
    // The runs from byte FROM (a '{') to their array's ']', which must end right before byte END.
    void readRuns(const QString& path, qint64 size, qint64 from, qint64 end)
    {
        // A '[' of its own first: the reader takes the runs as an array, from its first element on.
        class OpenedArray final : public JsonChunkSource
        {
        public:
            explicit OpenedArray(FileReadAhead& file)
                : m_file(file)
            {
            }
            QByteArray nextChunk(QByteArray spent) override
            {
                if (!m_opened) {
                    m_opened = true;
                    return QByteArrayLiteral("[");
                }
                if (spent.size() == 1) // the '[': not a buffer to read a chunk into
                    spent = {};
                return m_file.nextChunk(std::move(spent));
            }

        private:
            FileReadAhead& m_file;
            bool m_opened = false;
        };
        FileReadAhead file(path, 1 << 20, 4, from);
        if (!file.isOpen())
            return;
        OpenedArray source(file);
        Reader reader(source, size, m_noProgress);
        if (!reader.readRunsTail(m_dropRuns, m_bytes) || from + reader.offset() - 1 != end)
            return;
        QFile tail(path); // the ',' between the runs' ']' and the lab events' key
        if (!tail.open(QIODevice::ReadOnly) || !tail.seek(end) || tail.read(1) != ",")
            return;
        m_runs = reader.takeSession();
    }

    // The byte of the '[' after the last "\n\"lab_events\":" in PATH, searched from its end backwards.
    std::optional<qint64> findLabEvents(const QString& path, qint64 size) const
    {
        static constexpr qint64 kBlock = 1 << 20;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return std::nullopt;
        QByteArray block;
        for (qint64 end = size; end > 0 && !m_stop;) {
            const qint64 start = std::max<qint64>(0, end - kBlock);
            const qint64 length = std::min(size, end + kLabMarker.size() - 1) - start; // overlapping the next block
            if (!file.seek(start))
                return std::nullopt;
            block.resize(qsizetype(length));
            if (file.read(block.data(), length) != length)
                return std::nullopt;
            // From newline to newline backwards (memrchr): about five times as fast as lastIndexOf here.
            for (size_t n = size_t(length); n > 0;) {
                const auto* nl = static_cast<const char*>(memrchr(block.constData(), '\n', n));
                if (!nl)
                    break;
                const qsizetype i = nl - block.constData();
                if (QByteArrayView(block).sliced(i).startsWith(kLabMarker))
                    return start + i + kLabMarker.size() - 1;
                n = size_t(i);
            }
            end = start;
        }
        return std::nullopt;
    }
    // The '{' of the first run boundary at or after byte FROM that leaves a run before byte END.
    std::optional<qint64> findRunBoundary(const QString& path, qint64 from, qint64 end) const
    {
        static constexpr qint64 kBlock = 1 << 20;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return std::nullopt;
        QByteArray block;
        for (qint64 start = from; start < end && !m_stop; start += kBlock) {
            const qint64 length = std::min(end, start + kBlock + kRunBoundary.size() - 1) - start;
            if (!file.seek(start))
                return std::nullopt;
            block.resize(qsizetype(length));
            if (file.read(block.data(), length) != length)
                return std::nullopt;
            if (const qsizetype i = QByteArrayView(block).indexOf(kRunBoundary); i >= 0)
                return start + i + kRunBoundary.size() - 1;
        }
        return std::nullopt;
    }

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

bool Reader::readLabEventsTail(const std::atomic<bool>& stop, std::atomic<qint64>& bytes, const QString& path,
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

bool Reader::readRunsTail(const std::atomic<bool>& stop, std::atomic<qint64>& bytes)
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

void Reader::readTailAheadFrom(const QString& path, qint64 size)
{
    if (size >= TailAhead::kMinBytes)
        m_ahead = std::make_unique<TailAhead>(path, size);
}

bool Reader::waitForHelper(qint64 at)
{
    while (!m_ahead->waitFor(100)) {
        if (m_progress && !m_progress(std::min(m_total, at + m_ahead->bytesRead()), m_total)) {
            m_cancelled = true;
            return false;
        }
    }
    return true;
}

bool Reader::takeLabEventsAhead()
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

Reader::Handover Reader::takeRunsAhead()
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

bool Reader::checkVersion(const QString& path)
{
    if (m_format.isEmpty() || !m_version)
        return true;
    if (m_format == QLatin1String(SessionFile::attemptLogFormatName)) {
        if (*m_version != 1)
            return fail(path, tr("unsupported attempt-log version %1 (this build reads version 1)").arg(*m_version));
        m_session->meta.readFromVersion = 0;
        return true;
    }
    if (*m_version > Session::currentVersion)
        return fail(path, tr("session format version %1 is newer than this build reads (up to %2); update Retrylab")
                              .arg(*m_version).arg(Session::currentVersion));
    if (*m_version < 1)
        return fail(path, tr("unsupported session format version %1").arg(*m_version));
    m_session->meta.readFromVersion = int(*m_version);
    return true;
}

bool Reader::readArray(const QString& path, const std::function<bool(const QJsonValue&, const QString&)>& each)
{
    if (!m_in.enterArray())
        return fail(path, tr("must be an array"));
    qsizetype i = 0;
    while (m_in.nextElement()) {
        const QString itemPath = path + u'[' + QString::number(i++) + u']';
        const QJsonValue v = m_in.readValue();
        if (m_in.hasError())
            return fail(itemPath, QString());
        if (!each(v, itemPath))
            return false;
    }
    return !m_in.hasError() || fail(path, QString());
}

// A run's own fields, each read as a JSON value. The usual ones go to fixed slots and are converted
// without building a QJsonObject (a 1M-attempt session has 250 000 runs); a run with any other field
// (an inline version-0 policy, a "_" field, an unknown one) goes through SessionJson::runFactsFromJson.
struct RunFacts
{
    enum Slot { Run, Seed, PolicyRef, RequestRef, Method, Url, Outcome, Reason, Asked, Submitted, Start, End, TotalWait, SlotCount };
    static constexpr std::array<QByteArrayView, SlotCount> kNames = { "run", "seed", "policy_ref", "request_ref", "method",
        "url", "outcome", "reason", "server_asked_for_ms", "submitted_ms", "start_ms", "end_ms", "total_wait_ms" };

    std::array<QJsonValue, SlotCount> values;
    std::array<bool, SlotCount> present {};
    QJsonObject other;

    static int slotOf(QByteArrayView key)
    {
        for (int i = 0; i < SlotCount; ++i) {
            if (kNames[size_t(i)] == key)
                return i;
        }
        return -1;
    }
    const QJsonValue& value(Slot slot) const { return values[slot]; }
    QJsonObject object() const
    {
        QJsonObject o = other;
        for (int i = 0; i < SlotCount; ++i) {
            if (present[size_t(i)])
                o.insert(QString::fromLatin1(kNames[size_t(i)]), values[size_t(i)]);
        }
        return o;
    }

    // What SessionJson::runFactsFromJson does with these fields, value for value.
    bool toRun(SessionRun* r, QString* problem) const
    {
        if (!other.isEmpty())
            return SessionJson::runFactsFromJson(object(), r, problem);
        for (const Slot slot : { Submitted, Start, End }) {
            qint64 ns = 0;
            if (values[slot].isDouble() && !JsonText::nsFromMillis(values[slot].toDouble(), &ns)) {
                *problem = QString::fromLatin1(kNames[slot]) + tr(": out of range (more than ±292 years)");
                return false;
            }
        }
        const auto msAsNs = [](const QJsonValue& v) {
            qint64 ns = PackedAttempt::kUnset;
            return v.isDouble() && JsonText::nsFromMillis(v.toDouble(), &ns) ? ns : PackedAttempt::kUnset;
        };
        if (!value(Run).isDouble()) {
            *problem = tr("run: must be an integer");
            return false;
        }
        r->runId = value(Run).toInt();
        bool ok = true;
        const QJsonValue& seed = value(Seed);
        r->seed = seed.isString() ? seed.toString().toULongLong(&ok) : quint64(seed.toInteger(0));
        if (!ok) {
            *problem = tr("seed: must be a decimal integer string");
            return false;
        }
        r->policy = qsizetype(value(PolicyRef).toInteger(0));
        r->request = qsizetype(value(RequestRef).toInteger(0));
        const QJsonValue& outcome = value(Outcome);
        if (outcome.isString()) {
            const QByteArray name = outcome.toString().toUtf8();
            std::optional<FinalKind> k = EnumSpelling::finalKinds().find(QByteArrayView(name));
            if (!k)
                k = EnumNames::finalKind(QByteArrayView(name));
            if (!k) {
                *problem = tr("outcome: unknown outcome \"%1\"").arg(outcome.toString());
                return false;
            }
            r->outcome = *k;
        }
        r->reason = value(Reason).toString();
        r->serverAskedForMs = value(Asked).isDouble() ? value(Asked).toInteger() : PackedAttempt::kUnset;
        r->submittedNs = present[Submitted] ? msAsNs(value(Submitted)) : 0;
        if (r->submittedNs == PackedAttempt::kUnset)
            r->submittedNs = 0;
        r->startedNs = msAsNs(value(Start));
        r->finishedNs = msAsNs(value(End));
        r->totalWaitMs = value(TotalWait).toInteger(0);
        return true;
    }
};

bool Reader::readRun(qsizetype index)
{
    const auto path = [index]() -> QString { return u"$.runs["_s + QString::number(index) + u']'; };
    Session& s = *m_session;
    if (!m_in.enterObject())
        return fail(path(), QString());
    RunFacts facts;
    QList<quint32> rows;
    QByteArrayView key;
    while (m_in.nextKeyView(&key)) {
        if (key == "attempts") {
            if (!m_in.enterArray())
                return fail(path() + u".attempts"_s, QString());
            while (m_in.nextElement()) {
                PackedAttempt p;
                QByteArray field;
                if (!AttemptJson::read(m_in, s.attempts, &p, &field)) {
                    return fail(path() + u".attempts["_s + QString::number(rows.size()) + u']'
                            + (field.isEmpty() ? QString() : u'.' + QString::fromUtf8(field)),
                        QString());
                }
                rows.append(quint32(s.attempts.append(p)));
                if ((++m_attemptsRead & 4095) == 0 && m_progress && !m_progress(m_in.offset(), m_total)) {
                    m_cancelled = true;
                    return false;
                }
            }
            if (m_in.hasError())
                return fail(path() + u".attempts"_s, QString());
        } else {
            const int slot = RunFacts::slotOf(key);
            const QString name = slot < 0 ? QString::fromUtf8(key) : QString(); // the key's bytes go with the next read
            const QJsonValue v = m_in.readValue();
            if (m_in.hasError())
                return fail(path() + u'.' + (slot < 0 ? name : QString::fromLatin1(RunFacts::kNames[size_t(slot)])), QString());
            if (slot < 0) {
                facts.other.insert(name, v);
            } else {
                facts.values[size_t(slot)] = v;
                facts.present[size_t(slot)] = true;
            }
        }
    }
    if (m_in.hasError())
        return fail(path(), QString());
    SessionRun run;
    QString problem;
    if (!facts.toRun(&run, &problem))
        return fail(path() + u'.' + problem.section(u':', 0, 0), problem.section(u':', 1).trimmed());
    if (s.findRun(run.runId))
        return fail(path() + u".run"_s, tr("run %1 appears twice").arg(run.runId));
    if (m_tailPart && (facts.other.contains(u"policy"_s) || !facts.present[RunFacts::RequestRef]))
        return fail(path(), tr("a version 0 run")); // they add to the session's policies and requests: read in order
    if (facts.other.contains(u"policy"_s)) { // version 0: the policy inline
        const PolicyParseResult policy = policyFromJson(facts.other.value(u"policy"_s).toObject());
        if (!policy.ok()) {
            const PolicyProblem& p = policy.problems.first();
            return fail(path() + u".policy"_s + (p.path.startsWith(u'$') ? p.path.mid(1) : u'.' + p.path), p.message);
        }
        run.policy = s.addPolicy(*policy.policy);
    }
    if (!facts.present[RunFacts::RequestRef]) { // version 0: method and URL only
        RequestSpec spec;
        spec.method = facts.value(RunFacts::Method).toString(u"GET"_s);
        spec.url = QUrl(facts.value(RunFacts::Url).toString());
        run.request = s.addRequest(spec);
    }
    for (quint32 row : std::as_const(rows))
        s.attempts.setRunId(row, run.runId);
    run.rows = std::move(rows);
    s.appendRun(std::move(run));
    return true;
}

// Lax reads for a lab event's fields, as labEventFromJson reads them from a QJsonObject: a value of another
// type (or a number with a fraction, or out of range) reads as the default, 0 or "".
bool Reader::laxInteger(qint64* out)
{
    *out = 0;
    if (m_in.peek() != JsonPullReader::Kind::Number) {
        m_in.skipValue();
        return !m_in.hasError();
    }
    QByteArrayView text;
    if (!m_in.readNumberView(&text))
        return false;
    bool ok = false;
    if (text.size() <= 18) { // exact (the QJsonValue path went through a double)
        const qint64 v = text.toLongLong(&ok);
        if (ok) {
            *out = v;
            return true;
        }
    }
    const double d = text.toDouble(&ok);
    if (!ok) {
        m_in.fail(tr("malformed number \"%1\"").arg(QLatin1StringView(text)));
        return false;
    }
    if (std::isfinite(d) && std::trunc(d) == d && std::abs(d) < 9.2e18)
        *out = qint64(d);
    return true;
}

bool Reader::laxText(QByteArray& out)
{
    out.resize(0);
    if (m_in.peek() != JsonPullReader::Kind::String) {
        m_in.skipValue();
        return !m_in.hasError();
    }
    return m_in.readUtf8Into(out);
}

// One lab event, field by field, into the session's store: no QJsonObject and no LabEvent with seven
// strings built for each (a session recorded with the lab has two to four events per attempt). It reads
// what SessionJson::labEventFromJson reads: unknown fields skipped, the last of a repeated field kept.
bool Reader::readLabEvent(qsizetype index)
{
    const auto itemPath = [index] { return u"$.lab_events[%1]"_s.arg(index); };
    enum Text { Kind, Method, Path, Route, Step, AttemptId, Key, Detail };
    for (QByteArray& t : m_labTexts)
        t.resize(0);
    LabEventStore::Fields f;
    if (m_in.peek() == JsonPullReader::Kind::Object) {
        m_in.enterObject();
        QByteArrayView key;
        while (m_in.nextKeyView(&key)) {
            bool ok = true;
            qint64 v = 0;
            if (key == "kind")
                ok = laxText(m_labTexts[Kind]);
            else if (key == "at_ms")
                ok = laxInteger(&f.atMs);
            else if (key == "connection")
                ok = laxInteger(&v), f.connectionId = quint64(v);
            else if (key == "request")
                ok = laxInteger(&v), f.requestId = quint64(v);
            else if (key == "method")
                ok = laxText(m_labTexts[Method]);
            else if (key == "path")
                ok = laxText(m_labTexts[Path]);
            else if (key == "route")
                ok = laxText(m_labTexts[Route]);
            else if (key == "step")
                ok = laxText(m_labTexts[Step]);
            else if (key == "status")
                ok = laxInteger(&v), f.status = v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max() ? int(v) : 0;
            else if (key == "attempt_id")
                ok = laxText(m_labTexts[AttemptId]);
            else if (key == "idempotency_key")
                ok = laxText(m_labTexts[Key]);
            else if (key == "applied")
                f.applied = m_in.peek() == JsonPullReader::Kind::Bool ? m_in.readBool().value_or(false) : (m_in.skipValue(), false);
            else if (key == "detail")
                ok = laxText(m_labTexts[Detail]);
            else
                m_in.skipValue();
            if (!ok || m_in.hasError())
                return fail(itemPath(), QString());
        }
    } else {
        m_in.skipValue(); // not an object: no kind
    }
    if (m_in.hasError())
        return fail(itemPath(), QString());
    bool found = false;
    for (int k = 0; k <= int(LabEvent::Kind::UpstreamFailed) && !found; ++k) {
        if (LabEvent::kindName(LabEvent::Kind(k)) == QLatin1StringView(m_labTexts[Kind])) {
            f.kind = LabEvent::Kind(k);
            found = true;
        }
    }
    if (!found)
        return fail(u"$.lab_events[%1].kind"_s.arg(index), tr("unknown lab event kind \"%1\"").arg(QString::fromUtf8(m_labTexts[Kind])));
    // The method is kept as Latin-1 bytes: a UTF-8 one (never seen from a client) is narrowed as before.
    const QByteArray& method = m_labTexts[Method];
    if (std::any_of(method.begin(), method.end(), [](char c) { return uchar(c) >= 0x80; }))
        m_labTexts[Method] = QString::fromUtf8(method).toLatin1();
    f.method = m_labTexts[Method];
    f.path = m_labTexts[Path];
    f.route = m_labTexts[Route];
    f.stepKind = m_labTexts[Step];
    f.attemptId = m_labTexts[AttemptId];
    f.idempotencyKey = m_labTexts[Key];
    f.detail = m_labTexts[Detail];
    m_session->labEvents.append(f);
    return true;
}

bool Reader::readDocument()
{
    Session& s = *m_session;
    if (m_in.peek() != JsonPullReader::Kind::Object)
        return fail(u"$"_s, m_in.peek() == JsonPullReader::Kind::End ? tr("the file is empty") : tr("a session file is a JSON object"));
    m_in.enterObject();
    QByteArray key;
    qsizetype runIndex = 0;
    while (m_in.nextKey(&key)) {
        const QString path = u"$."_s + QString::fromUtf8(key);
        QString problem;
        if (key == "format") {
            const auto v = m_in.readString();
            if (!v)
                return fail(path, tr("must be a string"));
            if (*v != QLatin1String(SessionFile::formatName) && *v != QLatin1String(SessionFile::attemptLogFormatName))
                return fail(path, tr("\"%1\" is not a Retrylab session").arg(*v));
            m_format = *v;
            if (!checkVersion(path))
                return false;
        } else if (key == "version") {
            m_version = m_in.readInteger();
            if (!m_version)
                return fail(path, tr("must be an integer"));
            if (!checkVersion(path))
                return false;
        } else if (key == "meta" || key == "redaction") {
            const QJsonValue v = m_in.readValue();
            if (m_in.hasError() || !v.isObject())
                return fail(path, tr("must be an object"));
            const bool ok = key == "meta" ? SessionJson::metaFromJson(v.toObject(), &s.meta, &problem)
                                          : SessionJson::redactionFromJson(v.toObject(), &s.redaction, &problem);
            if (!ok)
                return fail(path + u'.' + problem.section(u':', 0, 0), problem.section(u':', 1).trimmed());
        } else if (key == "scenario") {
            const QJsonValue v = m_in.readValue();
            if (m_in.hasError() || !(v.isObject() || v.isNull()))
                return fail(path, tr("must be an object or null"));
            s.scenario = v.toObject();
        } else if (key == "policies") {
            if (!readArray(path, [&](const QJsonValue& v, const QString& p) {
                    const PolicyParseResult policy = policyFromJson(v.toObject());
                    if (!policy.ok())
                        return fail(p + u'.' + policy.problems.first().path, policy.problems.first().message);
                    s.policies.append(*policy.policy);
                    return true;
                }))
                return false;
        } else if (key == "requests") {
            if (!readArray(path, [&](const QJsonValue& v, const QString& p) {
                    RequestSpec spec;
                    QString why;
                    if (!SessionJson::requestFromJson(v.toObject(), &spec, &why))
                        return fail(p + u'.' + why.section(u':', 0, 0), why.section(u':', 1).trimmed());
                    s.requests.append(spec);
                    return true;
                }))
                return false;
        } else if (key == "runs") {
            if (!m_in.enterArray())
                return fail(path, tr("must be an array"));
            const qint64 runsStart = m_in.offset();
            while (m_in.nextElement()) {
                if (m_ahead) {
                    const Handover handover = takeRunsAhead();
                    if (handover == Handover::Taken) // the rest of the runs and the lab events: nothing left here
                        return finishDocument();
                    if (handover == Handover::Failed)
                        return false;
                }
                if (!readRun(runIndex++))
                    return false;
                // A guess at the number of runs from the first ones' size, so the list of runs is not
                // copied again and again while it grows (250 000 runs in a 1M-attempt session).
                static constexpr qsizetype kSample = 64;
                if (runIndex == kSample && m_total > m_in.offset() && m_in.offset() > runsStart) {
                    const qint64 perRun = std::max<qint64>(1, (m_in.offset() - runsStart) / kSample);
                    const qint64 guess = (m_total - runsStart) / perRun + (m_total - runsStart) / perRun / 20 + kSample;
                    s.runs.reserve(qsizetype(std::min<qint64>(guess, m_total / 16)));
                }
            }
            if (m_in.hasError())
                return fail(path, QString());
        } else if (key == "lab_events") {
            if (takeLabEventsAhead()) // read on the other core, to the end of the file: nothing left here
                return finishDocument();
            if (m_cancelled)
                return false;
            if (!readLabEvents(path))
                return false;
        } else if (key.startsWith('_') || key == "$schema") {
            m_in.skipValue();
            if (m_in.hasError())
                return fail(path, QString());
        } else {
            return fail(path, tr("unknown field \"%1\"").arg(QString::fromUtf8(key)));
        }
    }
    if (m_in.hasError())
        return fail(m_path, QString());
    if (!m_in.atEnd())
        return fail(u"$"_s, tr("unexpected text after the end of the session"));
    return finishDocument();
}

bool Reader::readLabEvents(const QString& path)
{
    if (!m_in.enterArray())
        return fail(path, tr("must be an array"));
    for (qsizetype i = 0; m_in.nextElement(); ++i) {
        if (!readLabEvent(i))
            return false;
        if ((i & 16383) == 16383 && m_progress && !m_progress(m_in.offset(), m_total)) {
            m_cancelled = true;
            return false;
        }
    }
    if (m_in.hasError())
        return fail(path, QString());
    return true;
}

bool Reader::finishDocument()
{
    Session& s = *m_session;
    if (m_format.isEmpty())
        return fail(u"$.format"_s, tr("missing: not a Retrylab session file"));
    if (!m_version)
        return fail(u"$.version"_s, tr("missing"));
    for (qsizetype i = 0; i < s.runs.size(); ++i) {
        const SessionRun& r = s.runs.at(i);
        const bool noPolicy = r.policy == -1 && r.observed; // a client's run: none of ours
        if ((!noPolicy && (r.policy < 0 || r.policy >= qMax<qsizetype>(1, s.policies.size()))) || r.request < 0
            || r.request >= qMax<qsizetype>(1, s.requests.size()))
            return fail(u"$.runs["_s + QString::number(i) + u"].policy_ref"_s, tr("refers to a policy or request that is not in the file"));
    }
    if (s.policies.isEmpty())
        s.policies.append(RetryPolicy());
    if (s.requests.isEmpty())
        s.requests.append(RequestSpec());
    if (m_session->meta.readFromVersion == 0) {
        s.meta.source = u"migrated"_s;
        s.redaction.enabled = true;
    }
    return true;
}

std::unique_ptr<Session> Reader::read(QString* error, SessionFile::Status* status)
{
    const bool ok = readDocument();
    if (status)
        *status = ok ? SessionFile::Status::Ok : m_cancelled ? SessionFile::Status::Cancelled : SessionFile::Status::Failed;
    if (ok) {
        if (m_progress)
            m_progress(m_total, m_total);
        return std::move(m_session);
    }
    if (error) {
        *error = m_cancelled ? tr("opening was cancelled")
                             : tr("%1 (at %2)").arg(m_in.errorString().isEmpty() ? tr("invalid session") : m_in.errorString(), m_path);
    }
    return nullptr;
}

} // namespace

namespace SessionFile {

std::unique_ptr<Session> read(QIODevice& device, qint64 totalBytes, const SessionProgress& progress, QString* error,
    Status* status)
{
    Reader reader(device, totalBytes, progress);
    return reader.read(error, status);
}

std::unique_ptr<Session> read(JsonChunkSource& source, qint64 totalBytes, const SessionProgress& progress, QString* error,
    Status* status)
{
    Reader reader(source, totalBytes, progress);
    return reader.read(error, status);
}

std::unique_ptr<Session> open(const QString& path, const SessionProgress& progress, QString* error, Status* status,
    ReadReport* report)
{
    if (report)
        *report = {};
    // Read on a thread of its own, a few chunks ahead of the parser: opening a large session parses on
    // one core while the other copies the file in.
    FileReadAhead file(path);
    if (!file.isOpen()) {
        if (error)
            *error = tr("cannot open %1: %2").arg(path, file.errorString());
        if (status)
            *status = Status::Failed;
        return nullptr;
    }
    Status outcome = Status::Failed;
    Reader reader(file, file.size(), progress);
    reader.readTailAheadFrom(path, file.size());
    std::unique_ptr<Session> s = reader.read(error, &outcome);
    if (report)
        *report = { reader.labEventsWereReadAhead(), reader.runsWereReadAhead() };
    if (!s && error && outcome == Status::Failed) {
        const QString readError = file.errorString(); // the bytes stopped coming: that, not where parsing stopped
        *error = readError.isEmpty() ? path + u": "_s + *error : tr("cannot read %1: %2").arg(path, readError);
    }
    if (status)
        *status = outcome;
    return s;
}

bool looksLikeSession(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // The format name comes first in files this app writes; 64 KiB allows for hand-edited ones.
    const QByteArray head = file.read(64 * 1024);
    return head.contains(QByteArray('"' + QByteArray(formatName) + '"'))
        || head.contains(QByteArray('"' + QByteArray(attemptLogFormatName) + '"'));
}

} // namespace SessionFile
