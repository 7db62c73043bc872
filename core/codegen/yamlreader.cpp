// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/yamlreader.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QRegularExpression>

#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

// One line with content: its indentation in spaces and its text without them, comment and trailing space
// removed. Sequence items are rewritten in place ("- a: 1" at 0 becomes "a: 1" at 2) as they are read.
struct Line
{
    int number = 0; // 1-based
    int indent = 0;
    QString text;
};

class Parser
{
public:
    QString problem;

    bool failed() const { return !problem.isEmpty(); }

    QJsonValue fail(int line, int column, const QString& message)
    {
        if (problem.isEmpty())
            problem = u"line %1, column %2: %3"_s.arg(line).arg(column).arg(message);
        return {};
    }

    bool readLines(const QString& text)
    {
        const QStringList raw = text.split(u'\n');
        bool seenContent = false;
        for (qsizetype i = 0; i < raw.size(); ++i) {
            QString l = raw.at(i);
            if (l.endsWith(u'\r'))
                l.chop(1);
            const int number = int(i) + 1;
            int indent = 0;
            while (indent < l.size() && l.at(indent) == u' ')
                ++indent;
            if (indent < l.size() && l.at(indent) == u'\t') {
                if (!stripComment(l.mid(indent)).trimmed().isEmpty()) {
                    fail(number, indent + 1, u"a tab in the indentation: YAML indents with spaces only"_s);
                    return false;
                }
                continue;
            }
            const QString content = stripComment(l.mid(indent));
            const QString trimmed = content.trimmed();
            if (trimmed.isEmpty())
                continue;
            if (indent == 0 && (trimmed == u"---"_s || content.startsWith(u"--- "_s) || trimmed == u"..."_s)) {
                if (seenContent || trimmed != u"---"_s) {
                    fail(number, 1, u"several documents (---/...) in one file are not read: give one document"_s);
                    return false;
                }
                seenContent = true;
                continue;
            }
            if (indent == 0 && trimmed.startsWith(u'%')) {
                fail(number, 1, u"YAML directives (%YAML, %TAG) are not read"_s);
                return false;
            }
            seenContent = true;
            m_lines.append(Line { number, indent, trimmed });
        }
        return true;
    }

    QJsonValue document()
    {
        if (m_lines.isEmpty())
            return QJsonValue();
        const QJsonValue root = block(m_lines.first().indent, 0);
        if (!failed() && m_pos < m_lines.size())
            return fail(current().number, current().indent + 1, u"unexpected indentation or content after the document"_s);
        return root;
    }

private:
    QList<Line> m_lines;
    qsizetype m_pos = 0;
    int m_nodes = 0;

    Line& current() { return m_lines[m_pos]; }
    bool atEnd() const { return m_pos >= m_lines.size(); }

    // Removes a comment: '#' at the start or after a space, outside quotes. A quote opens a quoted scalar only
    // where a scalar may begin — at the start, after "- ", "key: ", '[', '{' or ',', or after a quoted key's ':'
    // (JSON's {"a":"b"}); inside a plain scalar it is an ordinary character (config "x" #c: the comment is "#c").
    static QString stripComment(const QString& s)
    {
        QChar quote;
        bool scalarMayBegin = true;
        bool closedQuote = false; // the last thing seen was a quoted scalar's closing quote
        for (qsizetype i = 0; i < s.size(); ++i) {
            const QChar c = s.at(i);
            if (!quote.isNull()) {
                if (c == u'\\' && quote == u'"')
                    ++i;
                else if (c == u'\'' && quote == c && i + 1 < s.size() && s.at(i + 1) == c)
                    ++i; // '' inside a single-quoted scalar
                else if (c == quote) {
                    quote = QChar();
                    closedQuote = true;
                }
                continue;
            }
            const QChar prev = i == 0 ? QChar(u' ') : s.at(i - 1);
            const bool spaceAfter = i + 1 == s.size() || s.at(i + 1) == u' ' || s.at(i + 1) == u'\t';
            const bool afterQuote = closedQuote;
            closedQuote = false;
            if (c == u' ' || c == u'\t')
                continue;
            if (c == u'#' && (prev == u' ' || prev == u'\t'))
                return s.left(i);
            if ((c == u'"' || c == u'\'') && scalarMayBegin)
                quote = c;
            else if (c == u'[' || c == u'{' || c == u',')
                scalarMayBegin = true;
            else if (c == u':' && (spaceAfter || afterQuote))
                scalarMayBegin = true;
            else if ((c == u'-' || c == u'?') && scalarMayBegin && spaceAfter)
                scalarMayBegin = true;
            else
                scalarMayBegin = false;
        }
        return s;
    }

