// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/pushpacer.h"

#include <utility>

PushPacer::PushPacer(int intervalMs, std::function<void()> push, QObject* parent)
    : QObject(parent)
    , m_intervalMs(intervalMs)
    , m_push(std::move(push))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { m_push(); });
}

void PushPacer::request()
{
    if (m_timer.isActive())
        return;
    const qint64 since = m_sinceLastPush.isValid() ? m_sinceLastPush.elapsed() : m_intervalMs;
    if (since >= m_intervalMs)
        m_push();
    else
        m_timer.start(int(m_intervalMs - since));
}

void PushPacer::pushing(bool shown)
{
    m_timer.stop();
    if (shown)
        m_sinceLastPush.start();
    else
        m_sinceLastPush.invalidate();
}
