// SPDX-License-Identifier: GPL-3.0-or-later
// Not a test: the window with the Herd tab after metastable-osdi22 ran with its own two policies (one
// recovers, one collapses), saved at 1280×720 and at 1600×1000 — the whole window and the tab alone — for
// looking at them and for packaging/screenshots/herd-view.png. Run it under
//   xvfb-run -a -s '-screen 0 1600x1000x24' shot_herd DIR
#include "mainwindow.h"
#include "testtime.h"

#include "herd/form/herdexperimentform.h"
#include "herd/herdview.h"

#include <QApplication>
#include <QDir>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace {

void save(QWidget* w, const QDir& dir, const QString& name)
{
    QCoreApplication::processEvents();
    // Full colour: a 256-colour palette turns the charts' light trigger band into white.
    w->grab().save(dir.filePath(name), "PNG", 0);
    QTextStream(stdout) << dir.filePath(name) << ' ' << w->width() << 'x' << w->height() << '\n';
}

} // namespace

int main(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true); // the user's settings are left alone
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QDir out(args.size() > 1 ? args.at(1) : u"."_s);
    QDir().mkpath(out.path());
    const QString experiment = args.size() > 2 ? args.at(2) : u"metastable-osdi22"_s;

    MainWindow w(TestTime::instance().clock, TestTime::instance().scheduler);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 1;
    HerdView* herd = w.herdView();
    w.liveViews()->setCurrentWidget(herd);
    if (!herd->form()->loadBuiltIn(experiment))
        return 2;
    QTest::qWait(300);
    save(&w, out, u"herd-empty.png"_s);
    bool done = false;
    QObject::connect(herd, &HerdView::runFinished, &app, [&] { done = true; });
    if (!herd->run())
        return 3;
    if (!QTest::qWaitFor([&] { return done; }, 600'000))
        return 4;
    for (const QSize size : { QSize(1280, 720), QSize(1600, 1000) }) {
        w.showNormal();
        w.resize(size);
        QTest::qWait(800);
        const QString suffix = u"-%1x%2.png"_s.arg(size.width()).arg(size.height());
        save(&w, out, u"herd-window"_s + suffix);
        save(herd, out, u"herd-view"_s + suffix);
    }
    // The builder beside the charts, as on a wide screen (Run hid it in the narrower tab above).
    herd->setBuilderVisible(true);
    QTest::qWait(800);
    save(&w, out, u"herd-window-builder-1600x1000.png"_s);
    save(herd, out, u"herd-view-builder-1600x1000.png"_s);
    return 0;
}
