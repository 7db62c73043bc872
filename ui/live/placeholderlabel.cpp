// SPDX-License-Identifier: GPL-3.0-or-later
#include "live/placeholderlabel.h"

#include <QApplication>

PlaceholderLabel::PlaceholderLabel(const QString& text, QWidget* parent)
    : QLabel(text, parent)
{
    setAlignment(Qt::AlignCenter);
    setWordWrap(true);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    setForegroundRole(QPalette::PlaceholderText);
    QFont f = QApplication::font(this);
    f.setPointSizeF(f.pointSizeF() * 1.4);
    setFont(f);
    setMargin(24);
}
