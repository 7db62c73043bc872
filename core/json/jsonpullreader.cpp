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

// The first byte at or after I that ends a plain run inside a string ('"', '\\' or a control
// character), or SIZE. Eight bytes at a time: a string field is mostly such plain bytes.
qsizetype findStringSpecial(const char* data, qsizetype i, qsizetype size)
{
#if Q_BYTE_ORDER == Q_LITTLE_ENDIAN
    constexpr quint64 ones = 0x0101010101010101ULL;
    constexpr quint64 highs = 0x8080808080808080ULL;
    for (; i + 8 <= size; i += 8) {
        quint64 w;
        std::memcpy(&w, data + i, 8);
        const quint64 quote = w ^ (ones * '"');
        const quint64 backslash = w ^ (ones * '\\');
        // Per byte: zero after the XOR (a quote or backslash), or below 0x20. The lowest flag is exact.
        const quint64 mask = (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | ((w - ones * 0x20) & ~w)) & highs;
        if (mask)
            return i + qsizetype(qCountTrailingZeroBits(mask) >> 3);
    }
#endif
    for (; i < size; ++i) {
        const uchar c = uchar(data[i]);
        if (c == '"' || c == '\\' || c < 0x20)
            return i;
    }
    return size;
}
}

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

bool JsonPullReader::appendEscape(QByteArray& out)
{
    const int e = get();
    switch (e) {
    case '"': out += '"'; return true;
    case '\\': out += '\\'; return true;
    case '/': out += '/'; return true;
    case 'b': out += '\b'; return true;
    case 'f': out += '\f'; return true;
    case 'n': out += '\n'; return true;
    case 'r': out += '\r'; return true;
    case 't': out += '\t'; return true;
    case 'u': {
        const auto hex4 = [this]() -> int {
            int v = 0;
            for (int i = 0; i < 4; ++i) {
                const int c = get();
                const int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                    : (c >= 'A' && c <= 'F')                       ? c - 'A' + 10 : -1;
                if (d < 0)
                    return -1;
                v = v * 16 + d;
            }
            return v;
        };
        int cp = hex4();
        if (cp < 0)
            return false;
        if (cp >= 0xD800 && cp < 0xDC00) {
            if (get() != '\\' || get() != 'u')
                return false;
            const int low = hex4();
            if (low < 0xDC00 || low > 0xDFFF)
                return false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        const char32_t c32 = char32_t(cp);
        out += QString::fromUcs4(&c32, 1).toUtf8();
        return true;
    }
    default: return false;
    }
}

std::optional<QByteArray> JsonPullReader::readUtf8()
{
    QByteArray out;
    if (!readUtf8Into(out))
        return std::nullopt;
    return out;
}

bool JsonPullReader::readUtf8Into(QByteArray& out)
{
    QByteArrayView view;
    if (!stringView(out, &view))
        return false;
    if (view.data() != out.constData()) {
        out.resize(0);
        out.append(view.data(), view.size());
    }
    return true;
}

bool JsonPullReader::readUtf8View(QByteArrayView* out)
{
    return stringView(m_textScratch, out);
}

bool JsonPullReader::stringView(QByteArray& scratch, QByteArrayView* out)
{
    if (!expect('"'))
        return false;
    { // Fast path: the whole string is in this chunk and has no escapes.
        const char* data = m_buf.constData();
        const qsizetype size = m_buf.size();
        const qsizetype i = findStringSpecial(data, m_pos, size);
        if (i < size && data[i] == '"') {
            *out = QByteArrayView(data + m_pos, i - m_pos);
            m_pos = i + 1;
            return true;
        }
        scratch.resize(0);
        scratch.append(data + m_pos, i - m_pos);
        m_pos = i;
    }
    for (;;) {
        if (m_pos >= m_buf.size() && !fill()) {
            fail(tr("the file ends early (truncated?) inside a string"));
            return false;
        }
        // Copy the run of plain bytes in this chunk.
        const char* data = m_buf.constData();
        const qsizetype size = m_buf.size();
        const qsizetype start = m_pos;
        const qsizetype i = findStringSpecial(data, m_pos, size);
        m_pos = i;
        scratch.append(data + start, i - start);
        if (i >= size)
            continue;
        const char c = data[i];
        if (c == '"') {
            ++m_pos;
            *out = QByteArrayView(scratch);
            return true;
        }
        if (c == '\\') {
            ++m_pos;
            if (!appendEscape(scratch)) {
                fail(tr("invalid escape sequence in a string"));
                return false;
            }
            continue;
        }
        fail(tr("control character inside a string"));
        return false;
    }
}

std::optional<QString> JsonPullReader::readString()
{
    QByteArrayView bytes; // decoded straight from the buffer: no QByteArray copy on the way to the QString
    if (!readUtf8View(&bytes))
        return std::nullopt;
    return QString::fromUtf8(bytes);
}

namespace {
bool isNumberByte(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}
}

bool JsonPullReader::readNumberView(QByteArrayView* out)
{
    return numberView(m_number, out);
}

bool JsonPullReader::numberView(QByteArray& scratch, QByteArrayView* out)
{
    if (peek() != Kind::Number) {
        fail(tr("expected a number"));
        return false;
    }
    {
        const char* data = m_buf.constData();
        const qsizetype size = m_buf.size();
        qsizetype i = m_pos;
        while (i < size && isNumberByte(data[i]))
            ++i;
        if (i < size) { // ends in this chunk
            *out = QByteArrayView(data + m_pos, i - m_pos);
            m_pos = i;
            return true;
        }
        scratch.resize(0);
        scratch.append(data + m_pos, i - m_pos);
        m_pos = i;
    }
    for (;;) {
        if (m_pos >= m_buf.size() && !fill()) {
            *out = QByteArrayView(scratch);
            return true;
        }
        const char* data = m_buf.constData();
        const qsizetype size = m_buf.size();
        const qsizetype start = m_pos;
        qsizetype i = m_pos;
        while (i < size && isNumberByte(data[i]))
            ++i;
        scratch.append(data + start, i - start);
        m_pos = i;
        if (i < size) {
            *out = QByteArrayView(scratch);
            return true;
        }
    }
}

std::optional<double> JsonPullReader::readDouble()
{
    QByteArrayView text;
    if (!numberView(m_number, &text))
        return std::nullopt;
    char local[64];
    const char* begin = local;
    if (text.size() < qsizetype(sizeof local)) {
        std::memcpy(local, text.data(), size_t(text.size()));
        local[text.size()] = '\0';
    } else {
        if (text.data() != m_number.constData())
            m_number = text.toByteArray();
        begin = m_number.constData();
    }
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end != begin + text.size()) {
        fail(tr("malformed number \"%1\"").arg(QLatin1String(text)));
        return std::nullopt;
    }
    return v;
}

