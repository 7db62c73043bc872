// SPDX-License-Identifier: GPL-3.0-or-later
#include "editors/labroutes.h"

#include "lab/faultscenario.h"
#include "lab/routematcher.h"

#include <QCoreApplication>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("LabRoutes", text);
}

// "/v1/payments/*" → "/v1/payments/1", "/v1/pay_*" → "/v1/pay_1", "/api/**" → "/api/1".
QString concretePath(const QString& pattern)
{
    QStringList segments = pattern.split(u'/');
    for (QString& s : segments) {
        if (s == u"**"_s)
            s = u"1"_s;
        else
            s.replace(u'*', u'1');
    }
    return segments.join(u'/');
}

bool carriesBody(const QString& method)
{
    return method == u"POST"_s || method == u"PUT"_s || method == u"PATCH"_s;
}

QString pathOnly(const QString& path)
{
    const qsizetype cut = path.indexOf(u'?');
    const QString p = cut < 0 ? path : path.left(cut);
    return p.startsWith(u'/') ? p : QString(u'/' + p);
}

} // namespace

QString RouteSample::label() const
{
    const QString request = method + u' ' + path;
    return routeName.isEmpty() ? request : request + u" — "_s + routeName;
}

namespace LabRoutes {

QList<RouteSample> samples(const FaultScenario& scenario)
{
    QList<RouteSample> out;
    for (const FaultRoute& route : scenario.routes) {
        QList<QByteArray> methods = route.methods;
        if (methods.isEmpty() || methods.contains("*"))
            methods = { "GET" };
        for (const QByteArray& m : std::as_const(methods)) {
            RouteSample s;
            s.routeName = route.name;
            s.method = QString::fromLatin1(m).toUpper();
            s.path = concretePath(route.path);
            if (carriesBody(s.method)) {
                s.body = "{\"sample\": true, \"route\": \"" + route.name.toUtf8().replace('"', "'") + "\"}";
            }
            out.append(s);
        }
    }
    return out;
}

bool matches(const FaultScenario& scenario, const QString& method, const QString& path)
{
    const QString p = pathOnly(path);
    if (p.startsWith(u"/_lab/"_s))
        return true;
    const QByteArray m = method.toUpper().toLatin1();
    for (const FaultRoute& route : scenario.routes) {
        if (RouteMatcher::methodMatches(route.methods, m) && RouteMatcher::pathMatches(route.path, p))
            return true;
    }
    return false;
}

QString noRouteProblem(const FaultScenario& scenario, const QString& method, const QString& path)
{
    if (matches(scenario, method, path))
        return {};
    return tr("No route of %1 matches %2 %3: every attempt gets %4 (no-route). Pick a lab route above.")
        .arg(scenario.name, method.toUpper(), pathOnly(path))
        .arg(scenario.fallbackStatus);
}

} // namespace LabRoutes
