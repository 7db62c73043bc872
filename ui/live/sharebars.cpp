// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/sharebars.h"

#include <QPainter>

namespace {
int rowHeight(const QFontMetrics& fm)
{
    return fm.height() + 10;
}
} // namespace

ShareBars::ShareBars(const QString& emptyText, QWidget* parent)
    : QWidget(parent)
    , m_emptyText(emptyText)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void ShareBars::setRows(const QList<Row>& rows)
{
    if (rows == m_rows)
        return;
    const bool resized = rows.size() != m_rows.size();
    m_rows = rows;
    if (resized)
        updateGeometry();
    update();
}

QSize ShareBars::sizeHint() const
{
    return QSize(400, std::max<int>(1, int(m_rows.size())) * rowHeight(fontMetrics()) + 4);
}

QSize ShareBars::minimumSizeHint() const
{
    return QSize(200, sizeHint().height());
}

void ShareBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    const QColor text = palette().color(QPalette::WindowText);
    if (m_rows.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, m_emptyText);
        return;
    }
    const int rh = rowHeight(fm);
    int total = 0;
    int labelWidth = 0;
    for (const Row& row : m_rows) {
        total += row.count;
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(row.label));
    }
    const int numberWidth = fm.horizontalAdvance(tr("%1 (%2%)").arg(99999).arg(100)) + 12;
    const int barLeft = labelWidth + 16;
    const int barMax = std::max(20, width() - barLeft - numberWidth);
    int y = 2;
    for (const Row& row : m_rows) {
        const double share = total ? double(row.count) / total : 0.0;
        p.setPen(text);
        p.drawText(QRect(0, y, labelWidth, rh), Qt::AlignVCenter | Qt::AlignLeft, row.label);
        const QRectF bar(barLeft, y + 4, std::max(2.0, barMax * share), rh - 8);
        p.setPen(Qt::NoPen);
        p.setBrush(row.color);
        p.drawRoundedRect(bar, 3, 3);
        p.setPen(text);
        p.drawText(QRect(int(bar.right()) + 8, y, numberWidth, rh), Qt::AlignVCenter | Qt::AlignLeft,
                   tr("%1 (%2%)").arg(row.count).arg(share * 100.0, 0, 'f', 0));
        y += rh;
    }
}
