// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Saves what a view shows as a picture: PNG (rendered at twice the widget's size, so it stays sharp in
// documents) or SVG (vector, through QSvgGenerator), chosen by the file's suffix. Written atomically.

#include <QString>

class QWidget;

namespace ChartExport {
bool save(QWidget* view, const QString& path, const QString& title, QString* error);
}
