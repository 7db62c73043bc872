// SPDX-License-Identifier: GPL-3.0-or-later
#include "windowshots.h"

#include "codeexport/codeexportpane.h"
#include "conformance/conformancemodel.h"
#include "conformance/conformanceview.h"
#include "editors/policyeditor.h"
#include "labview/labpanel.h"
#include "mainwindow.h"
#include "run/attemptspage.h"
#include "run/runcontroller.h"
#include "sessions/replayactions.h"
#include "timelineview.h"

#include "policy/presetcatalog.h"
#include "replay/replayrunner.h"

#include <QImage>
#include <QPixmap>
#include <QComboBox>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

using namespace Qt::StringLiterals;

WindowShots::WindowShots(MainWindow* window, const QString& directory)
    : QObject(window)
    , m_window(window)
    , m_dir(directory)
{
    RunController* controller = window->controller();
    QTimer::singleShot(1500, this, [this, controller] {
        if (!controller->isRunning())
            saveViews();
    });
    connect(controller, &RunController::runningChanged, this, [this](bool running) {
        if (!running)
            QTimer::singleShot(800, this, &WindowShots::saveViews);
    });
}

// A 256-colour palette keeps them small (the UI has few distinct colours).
void WindowShots::save(QWidget* widget, const QString& name) const
{
    widget->grab().toImage().convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither | Qt::AvoidDither)
        .save(m_dir.filePath(name), "PNG", 0);
}

void WindowShots::saveViews()
{
    if (m_started)
        return;
    m_started = true;
    m_dir.mkpath(u"."_s);
    MainWindow* w = m_window;
    save(w, u"main.png"_s);
    save(w->labPanel(), u"lab-panel.png"_s);
    w->liveViews()->setCurrentWidget(w->attemptsPage());
    w->attemptsPage()->table()->selectRow(0);
    w->policyEditor()->showPage(PolicyEditor::Page::Delays);
    QTimer::singleShot(300, this, [this, w] {
        save(w, u"main-attempts.png"_s);
        w->liveViews()->setCurrentWidget(w->timeline());
        save(w->policyEditor(), u"policy-editor.png"_s);
        w->policyEditor()->showPage(PolicyEditor::Page::Decisions);
        QTimer::singleShot(300, this, [this, w] {
            save(w->policyEditor(), u"policy-decisions.png"_s);
            w->policyEditor()->showPage(PolicyEditor::Page::Form);
            QTimer::singleShot(300, this, [this, w] {
                save(w->policyEditor(), u"policy-form.png"_s);
                w->policyEditor()->showPage(PolicyEditor::Page::Export);
                w->policyEditor()->exportPane()->selectTarget(u"got"_s);
                QTimer::singleShot(300, this, [this, w] {
                    save(w, u"policy-export.png"_s);
                    w->policyEditor()->showPage(PolicyEditor::Page::Form);
                    saveCompare();
                });
            });
        });
    });
}

// The session shown judged against curl-7.88 in the Conformance view, its first case that does not conform
// selected with its findings.
void WindowShots::saveConformance()
{
    MainWindow* w = m_window;
    ConformanceView* view = w->conformanceView();
    w->liveViews()->setCurrentWidget(view);
    view->policyBox()->setCurrentIndex(std::max(0, view->policyBox()->findData(u"curl-7.88"_s)));
    view->judgeShownSession();
    int row = 0;
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        if (const CaseResult* result = view->model()->result(r); result && !result->conforms()) {
            row = r;
            break;
        }
    }
    view->table()->selectRow(row);
    QTimer::singleShot(300, this, [this] {
        save(m_window, u"conformance.png"_s);
        m_window->close();
    });
}

// The batch just recorded, replayed offline under AWS standard retries and compared with the recording.
void WindowShots::saveCompare()
{
    const PolicyParseResult aws = PresetCatalog::load(u"aws-standard"_s);
    ReplayOptions options;
    if (aws.ok())
        options.policy = *aws.policy;
    ReplayActions* replays = m_window->replays();
    connect(replays, &ReplayActions::replayFinished, this, [this] {
        QTimer::singleShot(500, this, [this] {
            save(m_window, u"compare.png"_s);
            saveConformance();
        });
    }, Qt::SingleShotConnection);
    if (!replays->replay(options, tr("what-if under aws-standard"))) {
        disconnect(replays, &ReplayActions::replayFinished, this, nullptr);
        m_window->close();
    }
}
