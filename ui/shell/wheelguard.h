// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Spin boxes and combo boxes take the mouse wheel only when they have the keyboard focus: scrolling a
// form over them scrolls the form instead of editing the field under the pointer (a policy's Attempt
// timeout went from 65 000 to 64 985 ms that way). Installed once on the application; every spin box and
// combo box gets the click-or-tab focus policy when it is polished, and a wheel event on one without focus
// is ignored, so it travels on to the scroll area around it.

#include <QObject>

class QApplication;

class WheelGuard final : public QObject
{
    Q_OBJECT
public:
    // Installs the guard on APP once (later calls do nothing).
    static void install(QApplication* app);
    static bool guards(const QObject* object); // a spin box or a combo box

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};
