// SPDX-License-Identifier: GPL-3.0-or-later
// ScenarioEditor, what its buttons do: a new scenario, rows added, removed and moved, Save As.
#include "labview/scenarioeditor.h"

#include "labview/scenarioeditmodel.h"

#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QSaveFile>
#include <QTreeView>

using namespace Qt::StringLiterals;

namespace {

QJsonObject newStep()
{
    return QJsonObject { { u"kind"_s, u"respond"_s } };
}

} // namespace

void ScenarioEditor::newScenario()
{
    QJsonObject document { { u"format"_s, FaultScenario::currentFormat }, { u"name"_s, tr("my-scenario") }, { u"seed"_s, 1 },
        { u"routes"_s, QJsonArray { QJsonObject { { u"path"_s, u"/**"_s }, { u"steps"_s, QJsonArray { newStep() } } } } } };
    if (m_model->document().contains(u"upstream"_s))
        document.insert(u"upstream"_s, m_model->document().value(u"upstream"_s));
    setDocument(document);
    m_applied = {};
    applyNow();
    select(0, 0);
}

void ScenarioEditor::addRoute()
{
    const int at = ScenarioEditModel::routeOf(m_tree->currentIndex()) + 1;
    m_model->insertRoute(at > 0 ? at : m_model->routeCount(),
        QJsonObject { { u"path"_s, u"/**"_s }, { u"steps"_s, QJsonArray { newStep() } } });
    const int route = at > 0 ? at : m_model->routeCount() - 1;
    m_tree->expand(m_model->routeIndex(route));
    select(route);
}

void ScenarioEditor::addStep()
{
    const QModelIndex current = m_tree->currentIndex();
    const int route = ScenarioEditModel::routeOf(current);
    if (route < 0)
        return;
    const int step = ScenarioEditModel::stepOf(current);
    const int at = step >= 0 ? step + 1 : m_model->stepCount(route);
    m_model->insertStep(route, at, newStep());
    m_tree->expand(m_model->routeIndex(route));
    select(route, at);
}

void ScenarioEditor::removeSelected()
{
    const QModelIndex current = m_tree->currentIndex();
    const int route = ScenarioEditModel::routeOf(current);
    const int step = ScenarioEditModel::stepOf(current);
    if (route < 0)
        return;
    if (step >= 0) {
        m_model->removeStep(route, step);
        if (m_model->stepCount(route))
            select(route, std::min(step, m_model->stepCount(route) - 1));
        else
            select(route);
    } else {
        m_model->removeRoute(route);
        if (m_model->routeCount())
            select(std::min(route, m_model->routeCount() - 1));
    }
}

void ScenarioEditor::moveSelected(int by)
{
    const QModelIndex current = m_tree->currentIndex();
    const int route = ScenarioEditModel::routeOf(current);
    const int step = ScenarioEditModel::stepOf(current);
    if (route < 0)
        return;
    if (step >= 0) {
        const int to = step + by;
        if (to < 0 || to >= m_model->stepCount(route))
            return;
        m_model->moveStep(route, step, to);
        select(route, to);
    } else {
        const int to = route + by;
        if (to < 0 || to >= m_model->routeCount())
            return;
        m_model->moveRoute(route, to);
        select(to);
    }
}

bool ScenarioEditor::saveAs(const QString& fileName, QString* error)
{
    if (!applyNow()) {
        const QString why = tr("Not saved: the scenario has problems (%1)").arg(m_result.problems.first().toString());
        m_status->setText(why + u'\n' + m_result.problemText());
        if (error)
            *error = why;
        return false;
    }
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(m_model->document()).toJson(QJsonDocument::Indented)) < 0
        || !file.commit()) {
        const QString why = tr("Not saved: %1: %2").arg(fileName, file.errorString());
        m_status->setText(why);
        if (error)
            *error = why;
        return false;
    }
    m_status->setText(tr("Saved as %1; the lab plays it.").arg(fileName));
    return true;
}

void ScenarioEditor::askSaveAs()
{
    const QString name = m_model->document().value(u"name"_s).toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Scenario As"), name + u".json"_s, tr("Scenario files (*.json)"));
    if (!path.isEmpty())
        saveAs(path);
}