    static bool isSequenceItem(const QString& text) { return text == u"-"_s || text.startsWith(u"- "_s); }

    bool countNode(int line, int column)
    {
        if (++m_nodes > YamlReader::kMaxNodes) {
            fail(line, column, u"more than %1 values: not a configuration file"_s.arg(YamlReader::kMaxNodes));
            return false;
        }
        return true;
    }

    // The index of the ':' that ends a block mapping's key, or −1 when the text is not "key: value".
    static qsizetype keyColon(const QString& text)
    {
        if (text.isEmpty() || text.front() == u'[' || text.front() == u'{')
            return -1;
        qsizetype from = 0;
        if (text.front() == u'"' || text.front() == u'\'') {
            const QChar q = text.front();
            qsizetype i = 1;
            for (; i < text.size(); ++i) {
                if (text.at(i) == u'\\' && q == u'"') {
                    ++i;
                } else if (text.at(i) == q) {
                    if (q == u'\'' && i + 1 < text.size() && text.at(i + 1) == u'\'') {
                        ++i;
                        continue;
                    }
                    break;
                }
            }
            from = i + 1;
        }
        for (qsizetype i = from; i < text.size(); ++i)
            if (text.at(i) == u':' && (i + 1 == text.size() || text.at(i + 1) == u' '))
                return i;
        return -1;
    }

    QJsonValue block(int indent, int depth)
    {
        if (depth > YamlReader::kMaxDepth)
            return fail(current().number, indent + 1, u"nested deeper than %1 levels"_s.arg(YamlReader::kMaxDepth));
        const Line& l = current();
        if (isSequenceItem(l.text))
            return sequence(indent, depth);
        if (keyColon(l.text) >= 0)
            return mapping(indent, depth);
        const Line copy = l;
        ++m_pos;
        const QJsonValue v = inlineValue(copy.text, copy.number, copy.indent + 1, depth);
        return v;
    }

    QJsonValue sequence(int indent, int depth)
    {
        QJsonArray items;
        while (!failed() && !atEnd() && current().indent >= indent) {
            Line& l = current();
            if (l.indent > indent)
                return fail(l.number, l.indent + 1, u"unexpected indentation"_s);
            if (!isSequenceItem(l.text))
                break;
            if (!countNode(l.number, l.indent + 1))
                return {};
            const QString after = l.text.mid(1);
            qsizetype spaces = 0;
            while (spaces < after.size() && after.at(spaces) == u' ')
                ++spaces;
            if (spaces == after.size()) {
                ++m_pos;
                if (!atEnd() && current().indent > indent)
                    items.append(block(current().indent, depth + 1));
                else
                    items.append(QJsonValue());
            } else {
                l.indent = indent + 1 + int(spaces);
                l.text = after.mid(spaces);
                items.append(block(l.indent, depth + 1));
            }
        }
        return items;
    }

