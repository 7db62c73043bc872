// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/waittolerance.h"

#include "policy/retrydecision.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

Millis share(Millis bound, double ratio) { return Millis(qint64(std::floor(double(bound.count()) * std::max(0.0, ratio)))); }

// Seconds (a decimal, ≥ 0, at most a day) → milliseconds.
std::optional<Millis> seconds(const QString& text)
{
    bool ok = false;
    const double s = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(s) || s < 0 || s > 86400)
        return std::nullopt;
    return Millis(qint64(std::llround(s * 1000.0)));
}

} // namespace

Millis WaitTolerance::earlySlack(Millis low) const { return std::max(early, share(low, ratio)); }

Millis WaitTolerance::lateSlack(Millis high) const { return std::max(late, share(high, ratio)); }

QString WaitTolerance::describe() const
{
    QString text = u"−%1 / +%2"_s.arg(formatMillis(early), formatMillis(late));
    if (ratio > 0)
        text += QCoreApplication::translate("conform", " or %1 %").arg(ratio * 100.0, 0, 'g', 3);
    return text;
}

std::optional<WaitTolerance> parseWaitTolerance(const QString& text, WaitTolerance base, QString* error)
{
    const QStringList parts = text.split(u':');
    std::optional<Millis> early = parts.size() <= 2 ? seconds(parts.first()) : std::nullopt;
    std::optional<Millis> late = parts.size() == 2 ? seconds(parts.last()) : early;
    if (!early || !late) {
        if (error) {
            *error = QCoreApplication::translate("conform",
                "a tolerance is seconds from 0 to 86400, or EARLY:LATE in seconds (\"0.25\", \"0.25:1.5\"), not \"%1\"")
                         .arg(text);
        }
        return std::nullopt;
    }
    base.early = *early;
    base.late = *late;
    return base;
}
