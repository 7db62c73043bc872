// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/timelineitem.h"

#include "live/breakerbands.h"
#include "live/phasespans.h"
#include "live/timelinemodel.h"
#include "policy/retrydecision.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

using namespace Qt::StringLiterals;

namespace {

QString shortSource(DelaySource source)
{
    switch (source) {
    case DelaySource::RetryAfter:
    case DelaySource::RetryAfterMs:
        return QCoreApplication::translate("TimelineItem", "Retry-After");
    case DelaySource::ServerHint:
        return QCoreApplication::translate("TimelineItem", "server hint");
    case DelaySource::Throttle:
        return QCoreApplication::translate("TimelineItem", "throttle");
    case DelaySource::Backoff:
        return QCoreApplication::translate("TimelineItem", "backoff");
    case DelaySource::None:
        break;
    }
    return QCoreApplication::translate("TimelineItem", "budget");
}

QString shortDelay(double ms)
{
    return ms < 999.5 ? QString::number(ms, 'f', 0) + u" ms"_s : QString::number(ms / 1000.0, 'g', 3) + u" s"_s;
}

} // namespace

TimelineItem::TimelineItem(const TimelineModel* model, QGraphicsItem* parent)
    : QGraphicsItem(parent)
    , m_model(model)
{
    setZValue(9); // above the chart's series, below its legend
    setAcceptedMouseButtons(Qt::NoButton);
}

void TimelineItem::setLayout(const TimelineLayout& layout)
{
    if (layout.plot != m_layout.plot)
        prepareGeometryChange();
    m_layout = layout;
    update();
}

void TimelineItem::setPalette(const ChartPalette& palette)
{
    m_palette = palette;
    update();
}

void TimelineItem::setFont(const QFont& font)
{
    m_font = font;
    update();
}

void TimelineItem::setSelection(int lane, int attempt)
{
    m_selectedLane = lane;
    m_selectedAttempt = attempt;
    update();
}

void TimelineItem::setNowMs(double ms)
{
    m_nowMs = ms;
}

void TimelineItem::setLabelWidth(double width)
{
    prepareGeometryChange();
    m_labelWidth = width;
}

QRectF TimelineItem::boundingRect() const
{
    return m_layout.plot.adjusted(-m_labelWidth - 8, 0, 0, 0);
}

void TimelineItem::paintWaitLabel(QPainter* painter, const QRectF& rect, const TimelineMark& mark) const
{
    // The delay and its source when there is room, else just the delay, else nothing.
    QString text = shortDelay(mark.endMs - mark.startMs) + u" · "_s + shortSource(DelaySource(mark.detail));
    const QFontMetricsF fm(m_font);
    double w = fm.horizontalAdvance(text) + 8;
    if (rect.width() < w + 4) {
        text = shortDelay(mark.endMs - mark.startMs);
        w = fm.horizontalAdvance(text) + 8;
        if (rect.width() < w + 4)
            return;
    }
    const QRectF box(rect.center().x() - w / 2, rect.center().y() - fm.height() / 2, w, fm.height());
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_palette.plotBackground);
    painter->drawRoundedRect(box, 3, 3);
    painter->setPen(m_palette.text);
    painter->drawText(box, Qt::AlignCenter, text);
}

