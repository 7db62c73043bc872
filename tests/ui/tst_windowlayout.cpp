// SPDX-License-Identifier: GPL-3.0-or-later
// The main window fits the screen (issue 15 item 2): it opens within the available area, a saved geometry
// is restored only when it fits, and the layout is clean — no widget over another, none cut off, the status
// bar shown — on a 1280×720 screen and, as a second CTest entry, on 1600×1000 at QT_SCALE_FACTOR=2 (an
// 800×500 logical screen). The screen is the offscreen platform's, sized by RETRYLAB_TEST_SCREEN.
#include "layoutcheck.h"
#include "mainwindow.h"
#include "testtime.h"

#include "appsettings.h"
#include "editors/pipelinediagram.h"
#include "editors/policyeditor.h"
#include "editors/policyform.h"
#include "editors/policylists/policylistmodel.h"
#include "editors/policylists/policylistsection.h"
#include "editors/requesteditor.h"
#include "run/runcontroller.h"
#include "editors/curlpastedialog.h"
#include "editors/requestoptionsdialog.h"
#include "labview/labpanel.h"
#include "labview/scenarioeditor.h"
#include "labview/stepform.h"
#include "shell/elidedlabel.h"
#include "shell/helpwindow.h"
#include "shell/windowfit.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QMenuBar>
#include <QProgressBar>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

using namespace Qt::StringLiterals;

class TestWindowLayout : public QObject
{
    Q_OBJECT

    static QRect available() { return QGuiApplication::primaryScreen()->availableGeometry(); }

    static void checkClean(MainWindow& window, const char* when)
    {
        QCoreApplication::processEvents();
        const QRect screen = available();
        QVERIFY2(screen.contains(window.frameGeometry()),
            qPrintable(u"%1: window %2,%3 %4×%5 is not within the screen's %6×%7"_s.arg(QLatin1String(when))
                           .arg(window.frameGeometry().x()).arg(window.frameGeometry().y())
                           .arg(window.frameGeometry().width()).arg(window.frameGeometry().height())
                           .arg(screen.width()).arg(screen.height())));
        const QStringList problems = LayoutCheck::problems(&window);
        QVERIFY2(problems.isEmpty(), qPrintable(QLatin1String(when) + u":\n"_s + problems.mid(0, 12).join(u'\n')));
        // The status bar and its text are on screen, below everything else.
        QStatusBar* bar = window.statusBar();
        QVERIFY(bar->isVisible());
        QVERIFY(window.rect().contains(bar->geometry()));
        QVERIFY(bar->height() >= bar->fontMetrics().height());
        QVERIFY(window.statusText()->width() > 100);
        // The views keep a usable width and height.
        QVERIFY2(window.liveViews()->width() >= 300 && window.liveViews()->height() >= 200,
            qPrintable(u"%1×%2"_s.arg(window.liveViews()->width()).arg(window.liveViews()->height())));
    }

private Q_SLOTS:
    void initTestCase()
    {
        qInfo("screen %d×%d, scale %s", available().width(), available().height(),
            qgetenv("QT_SCALE_FACTOR").isEmpty() ? "1" : qgetenv("QT_SCALE_FACTOR").constData());
    }

    void fitArithmetic()
    {
        const QRect big(0, 0, 1920, 1080);
        QCOMPARE(WindowFit::initial(big).size(), WindowFit::kPreferred);
        QVERIFY(big.contains(WindowFit::initial(big)));
        const QRect small(0, 27, 1366, 741);
        QCOMPARE(WindowFit::initial(small), QRect(0, 27, 1366, 741));
        const QRect narrow(0, 0, 800, 1000);
        QCOMPARE(WindowFit::initial(narrow).size(), QSize(800, 940));
        QCOMPARE(WindowFit::placed(QRect(0, 0, 3000, 1880), QRect(0, 0, 800, 500)), std::nullopt);
        QCOMPARE(WindowFit::placed(QRect(10, 10, 700, 400), QRect(0, 0, 800, 500)), QRect(10, 10, 700, 400));
        QVERIFY(WindowFit::compact(QRect(0, 0, 800, 500)) && !WindowFit::compact(big));
        QVERIFY(WindowFit::tooShortToStack(QRect(0, 0, 1280, 720)) && !WindowFit::tooShortToStack(big));
        QCOMPARE(WindowFit::placed(QRect(6, 20, 760, 490), QRect(0, 0, 800, 500)), QRect(6, 10, 760, 490));
        QCOMPARE(WindowFit::placed(QRect(0, 0, 801, 400), QRect(0, 0, 800, 500)), std::nullopt);
    }

