// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/dockscrollarea.h"

#include <QEvent>
#include <QLayout>
#include <QScrollBar>
#include <QStyle>

DockScrollArea::DockScrollArea(QWidget* content, QWidget* parent)
    : QScrollArea(parent)
{
    setWidget(content);
    setWidgetResizable(false);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    content->installEventFilter(this);
}

int DockScrollArea::leastHeight(int width) const
{
    const QWidget* w = widget();
    if (!w)
        return 0;
    int h = w->minimumSizeHint().height();
    if (const QLayout* l = w->layout(); l && l->hasHeightForWidth())
        h = std::max(h, l->minimumHeightForWidth(width));
    return std::max(h, w->minimumHeight());
}

QSize DockScrollArea::minimumSizeHint() const
{
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const int width = widget() ? widget()->minimumSizeHint().width() + bar : bar;
    return QSize(width, std::min(leastHeight(width - bar), fontMetrics().height() * 6));
}

QSize DockScrollArea::sizeHint() const
{
    return widget() ? widget()->sizeHint() + QSize(style()->pixelMetric(QStyle::PM_ScrollBarExtent), 0) : QScrollArea::sizeHint();
}

void DockScrollArea::resizeEvent(QResizeEvent* event)
{
    QScrollArea::resizeEvent(event);
    fitContent();
}

bool DockScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        fitContent();
    return QScrollArea::eventFilter(watched, event);
}

void DockScrollArea::fitContent()
{
    QWidget* w = widget();
    if (!w)
        return;
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const int full = width() - 2 * frameWidth();
    const int available = height() - 2 * frameWidth();
    int contentWidth = full;
    int needed = leastHeight(contentWidth);
    if (needed > available) { // it scrolls: the scroll bar takes its width
        contentWidth = full - bar;
        needed = leastHeight(contentWidth);
    }
    w->resize(contentWidth, std::max(needed, available));
}
