// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One figure of the Summary view: a caption, a large value and a line of detail.

#include <QFrame>

class QLabel;

class SummaryTile : public QFrame
{
    Q_OBJECT
public:
    explicit SummaryTile(const QString& caption, QWidget* parent = nullptr);
    void setValue(const QString& value, const QString& detail = {});
    void setValueColor(const QColor& color); // invalid colour: the palette's text colour
    QString value() const;
    QString detail() const;

private:
    QLabel* m_caption;
    QLabel* m_value;
    QLabel* m_detail;
};
