// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/windowfit.h"

#include <algorithm>

namespace WindowFit {

QRect initial(const QRect& available, QSize preferred)
{
    if (available.isEmpty())
        return QRect(QPoint(0, 0), preferred);
    QRect r(QPoint(0, 0), preferred.boundedTo(available.size()));
    r.moveCenter(available.center());
    return r;
}

std::optional<QRect> placed(const QRect& saved, const QRect& available)
{
    if (saved.isEmpty())
        return std::nullopt;
    if (available.isEmpty())
        return saved;
    if (saved.width() > available.width() || saved.height() > available.height())
        return std::nullopt;
    QRect r = saved;
    r.moveLeft(std::clamp(r.left(), available.left(), available.right() - r.width() + 1));
    r.moveTop(std::clamp(r.top(), available.top(), available.bottom() - r.height() + 1));
    return r;
}

bool compact(const QRect& available)
{
    return !available.isEmpty() && available.width() < kCompactWidth;
}

bool tooShortToStack(const QRect& available)
{
    return !available.isEmpty() && available.height() < kStackedHeight;
}

} // namespace WindowFit
