// SPDX-License-Identifier: GPL-3.0-or-later
#include "shell/wheelguard.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QEvent>

void WheelGuard::install(QApplication* app)
{
    if (!app || app->findChild<WheelGuard*>(QString(), Qt::FindDirectChildrenOnly))
        return;
    app->installEventFilter(new WheelGuard(app));
}

bool WheelGuard::guards(const QObject* object)
{
    return qobject_cast<const QAbstractSpinBox*>(object) || qobject_cast<const QComboBox*>(object);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::Wheel && type != QEvent::Polish)
        return false;
    if (!watched->isWidgetType() || !guards(watched))
        return false;
    auto* widget = static_cast<QWidget*>(watched);
    if (type == QEvent::Polish) {
        // WheelFocus (their default) would give them the focus on the first wheel turn.
        if (widget->focusPolicy() == Qt::WheelFocus)
            widget->setFocusPolicy(Qt::StrongFocus);
        return false;
    }
    if (widget->hasFocus())
        return false;
    event->ignore(); // not accepted: QApplication passes it on to the parent (the scroll area)
    return true;
}
