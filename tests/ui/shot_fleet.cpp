// SPDX-License-Identifier: GPL-3.0-or-later
// Not a test: a fleet session (`retrylab fleet … --session S`) opened in the window — the Timeline draws its
// thousands of runs as aggregate bands — and the same fleet's --compare-herd report in the Herd tab, saved
// at 1280×720 and 1600×1000, for looking at them and for packaging/screenshots/fleet-*.png. Run it under
//   xvfb-run -a -s '-screen 0 1600x1000x24' shot_fleet DIR SESSION REPORT
#include "mainwindow.h"
#include "testtime.h"

#include "herd/herdview.h"
#include "sessions/sessionfileactions.h"
#include "live/timelinebandschart.h"
#include "timelineview.h"

#include <QtCharts/QChart>

#include <QApplication>
#include <QDir>
#include <QHelpEvent>
#include <QScreen>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTextStream>
#include <QWheelEvent>

using namespace Qt::StringLiterals;

namespace {

void save(QWidget* w, const QDir& dir, const QString& name)
{
    QCoreApplication::processEvents();
    w->grab().save(dir.filePath(name), "PNG", 0);
    QTextStream(stdout) << dir.filePath(name) << ' ' << w->width() << 'x' << w->height() << '\n';
}

} // namespace

int main(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true); // the user's settings are left alone
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 4) {
        QTextStream(stderr) << "usage: shot_fleet DIR SESSION REPORT\n";
        return 1;
    }
    const QDir out(args.at(1));
    QDir().mkpath(out.path());

    MainWindow w(TestTime::instance().clock, TestTime::instance().scheduler);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 2;
    if (!w.sessionFiles()->openSession(args.at(2)))
        return 3;
    TimelineView* timeline = w.timeline();
    if (!QTest::qWaitFor([&] { return timeline->laneCount() > timeline->bandThreshold(); }, 120'000))
        return 4;
    w.liveViews()->setCurrentWidget(timeline->parentWidget() && w.liveViews()->indexOf(timeline) < 0
            ? timeline->parentWidget()
            : timeline);
    QTest::qWait(1500);
    for (const QSize size : { QSize(1280, 720), QSize(1600, 1000) }) {
        w.showNormal();
        w.resize(size);
        QTest::qWait(800);
        timeline->resetZoom();
        QTest::qWait(300);
        const QString suffix = u"-%1x%2.png"_s.arg(size.width()).arg(size.height());
        save(&w, out, u"fleet-timeline-window"_s + suffix);
        save(timeline, out, u"fleet-timeline"_s + suffix);
    }
    QTextStream(stdout) << "runs " << timeline->laneCount() << ", bands " << timeline->isShowingBands() << '\n';
    // Zoomed in with the wheel about the middle, the bucket under the pointer told by its tooltip: a window of its
    // own, so the screen is grabbed, not the widget.
    if (TimelineBandsChart* bands = timeline->bandsChart()) {
        w.move(0, 0); // the whole window on the screen grab (no window manager places it under xvfb)
        QTest::qWait(300);
        const QRectF plot = bands->chart()->plotArea();
        const QPoint middle = bands->mapFromScene(bands->chart()->mapToScene(plot.center()));
        QWheelEvent wheel(middle, bands->viewport()->mapToGlobal(middle), QPoint(), QPoint(0, 360), Qt::NoButton,
            Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(bands->viewport(), &wheel);
        QTest::qWait(300);
        QTest::mouseMove(bands->viewport(), middle);
        QHelpEvent help(QEvent::ToolTip, middle, bands->viewport()->mapToGlobal(middle));
        QCoreApplication::sendEvent(bands->viewport(), &help);
        QTest::qWait(800);
        const QString path = out.filePath(u"fleet-timeline-tooltip.png"_s);
        w.screen()->grabWindow(0).save(path, "PNG", 0);
        QTextStream(stdout) << path << " (screen)\n";
        timeline->resetZoom();
    }

    HerdView* herd = w.herdView();
    w.liveViews()->setCurrentWidget(herd);
    if (const QString problem = herd->openFleetResult(args.at(3)); !problem.isEmpty()) {
        QTextStream(stderr) << problem << '\n';
        return 5;
    }
    for (const QSize size : { QSize(1280, 720), QSize(1600, 1000) }) {
        w.showNormal();
        w.resize(size);
        QTest::qWait(800);
        const QString suffix = u"-%1x%2.png"_s.arg(size.width()).arg(size.height());
        save(&w, out, u"fleet-herd-window"_s + suffix);
        save(herd, out, u"fleet-herd"_s + suffix);
    }
    return 0;
}