    void opensWithinTheScreen()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (qEnvironmentVariableIsSet("DIAG")) {
            const auto dump = [](QWidget* w, int depth, auto&& self) -> void {
                if ((!w->isVisible() && !qEnvironmentVariableIsSet("DIAGALL")) || depth > 9 || (depth > 0 && w->isWindow())) return;
                const QSize m = w->minimumSizeHint().expandedTo(w->minimumSize());
                if (m.width() > 200 || m.height() > 200)
                    qInfo("%s%s min %dx%d size %dx%d", qPrintable(QString(depth * 2, u' ')), qPrintable(LayoutCheck::describe(w)), m.width(), m.height(), w->width(), w->height());
                for (QObject* o : w->children()) if (o->isWidgetType()) self(static_cast<QWidget*>(o), depth + 1, self);
            };
            dump(&window, 0, dump);
        }
        checkClean(window, "at start");
        QCOMPARE(window.isCompactLayout(), WindowFit::compact(available()));
        // The View menu's dock toggles work.
        for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
            QVERIFY(dock->toggleViewAction()->isEnabled());
            QVERIFY(dock->toggleViewAction()->isChecked());
        }
        // Nothing in the status bar pretends a batch ran.
        QVERIFY(!window.progressBar()->isVisible());
    }

    void staysCleanThroughEveryView()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.controller()->setRecordingDirectory(QString());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.requestEditor()->setRepeatCount(3);
        window.runManyAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller()->isRunning(), 90000);
        QTRY_VERIFY(window.progressBar()->isVisible());
        for (int i = 0; i < window.liveViews()->count(); ++i) {
            window.liveViews()->setCurrentIndex(i);
            const QByteArray when = "view " + window.liveViews()->tabText(i).remove(u'&').toUtf8();
            checkClean(window, when.constData());
        }
        for (int i = 0; i < window.policyEditor()->tabs()->count(); ++i) {
            window.policyEditor()->tabs()->setCurrentIndex(i);
            checkClean(window, "policy editor tab");
        }
    }

    // The dialogs of the request editor and the help window lay out cleanly on this screen too.
    void dialogsAreClean()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.requestEditor()->pasteCurl();
        QDialog* paste = window.requestEditor()->curlDialog();
        QVERIFY(paste);
        static_cast<CurlPasteDialog*>(paste)->setText(u"curl -sS -X POST https://api.example.com/v1/charges -u k: "
                                                       "--data-raw '{}' --compressed --retry 3 -m 10 -k"_s);
        QVERIFY(QTest::qWaitForWindowExposed(paste));
        QCoreApplication::processEvents();
        QVERIFY2(LayoutCheck::problems(paste).isEmpty(), qPrintable(LayoutCheck::problems(paste).join(u'\n')));
        paste->reject();
        for (QToolButton* b : window.requestEditor()->findChildren<QToolButton*>()) {
            if (b->text() == u"Options…"_s)
                b->click();
        }
        auto* options = window.requestEditor()->findChild<RequestOptionsDialog*>();
        QVERIFY(options);
        QVERIFY(QTest::qWaitForWindowExposed(options));
        QCoreApplication::processEvents();
        QVERIFY2(LayoutCheck::problems(options).isEmpty(), qPrintable(LayoutCheck::problems(options).join(u'\n')));
        options->reject();
        window.showHelpPage(0);
        QVERIFY(QTest::qWaitForWindowExposed(window.helpWindow()));
        QVERIFY(LayoutCheck::problems(window.helpWindow()).isEmpty());
    }

    // The policy editor showing the deepest pipeline preset (ms-http-standard: five strategies, issue 28 §4),
    // each strategy selected in turn: clean on this screen, the diagram's boxes each strictly inside the one
    // before, the outermost within the diagram, and the section no wider than the room the form scrolls in.
    void pipelineSectionIsClean()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (auto* dock = window.findChild<QDockWidget*>(u"PolicyDock"_s))
            dock->raise();
        PolicyEditor* editor = window.policyEditor();
        QVERIFY(editor->loadPreset(u"ms-http-standard"_s));
        editor->showPage(PolicyEditor::Page::Form);
        PolicyListSection* section = editor->form()->pipelineSection();
        PipelineDiagram* diagram = editor->form()->pipelineDiagram();
        for (int row = 0; row < section->model()->rowCount(); ++row) {
            section->setCurrentRow(row);
            QTest::qWait(50);
            checkClean(window, "pipeline strategy selected");
            const QList<QRect> boxes = diagram->boxes();
            QCOMPARE(boxes.size(), 6);
            QVERIFY(diagram->rect().contains(boxes.first()));
            for (qsizetype i = 1; i < boxes.size(); ++i) {
                const QRect& outer = boxes.at(i - 1);
                const QRect& inner = boxes.at(i);
                QVERIFY2(inner.left() > outer.left() && inner.top() > outer.top() && inner.right() < outer.right()
                        && inner.bottom() < outer.bottom(),
                    qPrintable(u"box %1 is not strictly inside box %2 at %3 px"_s.arg(i).arg(i - 1).arg(diagram->width())));
            }
            QVERIFY2(section->width() <= editor->form()->width(),
                qPrintable(u"%1 px in a form of %2 px"_s.arg(section->width()).arg(editor->form()->width())));
        }
    }

    // The lab panel editing its scenario (issue 12 §4): clean on this screen, and the selected item's form
    // as wide as the room it scrolls in (nothing under the scroll bar or cut off at the dock's edge).
    void labEditorIsClean()
    {
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (auto* dock = window.findChild<QDockWidget*>(u"LabDock"_s))
            dock->raise();
        window.labPanel()->setEditing(true);
        ScenarioEditor* editor = window.labPanel()->editor();
        QVERIFY(editor->isVisible());
        QWidget* forms = editor->stepForm()->parentWidget();
        const std::pair<int, int> items[] = { { 0, -1 }, { 0, 2 }, { 1, 0 } };
        for (const auto& [route, step] : items) {
            editor->select(route, step);
            QCoreApplication::processEvents();
            const QByteArray when = "lab editor, route " + QByteArray::number(route) + " step " + QByteArray::number(step);
            checkClean(window, when.constData());
            QVERIFY2(forms->width() <= forms->parentWidget()->width(),
                qPrintable(u"%1: form %2 wide in %3"_s.arg(QLatin1String(when)).arg(forms->width()).arg(forms->parentWidget()->width())));
        }
    }

    void restoresASavedGeometryOnlyIfItFits()
    {
        const QRect screen = available();
        {
            MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
            window.setGeometry(QRect(screen.topLeft(), QSize(screen.width() * 2, screen.height() * 2)));
            AppSettings().saveWindow(window);
        }
        {
            MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY2(screen.contains(window.frameGeometry()), "a geometry saved on a larger screen is not restored");
        }
        QRect fitting;
        {
            MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
            const QSize least = window.minimumSizeHint();
            const QSize initial = WindowFit::initial(screen).size();
            fitting = QRect(screen.topLeft() + QPoint(6, 6),
                QSize(std::max(least.width(), initial.width() - 40), std::max(least.height(), initial.height() - 20)));
            QVERIFY2(screen.contains(fitting.adjusted(-2, -2, 2, 2)), "the window's least size fits the screen");
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.setWindowState(Qt::WindowNoState); // it opens maximized where the preferred size is cut
            window.setGeometry(fitting);
            QTRY_COMPARE(window.geometry(), fitting);
            window.close(); // saves
        }
        MainWindow window(TestTime::instance().clock, TestTime::instance().scheduler);
        QVERIFY2(!window.isMaximized(), "restored as it was left");
        QCOMPARE(window.geometry().size(), fitting.size());
    }
};

int main(int argc, char** argv)
{
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", home.filePath(u"config"_s).toLocal8Bit());
    qputenv("XDG_DATA_HOME", home.filePath(u"data"_s).toLocal8Bit());
    const QByteArray size = qEnvironmentVariableIsSet("RETRYLAB_TEST_SCREEN") ? qgetenv("RETRYLAB_TEST_SCREEN") : QByteArray("1280x720");
    const QList<QByteArray> wh = size.split('x');
    QFile config(home.filePath(u"screens.json"_s));
    if (!config.open(QIODevice::WriteOnly))
        return 2;
    config.write("{ \"screens\": [ { \"name\": \"test\", \"x\": 0, \"y\": 0, \"width\": " + wh.value(0) + ", \"height\": "
        + wh.value(1) + ", \"logicalDpi\": 96, \"logicalBaseDpi\": 96, \"dpr\": 1 } ] }");
    config.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.fileName().toLocal8Bit());
    QApplication app(argc, argv);
    TestWindowLayout test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_windowlayout.moc"
