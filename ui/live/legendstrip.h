// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A row of legend entries (swatch + label) for views whose marks are not chart series, such as the
// timeline's phases, hatched waits and markers. Wraps onto more rows when narrow.

#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

class LegendStrip : public QWidget
{
    Q_OBJECT
public:
    enum class Swatch { Bar, Hatch, Circle, Square, Tick, Triangle, DashedLine };
    struct Entry
    {
        Swatch swatch = Swatch::Bar;
        QColor color;
        QString label;
    };

    explicit LegendStrip(QWidget* parent = nullptr);
    void setEntries(const QList<Entry>& entries);
    int entryCount() const { return int(m_entries.size()); }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    // Top-left of each entry when laid out in WIDTH; returns the total height.
    int layoutEntries(int width, QList<QPoint>* positions) const;
    int entryWidth(const Entry& entry) const;

    QList<Entry> m_entries;
};
