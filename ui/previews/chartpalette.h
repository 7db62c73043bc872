// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QChart;
class QPalette;

// Gives a chart (background, title, legend, axes) the colours of PALETTE instead of Qt Charts' fixed
// light theme, so previews follow light and dark desktop themes. Call again on a palette change.
void applyPaletteToChart(QChart* chart, const QPalette& palette);
