// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/conformancesuite.h"

#include "lab/scenarioloader.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <functional>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("conform", text); }

const QString kFormat = u"retrylab-suite"_s;
constexpr qint64 kMaxTimeoutMs = 3600 * 1000;
constexpr int kMaxCalls = 100000;
constexpr qint64 kMaxIntervalMs = 600 * 1000;

// A whole number from LOW to HIGH at KEY of O, or nullopt (with a problem) when it is there and is not one.
std::optional<qint64> wholeNumber(const QJsonObject& o, const QString& key, qint64 low, qint64 high,
    const std::function<void(const QString&, const QString&)>& problem, const QString& what)
{
    const QJsonValue v = o.value(key);
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < double(low) || d > double(high) || d != double(qint64(d))) {
        problem(key, tr("%1, a whole number from %2 to %3").arg(what).arg(low).arg(high));
        return std::nullopt;
    }
    return qint64(d);
}

// "calls" and "interval_ms", both or neither; a plan that cannot end within the case's timeout is refused.
void readCalls(const QJsonObject& o, SuiteCase& c, const std::function<void(const QString&, const QString&)>& problem)
{
    const bool hasCalls = o.contains(u"calls"_s);
    const bool hasInterval = o.contains(u"interval_ms"_s);
    if (!hasCalls && !hasInterval)
        return;
    if (!hasCalls) {
        problem(u"interval_ms"_s, tr("goes with \"calls\": how many calls the command makes at this interval"));
        return;
    }
    if (!hasInterval) {
        problem(u"calls"_s, tr("goes with \"interval_ms\": the time from one call's start to the next one's"));
        return;
    }
    const std::optional<qint64> count = wholeNumber(o, u"calls"_s, 1, kMaxCalls, problem, tr("how many calls"));
    const std::optional<qint64> interval
        = wholeNumber(o, u"interval_ms"_s, 1, kMaxIntervalMs, problem, tr("milliseconds between two calls' starts"));
    if (!count || !interval)
        return;
    c.calls = CallPlan { int(*count), std::chrono::milliseconds(*interval) };
    const qint64 span = (*count - 1) * *interval;
    if (span >= c.timeout.count())
        problem(u"calls"_s, tr("%1 calls %2 ms apart take %3 ms, not less than the case's timeout (%4 ms): raise "
                               "timeout_ms")
                                .arg(*count)
                                .arg(*interval)
                                .arg(span)
                                .arg(c.timeout.count()));
}

