// SPDX-License-Identifier: GPL-3.0-or-later
#include "ratelimitchartview.h"

#include "live/chartmarkeritem.h"
#include "livesession.h"
#include "live/legendstrip.h"
#include "live/placeholderlabel.h"
#include "live/timelinelayout.h"
#include "live/wholesessiondelta.h"

#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>

#include <QEvent>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

template<typename T>
QList<T> newest(const QList<T>& list, qsizetype max)
{
    return list.size() <= max ? list : list.mid(list.size() - max);
}

void setNiceRange(QValueAxis* axis, double low, double high, int ticks)
{
    if (high <= low)
        high = low + 1;
    const double step = niceTickStep(high - low, ticks);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(step);
    axis->setLabelFormat(u"%.%1f"_s.arg(decimalsForStep(step)));
    axis->setRange(std::floor(low / step) * step, std::ceil(high / step) * step);
}

} // namespace

RateLimitChartView::RateLimitChartView(LiveSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    m_chart = new QChart;
    m_timeAxis = new QValueAxis;
    m_timeAxis->setTitleText(tr("Time since the session started (s)"));
    m_valueAxis = new QValueAxis;
    m_valueAxis->setTitleText(tr("Quota units left / allowed"));
    m_chart->addAxis(m_timeAxis, Qt::AlignBottom);
    m_chart->addAxis(m_valueAxis, Qt::AlignLeft);
    m_rejected = new QScatterSeries;
    m_rejected->setName(tr("429 Too Many Requests"));
    m_resetLegend = new QLineSeries;
    m_resetLegend->setName(tr("Quota reset"));
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*> { m_rejected, m_resetLegend }) {
        m_chart->addSeries(s);
        s->attachAxis(m_timeAxis);
        s->attachAxis(m_valueAxis);
    }
    m_chart->legend()->hide(); // the strip above says every name in full
    m_resets = new ChartMarkerItem(m_chart, m_rejected);
    connect(m_chart, &QChart::plotAreaChanged, this, [this] { m_resets->relayout(); });
    connect(m_timeAxis, &QValueAxis::rangeChanged, this, [this] { m_resets->relayout(); });

    auto* view = new QChartView(m_chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setFrameShape(QFrame::NoFrame);
    m_placeholder = new PlaceholderLabel(tr("Press Run to see attempts"));
    m_legend = new LegendStrip;
    auto* page = new QWidget;
    auto* column = new QVBoxLayout(page);
    column->setContentsMargins(8, 6, 8, 0);
    column->setSpacing(2);
    column->addWidget(m_legend);
    column->addWidget(view, 1);
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(page);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_session, &LiveSession::refreshed, this, &RateLimitChartView::onRefreshed);
    connect(m_session, &LiveSession::cleared, this, &RateLimitChartView::onCleared);
    applyPalette();
    onRefreshed(wholeSessionDelta(*m_session));
}

QColor RateLimitChartView::trackColor(int track) const
{
    const ChartPalette& p = m_palette;
    const QColor colors[] = { p.firstByte, p.download, p.tls, p.connect, p.labApplied, p.throttleWait };
    return colors[track % int(std::size(colors))];
}

void RateLimitChartView::applyPalette()
{
    m_palette = ChartPalette::fromPalette(palette());
    applyChartPalette(m_chart, m_palette);
    m_rejected->setColor(m_palette.failure);
    m_rejected->setBorderColor(m_palette.plotBackground);
    m_rejected->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_rejected->setMarkerSize(14);
    m_resetLegend->setPen(QPen(trackColor(0), 1.5, Qt::DashLine));
    for (int i = 0; i < m_remaining.size(); ++i) {
        m_remaining[i]->setPen(QPen(trackColor(i), 2.4));
        QColor limit = trackColor(i);
        limit.setAlphaF(0.7f);
        m_limit[i]->setPen(QPen(limit, 1.5, Qt::DashDotLine));
    }
    using S = LegendStrip::Swatch;
    QList<LegendStrip::Entry> entries { { S::Triangle, m_palette.failure, m_rejected->name() },
        { S::DashedLine, trackColor(0), m_resetLegend->name() } };
    for (int i = 0; i < m_remaining.size(); ++i) {
        entries.append({ S::Line, trackColor(i), m_remaining.at(i)->name() });
        entries.append({ S::DashedLine, trackColor(i), m_limit.at(i)->name() });
    }
    m_legend->setEntries(entries);
}

void RateLimitChartView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        push();
    }
}

void RateLimitChartView::onRefreshed(const LiveSessionDelta& delta)
{
    const QDateTime origin = m_session->wallOriginUtc(); // answers' resets from when each came, not from now
    if (m_session->session() != m_urlSession) { // URL ids are the session's store's own
        m_urls.clear();
        m_urlSession = m_session->session();
    }
    for (qsizetype i = delta.attemptsBefore; i < delta.attemptsAfter && i < m_session->finishedAttempts(); ++i) {
        const StoredAttempt a = m_session->attempt(i);
        if (!a.hasRateLimitFields() && a.status() != 429)
            continue; // nothing else is plotted
        // What RateLimitSeries reads, and only that: the attempt's moments, status, rate-limit fields, the
        // answer's Date and the URL (parsed once per distinct URL).
        AttemptRecord facts;
        facts.at = m_session->attemptMoments(i);
        facts.status = a.status();
        facts.rateLimitHeaders = a.rateLimitFields();
        if (const QByteArrayView date = a.responseHeader("date"); !date.isNull())
            facts.responseHeaders.append({ "date", date.toByteArray() });
        auto url = m_urls.constFind(a.urlId());
        if (url == m_urls.cend())
            url = m_urls.insert(a.urlId(), QUrl::fromEncoded(a.url().toByteArray()));
        facts.url = *url;
        m_data.add(facts, origin);
    }
    if (delta.attemptsAfter > delta.attemptsBefore || delta.attemptsAfter == 0)
        schedulePush();
}

