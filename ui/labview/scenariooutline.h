// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTreeWidget>

struct FaultScenario;
struct FaultStep;

// A readable view of a fault-lab scenario: one item per route (method, path, mode, idempotency, rate
// limit) with its steps underneath in words ("503 with Retry-After 1 s — weight 12"), then the shared
// rate limit and the outage windows.
class ScenarioOutline : public QTreeWidget
{
    Q_OBJECT
public:
    explicit ScenarioOutline(QWidget* parent = nullptr);

    void setScenario(const FaultScenario& scenario);
    static QString describeStep(const FaultStep& step);
};
