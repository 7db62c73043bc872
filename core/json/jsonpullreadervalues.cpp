// SPDX-License-Identifier: GPL-3.0-or-later
// JsonPullReader's values: strings (views and copies, escapes), numbers, literals, a whole value as a
// QJsonValue, and skipping a value (checked, or by its structure alone). The input and the way through
// objects and arrays are in jsonpullreader.cpp.
#include "json/jsonpullreader.h"

#include <QCoreApplication>
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
} // namespace

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
