// SPDX-License-Identifier: GPL-3.0-or-later
// Not a test: the window with the policy editor showing ms-http-standard's pipeline (the list, the nested
// boxes, the breaker's fields), on whatever screen the platform gives it — run it under
//   xvfb-run -s '-screen 0 1280x720x24' shot_policypipeline --out DIR
// and again at 1600x1000x24. Saves policy-pipeline-window.png (the window) and policy-pipeline.png (the
// policy dock), for looking at them and for packaging/screenshots/.
#include "mainwindow.h"
#include "testtime.h"

#include "editors/pipelinediagram.h"
#include "editors/policyeditor.h"
#include "editors/policyform.h"
#include "editors/policylists/policylistsection.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QDockWidget>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTest>
#include <QTextStream>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

void save(QWidget* w, const QDir& dir, const QString& name)
{
    QCoreApplication::processEvents();
    // A 256-colour palette keeps them small, as the README's others are.
    w->grab().toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither | Qt::AvoidDither).save(dir.filePath(name), "PNG", 0);
    QTextStream(stdout) << dir.filePath(name) << ' ' << w->width() << 'x' << w->height() << '\n';
}

} // namespace

int main(int argc, char** argv)
{
    QStandardPaths::setTestModeEnabled(true); // the user's settings are left alone
    QApplication app(argc, argv);
    QCommandLineParser cli;
    cli.addOption({ u"out"_s, u"directory for the PNGs"_s, u"dir"_s, u"."_s });
    cli.addOption({ u"row"_s, u"the strategy to select"_s, u"n"_s, u"3"_s });
    cli.process(app);
    const QDir out(cli.value(u"out"_s));
    QDir().mkpath(out.path());

    MainWindow w(TestTime::instance().clock, TestTime::instance().scheduler);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 1;
    if (auto* dock = w.findChild<QDockWidget*>(u"PolicyDock"_s))
        dock->raise();
    PolicyEditor* editor = w.policyEditor();
    if (!editor->loadPreset(u"ms-http-standard"_s))
        return 2;
    editor->showPage(PolicyEditor::Page::Form);
    PolicyListSection* section = editor->form()->pipelineSection();
    section->setCurrentRow(cli.value(u"row"_s).toInt());
    QTest::qWait(300);
    // The form scrolled to the pipeline's list.
    for (QWidget* p = editor->form()->parentWidget(); p; p = p->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
            // The list from its label down; further when the diagram would not fit below it (a short dock).
            const int em = editor->fontMetrics().height();
            const PipelineDiagram* diagram = editor->form()->pipelineDiagram();
            const int listTop = section->mapTo(editor->form(), QPoint(0, 0)).y() - 2 * em;
            const int diagramBottom = diagram->mapTo(editor->form(), QPoint(0, diagram->height())).y() + em / 2;
            area->verticalScrollBar()->setValue(std::max(listTop, diagramBottom - area->viewport()->height()));
            break;
        }
    }
    QTest::qWait(300);
    save(&w, out, u"policy-pipeline-window.png"_s);
    save(editor, out, u"policy-pipeline.png"_s);
    save(editor->form()->pipelineDiagram(), out, u"policy-pipeline-diagram.png"_s);
    // The pipeline section whole, with each kind's editor: hedging from ms-http-hedging, then the breaker.
    section->setCurrentRow(3);
    QTest::qWait(200);
    save(section, out, u"policy-pipeline-breaker.png"_s);
    if (editor->loadPreset(u"ms-http-hedging"_s)) {
        section->setCurrentRow(1);
        QTest::qWait(200);
        save(section, out, u"policy-pipeline-hedging.png"_s);
    }
    return 0;
}
