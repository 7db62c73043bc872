// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab run`: runs requests under a policy through the retry engine, one line per attempt as it ends,
// then a summary (and the lab's ledger with --scenario). The command's event loop is the program's only
// one: the CLI has not started QCoreApplication::exec(), so nothing is nested.
#include "cli/clicommand.h"
#include "cli/runreport.h"
#include "session/breakersummary.h"
#include "session/hedgesummary.h"
#include "cli/runsetup.h"
#include "cli/scenariochoice.h"

#include "lab/faultserver.h"
#include "session/format/attemptjsonwriter.h"
#include "session/batch.h"
#include "session/format/sessionfile.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QSaveFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("run", text); }

const char* const kUsage = R"(Usage: retrylab run --policy NAME|FILE (--scenario NAME|FILE | --url URL) [options]
       retrylab run --scenario NAME|FILE --list-routes

Runs requests under a retry policy and prints one line per attempt as it ends, then a summary.
With --scenario the fault lab starts in-process on 127.0.0.1 and is the target: the request goes to the
first route that accepts --method and --path (by default the first route, with its first method and a
sample path); the lab's ledger is summed up at the end (--ledger FILE or --json for all of it).

Options:
  --policy NAME|FILE        a built-in preset (retrylab policy list) or a policy JSON file
  --set PATH=VALUE          a field of the policy set as the client is configured (repeatable), by its
                            path in the policy file: --set limits.max_retries=3, --set 'rules[2].action=stop';
                            VALUE is JSON, or text when it is not (the report says what changed)
  --scenario NAME|FILE      a built-in fault-lab scenario (retrylab serve --list) or a scenario JSON file
  --url URL                 an http:// or https:// URL
  --method M                request method (default GET, or the scenario route's)
  --path PATH               with --scenario: the path (and ?query) to send to, e.g. /v1/payments/x
  --list-routes             with --scenario: print its routes and how to reach each, and send nothing
  --header 'K: V'           a request header (repeatable)
  --data BODY|@FILE         request body (sent through a non-rewindable device)
  --idempotency-key KEY|auto|none   auto (default): as the policy says
  --repeat N                runs to make (default 1)
  --concurrency C           runs in progress at once (default 1)
  --interval MS             submit the runs on a fixed beat, one every MS milliseconds (calls at a fixed
                            rate, as through an outage: --repeat 200 --interval 50 is 20 calls a second)
  --seed S                  seed of the first run (run i uses S+i-1; default 0)
  --timeout S               per-attempt total timeout in seconds
  --connect-timeout S       connect timeout in seconds
  --deadline S              overall deadline per run, waits included
  --connections-per-host N  the client's connection pool: at most N attempts on the wire to a host at
                            once, the others wait (phase queued); default: one per attempt in flight
  --export FILE.json        write the batch as a session file when it ends (secrets redacted)
  --session FILE            record a session (journalled while it runs; see retrylab recover)
  --ledger FILE.json        with --scenario: write the lab's whole ledger (every request and operation)
  --json                    print each attempt as a session-format JSON object (secrets redacted), then
                            the summary (with the whole ledger), one per line
  --quiet                   print only the summary (and the ledger's one-line summary)

Every output file's folder is checked before anything is sent.
Exit status: 0 every run succeeded, 1 a run failed, 2 bad arguments (nothing is sent).
)";

int usageError(CliIo& io, const QString& message)
{
    io.err << "retrylab run: " << message << '\n';
    return CliExit::Usage;
}

// Writes BYTES to PATH atomically; an error message, or an empty string.
QString writeFile(const QString& path, const QByteArray& bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return tr("cannot write %1: %2").arg(path, f.errorString());
    return {};
}

void printSummary(const RunSetup& setup, const QList<RunSummary>& runs, const FaultServer& lab, const Session& session,
    MonoTime end, CliIo& io)
{
    const RunReport::Totals totals = RunReport::totalsOf(runs);
    const QList<BreakerSummary> breakers = summarizeBreakers(session, end);
    const HedgeSummary hedges = summarizeHedges(session, end);
    if (setup.json) {
        QJsonObject summary = RunReport::summaryJson(totals);
        if (!breakers.isEmpty()) {
            QJsonArray list;
            for (const BreakerSummary& b : breakers)
                list.append(QJsonObject { { u"policy"_s, b.policy }, { u"scope"_s, b.scope }, { u"opened"_s, b.opened },
                    { u"half_opened"_s, b.halfOpened }, { u"closed"_s, b.closed },
                    { u"open_ms"_s, double(b.openFor.count()) / 1e6 }, { u"refused"_s, b.refused },
                    { u"state"_s, stateName(b.last) } });
            summary[u"breakers"_s] = list;
        }
        if (hedges.hedgedRequests > 0) {
            QJsonObject h { { u"requests"_s, hedges.hedgedRequests }, { u"sent"_s, hedges.hedgesSent },
                { u"won"_s, hedges.hedgesWon }, { u"wasted"_s, hedges.hedgesWasted } };
            if (hedges.appliedTwice >= 0)
                h[u"applied_twice"_s] = hedges.appliedTwice;
            summary[u"hedging"_s] = h;
        }
        if (!setup.policyChanges.isEmpty())
            summary[u"policy_changes"_s] = setup.policyChanges.toJson();
        if (setup.scenario)
            summary[u"ledger"_s] = lab.ledger().toJson();
        io.out << QJsonDocument(QJsonObject { { u"summary"_s, summary } }).toJson(QJsonDocument::Compact) << '\n';
        return;
    }
    io.out << RunReport::summaryLine(totals) << '\n';
    for (const BreakerSummary& b : breakers)
        io.out << breakerSummaryLine(b) << '\n';
    if (hedges.hedgedRequests > 0)
        io.out << hedgeSummaryLine(hedges) << '\n';
    if (!setup.policyChanges.isEmpty())
        io.out << tr("policy: %1").arg(setup.policyChanges.text()) << '\n';
    for (const RunSummary& r : runs) {
        if (!r.succeeded())
            io.out << tr("run %1: %2 — %3").arg(r.runId).arg(finalKindName(r.outcome), r.reason) << '\n';
    }
    if (setup.scenario)
        io.out << RunReport::ledgerLine(lab.ledger()) << '\n';
}

int runRun(const QStringList& args, CliIo& io)
{
    QString error;
    std::optional<RunSetup> setup = RunSetup::parse(args, &error);
    if (!setup)
        return usageError(io, error);
    if (setup->listRoutes) {
        io.out << ScenarioChoice::routeTable(*setup->scenario);
        return CliExit::Ok;
    }
    FaultServer lab; // before the batch, which points to it
    Batch batch(io.clock, io.scheduler);
    batch.setConcurrency(setup->concurrency);
    batch.setBaseSeed(setup->seed);
    batch.setPolicyChanges(setup->policy, setup->policyChanges);
    RetryEngine& engine = batch.engine();
    if (setup->scenario) {
        if (!lab.start()) {
            io.err << "retrylab run: " << tr("the fault lab could not start: %1").arg(lab.errorString()) << '\n';
            return CliExit::Failed;
        }
        lab.loadScenario(*setup->scenario);
        setup->spec.url.setPort(lab.port());
        batch.useLab(&lab, setup->scenario->source);
    }
    if (!setup->sessionPath.isEmpty() && !batch.journalTo(setup->sessionPath, &error)) {
        io.err << "retrylab run: " << error << '\n';
        return CliExit::Failed;
    }

    QList<RunSummary> runs;
    QEventLoop loop;
    // --json: each attempt as the session format writes it (secrets redacted), read from the batch's session.
    const Session& session = batch.session();
    const Redactor redactor(session.redaction);
    AttemptJsonWriter writer(session.attempts, redactor, session.meta.wallOriginUtc);
    QByteArray line;
    QObject::connect(&engine, &RetryEngine::attemptFinished, &engine, [&](const AttemptRecord& a) {
        if (setup->quiet)
            return;
        if (setup->json) {
            const SessionRun* run = session.findRun(a.runId);
            if (!run)
                return;
            // The row stored for this attempt: the newest with its index (a hedged request's copies are
            // stored as they end, not in index order).
            qsizetype row = -1;
            for (qsizetype i = run->rows.size() - 1; i >= 0 && row < 0; --i)
                if (session.attempts.hot(run->rows.at(i)).index == a.index)
                    row = run->rows.at(i);
            if (row < 0)
                return;
            line.clear();
            {
                JsonSink sink(line);
                writer.write(sink, session.attempts.packed(row));
            }
            io.out << QString::fromUtf8(line) << '\n';
        } else {
            io.out << RunReport::attemptLine(a) << '\n';
        }
        io.out.flush();
    });
    QObject::connect(&engine, &RetryEngine::runFinished, &engine, [&](const RunSummary& r) { runs.append(r); });
    QObject::connect(&batch, &Batch::idle, &loop, &QEventLoop::quit);
    // On a beat: the loop ends once the last run is submitted and the engine is idle.
    int submitted = 0;
    QList<Scheduler::TaskId> beats;
    if (setup->interval > Millis(0)) {
        const MonoTime first = io.clock.now();
        for (int i = 0; i < setup->repeat; ++i)
            beats << io.scheduler.scheduleAt(first + i * setup->interval, [&] {
                batch.submit(setup->spec, setup->policy);
                ++submitted;
            });
        QObject::disconnect(&batch, &Batch::idle, &loop, &QEventLoop::quit);
        QObject::connect(&batch, &Batch::idle, &loop, [&] {
            if (submitted == setup->repeat)
                loop.quit();
        });
        loop.exec();
    } else {
        for (int i = 0; i < setup->repeat; ++i)
            batch.submit(setup->spec, setup->policy);
        if (!batch.isIdle())
            loop.exec();
    }

    printSummary(*setup, runs, lab, batch.session(), io.clock.now(), io);
    QStringList errors;
    if (!setup->sessionPath.isEmpty() && !batch.save(&error))
        errors << error;
    if (!setup->exportPath.isEmpty() && !SessionFile::save(batch.session(), setup->exportPath, {}, &error))
        errors << error;
    if (!setup->ledgerPath.isEmpty())
        errors << writeFile(setup->ledgerPath, QJsonDocument(lab.ledger().toJson()).toJson(QJsonDocument::Indented));
    errors.removeAll(QString());
    io.out.flush();
    for (const QString& message : std::as_const(errors))
        io.err << "retrylab run: " << message << '\n';
    if (!errors.isEmpty())
        return CliExit::Failed;
    const bool allSucceeded = std::all_of(runs.cbegin(), runs.cend(), [](const RunSummary& r) { return r.succeeded(); });
    return allSucceeded ? CliExit::Ok : CliExit::Failed;
}

} // namespace

CliCommand runCommand()
{
    return CliCommand { u"run"_s, tr("send requests under a retry policy and record every attempt"),
        QString::fromUtf8(kUsage), runRun };
}
