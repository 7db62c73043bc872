// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/scenarioloader.h"

#include <QAbstractItemModel>
#include <QJsonArray>
#include <QJsonObject>

// A scenario document (format 1) being edited, as a tree: one row per route, its steps as children; column 1
// is a step's weight (editable). The model holds the JSON object itself, so whatever the user set is kept
// as typed — also keys the editor has no field for (comments, "json", rate limits, outages) — and validity
// is ScenarioLoader's to judge: setProblems() marks the rows the loader's problems point to.
class ScenarioEditModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    explicit ScenarioEditModel(QObject* parent = nullptr);

    void setDocument(const QJsonObject& document); // a reset; no edited()
    const QJsonObject& document() const { return m_document; }

    // Scenario keys ("name", "upstream", "seed"…): an undefined VALUE removes KEY.
    void setValue(const QString& key, const QJsonValue& value);

    int routeCount() const;
    int stepCount(int route) const;
    QJsonObject route(int route) const;
    QJsonObject step(int route, int step) const;
    void setRoute(int route, const QJsonObject& object);
    void setStep(int route, int step, const QJsonObject& object);
    void insertRoute(int at, const QJsonObject& object);
    void insertStep(int route, int at, const QJsonObject& object);
    void removeRoute(int route);
    void removeStep(int route, int step);
    // Moves one row to position TO (its index after the move).
    void moveRoute(int from, int to);
    void moveStep(int route, int from, int to);

    QModelIndex routeIndex(int route, int column = 0) const;
    QModelIndex stepIndex(int route, int step, int column = 0) const;
    // -1 when INDEX is not a route row / not a step row.
    static int routeOf(const QModelIndex& index);
    static int stepOf(const QModelIndex& index);

    // The loader's problems for the document, shown on the rows they name.
    void setProblems(const QList<ScenarioProblem>& problems);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void edited(); // the document changed through one of the setters above

private:
    QJsonArray routes() const;
    QJsonArray steps(int route) const;
    void storeRoutes(const QJsonArray& routes);
    void storeSteps(int route, const QJsonArray& steps);
    QString routeText(int route) const;
    QString stepText(int route, int step) const;
    QString problemsAt(const QString& path) const;

    QJsonObject m_document;
    QList<ScenarioProblem> m_problems;
};
