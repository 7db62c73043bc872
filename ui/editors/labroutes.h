// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The built-in lab's routes as requests to pick: one sample request per route and method (wildcards
// filled in, a small JSON body for methods that carry one), and whether a request would match any route
// at all — a request that matches none gets the scenario's fallback (404, "no-route") on every attempt.

#include <QByteArray>
#include <QList>
#include <QString>

struct FaultScenario;

struct RouteSample
{
    QString routeName;
    QString method;
    QString path; // "/v1/payments/1" for "/v1/payments/*"
    QByteArray body; // empty for GET, HEAD, DELETE
    QString label() const; // "POST /pix/payments — create-payment"
};

namespace LabRoutes {
QList<RouteSample> samples(const FaultScenario& scenario);
// True when METHOD PATH (a query is ignored) matches a route of SCENARIO or a /_lab/ control endpoint.
bool matches(const FaultScenario& scenario, const QString& method, const QString& path);
// Empty when it matches; else one sentence: "No route of seed-004-pix matches POST /api/orders: every
// attempt gets 404 (no-route)."
QString noRouteProblem(const FaultScenario& scenario, const QString& method, const QString& path);
}
