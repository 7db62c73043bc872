// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/runsetup.h"

#include "cli/cliargs.h"
#include "cli/filechecks.h"
#include "cli/policychoice.h"
#include "cli/scenariochoice.h"

#include "engine/retryengine.h"
#include "http/httptoken.h"
#include "http/targeturl.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("run", text); }

const QStringList kOptions { u"policy"_s, u"scenario"_s, u"url"_s, u"method"_s, u"path"_s, u"header"_s, u"data"_s,
    u"idempotency-key"_s, u"repeat"_s, u"concurrency"_s, u"seed"_s, u"timeout"_s, u"connect-timeout"_s, u"deadline"_s,
    u"connections-per-host"_s, u"export"_s, u"session"_s, u"ledger"_s, u"interval"_s };
const QStringList kFlags { u"json"_s, u"quiet"_s, u"list-routes"_s };

// Where the request goes: the scenario's chosen route (the port is the lab's, set when it starts) or --url.
QString readTarget(CliArgs& a, RunSetup& s)
{
    const bool hasScenario = a.isSet(u"scenario"_s);
    if (hasScenario == a.isSet(u"url"_s))
        return tr("give exactly one of --scenario and --url");
    std::optional<QString> method = a.value(u"method"_s);
    if (method) {
        *method = method->toUpper();
        if (!isHttpToken(*method))
            return tr("--method \"%1\" is not an HTTP method (RFC 9110: a token, no spaces or separators)").arg(*method);
    }
    if (!hasScenario) {
        if (a.isSet(u"path"_s))
            return tr("--path picks a route of --scenario; with --url, put the path in the URL");
        if (a.value(u"url"_s)->trimmed().isEmpty())
            return tr("--url needs a URL, e.g. http://127.0.0.1:8080/path");
        const TargetUrl::Parsed url = TargetUrl::parse(*a.value(u"url"_s));
        if (!url.ok())
            return u"--url "_s + url.problem;
        s.spec.url = url.url;
        s.spec.method = method.value_or(u"GET"_s);
        return {};
    }
    QString error;
    s.scenario = ScenarioChoice::load(*a.value(u"scenario"_s), &error);
    if (!s.scenario)
        return error;
    const std::optional<ScenarioChoice::Target> target = ScenarioChoice::target(*s.scenario, method, a.value(u"path"_s), &error);
    if (!target)
        return error;
    s.spec.url = QUrl(u"http://127.0.0.1"_s + target->pathAndQuery, QUrl::StrictMode);
    s.spec.method = target->method;
    return {};
}

QString readRequest(CliArgs& a, RunSetup& s)
{
    for (const QString& h : a.values(u"header"_s)) {
        const qsizetype colon = h.indexOf(u':');
        const QString name = colon > 0 ? h.left(colon).trimmed() : QString();
        if (name.isEmpty() || !isHttpToken(name))
            return tr("--header must look like 'Name: value', not \"%1\"").arg(h);
        const QString value = h.mid(colon + 1).trimmed();
        if (value.contains(u'\r') || value.contains(u'\n') || value.contains(QChar(0)))
            return tr("--header \"%1\": a field value cannot contain a line break or NUL (RFC 9110 §5.5)").arg(name);
        s.spec.headers.append({ name.toLatin1(), value.toUtf8() });
    }
    if (const auto data = a.value(u"data"_s)) {
        if (data->startsWith(u'@')) {
            if (data->size() == 1)
                return tr("--data @FILE needs a file name after the @");
            QFile f(data->mid(1));
            if (!f.open(QIODevice::ReadOnly))
                return tr("cannot read --data file \"%1\": %2").arg(data->mid(1), f.errorString());
            constexpr qint64 maxBody = qint64(64) << 20; // also ends a read of /dev/zero or a pipe that never closes
            s.spec.body = f.read(maxBody + 1);
            if (s.spec.body.size() > maxBody)
                return tr("--data file \"%1\" is larger than 64 MiB").arg(data->mid(1));
        } else {
            s.spec.body = data->toUtf8();
        }
    }
    if (const auto key = a.value(u"idempotency-key"_s)) {
        if (*key == QLatin1String("auto")) {
            s.spec.keyMode = IdempotencyKeyMode::Auto;
        } else if (*key == QLatin1String("none")) {
            s.spec.keyMode = IdempotencyKeyMode::None;
        } else if (key->trimmed().isEmpty()) {
            return tr("--idempotency-key needs a key, auto or none");
        } else {
            s.spec.keyMode = IdempotencyKeyMode::Value;
            s.spec.idempotencyKey = *key;
        }
    }
    for (const auto& [name, field] : { std::pair { u"timeout"_s, &RequestSpec::attemptTimeout },
             std::pair { u"connect-timeout"_s, &RequestSpec::connectTimeout }, std::pair { u"deadline"_s, &RequestSpec::deadline } }) {
        if (!a.isSet(name))
            continue;
        const auto ms = a.secondsAsMillis(name);
        if (!ms)
            return a.error();
        s.spec.*field = Millis(*ms);
    }
    if (a.isSet(u"connections-per-host"_s)) {
        const auto n = a.integer(u"connections-per-host"_s, 1, 100000);
        if (!n)
            return a.error();
        s.spec.connectionsPerHost = int(*n);
    }
    return {};
}

