// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>

// Paces how often a chart replaces its series: request() pushes now, or once `interval` has passed since the
// last push. Until something has been shown, every push counts as the first, so data appears at once.
class PushPacer : public QObject
{
    Q_OBJECT
public:
    PushPacer(int intervalMs, std::function<void()> push, QObject* parent = nullptr);

    void request();
    // Call at the start of every push; SHOWN says whether the chart now holds any data.
    void pushing(bool shown);

private:
    int m_intervalMs;
    std::function<void()> m_push;
    QTimer m_timer;
    QElapsedTimer m_sinceLastPush;
};