void TimelineItem::paintMark(QPainter* painter, int lane, const TimelineMark& mark) const
{
    const TimelineLayout& l = m_layout;
    const double x0 = l.xForTime(mark.startMs / 1000.0);
    const double x1 = l.xForTime(m_model->clipped(mark).endMs / 1000.0); // not past the playback clock
    if (x1 < l.plot.left() - 12 || x0 > l.plot.right() + 12)
        return;
    const double y = l.yForLane(lane);
    const double h = l.laneHeight;
    switch (mark.kind) {
    case TimelineMark::Kind::Phase: {
        // A hedged copy in its own row of the lane (copies overlap in time); any other attempt in the middle.
        const int rows = mark.hedge ? m_model->copyRows(lane) : 0;
        const auto [top, bottom] = copyRowInLane(TimelineModel::copyRow(mark.attempt), rows);
        const QRectF r(x0, y + h * top, std::max(2.0, x1 - x0), h * (bottom - top));
        QColor c = m_palette.phaseColor(mark.detail);
        if (mark.live)
            c.setAlphaF(0.55f);
        else if (mark.flags & TimelineMark::Lost)
            c.setAlphaF(0.45f);
        painter->fillRect(r, c);
        if (mark.hedge)
            paintCopyEnd(painter, r, mark);
        break;
    }
    case TimelineMark::Kind::Wait: {
        const QColor c = m_palette.waitColor(mark.detail);
        const QRectF r(x0, y + h * 0.32, std::max(1.0, x1 - x0), h * 0.36);
        painter->fillRect(r, QBrush(c, Qt::BDiagPattern));
        painter->setPen(QPen(c, 1));
        painter->drawLine(QPointF(r.left(), r.top()), QPointF(r.right(), r.top()));
        painter->drawLine(QPointF(r.left(), r.bottom()), QPointF(r.right(), r.bottom()));
        paintWaitLabel(painter, r, mark);
        break;
    }
    case TimelineMark::Kind::Outcome: {
        // Just after the run's end, not over it: a run whose last attempt took a millisecond still shows it;
        // after a refused call's mark, which sits at the moment itself, further on.
        const double s = std::max(5.0, h * 0.32);
        const bool afterRefusal = FinalKind(mark.detail) == FinalKind::CircuitOpen || FinalKind(mark.detail) == FinalKind::LimiterFull;
        const QPointF c(x0 + (afterRefusal ? 2 * s + 3 : s + 1), y + h / 2);
        if (FinalKind(mark.detail) == FinalKind::Success) {
            painter->setPen(QPen(m_palette.plotBackground, 1.5));
            painter->setBrush(m_palette.success);
            painter->drawEllipse(c, s, s);
            QPainterPath tick;
            tick.moveTo(c + QPointF(-s * 0.5, 0));
            tick.lineTo(c + QPointF(-s * 0.1, s * 0.4));
            tick.lineTo(c + QPointF(s * 0.55, -s * 0.45));
            painter->setPen(QPen(Qt::white, std::max(1.5, s * 0.28), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
            painter->setBrush(Qt::NoBrush);
            painter->drawPath(tick);
        } else {
            painter->setPen(QPen(m_palette.plotBackground, 1.5));
            painter->setBrush(FinalKind(mark.detail) == FinalKind::Cancelled ? m_palette.mutedText : m_palette.failure);
            painter->drawRect(QRectF(c.x() - s, c.y() - s, 2 * s, 2 * s));
            painter->setPen(QPen(Qt::white, std::max(1.5, s * 0.28), Qt::SolidLine, Qt::RoundCap));
            const double d = s * 0.5;
            painter->drawLine(c + QPointF(-d, -d), c + QPointF(d, d));
            painter->drawLine(c + QPointF(-d, d), c + QPointF(d, -d));
        }
        break;
    }
    case TimelineMark::Kind::Refused: {
        // Never sent: a hollow circle struck through at the moment it was refused, no bar (nothing went on
        // the wire).
        const double s = std::max(4.5, h * 0.27);
        const QPointF c(x0, y + h / 2);
        const double w = std::max(1.6, s * 0.3);
        painter->setPen(QPen(m_palette.refused, w));
        painter->setBrush(m_palette.plotBackground);
        painter->drawEllipse(c, s, s);
        const double d = s * 0.68;
        painter->drawLine(c + QPointF(-d, d), c + QPointF(d, -d));
        break;
    }
    case TimelineMark::Kind::LabReceived:
        painter->setPen(QPen(m_palette.labReceived, 1.5));
        painter->drawLine(QPointF(x0, y + 1), QPointF(x0, y + h * 0.2));
        break;
    case TimelineMark::Kind::LabApplied: {
        const double s = std::max(3.0, h * 0.16);
        const QPointF tri[3] = { { x0 - s, y + 1 }, { x0 + s, y + 1 }, { x0, y + 1 + s * 1.4 } };
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_palette.labApplied);
        painter->drawPolygon(tri, 3);
        break;
    }
    }
}

void TimelineItem::paintCopyEnd(QPainter* painter, const QRectF& r, const TimelineMark& mark) const
{
    // A lost copy was cancelled in flight: struck through with hatching, and a stop bar where it was cut
    // off. The winner: outlined in the success colour, its end a solid cap (the run's outcome is just after
    // it). Each of a copy's phase spans draws its part of the outline.
    if (mark.flags & TimelineMark::Lost) {
        painter->fillRect(r, QBrush(m_palette.plotBackground, Qt::BDiagPattern));
        if (mark.flags & TimelineMark::LastSpan)
            painter->fillRect(QRectF(r.right() - 1, r.top() - 2, 2.5, r.height() + 4), m_palette.mutedText);
        return;
    }
    if (!(mark.flags & TimelineMark::Won))
        return;
    painter->setPen(QPen(m_palette.success, 1.5));
    const QRectF o = r.adjusted(-1, -1, 1, 1);
    painter->drawLine(QPointF(o.left(), o.top()), QPointF(o.right(), o.top()));
    painter->drawLine(QPointF(o.left(), o.bottom()), QPointF(o.right(), o.bottom()));
    if (mark.flags & TimelineMark::FirstSpan)
        painter->drawLine(QPointF(o.left(), o.top()), QPointF(o.left(), o.bottom()));
    if (mark.flags & TimelineMark::LastSpan)
        painter->fillRect(QRectF(o.right() - 1.5, o.top(), 3, o.height()), m_palette.success);
}

void TimelineItem::paintBands(QPainter* painter) const
{
    // Under the lanes, one band a breaker: its states as coloured segments over the visible time only (a
    // binary search finds the first), the open and half-open ones named when there is room, and the band's
    // policy and scope at its left. "Breaker" in the margin beside it, where the lanes have their runs.
    const TimelineLayout& l = m_layout;
    const BreakerBands& bands = m_model->breakers();
    const QFontMetricsF fm(m_font);
    const double t0 = l.t0 * 1000.0;
    const double t1 = l.t1 * 1000.0;
    const double endMs = m_model->bandEndMs();
    for (int b = 0; b < l.bands && b < bands.count(); ++b) {
        const BreakerBand& band = bands.band(b);
        const QRectF row(l.plot.left(), l.yForBand(b) + 1, l.plot.width(), l.bandHeight - 2);
        painter->setClipRect(boundingRect());
        painter->setPen(m_palette.mutedText);
        painter->drawText(QRectF(l.plot.left() - m_labelWidth - 6, row.top(), m_labelWidth, row.height()),
            Qt::AlignRight | Qt::AlignVCenter,
            fm.elidedText(QCoreApplication::translate("TimelineItem", "Breaker"), Qt::ElideRight, m_labelWidth));
        painter->setClipRect(l.plot);
        painter->setRenderHint(QPainter::Antialiasing, false);
        for (int i = std::max(0, bands.firstEndingAfter(b, t0)); i >= 0 && i < band.segments.size(); ++i) {
            const BreakerSegment& seg = band.segments.at(i);
            if (seg.startMs > t1 || seg.startMs > endMs)
                break;
            const double end = std::min(seg.endMs, std::max(seg.startMs, endMs));
            if (end < t0)
                continue;
            const double x0 = std::max(l.plot.left() - 1, l.xForTime(seg.startMs / 1000.0));
            const double x1 = std::min(l.plot.right() + 1, l.xForTime(end / 1000.0));
            const QRectF r(x0, row.top(), std::max(1.0, x1 - x0), row.height());
            painter->fillRect(r, m_palette.breakerColor(int(seg.state)));
            if (seg.state == CircuitBreaker::State::Closed)
                continue;
            const QString name = breakerStateLabel(seg.state).toLower();
            if (fm.horizontalAdvance(name) + 8 <= r.width()) {
                painter->setPen(seg.state == CircuitBreaker::State::Open ? QColor(Qt::white) : QColor(Qt::black));
                painter->drawText(r, Qt::AlignCenter, name);
            }
        }
        // Its name, at the left of the visible part, on the plot's background so it reads over any state.
        const QString label = band.policy + u" · "_s + band.scope;
        const double w = std::min(fm.horizontalAdvance(label) + 10, row.width() * 0.5);
        const QRectF box(row.left() + 2, row.top() + 1, w, row.height() - 2);
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->setPen(Qt::NoPen);
        QColor back = m_palette.plotBackground;
        back.setAlphaF(0.85f);
        painter->setBrush(back);
        painter->drawRoundedRect(box, 3, 3);
        painter->setPen(m_palette.text);
        painter->drawText(box.adjusted(5, 0, -3, 0), Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(label, Qt::ElideRight, w - 8));
    }
}

void TimelineItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    const TimelineLayout& l = m_layout;
    painter->save();
    painter->setFont(m_font);
    const int first = l.firstVisibleLane();
    const int last = std::min(l.lastVisibleLane(), m_model->laneCount() - 1);
    // Lane labels in the margin (painted here rather than as axis categories, which relayout the chart).
    const QRectF lanes = l.lanesArea();
    painter->setClipRect(boundingRect());
    painter->setPen(m_palette.text);
    for (int lane = first; lane <= last; ++lane) {
        const QRectF r(l.plot.left() - m_labelWidth - 6, l.yForLane(lane), m_labelWidth, l.laneHeight);
        if (r.center().y() >= lanes.top() && r.center().y() <= lanes.bottom())
            painter->drawText(r, Qt::AlignRight | Qt::AlignVCenter,
                              QCoreApplication::translate("TimelineItem", "Run %1").arg(m_model->runIdOfLane(lane)));
    }
    if (l.bands > 0)
        paintBands(painter);
    painter->setClipRect(lanes);
    for (int lane = first; lane <= last; ++lane) {
        if (lane % 2)
            painter->fillRect(QRectF(l.plot.left(), l.yForLane(lane), l.plot.width(), l.laneHeight), m_palette.laneStripe);
    }
    painter->setRenderHint(QPainter::Antialiasing, false);
    // In layers, whatever order the marks came in (a live batch brings them interleaved, a file opened at
    // once all of a kind together): waits at the back, attempts' bars over them (an attempt of a millisecond
    // between two waits stays visible), then the marks that sit on top (outcomes, lab ticks).
    const auto bit = [](TimelineMark::Kind k) { return quint8(1u << quint8(k)); };
    const quint8 layers[] = { bit(TimelineMark::Kind::Wait), bit(TimelineMark::Kind::Phase),
        quint8(bit(TimelineMark::Kind::Outcome) | bit(TimelineMark::Kind::Refused) | bit(TimelineMark::Kind::LabReceived)
            | bit(TimelineMark::Kind::LabApplied)) };
    for (int pass = 0; pass < 3; ++pass) {
        painter->setRenderHint(QPainter::Antialiasing, pass == 2);
        for (int lane = first; lane <= last; ++lane) {
            for (const TimelineMark& m : m_model->lane(lane, layers[pass]))
                paintMark(painter, lane, m);
        }
        if (pass == 1) {
            for (const auto& [lane, m] : m_model->live()) {
                if (lane >= first && lane <= last)
                    paintMark(painter, lane, m);
            }
        }
    }
    if (m_selectedLane >= first && m_selectedLane <= last) {
        if (const auto span = m_model->attemptSpan(m_selectedLane, m_selectedAttempt)) {
            const double y = l.yForLane(m_selectedLane);
            // Around the whole lane's bar, or a hedged copy's row only.
            double top = 0.12;
            double bottom = 0.88;
            if (m_model->isHedgedCopy(m_selectedLane, m_selectedAttempt)) {
                const auto [t, b] = copyRowInLane(TimelineModel::copyRow(m_selectedAttempt), m_model->copyRows(m_selectedLane));
                top = t - 2.5 / l.laneHeight;
                bottom = b + 2.5 / l.laneHeight;
            }
            const QRectF r(QPointF(l.xForTime(span->first / 1000.0) - 2, y + l.laneHeight * top),
                           QPointF(l.xForTime(span->second / 1000.0) + 2, y + l.laneHeight * bottom));
            painter->setPen(QPen(m_palette.selection, 2));
            painter->setBrush(Qt::NoBrush);
            painter->drawRoundedRect(r.adjusted(0, 0, r.width() < 4 ? 4 : 0, 0), 2, 2);
        }
    }
    // Lab events without an attempt id: ticks along the bottom edge.
    painter->setPen(QPen(m_palette.labReceived, 1));
    for (const TimelineMark& m : m_model->unmatchedLab()) {
        const double x = l.xForTime(m.startMs / 1000.0);
        painter->drawLine(QPointF(x, lanes.bottom() - 6), QPointF(x, lanes.bottom()));
    }
    painter->setClipRect(l.plot);
    if (m_nowMs > 0) {
        const double x = l.xForTime(m_nowMs / 1000.0);
        painter->setPen(QPen(m_palette.mutedText, 1, Qt::DashLine));
        painter->drawLine(QPointF(x, l.plot.top()), QPointF(x, l.plot.bottom()));
    }
    painter->restore();
}
