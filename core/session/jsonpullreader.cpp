// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/jsonpullreader.h"

#include <QCoreApplication>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdlib>

namespace {
QString tr(const char* text) { return QCoreApplication::translate("session", text); }
}

JsonPullReader::JsonPullReader(QIODevice& device, qsizetype chunkSize)
    : m_device(device)
    , m_chunk(chunkSize)
{
}

bool JsonPullReader::fill()
{
    if (m_pos < m_buf.size())
        return true;
    m_consumed += m_buf.size();
    m_buf.resize(m_chunk);
    const qint64 n = m_device.read(m_buf.data(), m_chunk);
    m_buf.resize(n > 0 ? qsizetype(n) : 0);
    m_pos = 0;
    return n > 0;
}

int JsonPullReader::peekByte()
{
    if (m_pos >= m_buf.size() && !fill())
        return -1;
    return uchar(m_buf.at(m_pos));
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

void JsonPullReader::skipWhitespace()
{
    for (;;) {
        if (m_pos >= m_buf.size() && !fill())
            return;
        const char c = m_buf.at(m_pos);
        if (c == ' ' || c == '\t' || c == '\r')
            ++m_pos;
        else if (c == '\n')
            get();
        else
            return;
    }
}

bool JsonPullReader::expect(char c)
{
    if (hasError())
        return false;
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

bool JsonPullReader::enterObject()
{
    if (!expect('{'))
        return false;
    m_first.push_back(true);
    return true;
}

bool JsonPullReader::enterArray()
{
    if (!expect('['))
        return false;
    m_first.push_back(true);
    return true;
}

bool JsonPullReader::nextKey(QByteArray* key)
{
    if (hasError() || m_first.empty())
        return false;
    skipWhitespace();
    if (peekByte() == '}') {
        get();
        m_first.pop_back();
        return false;
    }
    if (!m_first.back() && !expect(','))
        return false;
    m_first.back() = false;
    skipWhitespace();
    if (peekByte() != '"') {
        fail(peekByte() < 0 ? tr("the file ends early (truncated?) inside an object") : tr("expected a field name"));
        return false;
    }
    if (!readUtf8Into(*key) || !expect(':'))
        return false;
    return true;
}

bool JsonPullReader::nextElement()
{
    if (hasError() || m_first.empty())
        return false;
    skipWhitespace();
    if (peekByte() == ']') {
        get();
        m_first.pop_back();
        return false;
    }
    if (!m_first.back() && !expect(','))
        return false;
    m_first.back() = false;
    skipWhitespace();
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
    out.resize(0);
    if (!expect('"'))
        return false;
    for (;;) {
        if (m_pos >= m_buf.size() && !fill()) {
            fail(tr("the file ends early (truncated?) inside a string"));
            return false;
        }
        // Fast path: copy the run of plain bytes in this chunk.
        const char* data = m_buf.constData();
        const qsizetype size = m_buf.size();
        const qsizetype start = m_pos;
        qsizetype i = m_pos;
        while (i < size) {
            const char c = data[i];
            if (c == '"' || c == '\\' || uchar(c) < 0x20)
                break;
            ++i;
        }
        m_pos = i;
        out.append(data + start, i - start);
        if (i >= size)
            continue;
        const char c = data[i];
        if (c == '"') {
            ++m_pos;
            return true;
        }
        if (c == '\\') {
            ++m_pos;
            if (!appendEscape(out)) {
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
    std::optional<QByteArray> bytes = readUtf8();
    if (!bytes)
        return std::nullopt;
    return QString::fromUtf8(*bytes);
}

std::optional<QByteArray> JsonPullReader::readNumberText()
{
    QByteArray text;
    if (!readNumberInto(text))
        return std::nullopt;
    return text;
}

bool JsonPullReader::readNumberInto(QByteArray& text)
{
    text.resize(0);
    if (peek() != Kind::Number) {
        fail(tr("expected a number"));
        return false;
    }
    for (;;) {
        if (m_pos >= m_buf.size() && !fill())
            return true;
        const char* data = m_buf.constData();
        const qsizetype size = m_buf.size();
        const qsizetype start = m_pos;
        qsizetype i = m_pos;
        while (i < size) {
            const char c = data[i];
            if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'))
                break;
            ++i;
        }
        text.append(data + start, i - start);
        m_pos = i;
        if (i < size)
            return true;
    }
}

std::optional<double> JsonPullReader::readDouble()
{
    const std::optional<QByteArray> text = readNumberText();
    if (!text)
        return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text->constData(), &end);
    if (end != text->constData() + text->size()) {
        fail(tr("malformed number \"%1\"").arg(QLatin1String(*text)));
        return std::nullopt;
    }
    return v;
}

std::optional<qint64> JsonPullReader::readInteger()
{
    if (!readNumberInto(m_number))
        return std::nullopt;
    bool ok = false;
    const qint64 v = m_number.toLongLong(&ok);
    if (!ok) {
        fail(tr("expected an integer, found \"%1\"").arg(QLatin1String(m_number)));
        return std::nullopt;
    }
    return v;
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
    if (peekByte() == 't')
        return literal("true") ? std::optional<bool>(true) : std::nullopt;
    return literal("false") ? std::optional<bool>(false) : std::nullopt;
}

bool JsonPullReader::readNullIfPresent()
{
    if (peek() != Kind::Null)
        return false;
    return literal("null");
}

QJsonValue JsonPullReader::readValue()
{
    switch (peek()) {
    case Kind::Object: {
        QJsonObject o;
        enterObject();
        QByteArray key;
        while (nextKey(&key))
            o.insert(QString::fromUtf8(key), readValue());
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
    switch (peek()) {
    case Kind::Object: {
        enterObject();
        QByteArray key;
        while (nextKey(&key))
            skipValue();
        return;
    }
    case Kind::Array:
        enterArray();
        while (nextElement())
            skipValue();
        return;
    default: (void)readValue();
    }
}

bool JsonPullReader::atEnd()
{
    skipWhitespace();
    return peekByte() < 0;
}
