// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The timeline's drawing layer: one QGraphicsItem over the chart's plot area that paints every visible
// lane, phase span, wait, outcome mark, refused call and lab tick in a single paint(), culled to the
// visible lanes and time range, and the breaker bands under the lanes. It holds no data of its own: it reads the TimelineModel and TimelineLayout it is given.

#include "live/chartpalette.h"
#include "live/timelinelayout.h"

#include <QFont>
#include <QGraphicsItem>

class TimelineModel;
struct TimelineMark;

class TimelineItem : public QGraphicsItem
{
public:
    TimelineItem(const TimelineModel* model, QGraphicsItem* parent = nullptr);

    void setLayout(const TimelineLayout& layout);
    void setPalette(const ChartPalette& palette);
    void setFont(const QFont& font);
    void setSelection(int lane, int attempt); // lane -1: none
    void setNowMs(double ms);
    // Lane labels ("Run 12") are painted right-aligned in this many pixels left of the plot area.
    void setLabelWidth(double width);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void paintMark(QPainter* painter, int lane, const TimelineMark& mark) const;
    void paintCopyEnd(QPainter* painter, const QRectF& bar, const TimelineMark& mark) const; // a hedged copy's
    void paintWaitLabel(QPainter* painter, const QRectF& rect, const TimelineMark& mark) const;
    void paintBands(QPainter* painter) const;

    const TimelineModel* m_model;
    TimelineLayout m_layout;
    ChartPalette m_palette;
    QFont m_font;
    int m_selectedLane = -1;
    int m_selectedAttempt = 0;
    double m_nowMs = 0;
    double m_labelWidth = 0;
};