    QJsonValue mapping(int indent, int depth)
    {
        QJsonObject object;
        while (!failed() && !atEnd() && current().indent >= indent) {
            const Line l = current();
            if (l.indent > indent)
                return fail(l.number, l.indent + 1, u"unexpected indentation"_s);
            if (isSequenceItem(l.text))
                return fail(l.number, l.indent + 1, u"a sequence item where a key was expected"_s);
            const qsizetype colon = keyColon(l.text);
            if (colon < 0)
                return fail(l.number, l.indent + 1, u"expected \"key: value\""_s);
            if (!countNode(l.number, l.indent + 1))
                return {};
            const std::optional<QString> key = keyText(l.text.left(colon).trimmed(), l.number, l.indent + 1);
            if (!key)
                return {};
            if (object.contains(*key))
                return fail(l.number, l.indent + 1, u"the key \"%1\" appears twice"_s.arg(*key));
            const QString valueText = l.text.mid(colon + 1).trimmed();
            ++m_pos;
            QJsonValue value;
            if (valueText.isEmpty()) {
                if (!atEnd() && current().indent > indent)
                    value = block(current().indent, depth + 1);
                else if (!atEnd() && current().indent == indent && isSequenceItem(current().text))
                    value = sequence(indent, depth + 1);
            } else {
                const int column = l.indent + 1 + int(l.text.indexOf(valueText, colon + 1));
                value = inlineValue(valueText, l.number, column, depth + 1);
                if (!failed() && !atEnd() && current().indent > indent)
                    return fail(current().number, current().indent + 1,
                        u"unexpected indentation (multi-line scalars are not read: quote the value on one line)"_s);
            }
            object.insert(*key, value);
        }
        return object;
    }

    std::optional<QString> keyText(const QString& text, int line, int column)
    {
        if (text.isEmpty()) {
            fail(line, column, u"an empty key"_s);
            return std::nullopt;
        }
        if (text.startsWith(u'"') || text.startsWith(u'\'')) {
            qsizetype pos = 0;
            const std::optional<QString> s = quotedScalar(text, pos, line, column);
            if (!s)
                return std::nullopt;
            if (pos != text.size()) {
                fail(line, column + int(pos), u"text after a quoted key"_s);
                return std::nullopt;
            }
            return s;
        }
        if (!refusedIndicator(text, line, column))
            return std::nullopt;
        return text;
    }

    // False (with a problem) when TEXT starts with an indicator this reader refuses.
    bool refusedIndicator(const QString& text, int line, int column)
    {
        const QChar c = text.front();
        QString what;
        if (c == u'&')
            what = u"anchors (&name) are not read"_s;
        else if (c == u'*')
            what = u"aliases (*name) are not read"_s;
        else if (c == u'!')
            what = u"tags (!tag) are not read"_s;
        else if (c == u'|' || c == u'>')
            what = u"block scalars (| and >) are not read: quote the value on one line"_s;
        else if (c == u'?' && (text.size() == 1 || text.at(1) == u' '))
            what = u"complex keys (? key) are not read"_s;
        else if (c == u'@' || c == u'`')
            what = u"'%1' cannot start a plain scalar"_s.arg(c);
        if (what.isEmpty())
            return true;
        fail(line, column, what);
        return false;
    }

    QJsonValue inlineValue(const QString& text, int line, int column, int depth)
    {
        if (depth > YamlReader::kMaxDepth)
            return fail(line, column, u"nested deeper than %1 levels"_s.arg(YamlReader::kMaxDepth));
        if (!countNode(line, column))
            return {};
        const QChar c = text.front();
        if (c == u'[' || c == u'{' || c == u'"' || c == u'\'') {
            qsizetype pos = 0;
            const QJsonValue v = flowNode(text, pos, line, column, depth);
            if (failed())
                return {};
            skipSpaces(text, pos);
            if (pos != text.size())
                return fail(line, column + int(pos), u"unexpected text after the value"_s);
            return v;
        }
        if (!refusedIndicator(text, line, column))
            return {};
        if (isSequenceItem(text))
            return fail(line, column, u"a sequence item cannot follow a key on its line"_s);
        if (keyColon(text) >= 0)
            return fail(line, column, u"a mapping cannot follow a key on its line (\"a: b: c\")"_s);
        return plainScalar(text);
    }

    static void skipSpaces(const QString& s, qsizetype& pos)
    {
        while (pos < s.size() && s.at(pos) == u' ')
            ++pos;
    }

