// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A duration on the experiment's axis in seconds, to the millisecond (a form that rounded 1.667 s to 1.7 s
// would not give back the experiment file it opened), shown without trailing zeros: "30 s", "1.667 s".

#include <QDoubleSpinBox>

class HerdSecondsSpinBox final : public QDoubleSpinBox
{
    Q_OBJECT
public:
    explicit HerdSecondsSpinBox(QWidget* parent = nullptr);

    QString textFromValue(double value) const override;
};