std::optional<qint64> JsonPullReader::readInteger()
{
    qint64 v = 0;
    if (!readInteger(&v))
        return std::nullopt;
    return v;
}

bool JsonPullReader::readInteger(qint64* out)
{
    QByteArrayView text;
    return numberView(m_number, &text) && integerFromText(text, out);
}

bool JsonPullReader::integerFromText(QByteArrayView text, qint64* out)
{
    // Fast path: -?[0-9]{1,19} within range; anything else goes through toLongLong() as it always did.
    const bool negative = !text.isEmpty() && text.front() == '-';
    const qsizetype digits = text.size() - (negative ? 1 : 0);
    if (digits >= 1 && digits <= 19) {
        quint64 magnitude = 0;
        bool plain = true;
        for (qsizetype i = negative ? 1 : 0; i < text.size(); ++i) {
            const char c = text[i];
            if (c < '0' || c > '9') {
                plain = false;
                break;
            }
            magnitude = magnitude * 10 + quint64(c - '0');
        }
        constexpr quint64 maxPositive = quint64(std::numeric_limits<qint64>::max());
        if (plain && magnitude <= maxPositive + (negative ? 1 : 0)) {
            *out = negative ? qint64(quint64(0) - magnitude) : qint64(magnitude);
            return true;
        }
    }
    const QByteArray copy = text.toByteArray();
    bool ok = false;
    const qint64 v = copy.toLongLong(&ok);
    if (!ok) {
        fail(tr("expected an integer, found \"%1\"").arg(QLatin1String(copy)));
        return false;
    }
    *out = v;
    return true;
}

bool JsonPullReader::literal(const char* word)
{
    for (const char* p = word; *p; ++p) {
        if (get() != uchar(*p)) {
            fail(tr("invalid literal (expected \"%1\")").arg(QLatin1String(word)));
            return false;
        }
    }
    return true;
}

std::optional<bool> JsonPullReader::readBool()
{
    const Kind k = peek();
    if (k != Kind::Bool) {
        fail(tr("expected true or false"));
        return std::nullopt;
    }
    const char* data = m_buf.constData() + m_pos;
    const qsizetype left = m_buf.size() - m_pos;
    if (left >= 4 && std::memcmp(data, "true", 4) == 0) {
        m_pos += 4;
        return true;
    }
    if (left >= 5 && std::memcmp(data, "false", 5) == 0) {
        m_pos += 5;
        return false;
    }
    if (peekByte() == 't')
        return literal("true") ? std::optional<bool>(true) : std::nullopt;
    return literal("false") ? std::optional<bool>(false) : std::nullopt;
}

