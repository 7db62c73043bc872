// SPDX-License-Identifier: GPL-3.0-or-later
#include "labview/scenarioeditmodel.h"

#include "labview/scenariooutline.h"

#include <QBrush>
#include <QFont>
#include <QPalette>

using namespace Qt::StringLiterals;

namespace {

// Internal id of an index: 0 for a route row, route + 1 for a step row.
constexpr quintptr routeId = 0;

bool isRandom(const QJsonObject& route)
{
    return route.value(u"mode"_s).toString() == u"random"_s;
}

} // namespace

ScenarioEditModel::ScenarioEditModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void ScenarioEditModel::setDocument(const QJsonObject& document)
{
    beginResetModel();
    m_document = document;
    m_problems.clear();
    endResetModel();
}

void ScenarioEditModel::setValue(const QString& key, const QJsonValue& value)
{
    if (value.isUndefined())
        m_document.remove(key);
    else
        m_document.insert(key, value);
    emit edited();
}

QJsonArray ScenarioEditModel::routes() const
{
    return m_document.value(u"routes"_s).toArray();
}

QJsonArray ScenarioEditModel::steps(int route) const
{
    return this->route(route).value(u"steps"_s).toArray();
}

void ScenarioEditModel::storeRoutes(const QJsonArray& routes)
{
    m_document.insert(u"routes"_s, routes);
}

void ScenarioEditModel::storeSteps(int route, const QJsonArray& steps)
{
    QJsonArray all = routes();
    QJsonObject r = all.at(route).toObject();
    r.insert(u"steps"_s, steps);
    all.replace(route, r);
    storeRoutes(all);
}

int ScenarioEditModel::routeCount() const
{
    return int(routes().size());
}

int ScenarioEditModel::stepCount(int route) const
{
    return route >= 0 && route < routeCount() ? int(steps(route).size()) : 0;
}

QJsonObject ScenarioEditModel::route(int route) const
{
    return routes().at(route).toObject();
}

QJsonObject ScenarioEditModel::step(int route, int step) const
{
    return steps(route).at(step).toObject();
}

QModelIndex ScenarioEditModel::routeIndex(int route, int column) const
{
    return index(route, column);
}

QModelIndex ScenarioEditModel::stepIndex(int route, int step, int column) const
{
    return index(step, column, routeIndex(route));
}

int ScenarioEditModel::routeOf(const QModelIndex& index)
{
    if (!index.isValid())
        return -1;
    return index.internalId() == routeId ? index.row() : int(index.internalId() - 1);
}

int ScenarioEditModel::stepOf(const QModelIndex& index)
{
    return index.isValid() && index.internalId() != routeId ? index.row() : -1;
}

void ScenarioEditModel::setProblems(const QList<ScenarioProblem>& problems)
{
    m_problems = problems;
    for (int r = 0; r < routeCount(); ++r) {
        emit dataChanged(routeIndex(r), routeIndex(r, 1));
        if (const int n = stepCount(r))
            emit dataChanged(stepIndex(r, 0), stepIndex(r, n - 1, 1));
    }
}

QString ScenarioEditModel::problemsAt(const QString& path) const
{
    QStringList found;
    for (const ScenarioProblem& p : m_problems) {
        if (p.path == path || p.path.startsWith(path + u'.') || p.path.startsWith(path + u'['))
            found << p.toString();
    }
    return found.join(u'\n');
}

QModelIndex ScenarioEditModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= 2 || row < 0)
        return {};
    if (!parent.isValid())
        return row < routeCount() ? createIndex(row, column, routeId) : QModelIndex();
    if (parent.internalId() != routeId || parent.column() != 0)
        return {};
    return row < stepCount(parent.row()) ? createIndex(row, column, quintptr(parent.row()) + 1) : QModelIndex();
}

QModelIndex ScenarioEditModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == routeId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, routeId);
}

int ScenarioEditModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return routeCount();
    if (parent.internalId() == routeId && parent.column() == 0)
        return stepCount(parent.row());
    return 0;
}

int ScenarioEditModel::columnCount(const QModelIndex&) const
{
    return 2;
}

QString ScenarioEditModel::routeText(int route) const
{
    const QJsonObject r = this->route(route);
    const QJsonValue method = r.value(u"method"_s);
    QStringList methods;
    if (method.isArray()) {
        for (const QJsonValue& m : method.toArray())
            methods << m.toString();
    } else if (method.isString()) {
        methods << method.toString();
    }
    const QString mode = r.value(u"mode"_s).toString(u"sequence"_s);
    return tr("%1 %2 — %3").arg(methods.isEmpty() ? u"*"_s : methods.join(u'|'), r.value(u"path"_s).toString(), mode);
}

// In the outline's words when the step loads on its own, else its kind and what is wrong with it.
QString ScenarioEditModel::stepText(int route, int step) const
{
    const QJsonObject s = this->step(route, step);
    QJsonObject alone = s;
    alone.remove(u"weight"_s); // judged with its route; alone it may be the only one
    const QJsonObject probe { { u"format"_s, FaultScenario::currentFormat }, { u"name"_s, u"step"_s },
        { u"routes"_s, QJsonArray { QJsonObject { { u"path"_s, u"/"_s }, { u"steps"_s, QJsonArray { alone } } } } } };
    const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(probe);
    if (loaded.ok())
        return ScenarioOutline::describeStep(loaded.scenario->routes.first().steps.first());
    return tr("%1 (not valid)").arg(s.value(u"kind"_s).toString(tr("no kind")));
}

QVariant ScenarioEditModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const int route = routeOf(index);
    const int step = stepOf(index);
    const QString path = step < 0 ? u"$.routes[%1]"_s.arg(route) : u"$.routes[%1].steps[%2]"_s.arg(route).arg(step);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        if (index.column() == 0)
            return step < 0 ? routeText(route) : stepText(route, step);
        if (step >= 0 && isRandom(this->route(route)))
            return role == Qt::EditRole ? QVariant(this->step(route, step).value(u"weight"_s).toInt(1))
                                        : QVariant(QString::number(this->step(route, step).value(u"weight"_s).toInt(1)));
        return {};
    case Qt::ToolTipRole: {
        const QString problems = problemsAt(path);
        return problems.isEmpty() ? data(index, Qt::DisplayRole) : QVariant(problems);
    }
    case Qt::ForegroundRole:
        if (!problemsAt(path).isEmpty())
            return QBrush(Qt::red);
        return {};
    case Qt::FontRole:
        if (step < 0 && index.column() == 0) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    default:
        return {};
    }
}

bool ScenarioEditModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != Qt::EditRole || index.column() != 1 || stepOf(index) < 0)
        return false;
    bool ok = false;
    const int weight = value.toInt(&ok);
    if (!ok || weight < 0)
        return false;
    QJsonObject s = step(routeOf(index), stepOf(index));
    s.insert(u"weight"_s, weight);
    setStep(routeOf(index), stepOf(index), s);
    return true;
}

Qt::ItemFlags ScenarioEditModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (stepOf(index) >= 0)
        f |= Qt::ItemNeverHasChildren;
    if (index.column() == 1 && stepOf(index) >= 0 && isRandom(route(routeOf(index))))
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant ScenarioEditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == 0 ? tr("Route / step") : tr("Weight");
}
