// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/structuredfieldparser.h"

#include <QStringDecoder>

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLcAlpha(char c) { return c >= 'a' && c <= 'z'; }
bool isAlpha(char c) { return isLcAlpha(c) || (c >= 'A' && c <= 'Z'); }

// tchar (RFC 9110 §5.6.2)
bool isTchar(char c)
{
    if (isAlpha(c) || isDigit(c))
        return true;
    switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+': case '-': case '.':
    case '^': case '_': case '`': case '|': case '~':
        return true;
    default:
        return false;
    }
}

int base64Value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (isDigit(c))
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

int lowerHexValue(char c)
{
    if (isDigit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

} // namespace

StructuredFieldParser::StructuredFieldParser(QByteArrayView input)
    : m_in(input)
{
}

template <typename T>
std::optional<T> StructuredFieldParser::fail(const char* reason)
{
    if (m_error.isEmpty())
        m_error = QString::fromLatin1(reason);
    return std::nullopt;
}

template <typename Result, typename Body>
std::optional<Result> StructuredFieldParser::whole(Body body, QString* error)
{
    skipSp();
    std::optional<Result> result = body();
    if (result) {
        skipSp();
        if (!atEnd())
            result = fail<Result>("unexpected characters after the value");
    }
    if (!result && error)
        *error = QStringLiteral("%1 at byte %2").arg(m_error).arg(m_pos);
    return result;
}

std::optional<SfItem> StructuredFieldParser::parseItemField(QString* error)
{
    return whole<SfItem>([this] { return item(); }, error);
}

std::optional<SfList> StructuredFieldParser::parseListField(QString* error)
{
    return whole<SfList>([this] { return list(); }, error);
}

std::optional<SfDictionary> StructuredFieldParser::parseDictionaryField(QString* error)
{
    return whole<SfDictionary>([this] { return dictionary(); }, error);
}

std::optional<SfList> StructuredFieldParser::list()
{
    SfList members;
    while (!atEnd()) {
        std::optional<SfListMember> member = itemOrInnerList();
        if (!member)
            return std::nullopt;
        members.append(std::move(*member));
        skipOws();
        if (atEnd())
            return members;
        if (peek() != ',')
            return fail<SfList>("expected ',' between list members");
        ++m_pos;
        skipOws();
        if (atEnd())
            return fail<SfList>("trailing comma");
    }
    return members;
}

std::optional<SfDictionary> StructuredFieldParser::dictionary()
{
    SfDictionary dict;
    while (!atEnd()) {
        std::optional<QByteArray> name = key();
        if (!name)
            return std::nullopt;
        SfListMember member;
        if (!atEnd() && peek() == '=') {
            ++m_pos;
            std::optional<SfListMember> value = itemOrInnerList();
            if (!value)
                return std::nullopt;
            member = std::move(*value);
        } else {
            std::optional<SfParameters> params = parameters();
            if (!params)
                return std::nullopt;
            member = SfItem { SfBareItem(true), std::move(*params) };
        }
        dict.insertOrAssign(*name, std::move(member));
        skipOws();
        if (atEnd())
            return dict;
        if (peek() != ',')
            return fail<SfDictionary>("expected ',' between dictionary members");
        ++m_pos;
        skipOws();
        if (atEnd())
            return fail<SfDictionary>("trailing comma");
    }
    return dict;
}

std::optional<SfItem> StructuredFieldParser::item()
{
    std::optional<SfBareItem> bare = bareItem();
    if (!bare)
        return std::nullopt;
    std::optional<SfParameters> params = parameters();
    if (!params)
        return std::nullopt;
    return SfItem { std::move(*bare), std::move(*params) };
}

bool StructuredFieldParser::atEnd() const
{
    return m_pos >= m_in.size();
}

char StructuredFieldParser::peek() const
{
    return m_in.at(m_pos);
}

void StructuredFieldParser::skipSp()
{
    while (!atEnd() && peek() == ' ')
        ++m_pos;
}

void StructuredFieldParser::skipOws()
{
    while (!atEnd() && (peek() == ' ' || peek() == '\t'))
        ++m_pos;
}

std::optional<SfListMember> StructuredFieldParser::itemOrInnerList()
{
    if (!atEnd() && peek() == '(') {
        std::optional<SfInnerList> inner = innerList();
        if (!inner)
            return std::nullopt;
        return SfListMember(std::move(*inner));
    }
    std::optional<SfItem> single = item();
    if (!single)
        return std::nullopt;
    return SfListMember(std::move(*single));
}

std::optional<SfInnerList> StructuredFieldParser::innerList()
{
    ++m_pos; // '('
    SfInnerList inner;
    while (!atEnd()) {
        skipSp();
        if (atEnd())
            break;
        if (peek() == ')') {
            ++m_pos;
            std::optional<SfParameters> params = parameters();
            if (!params)
                return std::nullopt;
            inner.params = std::move(*params);
            return inner;
        }
        std::optional<SfItem> member = item();
        if (!member)
            return std::nullopt;
        inner.items.append(std::move(*member));
        if (atEnd() || (peek() != ' ' && peek() != ')'))
            return fail<SfInnerList>("expected SP or ')' in inner list");
    }
    return fail<SfInnerList>("unterminated inner list");
}

std::optional<SfParameters> StructuredFieldParser::parameters()
{
    SfParameters params;
    while (!atEnd() && peek() == ';') {
        ++m_pos;
        skipSp();
        std::optional<QByteArray> name = key();
        if (!name)
            return std::nullopt;
        SfBareItem value(true);
        if (!atEnd() && peek() == '=') {
            ++m_pos;
            std::optional<SfBareItem> parsed = bareItem();
            if (!parsed)
                return std::nullopt;
            value = std::move(*parsed);
        }
        params.insertOrAssign(*name, std::move(value));
    }
    return params;
}

std::optional<QByteArray> StructuredFieldParser::key()
{
    if (atEnd() || !(isLcAlpha(peek()) || peek() == '*'))
        return fail<QByteArray>("expected a key");
    const qsizetype start = m_pos;
    while (!atEnd()) {
        const char c = peek();
        if (!(isLcAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*'))
            break;
        ++m_pos;
    }
    return m_in.sliced(start, m_pos - start).toByteArray();
}

std::optional<SfBareItem> StructuredFieldParser::bareItem()
{
    if (atEnd())
        return fail<SfBareItem>("expected a bare item");
    const char c = peek();
    if (c == '-' || isDigit(c))
        return number();
    if (c == '"')
        return string();
    if (c == '*' || isAlpha(c))
        return token();
    if (c == ':')
        return byteSequence();
    if (c == '?')
        return boolean();
    if (c == '@')
        return date();
    if (c == '%')
        return displayString();
    return fail<SfBareItem>("unrecognised bare item");
}

std::optional<SfBareItem> StructuredFieldParser::number()
{
    bool negative = false;
    if (peek() == '-') {
        negative = true;
        ++m_pos;
    }
    if (atEnd() || !isDigit(peek()))
        return fail<SfBareItem>("expected a digit");
    QByteArray digits;
    bool isDecimal = false;
    qsizetype fractionDigits = 0;
    while (!atEnd()) {
        const char c = peek();
        if (isDigit(c)) {
            digits.append(c);
            if (isDecimal)
                ++fractionDigits;
        } else if (c == '.' && !isDecimal) {
            if (digits.size() > 12)
                return fail<SfBareItem>("decimal with more than 12 integer digits");
            digits.append(c);
            isDecimal = true;
        } else {
            break;
        }
        ++m_pos;
        if (!isDecimal && digits.size() > 15)
            return fail<SfBareItem>("integer with more than 15 digits");
        if (isDecimal && digits.size() > 16)
            return fail<SfBareItem>("decimal too long");
    }
    if (!isDecimal) {
        qint64 value = 0;
        for (const char d : std::as_const(digits))
            value = value * 10 + (d - '0');
        return SfBareItem(negative ? -value : value);
    }
    if (fractionDigits == 0)
        return fail<SfBareItem>("decimal ends with '.'");
    if (fractionDigits > 3)
        return fail<SfBareItem>("decimal with more than 3 fraction digits");
    bool ok = false;
    const double value = digits.toDouble(&ok); // locale-independent; at most 16 significant characters
    if (!ok)
        return fail<SfBareItem>("invalid decimal");
    return SfBareItem(negative ? -value : value);
}

std::optional<SfBareItem> StructuredFieldParser::string()
{
    ++m_pos; // '"'
    QString out;
    while (!atEnd()) {
        const char c = peek();
        ++m_pos;
        if (c == '\\') {
            if (atEnd())
                return fail<SfBareItem>("backslash at end of string");
            const char next = peek();
            ++m_pos;
            if (next != '"' && next != '\\')
                return fail<SfBareItem>("invalid escape in string");
            out.append(QLatin1Char(next));
        } else if (c == '"') {
            return SfBareItem(out);
        } else if (c < 0x20 || c > 0x7e) { // char is signed or unsigned; both out-of-range cases land here
            return fail<SfBareItem>("non-printable character in string");
        } else {
            out.append(QLatin1Char(c));
        }
    }
    return fail<SfBareItem>("unterminated string");
}

std::optional<SfBareItem> StructuredFieldParser::token()
{
    const qsizetype start = m_pos;
    ++m_pos;
    while (!atEnd() && (isTchar(peek()) || peek() == ':' || peek() == '/'))
        ++m_pos;
    return SfBareItem(SfToken { m_in.sliced(start, m_pos - start).toByteArray() });
}

std::optional<SfBareItem> StructuredFieldParser::byteSequence()
{
    ++m_pos; // ':'
    const qsizetype start = m_pos;
    while (!atEnd() && peek() != ':')
        ++m_pos;
    if (atEnd())
        return fail<SfBareItem>("unterminated byte sequence");
    const QByteArrayView encoded = m_in.sliced(start, m_pos - start);
    ++m_pos; // ':'
    // Base64 (RFC 4648 §4). Padding may be missing and pad bits may be non-zero (RFC 9651 §4.2.7 SHOULD
    // NOT fail); '=' may only appear at the end, at most twice, and nothing else outside the alphabet.
    qsizetype dataLength = encoded.size();
    while (dataLength > 0 && encoded.at(dataLength - 1) == '=')
        --dataLength;
    const qsizetype padding = encoded.size() - dataLength;
    if (padding > 2 || dataLength % 4 == 1 || (padding > 0 && (dataLength + padding) % 4 != 0))
        return fail<SfBareItem>("invalid base64 length or padding");
    QByteArray decoded;
    decoded.reserve(dataLength * 3 / 4);
    quint32 buffer = 0;
    int bits = 0;
    for (qsizetype i = 0; i < dataLength; ++i) {
        const int v = base64Value(encoded.at(i));
        if (v < 0)
            return fail<SfBareItem>("character outside the base64 alphabet");
        buffer = (buffer << 6) | quint32(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            decoded.append(char((buffer >> bits) & 0xff));
        }
    }
    return SfBareItem(SfByteSequence { decoded });
}

std::optional<SfBareItem> StructuredFieldParser::boolean()
{
    ++m_pos; // '?'
    if (atEnd())
        return fail<SfBareItem>("boolean without value");
    const char c = peek();
    ++m_pos;
    if (c == '1')
        return SfBareItem(true);
    if (c == '0')
        return SfBareItem(false);
    return fail<SfBareItem>("boolean must be ?0 or ?1");
}

std::optional<SfBareItem> StructuredFieldParser::date()
{
    ++m_pos; // '@'
    if (atEnd() || !(peek() == '-' || isDigit(peek())))
        return fail<SfBareItem>("date without integer");
    std::optional<SfBareItem> value = number();
    if (!value)
        return std::nullopt;
    if (!std::holds_alternative<qint64>(*value))
        return fail<SfBareItem>("date must be an integer");
    return SfBareItem(SfDate { std::get<qint64>(*value) });
}

std::optional<SfBareItem> StructuredFieldParser::displayString()
{
    ++m_pos; // '%'
    if (atEnd() || peek() != '"')
        return fail<SfBareItem>("display string must start with %\"");
    ++m_pos;
    QByteArray bytes;
    while (!atEnd()) {
        const char c = peek();
        ++m_pos;
        if (c == '%') {
            if (m_pos + 2 > m_in.size())
                return fail<SfBareItem>("truncated percent escape");
            const int high = lowerHexValue(m_in.at(m_pos));
            const int low = lowerHexValue(m_in.at(m_pos + 1));
            if (high < 0 || low < 0)
                return fail<SfBareItem>("percent escape must be two lowercase hex digits");
            m_pos += 2;
            bytes.append(char(high * 16 + low));
        } else if (c == '"') {
            QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
            QString text = decoder.decode(bytes);
            if (decoder.hasError())
                return fail<SfBareItem>("display string is not valid UTF-8");
            return SfBareItem(SfDisplayString { std::move(text) });
        } else if (c < 0x20 || c > 0x7e) {
            return fail<SfBareItem>("non-printable character in display string");
        } else {
            bytes.append(c);
        }
    }
    return fail<SfBareItem>("unterminated display string");
}
