// SPDX-License-Identifier: GPL-3.0-or-later
#include "json/filereadahead.h"

#include <QFile>

#include <algorithm>

FileReadAhead::FileReadAhead(const QString& path, qsizetype chunkSize, int ahead, qint64 from)
    : m_file(std::make_unique<QFile>(path))
    , m_chunk(std::max<qsizetype>(1, chunkSize))
    , m_ahead(std::max(1, ahead))
{
    m_open = m_file->open(QIODevice::ReadOnly) && (from == 0 || m_file->seek(from));
    if (m_open)
        m_size = m_file->size();
    else
        m_error = m_file->errorString();
}

FileReadAhead::~FileReadAhead()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

QString FileReadAhead::errorString() const
{
    const std::lock_guard lock(m_mutex);
    return m_error;
}

QByteArray FileReadAhead::nextChunk(QByteArray spent)
{
    if (!m_open)
        return {};
    if (!m_thread.joinable())
        m_thread = std::thread([this] { run(); });
    std::unique_lock lock(m_mutex);
    if (spent.capacity() >= m_chunk && m_spent.size() < size_t(m_ahead))
        m_spent.push_back(std::move(spent));
    m_changed.wait(lock, [this] { return !m_ready.empty() || m_ended; });
    if (m_ready.empty())
        return {};
    QByteArray chunk = std::move(m_ready.front());
    m_ready.pop_front();
    lock.unlock();
    m_changed.notify_all(); // room for one more
    return chunk;
}

void FileReadAhead::run()
{
    for (;;) {
        // A file smaller than a chunk gets a buffer its size (plus one byte to see the end), not a whole chunk.
        const qint64 left = std::max<qint64>(0, m_size - m_file->pos());
        const qsizetype want = qsizetype(std::min<qint64>(m_chunk, std::max<qint64>(left + 1, 4096)));
        QByteArray chunk;
        {
            const std::lock_guard lock(m_mutex);
            if (!m_spent.empty()) {
                chunk = std::move(m_spent.back());
                m_spent.pop_back();
            }
        }
        chunk.resize(want); // a spent chunk is reused (data() copies it first if anyone still shares it)
        const qint64 n = m_file->read(chunk.data(), want);
        std::unique_lock lock(m_mutex);
        if (n <= 0) {
            if (n < 0)
                m_error = m_file->errorString();
            m_ended = true;
            lock.unlock();
            m_changed.notify_all();
            return;
        }
        chunk.truncate(qsizetype(n));
        m_changed.wait(lock, [this] { return m_stop || qsizetype(m_ready.size()) < m_ahead; });
        if (m_stop)
            return;
        m_ready.push_back(std::move(chunk));
        lock.unlock();
        m_changed.notify_all();
    }
}
