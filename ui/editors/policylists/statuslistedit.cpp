// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/policylists/statuslistedit.h"

#include "policy/jsonreader.h"

using namespace Qt::StringLiterals;

namespace {

// One comma-separated part: "503", "500-599" or "5xx".
std::optional<StatusRange> readPart(const QString& part)
{
    if (part.size() == 3 && part.at(0).isDigit() && part.mid(1).compare(u"xx"_s, Qt::CaseInsensitive) == 0) {
        const int hundreds = part.at(0).digitValue();
        return StatusRange { hundreds * 100, hundreds * 100 + 99 };
    }
    return parseStatusRange(part);
}

} // namespace

StatusListEdit::StatusListEdit(QWidget* parent)
    : QLineEdit(parent)
{
    setPlaceholderText(tr("any status — e.g. 429, 500-599 or 5xx"));
}

void StatusListEdit::setRanges(const QList<StatusRange>& ranges)
{
    setText(format(ranges));
    setCursorPosition(0);
}

std::optional<QList<StatusRange>> StatusListEdit::ranges() const
{
    QList<StatusRange> out;
    const QStringList parts = text().split(u',', Qt::SkipEmptyParts);
    for (const QString& raw : parts) {
        const QString part = raw.trimmed();
        if (part.isEmpty())
            continue;
        const std::optional<StatusRange> range = readPart(part);
        if (!range)
            return std::nullopt;
        out << *range;
    }
    return out;
}

QString StatusListEdit::problem() const
{
    const QStringList parts = text().split(u',', Qt::SkipEmptyParts);
    for (const QString& raw : parts) {
        const QString part = raw.trimmed();
        if (!part.isEmpty() && !readPart(part))
            return tr("\"%1\" is not a status code, a range like 500-599, or 5xx").arg(part);
    }
    return {};
}

QString StatusListEdit::format(const QList<StatusRange>& ranges)
{
    QStringList parts;
    for (const StatusRange& range : ranges)
        parts << statusRangeText(range);
    return parts.join(u", "_s);
}

QString StatusListEdit::shortText(const QList<StatusRange>& ranges)
{
    QStringList parts;
    for (const StatusRange& range : ranges) {
        const bool hundred = range.low % 100 == 0 && range.high == range.low + 99;
        parts << (hundred ? QString::number(range.low / 100) + u"xx"_s : statusRangeText(range));
    }
    return parts.join(u", "_s);
}
