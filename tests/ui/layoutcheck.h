// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Geometry checks for a laid-out window, asserted on geometry, not pixels: no visible widget overlaps a
// visible sibling, and none sticks out of its parent, except where that is the design (the contents of
// a scroll area's viewport scroll under it; a status bar's size grip sits on it).

#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QMainWindow>
#include <QRubberBand>
#include <QSizeGrip>
#include <QStringList>
#include <QWidget>

namespace LayoutCheck {

inline QString describe(const QWidget* w)
{
    QString name = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty())
        name += QStringLiteral("#") + w->objectName();
    for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget()) {
        if (!p->objectName().isEmpty() && !p->objectName().startsWith(QLatin1String("qt_"))) {
            name += QStringLiteral(" in ") + QString::fromLatin1(p->metaObject()->className()) + QStringLiteral("#")
                + p->objectName();
            break;
        }
    }
    return name + QStringLiteral(" ") + QStringLiteral("%1,%2 %3×%4").arg(w->x()).arg(w->y()).arg(w->width()).arg(w->height());
}

// A dock tabbed behind another is kept visible by QMainWindow, but moved out of the window.
inline bool isTabbedAway(const QWidget* w)
{
    const auto* dock = qobject_cast<const QDockWidget*>(w);
    const auto* window = qobject_cast<const QMainWindow*>(w->parentWidget());
    return dock && window && !window->tabifiedDockWidgets(const_cast<QDockWidget*>(dock)).isEmpty()
        && !window->rect().intersects(dock->geometry());
}

inline bool skipped(const QWidget* w)
{
    return isTabbedAway(w) || !w->isVisible() || w->isWindow() || qobject_cast<const QRubberBand*>(w) || qobject_cast<const QSizeGrip*>(w)
        || w->objectName() == QLatin1String("qt_scrollarea_hcontainer") || w->objectName() == QLatin1String("qt_scrollarea_vcontainer")
        || w->inherits("QFocusFrame") || w->inherits("QTipLabel");
}

inline bool scrolls(const QWidget* parent)
{
    const auto* area = qobject_cast<const QAbstractScrollArea*>(parent ? parent->parentWidget() : nullptr);
    return area && area->viewport() == parent;
}

// Every problem under ROOT, one line each; empty when the layout is clean. TOLERANCE absorbs rounding.
inline QStringList problems(const QWidget* root, int tolerance = 1)
{
    QStringList out;
    QList<const QWidget*> children;
    for (const QObject* o : root->children()) {
        if (o->isWidgetType() && !skipped(static_cast<const QWidget*>(o)))
            children.append(static_cast<const QWidget*>(o));
    }
    const QRect inside = root->rect().adjusted(-tolerance, -tolerance, tolerance, tolerance);
    for (qsizetype i = 0; i < children.size(); ++i) {
        const QWidget* a = children.at(i);
        if (!scrolls(root) && !inside.contains(a->geometry()))
            out << QStringLiteral("%1 sticks out of %2").arg(describe(a), describe(root));
        for (qsizetype j = i + 1; j < children.size(); ++j) {
            const QRect overlap = a->geometry().intersected(children.at(j)->geometry());
            if (overlap.width() > tolerance && overlap.height() > tolerance)
                out << QStringLiteral("%1 overlaps %2").arg(describe(a), describe(children.at(j)));
        }
        out += problems(a, tolerance);
    }
    return out;
}

} // namespace LayoutCheck
