// SPDX-License-Identifier: GPL-3.0-or-later
// ScenarioEditModel, its edits: routes and steps set, inserted, removed and moved, each announced to views as
// exactly that change (the model tester checks them) and as edited().
#include "labview/scenarioeditmodel.h"

#include <algorithm>

using namespace Qt::StringLiterals;

void ScenarioEditModel::setRoute(int route, const QJsonObject& object)
{
    if (route < 0 || route >= routeCount())
        return;
    const bool sameSteps = object.value(u"steps"_s).toArray().size() == steps(route).size();
    if (!sameSteps)
        beginResetModel();
    QJsonArray all = routes();
    all.replace(route, object);
    storeRoutes(all);
    if (sameSteps) {
        emit dataChanged(routeIndex(route), routeIndex(route, 1));
        if (const int n = stepCount(route))
            emit dataChanged(stepIndex(route, 0), stepIndex(route, n - 1, 1)); // the mode shows in the weights
    } else {
        endResetModel();
    }
    emit edited();
}

void ScenarioEditModel::setStep(int route, int step, const QJsonObject& object)
{
    if (step < 0 || step >= stepCount(route))
        return;
    QJsonArray list = steps(route);
    list.replace(step, object);
    storeSteps(route, list);
    emit dataChanged(stepIndex(route, step), stepIndex(route, step, 1));
    emit edited();
}

void ScenarioEditModel::insertRoute(int at, const QJsonObject& object)
{
    at = std::clamp(at, 0, routeCount());
    beginInsertRows({}, at, at);
    QJsonArray all = routes();
    all.insert(at, object);
    storeRoutes(all);
    endInsertRows();
    emit edited();
}

void ScenarioEditModel::insertStep(int route, int at, const QJsonObject& object)
{
    if (route < 0 || route >= routeCount())
        return;
    at = std::clamp(at, 0, stepCount(route));
    beginInsertRows(routeIndex(route), at, at);
    QJsonArray list = steps(route);
    list.insert(at, object);
    storeSteps(route, list);
    endInsertRows();
    emit edited();
}

void ScenarioEditModel::removeRoute(int route)
{
    if (route < 0 || route >= routeCount())
        return;
    beginRemoveRows({}, route, route);
    QJsonArray all = routes();
    all.removeAt(route);
    storeRoutes(all);
    endRemoveRows();
    emit edited();
}

void ScenarioEditModel::removeStep(int route, int step)
{
    if (step < 0 || step >= stepCount(route))
        return;
    beginRemoveRows(routeIndex(route), step, step);
    QJsonArray list = steps(route);
    list.removeAt(step);
    storeSteps(route, list);
    endRemoveRows();
    emit edited();
}

void ScenarioEditModel::moveRoute(int from, int to)
{
    const int n = routeCount();
    if (from == to || from < 0 || from >= n || to < 0 || to >= n)
        return;
    beginMoveRows({}, from, from, {}, to > from ? to + 1 : to);
    QJsonArray all = routes();
    const QJsonValue moved = all.takeAt(from);
    all.insert(to, moved);
    storeRoutes(all);
    endMoveRows();
    emit edited();
}

void ScenarioEditModel::moveStep(int route, int from, int to)
{
    const int n = stepCount(route);
    if (from == to || from < 0 || from >= n || to < 0 || to >= n)
        return;
    const QModelIndex parent = routeIndex(route);
    beginMoveRows(parent, from, from, parent, to > from ? to + 1 : to);
    QJsonArray list = steps(route);
    const QJsonValue moved = list.takeAt(from);
    list.insert(to, moved);
    storeSteps(route, list);
    endMoveRows();
    emit edited();
}
