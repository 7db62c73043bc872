// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A row of legend entries (swatch + label): the timeline's phases, hatched waits and markers, and the
// charts' series (Qt Charts' own legend cuts long names: "Remaining — 127.0.0.1:437…"). Wraps onto more
// rows when narrow, and a label wider than the strip wraps onto more lines: a name is never cut.

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

class LegendStrip : public QWidget
{
    Q_OBJECT
public:
    // Refused: a hollow circle struck through; States: a bar in three colours (color, second, third);
    // CopyWon, CopyLost: a hedged copy's bar (color) that won (outlined in second) or lost (faded, a stop
    // bar in second).
    enum class Swatch { Bar, Hatch, Circle, Square, Tick, Triangle, DashedLine, Line, Band, Refused, States, CopyWon, CopyLost };
    struct Entry
    {
        Entry() = default;
        Entry(Swatch swatch, const QColor& color, const QString& label, const QColor& second = {}, const QColor& third = {})
            : swatch(swatch)
            , color(color)
            , label(label)
            , second(second)
            , third(third)
        {
        }
        Swatch swatch = Swatch::Bar;
        QColor color;
        QString label;
        QColor second; // States only
        QColor third;
    };

    explicit LegendStrip(QWidget* parent = nullptr);
    void setEntries(const QList<Entry>& entries);
    int entryCount() const { return int(m_entries.size()); }
    QStringList labels() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    // Each entry's rectangle when laid out in WIDTH; returns the total height.
    int layoutEntries(int width, QList<QRect>* rects) const;
    int entryWidth(const Entry& entry) const; // on one line
    QRect labelRect(const Entry& entry, int width) const; // the label wrapped to WIDTH

    QList<Entry> m_entries;
};
