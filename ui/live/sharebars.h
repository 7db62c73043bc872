// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Horizontal bars, one per row, each with its count and share of the total: the Summary's outcome
// breakdown and attempts-per-run distribution.

#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

class ShareBars : public QWidget
{
    Q_OBJECT
public:
    struct Row
    {
        QString label;
        int count = 0;
        QColor color;
        friend bool operator==(const Row&, const Row&) = default;
    };

    explicit ShareBars(const QString& emptyText, QWidget* parent = nullptr);
    void setRows(const QList<Row>& rows);
    int rowCount() const { return int(m_rows.size()); }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_emptyText;
    QList<Row> m_rows;
};
