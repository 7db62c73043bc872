// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Colours exported code in the policy editor's Export pane: comments, strings, numbers and the language's
// keywords, for the export targets' languages (python javascript csharp go java yaml json). Line-based:
// a block comment or string spanning lines is coloured on its own lines only, which exported units never need.

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class CodeHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    explicit CodeHighlighter(QTextDocument* document);
    void setLanguage(const QString& language);
    QString language() const { return m_language; }

protected:
    void highlightBlock(const QString& text) override;

private:
    QString m_language;
    QRegularExpression m_keywords;
    QString m_comment; // the line-comment opener: "#", "//"
    QTextCharFormat m_keywordFormat;
    QTextCharFormat m_stringFormat;
    QTextCharFormat m_numberFormat;
    QTextCharFormat m_commentFormat;
    QTextCharFormat m_keyFormat; // YAML and JSON keys
};
