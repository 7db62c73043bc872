// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Plays a saved session's timeline in the live views without sending anything: to start, step back, play
// or pause, step forward, to end; speed 1×, 10×, 100× or max; a slider to seek. Disabled while nothing
// is loaded or while a batch runs.

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;
class SessionFeeder;

class PlaybackBar final : public QWidget
{
    Q_OBJECT
public:
    explicit PlaybackBar(QWidget* parent = nullptr);

    void setFeeder(SessionFeeder* feeder); // null: nothing to play
    SessionFeeder* feeder() const { return m_feeder; }
    double speed() const; // 0: max
    void setSpeedIndex(int index);

public Q_SLOTS:
    void playPause();
    void stepForward();
    void stepBackward();
    void toStart();
    void toEnd();

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateState();
    void onPosition(qint64 ns);
    QString timeText(qint64 ns) const;

    SessionFeeder* m_feeder = nullptr;
    QToolButton* m_start = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_forward = nullptr;
    QToolButton* m_end = nullptr;
    QComboBox* m_speed = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_time = nullptr;
    bool m_sliderUpdating = false;
};
