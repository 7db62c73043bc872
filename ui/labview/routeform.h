// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QWidget>

class QComboBox;
class QLineEdit;

// The form for one route of a scenario (resources/docs/scenario-format.md, "Routes"): name, method, path,
// mode and idempotency. Like StepForm, it edits the route's JSON object key by key and hands every change
// back at once; the route's steps and the keys it has no field for (rate_limit, operation…) stay as they are.
class RouteForm : public QWidget
{
    Q_OBJECT
public:
    explicit RouteForm(QWidget* parent = nullptr);

    void setRoute(const QJsonObject& route);
    const QJsonObject& route() const { return m_route; }

    QLineEdit* pathEdit() const { return m_path; }
    QLineEdit* methodEdit() const { return m_method; }
    QComboBox* modeBox() const { return m_mode; }

Q_SIGNALS:
    void routeEdited(const QJsonObject& route);

private:
    void set(const QString& key, const QJsonValue& value); // undefined: remove

    QJsonObject m_route;
    bool m_loading = false;
    QLineEdit* m_name;
    QLineEdit* m_method;
    QLineEdit* m_path;
    QComboBox* m_mode;
    QComboBox* m_idempotency;
};