bool JsonPullReader::readNullIfPresent()
{
    if (peek() != Kind::Null)
        return false;
    if (m_buf.size() - m_pos >= 4 && std::memcmp(m_buf.constData() + m_pos, "null", 4) == 0) {
        m_pos += 4;
        return true;
    }
    return literal("null");
}

QJsonValue JsonPullReader::readValue()
{
    switch (peek()) {
    case Kind::Object: {
        QJsonObject o;
        enterObject();
        QByteArrayView key;
        QVarLengthArray<char, 64> name; // the key, out of the buffer that reading the value may refill
        while (nextKeyView(&key)) {
            const bool ascii = std::all_of(key.begin(), key.end(), [](char c) { return uchar(c) < 0x80; });
            if (!ascii) { // a key of UTF-8 text becomes a QString of its own
                const QString text = QString::fromUtf8(key);
                o.insert(text, readValue());
                continue;
            }
            // An ASCII key (nearly every key) goes in as Latin-1, as QJsonDocument's parser stores it,
            // without a QString allocated for each member.
            name.resize(key.size());
            std::copy(key.begin(), key.end(), name.begin());
            const QJsonValue value = readValue();
            o.insert(QLatin1StringView(name.constData(), name.size()), value);
        }
        return o;
    }
    case Kind::Array: {
        QJsonArray a;
        enterArray();
        while (nextElement())
            a.append(readValue());
        return a;
    }
    case Kind::String: return readString().value_or(QString());
    case Kind::Number: return readDouble().value_or(0.0);
    case Kind::Bool: return readBool().value_or(false);
    case Kind::Null: readNullIfPresent(); return QJsonValue();
    case Kind::End: fail(tr("the file ends early (truncated?): expected a value")); return QJsonValue();
    case Kind::Invalid: fail(tr("expected a JSON value")); return QJsonValue();
    }
    return QJsonValue();
}

void JsonPullReader::skipValue()
{
    // Read and checked as readValue() does, with nothing built: keys and strings stay views of the buffer.
    // A session attempt's derived rate_limit object is skipped so, a million times on opening.
    switch (peek()) {
    case Kind::Object: {
        enterObject();
        QByteArrayView key;
        while (nextKeyView(&key))
            skipValue();
        return;
    }
    case Kind::Array:
        enterArray();
        while (nextElement())
            skipValue();
        return;
    case Kind::String: {
        QByteArrayView text;
        (void)readUtf8View(&text);
        return;
    }
    default: (void)readValue();
    }
}

void JsonPullReader::skipStructure()
{
    skipWhitespace();
    const int open = peekByte();
    if (open != '{' && open != '[') {
        skipValue();
        return;
    }
    // Byte by byte through the buffer, a chunk at a time: about a tenth of skipValue()'s work on the small
    // objects it is for (130 bytes an attempt, a million times on opening a session).
    int depth = 0;
    bool inString = false;
    bool escaped = false;
    for (;;) {
        if (m_pos >= m_buf.size() && !fill()) {
            fail(tr("the file ends early (truncated?) inside %1").arg(open == '{' ? tr("an object") : tr("an array")));
            return;
        }
        const char* const begin = m_buf.constData();
        const char* const end = begin + m_buf.size();
        for (const char* p = begin + m_pos; p < end; ++p) {
            const char c = *p;
            if (inString) {
                if (escaped)
                    escaped = false;
                else if (c == '\\')
                    escaped = true;
                else if (c == '"')
                    inString = false;
                else if (uchar(c) < 0x20) {
                    m_pos = p - begin;
                    fail(tr("a control character in a string"));
                    return;
                }
                continue;
            }
            switch (c) {
            case '"':
                inString = true;
                break;
            case '{':
            case '[':
                if (++depth > kMaxDepth) {
                    m_pos = p - begin;
                    fail(tr("objects and arrays nested deeper than %1 levels").arg(kMaxDepth));
                    return;
                }
                break;
            case '}':
            case ']':
                if (--depth == 0) {
                    m_pos = p - begin + 1;
                    return;
                }
                break;
            case '\n':
                ++m_line;
                m_lineStart = m_consumed + (p - begin) + 1;
                break;
            default:
                break;
            }
        }
        m_pos = m_buf.size();
    }
}

bool JsonPullReader::atEnd()
{
    skipWhitespace();
    return peekByte() < 0;
}
