// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Appends bytes to a QByteArray through a raw cursor: one capacity check per piece and no QByteArray call,
// which matters when a session file is written as some hundred million small pieces. While the sink
// lives, OUT is larger than what was written; the destructor trims it back.

#include <QByteArray>
#include <QByteArrayView>

#include <algorithm>
#include <cstring>

class JsonSink
{
public:
    explicit JsonSink(QByteArray& out)
        : m_out(out)
    {
        const qsizetype used = out.size();
        out.resize(std::max(out.capacity(), used + kMinRoom));
        m_begin = out.data();
        m_cur = m_begin + used;
        m_end = m_begin + out.size();
    }
    ~JsonSink() { m_out.resize(size()); }
    JsonSink(const JsonSink&) = delete;
    JsonSink& operator=(const JsonSink&) = delete;

    qsizetype size() const { return m_cur - m_begin; }
    QByteArrayView written() const { return QByteArrayView(m_begin, size()); }
    void clear() { m_cur = m_begin; }

    void append(const char* data, qsizetype n)
    {
        if (n <= 0) // also: DATA may be null for an empty view, which memcpy must not be given
            return;
        if (m_end - m_cur < n)
            grow(n);
        std::memcpy(m_cur, data, size_t(n));
        m_cur += n;
    }
    void append(QByteArrayView bytes) { append(bytes.data(), bytes.size()); }
    template<size_t N>
    void append(const char (&literal)[N])
    {
        append(literal, qsizetype(N - 1));
    }
    void append(char c)
    {
        if (m_cur == m_end)
            grow(1);
        *m_cur++ = c;
    }
    // Room for N bytes at the cursor; write them, then commit() the new cursor.
    char* room(qsizetype n)
    {
        if (m_end - m_cur < n)
            grow(n);
        return m_cur;
    }
    void commit(char* cursor) { m_cur = cursor; }

private:
    static constexpr qsizetype kMinRoom = 4096; // a journal line is one attempt; a save reserves its own buffer

    void grow(qsizetype n)
    {
        const qsizetype used = size();
        m_out.resize(std::max(2 * m_out.size(), used + n + kMinRoom));
        m_begin = m_out.data();
        m_cur = m_begin + used;
        m_end = m_begin + m_out.size();
    }

    QByteArray& m_out;
    char* m_begin = nullptr;
    char* m_cur = nullptr;
    char* m_end = nullptr;
};