// Every file the run writes, checked before anything is sent.
QString readOutputs(CliArgs& a, RunSetup& s)
{
    s.exportPath = a.value(u"export"_s).value_or(QString());
    s.sessionPath = a.value(u"session"_s).value_or(QString());
    s.ledgerPath = a.value(u"ledger"_s).value_or(QString());
    if (!s.ledgerPath.isEmpty() && !s.scenario)
        return tr("--ledger needs --scenario: only the built-in lab keeps a ledger");
    QStringList seen;
    for (const auto& [option, path] : { std::pair { u"--export"_s, s.exportPath }, std::pair { u"--session"_s, s.sessionPath },
             std::pair { u"--ledger"_s, s.ledgerPath } }) {
        if (!a.isSet(option.mid(2)))
            continue;
        if (const QString problem = outputPathProblem(path); !problem.isEmpty())
            return option + u": "_s + problem;
        const QString absolute = QFileInfo(path).absoluteFilePath();
        if (seen.contains(absolute))
            return tr("%1 names a file another option writes too: \"%2\"").arg(option, path);
        seen << absolute;
    }
    return {};
}

} // namespace

std::optional<RunSetup> RunSetup::parse(const QStringList& args, QString* error)
{
    CliArgs a;
    for (const QString& name : kOptions)
        a.option(name, name == u"header"_s);
    for (const QString& name : kFlags)
        a.flag(name);
    PolicyChoice::declareSettings(a);
    const auto fail = [error](const QString& m) {
        *error = m;
        return std::optional<RunSetup>();
    };
    if (!a.parse(args))
        return fail(a.error());
    if (!a.positional().isEmpty())
        return fail(tr("unexpected argument \"%1\"").arg(a.positional().first()));
    RunSetup s;
    if (a.isSet(u"list-routes"_s)) {
        for (const QString& name : kOptions + kFlags + QStringList { u"set"_s }) {
            if (name != u"scenario"_s && name != u"list-routes"_s && a.isSet(name))
                return fail(tr("--list-routes takes only --scenario, not --%1").arg(name));
        }
        if (!a.isSet(u"scenario"_s))
            return fail(tr("--list-routes needs --scenario"));
        QString problem;
        s.scenario = ScenarioChoice::load(*a.value(u"scenario"_s), &problem);
        if (!s.scenario)
            return fail(problem);
        s.listRoutes = true;
        return s;
    }
    const auto policyName = a.value(u"policy"_s);
    if (!policyName)
        return fail(tr("--policy is required"));
    PolicyChoice::Problems problems;
    const std::optional<PolicyChoice> policy = PolicyChoice::resolve(*policyName, a, &problems);
    if (!policy)
        return fail(problems.line());
    if (const QString refusal = engineRefusal(policy->policy); !refusal.isEmpty())
        return fail(refusal);
    s.policy = policy->policy;
    s.policyChanges = policy->changes;
    for (const auto& read : { &readTarget, &readRequest }) {
        if (const QString problem = read(a, s); !problem.isEmpty())
            return fail(problem);
    }
    if (s.spec.connectionsPerHost) { // the request's pool joins the policy's limits: refused as they would be
        RetryPolicy pooled = s.policy;
        pooled.limits.connectionsPerHost = s.spec.connectionsPerHost;
        if (const QString refusal = engineRefusal(pooled); !refusal.isEmpty())
            return fail(refusal);
    }
    const auto repeat = a.isSet(u"repeat"_s) ? a.integer(u"repeat"_s, 1, 1000000) : std::optional<qint64>(1);
    const auto concurrency = a.isSet(u"concurrency"_s) ? a.integer(u"concurrency"_s, 1, 10000) : std::optional<qint64>(1);
    const auto seed = a.isSet(u"seed"_s) ? a.integer(u"seed"_s, 0, std::numeric_limits<qint64>::max()) : std::optional<qint64>(0);
    const auto interval = a.isSet(u"interval"_s) ? a.integer(u"interval"_s, 1, 3600000) : std::optional<qint64>(0);
    if (!repeat || !concurrency || !seed || !interval)
        return fail(a.error());
    s.interval = Millis(*interval);
    s.repeat = int(*repeat);
    s.concurrency = int(*concurrency);
    s.seed = std::uint64_t(*seed);
    if (const QString problem = readOutputs(a, s); !problem.isEmpty())
        return fail(problem);
    s.json = a.isSet(u"json"_s);
    s.quiet = a.isSet(u"quiet"_s);
    return s;
}

