// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A vertical scroll area for a dock's content: the content gets the viewport's width and height, and
// scrolls only when the viewport is shorter than the content's least height. (QScrollArea's resizable
// mode sizes a widget with wrapping labels by its preferred height-for-width, so it scrolls even when the
// content would fit.)

#include <QScrollArea>

class DockScrollArea final : public QScrollArea
{
    Q_OBJECT
public:
    explicit DockScrollArea(QWidget* content, QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void fitContent();
    int leastHeight(int width) const;
};
