// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reads a file on a thread of its own, a few chunks ahead of whoever consumes it: a parser of a large file
// (opening a session) works on one chunk while the next ones are read, so the copy out of the page cache and
// any wait for the disk happen on the other core. Chunks are handed over whole, as shared QByteArrays (not
// copied again); at most AHEAD of them wait, so memory stays a few chunks whatever the file's size.

#include <QByteArray>
#include <QString>

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

class QFile;

class JsonChunkSource
{
public:
    virtual ~JsonChunkSource() = default;
    // The next bytes, in order; empty at the end (or after an error). SPENT is the chunk the caller is done
    // with, for the source to fill again (a new buffer costs its pages' faults and zeroing, a reused one not).
    virtual QByteArray nextChunk(QByteArray spent = {}) = 0;
};

class FileReadAhead final : public JsonChunkSource
{
public:
    // Opens PATH now (isOpen() says whether that worked); reading starts at byte FROM on the first nextChunk().
    explicit FileReadAhead(const QString& path, qsizetype chunkSize = 1 << 20, int ahead = 4, qint64 from = 0);
    ~FileReadAhead() override; // stops reading and waits for the thread, wherever it is
    FileReadAhead(const FileReadAhead&) = delete;
    FileReadAhead& operator=(const FileReadAhead&) = delete;

    bool isOpen() const { return m_open; }
    qint64 size() const { return m_size; }
    QByteArray nextChunk(QByteArray spent = {}) override;
    // Why the file could not be opened or read; empty when it was read to its end (or is still being read).
    QString errorString() const;

private:
    void run(); // the reading thread

    std::unique_ptr<QFile> m_file; // used by the reading thread only, once it started
    const qsizetype m_chunk;
    const int m_ahead;
    bool m_open = false;
    qint64 m_size = 0;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<QByteArray> m_ready; // read, not handed over yet
    std::vector<QByteArray> m_spent; // handed back, to read into again
    bool m_ended = false; // the thread read its last chunk (end of file or an error)
    bool m_stop = false; // the consumer is gone
    QString m_error;
    std::thread m_thread;
};
