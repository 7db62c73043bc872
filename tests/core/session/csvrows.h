// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reads back a CSV export (RFC 4180, as SessionExport::writeCsv writes it): rows of fields, a field in
// quotes may hold commas, line breaks and "" for one quote.

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace CsvRows {

inline QList<QStringList> read(const QByteArray& text)
{
    QList<QStringList> rows;
    QStringList row;
    QByteArray field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text.at(i + 1) == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row << QString::fromUtf8(field);
            field.clear();
        } else if (c == '\r' && i + 1 < text.size() && text.at(i + 1) == '\n') {
            row << QString::fromUtf8(field);
            field.clear();
            rows << row;
            row.clear();
            ++i;
        } else {
            field += c;
        }
    }
    if (!field.isEmpty() || !row.isEmpty())
        rows << (row << QString::fromUtf8(field));
    return rows;
}

} // namespace CsvRows
