// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/playbackbar.h"

#include "sessions/sessionfeeder.h"

#include "session/sessionplayback.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace {

constexpr int kSliderSteps = 1000;

QToolButton* makeButton(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip)
{
    auto* b = new QToolButton(parent);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace

PlaybackBar::PlaybackBar(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(u"PlaybackBar"_s);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    auto* label = new QLabel(tr("Playback:"), this);
    m_start = makeButton(this, QStyle::SP_MediaSkipBackward, tr("Back to the start"));
    m_back = makeButton(this, QStyle::SP_MediaSeekBackward, tr("Undo the last event"));
    m_play = makeButton(this, QStyle::SP_MediaPlay, tr("Play the saved timeline (nothing is sent)"));
    m_forward = makeButton(this, QStyle::SP_MediaSeekForward, tr("Next event"));
    m_end = makeButton(this, QStyle::SP_MediaSkipForward, tr("Show everything"));
    m_speed = new QComboBox(this);
    m_speed->addItem(tr("1×"), 1.0);
    m_speed->addItem(tr("10×"), 10.0);
    m_speed->addItem(tr("100×"), 100.0);
    m_speed->addItem(tr("Max"), 0.0);
    m_speed->setToolTip(tr("Playback speed"));
    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setRange(0, kSliderSteps);
    m_slider->setToolTip(tr("Drag to move through the session's time"));
    m_slider->setMinimumWidth(fontMetrics().horizontalAdvance(u'M') * 6);
    m_time = new QLabel(this);
    m_time->setMinimumWidth(fontMetrics().horizontalAdvance(u"0000.0 s / 0000.0 s"_s));
    label->setBuddy(m_play);
    row->addWidget(label);
    for (QToolButton* b : { m_start, m_back, m_play, m_forward, m_end })
        row->addWidget(b);
    row->addWidget(m_speed);
    row->addWidget(m_slider, 1);
    row->addWidget(m_time);

    connect(m_start, &QToolButton::clicked, this, &PlaybackBar::toStart);
    connect(m_back, &QToolButton::clicked, this, &PlaybackBar::stepBackward);
    connect(m_play, &QToolButton::clicked, this, &PlaybackBar::playPause);
    connect(m_forward, &QToolButton::clicked, this, &PlaybackBar::stepForward);
    connect(m_end, &QToolButton::clicked, this, &PlaybackBar::toEnd);
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_feeder || !m_feeder->playback()->isPlaying())
            return;
        if (speed() > 0)
            m_feeder->playback()->play(speed()); // on at the new speed
        else
            m_feeder->showAll();
        updateState();
    });
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        if (m_sliderUpdating || !m_feeder)
            return;
        SessionPlayback* p = m_feeder->playback();
        const qint64 span = std::max<qint64>(1, p->endNs() - p->startNs());
        p->seek(p->startNs() + span * value / kSliderSteps);
    });
    updateState();
}

void PlaybackBar::setFeeder(SessionFeeder* feeder)
{
    if (m_feeder)
        disconnect(m_feeder->playback(), nullptr, this, nullptr);
    m_feeder = feeder;
    if (m_feeder) {
        SessionPlayback* p = m_feeder->playback();
        connect(p, &SessionPlayback::positionChanged, this, &PlaybackBar::onPosition);
        connect(p, &SessionPlayback::finished, this, &PlaybackBar::updateState);
        // Not setFeeder(nullptr): at destroyed() the feeder is only a QObject, so calling playback() on it is
        // undefined; its child playback, and with it the connections to this bar, goes right after.
        connect(m_feeder, &QObject::destroyed, this, [this] {
            m_feeder = nullptr;
            updateState();
        });
        onPosition(p->positionNs());
    }
    updateState();
}

double PlaybackBar::speed() const
{
    return m_speed->currentData().toDouble();
}

void PlaybackBar::setSpeedIndex(int index)
{
    m_speed->setCurrentIndex(index);
}

void PlaybackBar::playPause()
{
    if (!m_feeder)
        return;
    SessionPlayback* p = m_feeder->playback();
    if (p->isPlaying()) {
        p->pause();
    } else if (speed() <= 0) {
        m_feeder->showAll();
    } else {
        if (p->cursor() >= p->eventCount())
            m_feeder->showNone(); // played to the end: start again
        p->play(speed());
    }
    updateState();
}

void PlaybackBar::stepForward()
{
    if (m_feeder)
        m_feeder->playback()->stepForward();
    updateState();
}

void PlaybackBar::stepBackward()
{
    if (m_feeder)
        m_feeder->playback()->stepBackward();
    updateState();
}

void PlaybackBar::toStart()
{
    if (m_feeder)
        m_feeder->showNone();
    updateState();
}

void PlaybackBar::toEnd()
{
    if (m_feeder)
        m_feeder->showAll();
    updateState();
}

QString PlaybackBar::timeText(qint64 ns) const
{
    return tr("%1 s").arg(double(ns) / 1e9, 0, 'f', 1);
}

void PlaybackBar::onPosition(qint64 ns)
{
    if (!m_feeder)
        return;
    SessionPlayback* p = m_feeder->playback();
    const qint64 span = std::max<qint64>(1, p->endNs() - p->startNs());
    m_sliderUpdating = true;
    m_slider->setValue(int(std::clamp<qint64>((ns - p->startNs()) * kSliderSteps / span, 0, kSliderSteps)));
    m_sliderUpdating = false;
    m_time->setText(tr("%1 / %2").arg(timeText(std::max<qint64>(0, ns)), timeText(p->endNs())));
}

void PlaybackBar::updateState()
{
    const bool has = m_feeder && m_feeder->playback()->eventCount() > 0;
    for (QWidget* w : std::initializer_list<QWidget*> { m_start, m_back, m_play, m_forward, m_end, m_speed, m_slider })
        w->setEnabled(has);
    const bool playing = has && m_feeder->playback()->isPlaying();
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setToolTip(playing ? tr("Pause") : tr("Play the saved timeline (nothing is sent)"));
    if (!has)
        m_time->setText(tr("no session"));
}

void PlaybackBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::StyleChange)
        updateState();
    QWidget::changeEvent(event);
}
