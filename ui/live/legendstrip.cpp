// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/legendstrip.h"

#include <QPainter>
#include <QPainterPath>

namespace {
constexpr int kSwatch = 14;
constexpr int kGap = 6;
constexpr int kSpacing = 18;
} // namespace

LegendStrip::LegendStrip(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void LegendStrip::setEntries(const QList<Entry>& entries)
{
    m_entries = entries;
    updateGeometry();
    update();
}

QStringList LegendStrip::labels() const
{
    QStringList out;
    for (const Entry& e : m_entries)
        out << e.label;
    return out;
}

int LegendStrip::entryWidth(const Entry& entry) const
{
    // A little slack: drawText() wraps a text whose rectangle is exactly its advance.
    return kSwatch + kGap + fontMetrics().horizontalAdvance(entry.label) + 4;
}

QRect LegendStrip::labelRect(const Entry& entry, int width) const
{
    return fontMetrics().boundingRect(QRect(0, 0, std::max(20, width), 10000), Qt::TextWordWrap, entry.label);
}

int LegendStrip::layoutEntries(int width, QList<QRect>* rects) const
{
    const int line = std::max(kSwatch, fontMetrics().height()) + 4;
    int x = 0;
    int y = 0;
    int rowHeight = line;
    for (const Entry& e : m_entries) {
        int w = entryWidth(e);
        int h = line;
        if (w > width) { // too long for a row of its own: wrapped
            const QRect text = labelRect(e, width - kSwatch - kGap);
            w = width;
            h = std::max(line, text.height() + 4);
        }
        if (x > 0 && x + w > width) {
            x = 0;
            y += rowHeight;
            rowHeight = line;
        }
        if (rects)
            rects->append(QRect(x, y, w, h));
        rowHeight = std::max(rowHeight, h);
        x += w + kSpacing;
    }
    return m_entries.isEmpty() ? 0 : y + rowHeight;
}

QSize LegendStrip::sizeHint() const
{
    int w = 0;
    for (const Entry& e : m_entries)
        w += entryWidth(e) + kSpacing;
    return QSize(w, layoutEntries(std::max(1, w), nullptr));
}

QSize LegendStrip::minimumSizeHint() const
{
    return QSize(100, layoutEntries(width() > 0 ? width() : 400, nullptr));
}

int LegendStrip::heightForWidth(int width) const
{
    return layoutEntries(width, nullptr);
}

void LegendStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    QList<QRect> rects;
    layoutEntries(width(), &rects);
    const int line = std::max(kSwatch, fontMetrics().height()) + 4;
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        const Entry& e = m_entries.at(i);
        const QRect at = rects.at(i);
        const QRectF sw(at.x() + 0.5, at.y() + (line - kSwatch) / 2.0 + 0.5, kSwatch - 1, kSwatch - 1);
        p.setPen(Qt::NoPen);
        p.setBrush(e.color);
        switch (e.swatch) {
        case Swatch::Bar:
            p.drawRect(sw.adjusted(0, 3, 0, -3));
            break;
        case Swatch::Band: {
            QColor c = e.color;
            c.setAlphaF(std::min<float>(c.alphaF(), 0.45f));
            p.setBrush(c);
            p.drawRect(sw.adjusted(0, 2, 0, -2));
            break;
        }
        case Swatch::Hatch:
            p.fillRect(sw.adjusted(0, 3, 0, -3), QBrush(e.color, Qt::BDiagPattern));
            p.setPen(QPen(e.color, 1));
            p.drawLine(sw.topLeft() + QPointF(0, 3), sw.topRight() + QPointF(0, 3));
            p.drawLine(sw.bottomLeft() - QPointF(0, 3), sw.bottomRight() - QPointF(0, 3));
            break;
        case Swatch::Circle:
            p.drawEllipse(sw.adjusted(1, 1, -1, -1));
            break;
        case Swatch::Square:
            p.drawRect(sw.adjusted(1, 1, -1, -1));
            break;
        case Swatch::Tick:
            p.setPen(QPen(e.color, 2));
            p.drawLine(QPointF(sw.center().x(), sw.top()), QPointF(sw.center().x(), sw.bottom()));
            break;
        case Swatch::Triangle: {
            QPainterPath path;
            path.moveTo(sw.topLeft() + QPointF(1, 2));
            path.lineTo(sw.topRight() + QPointF(-1, 2));
            path.lineTo(QPointF(sw.center().x(), sw.bottom() - 1));
            path.closeSubpath();
            p.drawPath(path);
            break;
        }
        case Swatch::DashedLine:
            p.setPen(QPen(e.color, 1.5, Qt::DashLine));
            p.drawLine(QPointF(sw.left(), sw.center().y()), QPointF(sw.right(), sw.center().y()));
            break;
        case Swatch::Line:
            p.setPen(QPen(e.color, 2.4));
            p.drawLine(QPointF(sw.left(), sw.center().y()), QPointF(sw.right(), sw.center().y()));
            break;
        case Swatch::States: {
            const QRectF bar = sw.adjusted(0, 2, 0, -2);
            const double third = bar.width() / 3;
            p.fillRect(QRectF(bar.left(), bar.top(), third, bar.height()), e.color);
            p.fillRect(QRectF(bar.left() + third, bar.top(), third, bar.height()), e.second);
            p.fillRect(QRectF(bar.left() + 2 * third, bar.top(), bar.width() - 2 * third, bar.height()), e.third);
            break;
        }
        case Swatch::CopyWon: {
            // A hedged copy that won: its bar (COLOR) outlined in SECOND, a solid cap at its end.
            const QRectF bar = sw.adjusted(1, 4, -1, -4);
            p.drawRect(bar);
            p.setPen(QPen(e.second, 1.5));
            p.setBrush(Qt::NoBrush);
            p.drawRect(bar.adjusted(-1, -1, 1, 1));
            p.fillRect(QRectF(bar.right() - 1, bar.top() - 1, 3, bar.height() + 2), e.second);
            break;
        }
        case Swatch::CopyLost: {
            // A lost copy: its bar faded and struck through, a stop bar (SECOND) where it was cut off.
            QColor c = e.color;
            c.setAlphaF(0.45f);
            const QRectF bar = sw.adjusted(0, 4, -3, -4);
            p.fillRect(bar, c);
            p.fillRect(bar, QBrush(palette().color(QPalette::Base), Qt::BDiagPattern));
            p.fillRect(QRectF(bar.right() - 1, bar.top() - 2, 2.5, bar.height() + 4), e.second);
            break;
        }
        case Swatch::Refused: {
            // The timeline's mark of a call never sent: a hollow circle struck through.
            const QRectF c = QRectF(sw).adjusted(1.5, 1.5, -1.5, -1.5);
            p.setPen(QPen(e.color, 1.6));
            p.setBrush(palette().color(QPalette::Base));
            p.drawEllipse(c);
            const double d = c.width() * 0.34;
            p.drawLine(c.center() + QPointF(-d, d), c.center() + QPointF(d, -d));
            break;
        }
        }
        p.setPen(palette().color(QPalette::WindowText));
        const QRect text(at.x() + kSwatch + kGap, at.y(), at.width() - kSwatch - kGap, at.height());
        p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap, e.label);
    }
}