    QJsonValue flowNode(const QString& s, qsizetype& pos, int line, int column, int depth)
    {
        if (depth > YamlReader::kMaxDepth)
            return fail(line, column + int(pos), u"nested deeper than %1 levels"_s.arg(YamlReader::kMaxDepth));
        if (!countNode(line, column + int(pos)))
            return {};
        skipSpaces(s, pos);
        if (pos >= s.size())
            return fail(line, column + int(pos), u"a value is missing (a flow collection must end on its line)"_s);
        const QChar c = s.at(pos);
        if (c == u'"' || c == u'\'') {
            const std::optional<QString> q = quotedScalar(s, pos, line, column);
            return q ? QJsonValue(*q) : QJsonValue();
        }
        if (c == u'[') {
            QJsonArray items;
            ++pos;
            for (;;) {
                skipSpaces(s, pos);
                if (pos >= s.size())
                    return fail(line, column + int(pos), u"an unclosed [ (a flow collection must end on its line)"_s);
                if (s.at(pos) == u']') {
                    ++pos;
                    return items;
                }
                items.append(flowNode(s, pos, line, column, depth + 1));
                if (failed())
                    return {};
                skipSpaces(s, pos);
                if (pos < s.size() && s.at(pos) == u',')
                    ++pos;
                else if (pos < s.size() && s.at(pos) != u']')
                    return fail(line, column + int(pos), u"expected ',' or ']'"_s);
            }
        }
        if (c == u'{') {
            QJsonObject object;
            ++pos;
            for (;;) {
                skipSpaces(s, pos);
                if (pos >= s.size())
                    return fail(line, column + int(pos), u"an unclosed { (a flow collection must end on its line)"_s);
                if (s.at(pos) == u'}') {
                    ++pos;
                    return object;
                }
                const int keyColumn = column + int(pos);
                QString key;
                if (s.at(pos) == u'"' || s.at(pos) == u'\'') {
                    const std::optional<QString> q = quotedScalar(s, pos, line, column);
                    if (!q)
                        return {};
                    key = *q;
                } else {
                    const QJsonValue k = flowPlain(s, pos, line, column, true);
                    if (failed())
                        return {};
                    key = k.isString() ? k.toString() : s.mid(keyColumn - column, pos - (keyColumn - column)).trimmed();
                }
                skipSpaces(s, pos);
                if (pos >= s.size() || s.at(pos) != u':')
                    return fail(line, column + int(pos), u"expected ':' after the key \"%1\""_s.arg(key));
                ++pos;
                if (object.contains(key))
                    return fail(line, keyColumn, u"the key \"%1\" appears twice"_s.arg(key));
                skipSpaces(s, pos);
                QJsonValue value;
                if (pos < s.size() && s.at(pos) != u',' && s.at(pos) != u'}')
                    value = flowNode(s, pos, line, column, depth + 1);
                if (failed())
                    return {};
                object.insert(key, value);
                skipSpaces(s, pos);
                if (pos < s.size() && s.at(pos) == u',')
                    ++pos;
                else if (pos < s.size() && s.at(pos) != u'}')
                    return fail(line, column + int(pos), u"expected ',' or '}'"_s);
            }
        }
        return flowPlain(s, pos, line, column, false);
    }

    // A plain scalar inside a flow collection: up to , [ ] { } or (for a key) ": ".
    QJsonValue flowPlain(const QString& s, qsizetype& pos, int line, int column, bool key)
    {
        const qsizetype start = pos;
        while (pos < s.size()) {
            const QChar c = s.at(pos);
            if (c == u',' || c == u']' || c == u'}' || c == u'[' || c == u'{')
                break;
            if (c == u':' && (pos + 1 == s.size() || s.at(pos + 1) == u' ' || s.at(pos + 1) == u',' || s.at(pos + 1) == u'}'))
                break;
            ++pos;
        }
        const QString text = s.mid(start, pos - start).trimmed();
        if (text.isEmpty())
            return fail(line, column + int(start), u"a value is missing"_s);
        if (!refusedIndicator(text, line, column + int(start)))
            return {};
        if (pos < s.size() && (s.at(pos) == u'[' || s.at(pos) == u'{'))
            return fail(line, column + int(pos), u"'%1' inside a plain scalar"_s.arg(s.at(pos)));
        return key ? QJsonValue(text) : plainScalar(text);
    }

