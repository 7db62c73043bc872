// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/pipelinediagram.h"

#include <QMouseEvent>
#include <QPainter>

namespace {

constexpr int kTextFlags = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;

} // namespace

PipelineDiagram::PipelineDiagram(QWidget* parent)
    : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setMouseTracking(false);
    setFocusPolicy(Qt::NoFocus);
}

void PipelineDiagram::setBoxes(const QStringList& labels, const QString& innermost)
{
    if (labels == m_labels && innermost == m_innermost)
        return;
    m_labels = labels;
    m_innermost = innermost;
    if (m_selected >= m_labels.size())
        m_selected = -1;
    setAccessibleDescription(m_labels.join(QStringLiteral(" ⊃ ")));
    updateGeometry();
    update();
}

void PipelineDiagram::setSelected(int box)
{
    const int selected = box >= 0 && box < m_labels.size() ? box : -1;
    if (selected == m_selected)
        return;
    m_selected = selected;
    update();
}

PipelineDiagram::Metrics PipelineDiagram::metrics() const
{
    const int em = fontMetrics().height();
    return { qMax(6, em * 2 / 3), qMax(4, em / 3), qMax(3, em / 4) };
}

int PipelineDiagram::labelHeight(const QString& label, int width) const
{
    const Metrics m = metrics();
    const int textWidth = qMax(1, width - 2 * m.pad);
    return fontMetrics().boundingRect(QRect(0, 0, textWidth, 1 << 20), kTextFlags, label).height() + 2 * m.pad;
}

QString PipelineDiagram::labelOf(int box) const
{
    return box < m_labels.size() ? m_labels.at(box) : m_innermost;
}

QList<QRect> PipelineDiagram::boxesAt(int width) const
{
    // Box i starts i insets in from each side and below the labels of the boxes around it; its bottom is
    // i gaps above the outermost's. So each box lies strictly inside the one before, at any width.
    const Metrics m = metrics();
    const int n = int(m_labels.size());
    QList<int> tops;
    QList<int> widths;
    int top = 0;
    for (int i = 0; i <= n; ++i) {
        const int w = qMax(1, width - 1 - 2 * i * m.inset);
        tops << top;
        widths << w;
        top += labelHeight(labelOf(i), w);
    }
    const int height = top + n * m.gap; // the innermost box is just its label
    QList<QRect> boxes;
    for (int i = 0; i <= n; ++i)
        boxes << QRect(i * m.inset, tops.at(i), widths.at(i), height - tops.at(i) - i * m.gap);
    return boxes;
}

int PipelineDiagram::heightForWidth(int width) const
{
    const QList<QRect> boxes = boxesAt(width);
    return boxes.first().bottom() + 2;
}

QSize PipelineDiagram::sizeHint() const
{
    const int width = qMax(this->width(), minimumSizeHint().width());
    return { width, heightForWidth(width) };
}

QSize PipelineDiagram::minimumSizeHint() const
{
    // Room for the deepest label at about twelve characters a line.
    const int width = 2 * int(m_labels.size()) * metrics().inset + fontMetrics().averageCharWidth() * 12 + 2 * metrics().pad;
    return { width, heightForWidth(width) };
}

int PipelineDiagram::boxAt(const QPoint& pos) const
{
    const QList<QRect> boxes = this->boxes();
    for (int i = int(m_labels.size()) - 1; i >= 0; --i) {
        if (boxes.at(i).contains(pos) && !boxes.at(i + 1).contains(pos))
            return i;
    }
    return -1;
}

void PipelineDiagram::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // A layout that ignores height-for-width still gives the height the labels need at this width.
    const int needed = heightForWidth(width());
    if (minimumHeight() != needed)
        setMinimumHeight(needed);
}

void PipelineDiagram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QPalette& pal = palette();
    const QList<QRect> boxes = this->boxes();
    const Metrics m = metrics();
    for (int i = 0; i < boxes.size(); ++i) {
        const QRect& r = boxes.at(i);
        const bool innermost = i == boxes.size() - 1;
        const bool selected = i == m_selected;
        // Depths alternate between the base colours, so each box reads against the one around it.
        QColor fill = pal.color(i % 2 == 0 ? QPalette::Base : QPalette::AlternateBase);
        if (innermost)
            fill = pal.color(QPalette::Button);
        p.fillRect(r, fill);
        if (selected) { // the highlight over the depth's colour, so the text keeps its contrast
            QColor highlight = pal.color(QPalette::Highlight);
            highlight.setAlphaF(0.22f);
            p.fillRect(r, highlight);
        }
        QPen pen(selected ? pal.color(QPalette::Highlight) : pal.color(QPalette::Mid));
        pen.setWidth(selected ? 2 : 1);
        p.setPen(pen);
        p.drawRect(selected ? r.adjusted(1, 1, -1, -1) : r);
        p.setPen(pal.color(innermost ? QPalette::ButtonText : QPalette::Text));
        const QRect text = QRect(r.left() + m.pad, r.top() + m.pad, r.width() - 2 * m.pad, r.height() - 2 * m.pad);
        p.drawText(text, kTextFlags, labelOf(i));
    }
}

void PipelineDiagram::mousePressEvent(QMouseEvent* event)
{
    const int box = boxAt(event->position().toPoint());
    if (box >= 0) {
        setSelected(box);
        emit boxClicked(box);
    }
    event->accept();
}