// Reads one case; problems are appended with their JSON path.
std::optional<SuiteCase> readCase(const QJsonObject& o, const QString& at, const QString& suiteName, QStringList* problems)
{
    const qsizetype before = problems->size();
    const auto problem = [&](const QString& key, const QString& message) {
        problems->append(at + (key.isEmpty() ? QString() : u'.' + key) + u": "_s + message);
    };
    static const QSet<QString> known { u"name"_s, u"description"_s, u"method"_s, u"path"_s, u"key"_s, u"timeout_ms"_s,
        u"calls"_s, u"interval_ms"_s, u"steps"_s, u"outages"_s, u"scenario"_s };
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!known.contains(it.key()) && !it.key().startsWith(u'_'))
            problem(it.key(), tr("unknown key (a case has %1)").arg(QStringList(known.cbegin(), known.cend()).join(u", "_s)));
    }
    SuiteCase c;
    static const QRegularExpression namePattern(u"^[a-z0-9][a-z0-9-]{0,79}$"_s);
    c.name = o.value(u"name"_s).toString();
    if (!namePattern.match(c.name).hasMatch())
        problem(u"name"_s, tr("a case name is lower-case letters, digits and '-' (at most 80), not \"%1\"").arg(c.name));
    if (o.contains(u"description"_s) && !o.value(u"description"_s).isString())
        problem(u"description"_s, tr("must be a string"));
    c.description = o.value(u"description"_s).toString();
    if (o.contains(u"method"_s)) {
        static const QRegularExpression token(u"^[A-Z]{1,20}$"_s);
        c.method = o.value(u"method"_s).toString();
        if (!token.match(c.method).hasMatch())
            problem(u"method"_s, tr("a method in capitals (GET, POST…), not \"%1\"").arg(o.value(u"method"_s).toVariant().toString()));
    }
    c.path = u"/conform/"_s + c.name;
    if (o.contains(u"path"_s)) {
        c.path = o.value(u"path"_s).toString();
        if (!c.path.startsWith(u'/') || c.path.contains(u' ') || c.path.contains(u'#'))
            problem(u"path"_s, tr("a path starting with '/' without spaces or '#', not \"%1\"").arg(c.path));
    }
    if (o.contains(u"key"_s) && !o.value(u"key"_s).isBool())
        problem(u"key"_s, tr("must be true or false"));
    c.key = o.value(u"key"_s).toBool();
    if (o.contains(u"timeout_ms"_s)) {
        const double ms = o.value(u"timeout_ms"_s).toDouble(-1);
        if (!o.value(u"timeout_ms"_s).isDouble() || ms < 1 || ms > double(kMaxTimeoutMs) || ms != double(qint64(ms)))
            problem(u"timeout_ms"_s, tr("milliseconds, a whole number from 1 to %1").arg(kMaxTimeoutMs));
        else
            c.timeout = std::chrono::milliseconds(qint64(ms));
    }
    readCalls(o, c, problem);
    const bool hasSteps = o.contains(u"steps"_s);
    const bool hasScenario = o.contains(u"scenario"_s);
    if (hasSteps == hasScenario) {
        problem({}, tr("give either \"steps\" (one route answering every path) or \"scenario\" (a whole scenario)"));
        return std::nullopt;
    }
    if (hasScenario && o.contains(u"outages"_s)) {
        problem(u"outages"_s, tr("goes with \"steps\"; a whole scenario has its own \"outages\""));
        return std::nullopt;
    }
    QJsonObject scenario;
    if (hasSteps) {
        if (!o.value(u"steps"_s).isArray()) {
            problem(u"steps"_s, tr("must be a list of lab steps"));
            return std::nullopt;
        }
        // "/**" answers every path; without "method" the route takes every method.
        QJsonObject route;
        route.insert(u"name"_s, c.name);
        route.insert(u"path"_s, u"/**"_s);
        route.insert(u"steps"_s, o.value(u"steps"_s));
        scenario.insert(u"format"_s, 1);
        scenario.insert(u"name"_s, QString(suiteName + u'/' + c.name));
        scenario.insert(u"description"_s, c.description);
        scenario.insert(u"routes"_s, QJsonArray { route });
        if (o.contains(u"outages"_s))
            scenario.insert(u"outages"_s, o.value(u"outages"_s));
    } else if (o.value(u"scenario"_s).isObject()) {
        scenario = o.value(u"scenario"_s).toObject();
    } else {
        problem(u"scenario"_s, tr("must be a scenario object (resources/docs/scenario-format.md)"));
        return std::nullopt;
    }
    const ScenarioLoader::Result loaded = ScenarioLoader::fromObject(scenario);
    for (const ScenarioProblem& p : loaded.problems) {
        // The scenario's own paths, placed under this case: "$.routes[0].steps[1].status" → ".steps[1].status".
        QString path = p.path;
        if (hasSteps && path.startsWith(u"$.routes[0]."_s))
            path = path.mid(12);
        else if (hasSteps && path.startsWith(u"$.outages"_s))
            path = path.mid(2);
        else if (path.startsWith(u"$"_s))
            path = (hasSteps ? QString() : u"scenario"_s) + path.mid(1);
        problems->append(at + (path.startsWith(u'.') || path.isEmpty() ? path : u'.' + path) + u": "_s + p.message);
    }
    if (problems->size() != before || !loaded.scenario)
        return std::nullopt;
    c.scenario = *loaded.scenario;
    return c;
}

} // namespace

