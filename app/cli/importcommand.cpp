// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab import FILE.har -o SESSION [--window S] [--json]`: a HAR 1.2 file as observed traffic.
#include "cli/cliargs.h"
#include "cli/clicommand.h"
#include "cli/filechecks.h"
#include "cli/observereport.h"

#include "observe/harsession.h"
#include "session/format/sessionfile.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("import", text); }

const char* const kUsage = R"(Usage: retrylab import FILE.har -o SESSION [--window S] [--json]

Reads a HAR 1.2 file (saved by browser developer tools, Charles, mitmproxy, HTTP Toolkit) as the traffic of a
client, infers which entries were attempts of one logical request, and writes them as a session of observed
runs: the same views, exports and replay as any other session.

Entries are grouped by the strongest evidence present, and the rule is recorded on each run: the attempt
headers of known clients (X-Retrylab-Attempt, amz-sdk-invocation-id with amz-sdk-request, x-stainless-retry-
count, grpc-previous-rpc-attempts, …), else the same Idempotency-Key, else — a heuristic, labelled as such —
the same client, method, URL and body repeated after a failed answer within the window. Each attempt carries
the client's wait before it and what the previous answer asked for (Retry-After, retry-after-ms, a rate-limit
reset). One line per attempt and a summary are printed.

Options:
  -o, --output F   the session file to write (written atomically)
  --window S       how long after a failed answer a repetition still counts as a retry (default 300 s)
  --json           print one JSON object per attempt instead of a line of text

Exit status: 0 written, 1 the session could not be written, 2 bad arguments or a file that is not HAR 1.2
(not JSON, another version, a missing or malformed field: the line and field are named).
)";

int usage(CliIo& io, const QString& message)
{
    io.err << "retrylab import: " << message << '\n';
    return CliExit::Usage;
}

int runImport(const QStringList& rawArgs, CliIo& io)
{
    QStringList args = rawArgs;
    for (QString& a : args) {
        if (a == u"-o"_s)
            a = u"--output"_s;
    }
    CliArgs a;
    a.option(u"output"_s).option(u"window"_s).flag(u"json"_s);
    if (!a.parse(args))
        return usage(io, a.error());
    if (a.positional().size() != 1)
        return usage(io, tr("give exactly one HAR file"));
    if (!a.isSet(u"output"_s))
        return usage(io, tr("-o SESSION is required"));
    const QString output = *a.value(u"output"_s);
    if (const QString problem = outputPathProblem(output); !problem.isEmpty())
        return usage(io, u"-o: "_s + problem);
    Millis window = InferenceOptions {}.window;
    if (a.isSet(u"window"_s)) {
        const std::optional<qint64> ms = a.secondsAsMillis(u"window"_s);
        if (!ms)
            return usage(io, a.error());
        window = Millis(*ms);
    }
    const QString input = a.positional().first();
    const HarSession::Result har = HarSession::fromFile(input, window);
    if (!har.session)
        return usage(io, withFileName(input, har.problem));
    QString error;
    if (!SessionFile::save(*har.session, output, {}, &error)) {
        io.err << "retrylab import: " << withFileName(output, error) << '\n';
        return CliExit::Failed;
    }
    const QList<ObservedRun>& runs = har.runs;
    const RecordOptions& records = har.records;
    for (const ObservedRun& run : runs) {
        for (const ObservedAttempt& attempt : run.attempts) {
            if (a.isSet(u"json"_s))
                io.out << QString::fromUtf8(ObserveReport::attemptJson(run, attempt, records)) << '\n';
            else
                io.out << ObserveReport::attemptLine(run, attempt, records) << '\n';
        }
    }
    if (!a.isSet(u"json"_s)) {
        io.out << ObserveReport::summary(runs);
        if (har.skipped)
            io.out << tr("; skipped %1 entries that are not HTTP(S)").arg(har.skipped);
        io.out << tr("; written to %1").arg(output) << '\n';
    }
    return CliExit::Ok;
}

} // namespace

CliCommand importCommand()
{
    return CliCommand { u"import"_s, tr("read a HAR 1.2 file as observed traffic: a client's retries, inferred"),
        QString::fromUtf8(kUsage), runImport };
}
