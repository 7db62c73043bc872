// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab export SESSION --format json|csv|har [--no-redact] -o FILE`, and `--curl RUN:ATTEMPT`.
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/filechecks.h"

#include "session/export/curlcommand.h"
#include "session/export/sessionexport.h"
#include "session/format/sessionfile.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("export", text); }

const char* const kUsage = R"(Usage: retrylab export SESSION --format json|csv|har [--no-redact] -o FILE
       retrylab export SESSION --curl RUN:ATTEMPT [--no-redact]

Writes a session (any supported version) as JSON (the session format), CSV (one row per attempt) or HAR 1.2
(one entry per attempt; opens in browser developer tools). Columns and the HAR mapping are described in
resources/docs/exports.md. --curl prints one attempt as a curl command line instead.

Secrets (Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key and the session's own list) are
redacted unless --no-redact is given.

Options:
  --format F       json, csv or har
  -o, --output F   the file to write (written atomically)
  --curl R:A       print attempt A of run R as a curl command
  --no-redact      keep secret values as recorded

Exit status: 0 written, 1 the file could not be written, 2 bad arguments, a SESSION that cannot be read
(missing, truncated, not a session) or an attempt it does not have.
)";

int usage(CliIo& io, const QString& message)
{
    io.err << "retrylab export: " << message << '\n';
    return CliExit::Usage;
}

int runExport(const QStringList& rawArgs, CliIo& io)
{
    QStringList args = rawArgs;
    for (QString& a : args) {
        if (a == u"-o"_s)
            a = u"--output"_s;
    }
    CliArgs a;
    a.option(u"format"_s).option(u"output"_s).option(u"curl"_s).flag(u"no-redact"_s);
    if (!a.parse(args))
        return usage(io, a.error());
    if (a.positional().size() != 1)
        return usage(io, tr("give exactly one SESSION file"));
    const bool curl = a.isSet(u"curl"_s);
    std::optional<SessionExport::Format> format;
    int runId = 0;
    int index = 0;
    if (curl) {
        // --curl prints one attempt on stdout; a file format and a file beside it would be ignored.
        if (a.isSet(u"format"_s) || a.isSet(u"output"_s))
            return usage(io, tr("--curl prints one attempt as a command line; it cannot be combined with --format or -o"));
        const QStringList ra = a.value(u"curl"_s)->split(u':');
        bool okRun = false;
        bool okAttempt = false;
        runId = ra.value(0).toInt(&okRun);
        index = ra.value(1).toInt(&okAttempt);
        if (ra.size() != 2 || !okRun || !okAttempt || runId < 1 || index < 1)
            return usage(io, tr("--curl takes RUN:ATTEMPT, two numbers from 1 (e.g. 3:2), not \"%1\"").arg(*a.value(u"curl"_s)));
    } else {
        format = SessionExport::formatFromName(a.value(u"format"_s).value_or(QString()));
        if (!format)
            return usage(io, tr("--format must be json, csv or har"));
        if (!a.isSet(u"output"_s))
            return usage(io, tr("-o FILE is required"));
        if (const QString problem = outputPathProblem(*a.value(u"output"_s)); !problem.isEmpty())
            return usage(io, u"-o: "_s + problem);
    }
    QString error;
    const std::unique_ptr<Session> session = SessionFile::open(a.positional().first(), {}, &error);
    if (!session)
        return usage(io, withFileName(a.positional().first(), error)); // a missing, truncated or foreign file is bad input
    const Redactor redactor = SessionExport::redactorFor(*session, !a.isSet(u"no-redact"_s));
    if (curl) {
        const SessionRun* run = session->findRun(runId);
        if (!run)
            return usage(io, tr("the session has no run %1 (it has %2 runs)").arg(runId).arg(session->runs.size()));
        for (quint32 row : run->rows) {
            if (session->attempts.hot(row).index == index) {
                io.out << CurlCommand::forAttempt(*session, row, redactor) << '\n';
                return CliExit::Ok;
            }
        }
        return usage(io, tr("run %1 has no attempt %2 (it has %3 attempts)").arg(runId).arg(index).arg(run->rows.size()));
    }
    if (!SessionExport::save(*session, *format, redactor, *a.value(u"output"_s), {}, &error)) {
        io.err << "retrylab export: " << error << '\n';
        return CliExit::Failed;
    }
    return CliExit::Ok;
}

} // namespace

CliCommand exportCommand()
{
    return CliCommand { u"export"_s, tr("write a session as JSON, CSV or HAR 1.2 (secrets redacted)"),
        QString::fromUtf8(kUsage), runExport };
}