std::optional<QList<SuiteCase>> ConformanceSuite::select(const QStringList& names, QString* error) const
{
    if (names.isEmpty())
        return cases;
    QList<SuiteCase> chosen;
    for (const QString& name : names) {
        const auto it = std::find_if(cases.cbegin(), cases.cend(), [&](const SuiteCase& c) { return c.name == name; });
        if (it == cases.cend()) {
            QStringList all;
            for (const SuiteCase& c : cases)
                all << c.name;
            *error = tr("suite \"%1\" has no case \"%2\" (it has %3)").arg(this->name, name, all.join(u", "_s));
            return std::nullopt;
        }
        chosen << *it;
    }
    return chosen;
}

namespace SuiteLoader {

Result fromJson(const QByteArray& json, const QString& source)
{
    Result result;
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError) {
        const QByteArray upTo = json.left(parse.offset);
        result.problems << tr("not valid JSON at line %1: %2").arg(upTo.count('\n') + 1).arg(parse.errorString());
        return result;
    }
    if (!doc.isObject()) {
        result.problems << tr("$: a suite is a JSON object");
        return result;
    }
    const QJsonObject o = doc.object();
    static const QSet<QString> known { u"format"_s, u"version"_s, u"name"_s, u"description"_s, u"cases"_s, u"$schema"_s };
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!known.contains(it.key()) && !it.key().startsWith(u'_'))
            result.problems << u"$.%1: "_s.arg(it.key()) + tr("unknown key");
    }
    if (o.value(u"format"_s).toString() != kFormat)
        result.problems << u"$.format: "_s + tr("must be \"%1\"").arg(kFormat);
    if (o.value(u"version"_s).toInt(-1) != 1)
        result.problems << u"$.version: "_s + tr("must be 1 (the only version)");
    ConformanceSuite suite;
    suite.source = source;
    suite.name = o.value(u"name"_s).toString();
    if (suite.name.trimmed().isEmpty())
        result.problems << u"$.name: "_s + tr("a suite needs a name");
    suite.description = o.value(u"description"_s).toString();
    const QJsonArray cases = o.value(u"cases"_s).toArray();
    if (!o.value(u"cases"_s).isArray() || cases.isEmpty())
        result.problems << u"$.cases: "_s + tr("a non-empty list of cases");
    QSet<QString> names;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QString at = u"$.cases[%1]"_s.arg(i);
        if (!cases.at(i).isObject()) {
            result.problems << at + u": "_s + tr("a case is an object");
            continue;
        }
        if (std::optional<SuiteCase> c = readCase(cases.at(i).toObject(), at, suite.name, &result.problems)) {
            if (names.contains(c->name))
                result.problems << at + u".name: "_s + tr("\"%1\" names an earlier case too").arg(c->name);
            names.insert(c->name);
            suite.cases << std::move(*c);
        }
    }
    if (result.problems.isEmpty())
        result.suite = std::move(suite);
    return result;
}

Result fromFile(const QString& path)
{
    QFile file(path);
    Result result;
    if (!file.open(QIODevice::ReadOnly)) {
        result.problems << tr("cannot read %1: %2").arg(path, file.errorString());
        return result;
    }
    constexpr qint64 kMaxBytes = 16 * 1024 * 1024;
    if (file.size() > kMaxBytes) {
        result.problems << tr("%1 is larger than a suite can be (16 MiB)").arg(path);
        return result;
    }
    return fromJson(file.readAll(), path);
}

QStringList builtInNames()
{
    QStringList names;
    for (const QString& file : QDir(u":/retrylab/suites"_s).entryList({ u"*.json"_s }, QDir::Files, QDir::Name))
        names << QFileInfo(file).completeBaseName();
    return names;
}

Result load(const QString& nameOrFile)
{
    if (builtInNames().contains(nameOrFile))
        return fromFile(u":/retrylab/suites/%1.json"_s.arg(nameOrFile));
    if (!QFileInfo::exists(nameOrFile)) {
        Result result;
        result.problems << tr("no suite \"%1\": not a built-in suite (%2) nor a file").arg(nameOrFile, builtInNames().join(u", "_s));
        return result;
    }
    return fromFile(nameOrFile);
}

} // namespace SuiteLoader
