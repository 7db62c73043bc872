// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/upstreamchoice.h"

#include "cli/cliargs.h"
#include "lab/scenariocatalog.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace UpstreamChoice {

void declare(CliArgs& cli)
{
    cli.option(u"upstream"_s).option(u"upstream-ca"_s).flag(u"upstream-insecure"_s).option(u"upstream-timeout"_s);
    cli.option(u"upstream-max-body"_s).flag(u"forwarded-headers"_s);
}

std::optional<UpstreamTarget> read(CliArgs& cli, QString* error)
{
    const std::optional<QString> url = cli.value(u"upstream"_s);
    if (!url) {
        for (const QString& other : { u"upstream-ca"_s, u"upstream-insecure"_s, u"upstream-timeout"_s, u"upstream-max-body"_s,
                 u"forwarded-headers"_s }) {
            if (cli.isSet(other)) {
                *error = QCoreApplication::translate("cli", "--%1 needs --upstream URL").arg(other);
                return std::nullopt;
            }
        }
        return std::nullopt;
    }
    UpstreamTarget target;
    target.base = QUrl(*url, QUrl::StrictMode);
    target.caFile = cli.value(u"upstream-ca"_s).value_or(QString());
    target.insecure = cli.isSet(u"upstream-insecure"_s);
    target.forwardedHeaders = cli.isSet(u"forwarded-headers"_s);
    if (target.insecure && !target.caFile.isEmpty()) {
        *error = QCoreApplication::translate("cli", "give --upstream-ca or --upstream-insecure, not both");
        return std::nullopt;
    }
    if (cli.isSet(u"upstream-timeout"_s)) {
        const std::optional<qint64> ms = cli.secondsAsMillis(u"upstream-timeout"_s);
        if (!ms) {
            *error = cli.error();
            return std::nullopt;
        }
        target.timeout = std::chrono::milliseconds(*ms);
    }
    if (cli.isSet(u"upstream-max-body"_s)) {
        const std::optional<qint64> bytes = cli.integer(u"upstream-max-body"_s, 1, UpstreamTarget::kMaxBodyLimit);
        if (!bytes) {
            *error = cli.error();
            return std::nullopt;
        }
        target.maxBodyBytes = *bytes;
    }
    if (const QString problem = target.problem(); !problem.isEmpty()) {
        *error = problem.startsWith(u"--"_s) ? problem : u"--upstream: "_s + problem;
        return std::nullopt;
    }
    return target;
}

FaultScenario forwardEverything()
{
    return ScenarioCatalog::forwardEverything();
}

} // namespace UpstreamChoice