    std::optional<QString> quotedScalar(const QString& s, qsizetype& pos, int line, int column)
    {
        const QChar q = s.at(pos);
        const qsizetype start = pos;
        ++pos;
        QString out;
        while (pos < s.size()) {
            const QChar c = s.at(pos);
            if (q == u'\'') {
                if (c == u'\'') {
                    if (pos + 1 < s.size() && s.at(pos + 1) == u'\'') {
                        out += u'\'';
                        pos += 2;
                        continue;
                    }
                    ++pos;
                    return out;
                }
                out += c;
                ++pos;
                continue;
            }
            if (c == u'"') {
                ++pos;
                return out;
            }
            if (c != u'\\') {
                out += c;
                ++pos;
                continue;
            }
            if (pos + 1 >= s.size())
                break;
            const QChar e = s.at(pos + 1);
            pos += 2;
            int hexDigits = 0;
            switch (e.unicode()) {
            case '0': out += QChar(0); break;
            case 'a': out += QChar(7); break;
            case 'b': out += u'\b'; break;
            case 't': case '\t': out += u'\t'; break;
            case 'n': out += u'\n'; break;
            case 'v': out += QChar(11); break;
            case 'f': out += u'\f'; break;
            case 'r': out += u'\r'; break;
            case 'e': out += QChar(27); break;
            case ' ': out += u' '; break;
            case '"': out += u'"'; break;
            case '/': out += u'/'; break;
            case '\\': out += u'\\'; break;
            case 'x': hexDigits = 2; break;
            case 'u': hexDigits = 4; break;
            case 'U': hexDigits = 8; break;
            default:
                fail(line, column + int(pos) - 2, u"unknown escape \\%1 in a double-quoted scalar"_s.arg(e));
                return std::nullopt;
            }
            if (hexDigits) {
                bool ok = false;
                const uint code = s.mid(pos, hexDigits).toUInt(&ok, 16);
                if (!ok || pos + hexDigits > s.size() || code > 0x10FFFF) {
                    fail(line, column + int(pos) - 2, u"a bad \\%1 escape"_s.arg(e));
                    return std::nullopt;
                }
                pos += hexDigits;
                const char32_t point = char32_t(code);
                out += QString::fromUcs4(&point, 1);
            }
        }
        fail(line, column + int(start), u"an unclosed quoted scalar (quoted scalars must end on their line)"_s);
        return std::nullopt;
    }

    static QJsonValue plainScalar(const QString& text)
    {
        static const QRegularExpression number(u"^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"_s);
        if (text == u"~"_s || text == u"null"_s || text == u"Null"_s || text == u"NULL"_s)
            return QJsonValue();
        if (text == u"true"_s || text == u"True"_s || text == u"TRUE"_s)
            return true;
        if (text == u"false"_s || text == u"False"_s || text == u"FALSE"_s)
            return false;
        if (number.match(text).hasMatch()) {
            bool ok = false;
            const double d = text.toDouble(&ok);
            if (ok && std::isfinite(d))
                return d;
        }
        return text;
    }
};

} // namespace

namespace YamlReader {

YamlDocument parse(const QByteArray& text)
{
    YamlDocument doc;
    if (text.size() > kMaxBytes) {
        doc.problem = u"line 1, column 1: the file is larger than %1 bytes: not a configuration file"_s.arg(kMaxBytes);
        return doc;
    }
    Parser parser;
    QString decoded = QString::fromUtf8(text);
    if (decoded.startsWith(QChar(0xFEFF)))
        decoded.remove(0, 1);
    if (parser.readLines(decoded)) {
        const QJsonValue root = parser.document();
        if (!parser.failed())
            doc.value = root;
    }
    doc.problem = parser.problem;
    return doc;
}

} // namespace YamlReader
