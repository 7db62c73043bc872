// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/form/herdsecondsspinbox.h"

#include <QLocale>

HerdSecondsSpinBox::HerdSecondsSpinBox(QWidget* parent)
    : QDoubleSpinBox(parent)
{
    setDecimals(3);
    setRange(0, 1.0e6);
    setSingleStep(1);
    setSuffix(tr(" s"));
}

QString HerdSecondsSpinBox::textFromValue(double value) const
{
    QString text = locale().toString(value, 'f', decimals());
    const QString point = locale().decimalPoint();
    if (text.contains(point)) {
        while (text.endsWith(u'0'))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(point.size());
    }
    return text;
}
