// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The outcome breakdown of the Summary view: one horizontal bar per final kind (success, rate-limited,
// server error, …) with its count and share, success in the palette's success colour.

#include "live/chartpalette.h"
#include "policy/retrydecision.h"

#include <QList>
#include <QWidget>

class OutcomeBars : public QWidget
{
    Q_OBJECT
public:
    explicit OutcomeBars(QWidget* parent = nullptr);
    void setOutcomes(const QList<QPair<FinalKind, int>>& outcomes);
    int rowCount() const { return int(m_outcomes.size()); }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    static QString outcomeLabel(FinalKind kind); // translated, for people: "Rate limited"

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QList<QPair<FinalKind, int>> m_outcomes;
};
