// SPDX-License-Identifier: GPL-3.0-or-later
#include "json/jsonpullreader.h"

#include "json/filereadahead.h"

#include <QCoreApplication>
#include <QtAlgorithms>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonObject>
#include <QVarLengthArray>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace {
QString tr(const char* text) { return QCoreApplication::translate("session", text); }
} // namespace

JsonPullReader::JsonPullReader(QIODevice& device, qsizetype chunkSize)
    : m_device(&device)
    , m_chunk(chunkSize)
{
}

JsonPullReader::JsonPullReader(JsonChunkSource& source)
    : m_source(&source)
    , m_chunk(0)
{
}

bool JsonPullReader::fill()
{
    if (m_pos < m_buf.size())
        return true;
    m_consumed += m_buf.size();
    m_pos = 0;
    if (m_source) {
        m_buf = m_source->nextChunk(std::move(m_buf)); // views into the spent chunk end here, as documented
        return !m_buf.isEmpty();
    }
    // A file smaller than a chunk gets a buffer its size (plus room to see the end), not a whole chunk.
    qint64 want = m_chunk;
    if (!m_device->isSequential())
        want = std::min(want, std::max(m_device->size() - m_device->pos() + 1, qint64(4096)));
    m_buf.resize(qsizetype(want));
    const qint64 n = m_device->read(m_buf.data(), want);
    m_buf.resize(n > 0 ? qsizetype(n) : 0);
    m_pos = 0;
    return n > 0;
}

int JsonPullReader::peekByteSlow()
{
    if (!fill())
        return -1;
    return uchar(m_buf.constData()[m_pos]);
}

int JsonPullReader::get()
{
    if (m_pos >= m_buf.size() && !fill())
        return -1;
    const char c = m_buf.at(m_pos++);
    if (c == '\n') {
        ++m_line;
        m_lineStart = m_consumed + m_pos;
    }
    return uchar(c);
}

int JsonPullReader::column() const
{
    return int(m_consumed + m_pos - m_lineStart) + 1;
}

void JsonPullReader::fail(const QString& message)
{
    if (m_error.isEmpty())
        m_error = tr("line %1, column %2: %3").arg(m_line).arg(column()).arg(message);
}

void JsonPullReader::skipWhitespaceSlow()
{
    for (;;) {
        if (m_pos >= m_buf.size() && !fill())
            return;
        const char* data = m_buf.constData();
        const qsizetype size = m_buf.size();
        qsizetype i = m_pos;
        for (; i < size; ++i) {
            const char c = data[i];
            if (c == '\n') {
                ++m_line;
                m_lineStart = m_consumed + i + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                m_pos = i;
                return;
            }
        }
        m_pos = i;
    }
}

bool JsonPullReader::expect(char c)
{
    if (hasError())
        return false;
    if (m_pos < m_buf.size() && m_buf.constData()[m_pos] == c) { // what we write: no whitespace before it
        ++m_pos;
        return true;
    }
    skipWhitespace();
    const int got = peekByte();
    if (got != uchar(c)) {
        fail(got < 0 ? tr("the file ends early (truncated?): expected '%1'").arg(QLatin1Char(c))
                     : tr("expected '%1', found '%2'").arg(QChar(QLatin1Char(c))).arg(QChar(QLatin1Char(char(got)))));
        return false;
    }
    get();
    return true;
}

JsonPullReader::Kind JsonPullReader::peek()
{
    if (hasError())
        return Kind::Invalid;
    skipWhitespace();
    switch (peekByte()) {
    case -1: return Kind::End;
    case '{': return Kind::Object;
    case '[': return Kind::Array;
    case '"': return Kind::String;
    case 't': case 'f': return Kind::Bool;
    case 'n': return Kind::Null;
    case '-': case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
        return Kind::Number;
    default: return Kind::Invalid;
    }
}

bool JsonPullReader::enterContainer(char open)
{
    if (!expect(open))
        return false;
    if (m_first.size() >= size_t(kMaxDepth)) {
        // readValue() and skipValue() recurse once per level: refuse before the stack runs out.
        fail(tr("objects and arrays nested deeper than %1 levels").arg(kMaxDepth));
        return false;
    }
    m_first.push_back(true);
    return true;
}

bool JsonPullReader::nextKey(QByteArray* key)
{
    QByteArrayView view;
    if (!nextKeyView(&view))
        return false;
    key->resize(0);
    key->append(view.data(), view.size());
    return true;
}

bool JsonPullReader::beginMember(char close)
{
    if (hasError() || m_first.empty())
        return false;
    skipWhitespace();
    const int c = peekByte();
    if (c == close) {
        ++m_pos;
        m_first.pop_back();
        return false;
    }
    if (!m_first.back()) {
        if (c != ',') {
            expect(','); // fails, with the message
            return false;
        }
        ++m_pos;
    }
    m_first.back() = false;
    skipWhitespace();
    return true;
}

bool JsonPullReader::nextKeyView(QByteArrayView* key)
{
    if (!beginMember('}'))
        return false;
    if (peekByte() != '"') {
        fail(peekByte() < 0 ? tr("the file ends early (truncated?) inside an object") : tr("expected a field name"));
        return false;
    }
    if (!stringView(m_keyScratch, key))
        return false;
    if (m_pos < m_buf.size() && m_buf.constData()[m_pos] == ':') {
        ++m_pos;
        return true;
    }
    // The ':' may be in the next chunk: keep the key out of the buffer that is about to be refilled.
    if (key->data() != m_keyScratch.constData()) {
        m_keyScratch.resize(0);
        m_keyScratch.append(key->data(), key->size());
        *key = QByteArrayView(m_keyScratch);
    }
    return expect(':');
}

bool JsonPullReader::nextKeyIs(QByteArrayView key)
{
    if (hasError() || m_first.empty())
        return false;
    const char* data = m_buf.constData();
    const qsizetype size = m_buf.size();
    qsizetype pos = m_pos;
    if (!m_first.back()) {
        if (pos >= size || data[pos] != ',')
            return false;
        ++pos;
    }
    const qsizetype n = key.size();
    if (size - pos < n + 3 || data[pos] != '"' || data[pos + 1 + n] != '"' || data[pos + 2 + n] != ':'
        || std::memcmp(data + pos + 1, key.data(), size_t(n)) != 0)
        return false; // not it, not written so, or across the chunk's end: the general path reads it
    m_pos = pos + n + 3;
    m_first.back() = false;
    return true;
}

bool JsonPullReader::nextElement()
{
    if (!beginMember(']'))
        return false;
    if (peekByte() < 0) {
        fail(tr("the file ends early (truncated?) inside an array"));
        return false;
    }
    return true;
}

bool JsonPullReader::atEnd()
{
    skipWhitespace();
    return peekByte() < 0;
}
