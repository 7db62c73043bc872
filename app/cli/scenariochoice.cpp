// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/scenariochoice.h"

#include "lab/routematcher.h"
#include "lab/scenariocatalog.h"

#include <QCoreApplication>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("cli", text); }

QString methodsOf(const FaultRoute& route)
{
    QStringList names;
    for (const QByteArray& m : route.methods)
        names << (m == "*" ? u"any"_s : QString::fromLatin1(m));
    return names.isEmpty() ? u"any"_s : names.join(u'|');
}

// A concrete path the route's pattern matches: every "**" or "*" becomes "x".
QString samplePath(const FaultRoute& route)
{
    QString path = route.path;
    path.replace(u"**"_s, u"x"_s).replace(u"*"_s, u"x"_s);
    return path.isEmpty() ? u"/"_s : path;
}

QString firstMethod(const FaultRoute& route)
{
    for (const QByteArray& m : route.methods) {
        if (m != "*")
            return QString::fromLatin1(m);
    }
    return u"GET"_s;
}

QString routeList(const FaultScenario& scenario)
{
    QStringList routes;
    for (const FaultRoute& route : scenario.routes)
        routes << methodsOf(route) + u' ' + route.path;
    return routes.join(u", "_s);
}

} // namespace

std::optional<FaultScenario> ScenarioChoice::load(const QString& nameOrPath, QString* error)
{
    const ScenarioLoader::Result loaded = ScenarioCatalog::load(nameOrPath);
    if (loaded.ok())
        return loaded.scenario;
    QStringList problems;
    for (const ScenarioProblem& p : loaded.problems)
        problems << (p.path.isEmpty() || p.path == u"$"_s ? p.message : p.toString());
    *error = tr("scenario \"%1\": %2").arg(nameOrPath, problems.join(u"; "_s));
    return std::nullopt;
}

std::optional<ScenarioChoice::Target> ScenarioChoice::target(const FaultScenario& scenario,
    const std::optional<QString>& method, const std::optional<QString>& pathAndQuery, QString* error)
{
    QString path;
    if (pathAndQuery) {
        const QUrl relative(*pathAndQuery, QUrl::StrictMode);
        if (!pathAndQuery->startsWith(u'/') || !relative.isValid() || !relative.isRelative() || relative.hasFragment()) {
            *error = tr("--path must be a path starting with '/' (and an optional ?query), not \"%1\"").arg(*pathAndQuery);
            return std::nullopt;
        }
        path = relative.path(QUrl::FullyDecoded);
    }
    for (const FaultRoute& route : scenario.routes) {
        if (method && !RouteMatcher::methodMatches(route.methods, method->toLatin1()))
            continue;
        if (pathAndQuery && !RouteMatcher::pathMatches(route.path, path))
            continue;
        return Target { method.value_or(firstMethod(route)), pathAndQuery.value_or(samplePath(route)) };
    }
    if (scenario.routes.isEmpty()) {
        *error = tr("scenario \"%1\" has no routes; every request gets %2").arg(scenario.name).arg(scenario.fallbackStatus);
        return std::nullopt;
    }
    const QString wanted = method && pathAndQuery ? *method + u' ' + *pathAndQuery
        : method                                  ? tr("the method %1").arg(*method)
                                                  : tr("the path %1").arg(*pathAndQuery);
    *error = tr("scenario \"%1\" has no route for %2; its routes: %3 (see --list-routes)")
                 .arg(scenario.name, wanted, routeList(scenario));
    return std::nullopt;
}

QString ScenarioChoice::routeTable(const FaultScenario& scenario)
{
    qsizetype nameWidth = 5;
    qsizetype methodWidth = 7;
    qsizetype pathWidth = 4;
    for (const FaultRoute& route : scenario.routes) {
        nameWidth = std::max(nameWidth, route.name.size());
        methodWidth = std::max(methodWidth, methodsOf(route).size());
        pathWidth = std::max(pathWidth, route.path.size());
    }
    QString table = tr("route").leftJustified(nameWidth + 2) + tr("methods").leftJustified(methodWidth + 2)
        + tr("path").leftJustified(pathWidth + 2) + tr("run with") + u'\n';
    for (const FaultRoute& route : scenario.routes) {
        table += route.name.leftJustified(nameWidth + 2) + methodsOf(route).leftJustified(methodWidth + 2)
            + route.path.leftJustified(pathWidth + 2) + u"--method "_s + firstMethod(route) + u" --path "_s
            + samplePath(route) + u'\n';
    }
    if (scenario.routes.isEmpty())
        table += tr("(no routes: every request gets %1)").arg(scenario.fallbackStatus) + u'\n';
    return table;
}