void RateLimitChartView::onCleared()
{
    m_data.clear();
    m_urls.clear(); // a cleared store numbers its strings anew
    m_urlSession = nullptr;
    for (const QList<QLineSeries*>* list : { &m_remaining, &m_limit }) {
        for (QLineSeries* s : *list) {
            m_chart->removeSeries(s);
            delete s;
        }
    }
    m_remaining.clear();
    m_limit.clear();
    push();
}

void RateLimitChartView::schedulePush()
{
    m_pacer.request();
}

void RateLimitChartView::push()
{
    m_pacer.pushing(m_data.sampleCount() != 0 || !m_data.rejections().isEmpty());
    const QList<RateLimitTrack>& tracks = m_data.tracks();
    const bool hasData = !tracks.isEmpty() || !m_data.rejections().isEmpty();
    m_placeholder->setText(m_session->finishedAttempts() == 0
            ? tr("Press Run to see attempts")
            : tr("No rate-limit headers seen yet.\nRemaining quota and resets appear here when the server sends "
                 "RateLimit, X-RateLimit-* or a similar dialect."));
    m_stack->setCurrentIndex(hasData ? 1 : 0);
    while (m_remaining.size() < std::min<qsizetype>(tracks.size(), kMaxTracks)) {
        const RateLimitTrack& t = tracks.at(m_remaining.size());
        auto* remaining = new QLineSeries;
        remaining->setName(tr("Remaining — %1").arg(t.label()));
        auto* limit = new QLineSeries;
        limit->setName(tr("Limit — %1").arg(t.label()));
        for (QLineSeries* s : { remaining, limit }) {
            m_chart->addSeries(s);
            s->attachAxis(m_timeAxis);
            s->attachAxis(m_valueAxis);
        }
        m_remaining.append(remaining);
        m_limit.append(limit);
        applyPalette();
    }
    // Steps hold until "now" (the playhead in playback); the axis also shows resets still to come.
    const double latest = m_session->nowMs() / 1000.0;
    double lastSample = latest;
    for (const RateLimitTrack& t : tracks) {
        if (!t.remaining.isEmpty())
            lastSample = std::max(lastSample, t.remaining.last().x());
    }
    for (const QPointF& r : m_data.rejections())
        lastSample = std::max(lastSample, r.x());
    // The axis ends with the session — plus the next reset while it runs — not at resets predicted past it.
    const double span = std::max(0.5, lastSample - m_data.minSeconds());
    const double horizon = lastSample + span * 0.1;
    double end = lastSample;
    // Readable at any length: the lowest report per 1/300 of the span (at least 50 ms), resets closer
    // than 1/60 of it (at least 250 ms) as one marker.
    const double slot = std::max(0.05, span / 300);
    const double near = std::max(0.25, span / 60);
    QList<QPair<double, QColor>> resets;
    const bool running = !m_session->inFlight().isEmpty();
    for (int i = 0; i < m_remaining.size(); ++i) {
        const RateLimitTrack& t = tracks.at(i);
        m_remaining[i]->replace(stepPoints(lowestPerInterval(newest(t.remaining, kMaxShownSamples), slot), latest));
        m_limit[i]->replace(stepPoints(lowestPerInterval(newest(t.limit, kMaxShownSamples), slot), latest));
        for (const double r : mergedResets(newest(t.resets, kMaxShownSamples / 4), near)) {
            const bool upcoming = running && r > horizon; // the next reset of a batch still running
            if (r > horizon && !upcoming)
                break;
            resets.append({ r, trackColor(i) });
            end = std::max(end, r);
            if (upcoming)
                break;
        }
    }
    m_rejected->replace(newest(m_data.rejections(), kMaxShownRejections));
    const double start = m_data.minSeconds();
    const double pad = std::max(0.2, (end - start) * 0.03);
    setNiceRange(m_timeAxis, std::max(0.0, start - pad), end + pad, 10);
    // A little room below zero, so 429 markers on an exhausted quota are not cut by the axis.
    const double top = std::max(1.0, m_data.maxValue() * 1.12);
    setNiceRange(m_valueAxis, 0, top, 6);
    m_valueAxis->setMin(-top * 0.04);
    m_resets->setValues(resets);
}

int RateLimitChartView::remainingPointCount(int track) const
{
    return track >= 0 && track < m_remaining.size() ? int(m_remaining.at(track)->count()) : 0;
}

int RateLimitChartView::resetMarkerCount() const
{
    return m_resets->markerCount();
}

int RateLimitChartView::rejectionCount() const
{
    return int(m_rejected->count());
}

QStringList RateLimitChartView::legendNames() const
{
    return m_legend->labels();
}

bool RateLimitChartView::isShowingPlaceholder() const
{
    return m_stack->currentIndex() == 0;
}
