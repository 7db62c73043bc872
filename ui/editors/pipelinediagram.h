// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A pipeline as nested boxes, outermost first: each strategy a box around the next, the attempt itself
// innermost. Each box is headed by its label, wrapped to the box's width, so nothing is cut off at any
// width the widget gets; its height follows its width (heightForWidth). The selected box is highlighted,
// and a click on a box selects it (boxClicked).

#include <QList>
#include <QRect>
#include <QStringList>
#include <QWidget>

class PipelineDiagram : public QWidget
{
    Q_OBJECT
public:
    explicit PipelineDiagram(QWidget* parent = nullptr);

    // LABELS outermost first, one box each; INNERMOST labels the box in the middle (the attempt).
    void setBoxes(const QStringList& labels, const QString& innermost);
    QStringList labels() const { return m_labels; }
    void setSelected(int box); // -1: none
    int selected() const { return m_selected; }

    // The boxes at WIDTH, outermost first, the innermost last (labels().size() + 1 of them).
    QList<QRect> boxesAt(int width) const;
    QList<QRect> boxes() const { return boxesAt(width()); }
    // The strategy's box at POS, the deepest one holding it; -1 for the innermost or none.
    int boxAt(const QPoint& pos) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void boxClicked(int box);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Metrics
    {
        int inset; // between a box's side and the next box's
        int gap; // between a box's bottom and the next box's
        int pad; // around a label inside its box
    };
    Metrics metrics() const;
    // The height LABEL needs wrapped into a box of WIDTH.
    int labelHeight(const QString& label, int width) const;
    QString labelOf(int box) const;

    QStringList m_labels;
    QString m_innermost;
    int m_selected = -1;
};
