// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The message a live view shows instead of an empty chart ("Press Run to see attempts"): large, centred,
// in the palette's placeholder text colour (so it follows light and dark palettes).

#include <QLabel>

class PlaceholderLabel : public QLabel
{
    Q_OBJECT
public:
    explicit PlaceholderLabel(const QString& text, QWidget* parent = nullptr);
};
