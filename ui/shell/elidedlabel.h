// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A one-line label that never asks for more width than it gets: a long text is cut with "…" and shown
// whole in its tooltip. For the status bar, whose label would otherwise widen the window past the screen
// and draw over the widgets beside it.

#include <QWidget>

class ElidedLabel final : public QWidget
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget* parent = nullptr);

    QString text() const { return m_text; }
    bool isElided() const; // at the current width
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void setText(const QString& text);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_text;
};
