// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/tailahead.h"

#include "json/filereadahead.h"
#include "session/format/sessionreader.h"

#include <QFile>

#include <algorithm>
#include <cstring> // memrchr (glibc and musl)

void TailAhead::read(const QString& path, qint64 size)
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

bool TailAhead::readLabEvents(const QString& path, qint64 size, qint64 at)
{
    FileReadAhead file(path, 1 << 20, 4, at);
    if (!file.isOpen())
        return false;
    SessionReader reader(file, size, m_noProgress);
    if (!reader.readLabEventsTail(m_stop, m_bytes, path, at, size))
        return false;
    m_events = std::move(reader.session().labEvents);
    m_offset = at;
    return true;
}

void TailAhead::readRuns(const QString& path, qint64 size, qint64 from, qint64 end)
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
    SessionReader reader(source, size, m_noProgress);
    if (!reader.readRunsTail(m_dropRuns, m_bytes) || from + reader.offset() - 1 != end)
        return;
    QFile tail(path); // the ',' between the runs' ']' and the lab events' key
    if (!tail.open(QIODevice::ReadOnly) || !tail.seek(end) || tail.read(1) != ",")
        return;
    m_runs = reader.takeSession();
}

std::optional<qint64> TailAhead::findLabEvents(const QString& path, qint64 size) const
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

std::optional<qint64> TailAhead::findRunBoundary(const QString& path, qint64 from, qint64 end) const
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
