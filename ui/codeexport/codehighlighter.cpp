// SPDX-License-Identifier: GPL-3.0-or-later
#include "codeexport/codehighlighter.h"

#include <QHash>
#include <QPalette>

using namespace Qt::StringLiterals;

namespace {

QStringList keywordsOf(const QString& language)
{
    static const QHash<QString, QStringList> keywords {
        { u"python"_s, { u"and"_s, u"as"_s, u"class"_s, u"def"_s, u"elif"_s, u"else"_s, u"except"_s, u"False"_s, u"for"_s,
                           u"from"_s, u"if"_s, u"import"_s, u"in"_s, u"is"_s, u"lambda"_s, u"None"_s, u"not"_s, u"or"_s,
                           u"raise"_s, u"return"_s, u"self"_s, u"True"_s, u"try"_s, u"while"_s, u"with"_s, u"yield"_s } },
        { u"javascript"_s, { u"async"_s, u"await"_s, u"const"_s, u"else"_s, u"export"_s, u"false"_s, u"for"_s, u"from"_s,
                               u"function"_s, u"if"_s, u"import"_s, u"let"_s, u"new"_s, u"null"_s, u"of"_s, u"return"_s,
                               u"throw"_s, u"true"_s, u"try"_s, u"catch"_s, u"undefined"_s } },
        { u"csharp"_s, { u"async"_s, u"await"_s, u"class"_s, u"else"_s, u"false"_s, u"if"_s, u"new"_s, u"null"_s,
                           u"private"_s, u"public"_s, u"return"_s, u"static"_s, u"true"_s, u"using"_s, u"var"_s, u"void"_s,
                           u"sealed"_s, u"override"_s, u"protected"_s, u"namespace"_s } },
        { u"go"_s, { u"func"_s, u"package"_s, u"import"_s, u"return"_s, u"if"_s, u"else"_s, u"for"_s, u"range"_s,
                       u"var"_s, u"const"_s, u"type"_s, u"struct"_s, u"nil"_s, u"true"_s, u"false"_s, u"switch"_s,
                       u"case"_s, u"default"_s, u"defer"_s } },
        { u"java"_s, { u"class"_s, u"else"_s, u"false"_s, u"final"_s, u"if"_s, u"import"_s, u"new"_s, u"null"_s,
                         u"private"_s, u"public"_s, u"return"_s, u"static"_s, u"true"_s, u"var"_s, u"void"_s, u"package"_s } },
        { u"yaml"_s, { u"true"_s, u"false"_s, u"null"_s } },
        { u"json"_s, { u"true"_s, u"false"_s, u"null"_s } },
    };
    return keywords.value(language);
}

} // namespace

CodeHighlighter::CodeHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document)
{
    // Colours readable on the light and the dark palette alike.
    m_keywordFormat.setForeground(QColor(0x1f, 0x5f, 0xbf));
    m_keywordFormat.setFontWeight(QFont::DemiBold);
    m_stringFormat.setForeground(QColor(0x2e, 0x7d, 0x32));
    m_numberFormat.setForeground(QColor(0xa0, 0x4c, 0x00));
    m_commentFormat.setForeground(QColor(0x7a, 0x7a, 0x7a));
    m_commentFormat.setFontItalic(true);
    m_keyFormat.setForeground(QColor(0x6a, 0x1b, 0x9a));
}

void CodeHighlighter::setLanguage(const QString& language)
{
    if (language == m_language)
        return;
    m_language = language;
    const QStringList words = keywordsOf(language);
    m_keywords = words.isEmpty() ? QRegularExpression() : QRegularExpression(u"\\b(?:"_s + words.join(u'|') + u")\\b"_s);
    m_comment = (language == u"python" || language == u"yaml") ? u"#"_s : language == u"json" ? QString() : u"//"_s;
    rehighlight();
}

void CodeHighlighter::highlightBlock(const QString& text)
{
    static const QRegularExpression number(u"\\b\\d+(?:\\.\\d+)?(?:ms|s)?\\b"_s);
    static const QRegularExpression key(u"^\\s*(?:- )?([A-Za-z_][\\w.-]*)\\s*:(?:\\s|$)"_s);
    static const QRegularExpression jsonKey(u"(\"[^\"\\\\]*(?:\\\\.[^\"\\\\]*)*\")\\s*:"_s);
    for (auto it = number.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        setFormat(int(m.capturedStart()), int(m.capturedLength()), m_numberFormat);
    }
    if (m_keywords.isValid() && !m_keywords.pattern().isEmpty()) {
        for (auto it = m_keywords.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), m_keywordFormat);
        }
    }
    if (m_language == u"yaml") {
        if (const QRegularExpressionMatch m = key.match(text); m.hasMatch())
            setFormat(int(m.capturedStart(1)), int(m.capturedLength(1)), m_keyFormat);
    }
    // Strings, then a comment outside them; a quote inside a comment does not open a string.
    qsizetype i = 0;
    while (i < text.size()) {
        const QChar c = text.at(i);
        if (!m_comment.isEmpty() && text.mid(i, m_comment.size()) == m_comment) {
            setFormat(int(i), int(text.size() - i), m_commentFormat);
            return;
        }
        if (c == u'"' || c == u'\'' || (c == u'`' && m_language == u"javascript")) {
            qsizetype end = i + 1;
            while (end < text.size() && text.at(end) != c)
                end += text.at(end) == u'\\' ? 2 : 1;
            end = std::min(end + 1, text.size());
            setFormat(int(i), int(end - i), m_stringFormat);
            i = end;
            continue;
        }
        ++i;
    }
    if (m_language == u"json") {
        for (auto it = jsonKey.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            setFormat(int(m.capturedStart(1)), int(m.capturedLength(1)), m_keyFormat);
        }
    }
}
