// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A pull parser for JSON over a QIODevice, read in chunks: the caller walks objects and arrays and reads
// one scalar at a time, so a file of a million attempts is never held as text. Errors carry line and
// column; once an error is set every call fails and the first message is kept. The *View calls hand out
// bytes without copying: a view points into the read buffer (or into a scratch buffer when the token was
// escaped or crossed a chunk boundary) and stays valid only until the next call on the reader.

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <optional>
#include <vector>

class JsonChunkSource;
class QIODevice;

class JsonPullReader
{
public:
    enum class Kind { Object, Array, String, Number, Bool, Null, End, Invalid };

    explicit JsonPullReader(QIODevice& device, qsizetype chunkSize = 1 << 20);
    // The bytes as SOURCE hands them over, a chunk at a time (FileReadAhead: read on another thread).
    explicit JsonPullReader(JsonChunkSource& source);

    Kind peek(); // the kind of the next value (whitespace skipped)

    // Objects and arrays open at once, at most (QJsonDocument's own limit is 1024); deeper is an error.
    static constexpr int kMaxDepth = 512;

    bool enterObject() { return enterContainer('{'); } // consumes '{'
    // Inside an object: the next key (UTF-8), or false at the closing '}' (consumed) or on error.
    bool nextKey(QByteArray* key);
    bool nextKeyView(QByteArrayView* key); // the same, without a copy
    // Inside an object: when the next member's key is KEY exactly as a writer without whitespace puts it
    // (the ',' before it, "KEY", ':'), consumes all that and returns true; otherwise consumes nothing and
    // returns false (the caller then reads the key with nextKeyView). KEY has no character to escape.
    // A reader that knows the order fields are written in skips the key's scan and lookup.
    bool nextKeyIs(QByteArrayView key);
    bool enterArray() { return enterContainer('['); } // consumes '['
    // Inside an array: true when another element follows, false at the closing ']' (consumed) or on error.
    bool nextElement();

    std::optional<QByteArray> readUtf8(); // a string's bytes, unescaped
    bool readUtf8Into(QByteArray& out); // the same into OUT (its capacity is reused)
    bool readUtf8View(QByteArrayView* out); // the same, without a copy
    std::optional<QString> readString();
    bool readNumberView(QByteArrayView* out); // the number token as written
    std::optional<double> readDouble();
    std::optional<qint64> readInteger(); // a number without fraction or exponent
    bool readInteger(qint64* out); // the same, without the optional
    std::optional<bool> readBool();
    bool readNullIfPresent(); // true (and consumed) when the next value is null
    QJsonValue readValue(); // any value, built as a QJsonValue (for small sub-documents)
    void skipValue();
    // Skips the value here checking only its structure (brackets balanced, strings closed, no control
    // character in them, nothing truncated), not what it holds: for a value the reader ignores whole because
    // the writer derived it from others (a session attempt's rate_limit). A scalar is read as skipValue() does.
    void skipStructure();
    bool atEnd(); // only whitespace left

    bool hasError() const { return !m_error.isEmpty(); }
    QString errorString() const { return m_error; }
    void fail(const QString& message); // records MESSAGE at the current position (first error wins)
    int line() const { return m_line; }
    int column() const;
    qint64 offset() const { return m_consumed + m_pos; } // bytes consumed so far (for progress)

private:
    // Steps past the ',' before the next member of the innermost object or array (and the whitespace after
    // it); false at its CLOSE character (consumed) or on an error.
    bool beginMember(char close);
    bool enterContainer(char open);
    bool fill();
    int get(); // next byte or -1
    int peekByte() // without consuming; -1 at end
    {
        return m_pos < m_buf.size() ? int(uchar(m_buf.constData()[m_pos])) : peekByteSlow();
    }
    int peekByteSlow();
    void skipWhitespace()
    {
        if (m_pos < m_buf.size() && uchar(m_buf.constData()[m_pos]) > ' ') // JSON whitespace is all below '!'
            return;
        skipWhitespaceSlow();
    }
    void skipWhitespaceSlow();
    bool expect(char c);
    bool literal(const char* word);
    bool appendEscape(QByteArray& out);
    bool stringView(QByteArray& scratch, QByteArrayView* out);
    bool numberView(QByteArray& scratch, QByteArrayView* out);
    bool integerFromText(QByteArrayView text, qint64* out);

    QIODevice* m_device = nullptr; // one of the two
    JsonChunkSource* m_source = nullptr;
    qsizetype m_chunk;
    QByteArray m_buf;
    qsizetype m_pos = 0;
    qint64 m_consumed = 0; // bytes before m_buf
    int m_line = 1;
    qint64 m_lineStart = 0;
    std::vector<bool> m_first; // per open container: no element read yet
    QString m_error;
    QByteArray m_number; // scratch for number tokens
    QByteArray m_keyScratch; // keys that were escaped or crossed a chunk boundary
    QByteArray m_textScratch; // the same for string values
};
