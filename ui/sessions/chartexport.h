// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Saves what a view shows as a picture: PNG (rendered at twice the widget's size, so it stays sharp in
// documents) or SVG (vector, through QSvgGenerator), chosen by the file's suffix, written atomically.
// The picture is the view as data, not as a screen: the controls inside it (buttons, hints, tab bars —
// every child marked with markControl()) are left out, and a title band on top names what it shows
// (the view, the session, its policy, when it was recorded).

#include <QString>

class QImage;
class QWidget;

namespace ChartExport {
// WIDGET is a control, not data: exports leave it out.
void markControl(QWidget* widget);
bool isControl(const QWidget* widget);

bool save(QWidget* view, const QString& path, const QString& title, const QString& subtitle, QString* error);
// The PNG picture (tests look at it): the view without its controls, under the title band.
QImage render(QWidget* view, const QString& title, const QString& subtitle, qreal scale = 2.0);
}
