// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The proof that exported code conforms (issue 30 §3), shared by the per-runtime tests: a policy exported
// through the CLI (`retrylab policy export … --allow-lossy`), the unit wrapped in a ten-line client, and
// `retrylab conform --json` run on it against the policy it came from. Several policies are judged at
// once (separate processes: the cases mostly wait), so a runtime's whole proof costs about its slowest
// policy. A finding passes only when the test allows its (case, rule) and names the lost path that
// explains it, and that path is one the export itself listed.

#include "codegen/codeexport.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <algorithm>
#include <memory>

namespace ExportProof {

// One policy to prove on one target: POLICY (a preset or a file) with SETTINGS applied to the export and
// the judge alike (the ten-line client runs the unit as exported, so it is judged against the same policy).
struct Subject
{
    QString label; // unique in one test: the file names
    QString policy;
    QStringList settings; // PATH=VALUE, given as --set to both commands
    QString suite = QStringLiteral("standard");
    QStringList cases; // --case filters; empty = the whole suite
    // "case rule" → the lost path that explains it; every such path must be in the export's own list.
    QHash<QString, QString> allowed;
};

// The cases of the seeds suite (resources/suites/seeds.json) that state SEED's rules ("slen-…").
inline QStringList seedCases(const QString& seed)
{
    QFile f(QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/suites/seeds.json"));
    QStringList out;
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QJsonValue& c : QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("cases")).toArray())
        if (const QString name = c.toObject().value(QStringLiteral("name")).toString(); name.startsWith(seed + QLatin1Char('-')))
            out << name;
    return out;
}

// The policies issue 30 §3 names, proven on every runtime alike: slen, paymongo, aws-standard, stripe,
// urllib3, the decorrelated preset DECORRELATED, slen and paymongo on their seed cases too, and two policies with a body rule and a Retry-After cap
// (one gives up above it, one clamps to it). Attempt timeouts are shortened to 3 s so the hang case ends
// (slen's connect timeout with it, as a connect timeout may not exceed the attempt's); the judge gets the
// same settings. A preset whose attempt timeout is a pipeline strategy (cockatiel-3) takes none.
inline QList<Subject> namedSubjects(const QString& decorrelated)
{
    const QStringList shortTimeout { QStringLiteral("limits.attempt_timeout_ms=3000") };
    QList<Subject> out;
    for (const QString& preset : { QStringLiteral("slen"), QStringLiteral("paymongo"), QStringLiteral("aws-standard"),
             QStringLiteral("stripe"), QStringLiteral("urllib3"), decorrelated }) {
        Subject s;
        s.label = QString(preset).replace(QLatin1Char('-'), QLatin1Char('_'));
        s.policy = preset;
        if (preset != QStringLiteral("cockatiel-3"))
            s.settings = shortTimeout;
        if (preset == QStringLiteral("slen"))
            s.settings << QStringLiteral("limits.connect_timeout_ms=2000");
        out << s;
    }
    // slen and paymongo are seeds' policies: their cases of the seeds suite too.
    for (const QString& seed : { QStringLiteral("slen"), QStringLiteral("paymongo") }) {
        Subject s = out.at(seed == QStringLiteral("slen") ? 0 : 1);
        s.label += QStringLiteral("_seeds");
        s.suite = QStringLiteral("seeds");
        for (const QString& c : seedCases(seed))
            s.cases << c;
        out << s;
    }
    for (const QString& file : { QStringLiteral("body-cap-giveup"), QStringLiteral("body-cap-clamp") }) {
        Subject s;
        s.label = QString(file).replace(QLatin1Char('-'), QLatin1Char('_'));
        s.policy = QStringLiteral(RETRYLAB_SOURCE_DIR "/tests/core/codegen/data/") + file + QStringLiteral(".json");
        out << s;
    }
    return out;
}

struct Exported
{
    QString file; // the unit, written into the test's folder
    QStringList lostPaths; // from `export --check --json`
    QString error; // why the export failed; empty when it did not
};

inline QStringList setArgs(const QStringList& settings)
{
    QStringList out;
    for (const QString& s : settings)
        out << QStringLiteral("--set") << s;
    return out;
}

inline QByteArray runRetrylab(const QStringList& args, int* exitCode, QByteArray* err = nullptr)
{
    QProcess p;
    p.start(QStringLiteral(RETRYLAB_BINARY), args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(3000);
        *exitCode = -1;
        if (err) // did not start, crashed or hung: say which
            *err = p.errorString().toUtf8();
        return {};
    }
    *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    if (err)
        *err = p.readAllStandardError();
    return p.readAllStandardOutput();
}

// SUBJECT's policy exported to TARGET (VERSION, or the default) as DIR/unit_LABEL.SUFFIX.
inline Exported exportUnit(const QTemporaryDir& dir, const Subject& s, const QString& target, const QString& version,
    const QString& suffix)
{
    Exported e;
    // "unit_": a policy named after a library (urllib3) must not shadow the library's own module.
    e.file = dir.filePath(QStringLiteral("unit_") + s.label + QLatin1Char('.') + suffix);
    QStringList common = QStringList { QStringLiteral("policy"), QStringLiteral("export"), s.policy } + setArgs(s.settings)
        + QStringList { QStringLiteral("--to"), target };
    if (!version.isEmpty())
        common << QStringLiteral("--target-version") << version;
    int code = 0;
    QByteArray err;
    runRetrylab(common + QStringList { QStringLiteral("--allow-lossy"), QStringLiteral("--out"), e.file }, &code, &err);
    if (code != 0) {
        e.error = QStringLiteral("export exited %1: %2").arg(code).arg(QString::fromUtf8(err));
        return e;
    }
    const QByteArray check = runRetrylab(common + QStringList { QStringLiteral("--check"), QStringLiteral("--json"),
                                                      QStringLiteral("--allow-lossy") },
        &code, &err);
    const QJsonArray targets = QJsonDocument::fromJson(check).object().value(QStringLiteral("targets")).toArray();
    if (code != 0 || targets.size() != 1) {
        e.error = QStringLiteral("export --check exited %1: %2").arg(code).arg(QString::fromUtf8(err));
        return e;
    }
    for (const QJsonValue& l : targets.first().toObject().value(QStringLiteral("lost")).toArray())
        e.lostPaths << l.toObject().value(QStringLiteral("path")).toString();
    return e;
}

struct Verdict
{
    QString label;
    int exit = -1;
    QJsonObject report;
    QByteArray err;
    QStringList table; // "PASS  case (n attempts): rules" lines for the log and the closing note
    QStringList unexpected; // findings not allowed, lost paths allowed but not listed, cases that did not run
};

// Runs `retrylab conform --json` for every subject at once, each with its own COMMAND (the wrapped unit),
// and judges the reports.
inline QList<Verdict> conformAll(const QList<Subject>& subjects, const QList<QStringList>& commands,
    const QList<Exported>& exports, int timeoutMs = 420000)
{
    QList<Verdict> out(subjects.size());
    std::vector<std::unique_ptr<QProcess>> processes;
    for (qsizetype i = 0; i < subjects.size(); ++i) {
        const Subject& s = subjects.at(i);
        QStringList args { QStringLiteral("conform"), QStringLiteral("--json"), QStringLiteral("--policy"), s.policy,
            QStringLiteral("--suite"), s.suite };
        args << setArgs(s.settings);
        for (const QString& c : s.cases)
            args << QStringLiteral("--case") << c;
        args << QStringLiteral("--") << commands.at(i);
        auto p = std::make_unique<QProcess>();
        p->start(QStringLiteral(RETRYLAB_BINARY), args);
        processes.push_back(std::move(p));
    }
    for (qsizetype i = 0; i < subjects.size(); ++i) {
        QProcess& p = *processes.at(std::size_t(i));
        Verdict& v = out[i];
        v.label = subjects.at(i).label;
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished(3000);
            v.unexpected << QStringLiteral("conform did not finish in time");
            continue;
        }
        v.exit = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        v.report = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        v.err = p.readAllStandardError();
        const QJsonArray cases = v.report.value(QStringLiteral("cases")).toArray();
        if (cases.isEmpty())
            v.unexpected << QStringLiteral("no case was judged (exit %1): %2").arg(v.exit).arg(QString::fromUtf8(v.err.right(2000)));
        for (const QJsonValue& c : cases) {
            const QJsonObject o = c.toObject();
            const QString name = o.value(QStringLiteral("case")).toString();
            QStringList rules;
            for (const QJsonValue& f : o.value(QStringLiteral("findings")).toArray()) {
                const QString rule = f.toObject().value(QStringLiteral("rule")).toString();
                rules << rule;
                const QString key = name + QLatin1Char(' ') + rule;
                const auto allowed = subjects.at(i).allowed.constFind(key);
                if (allowed == subjects.at(i).allowed.cend())
                    v.unexpected << name + QStringLiteral(": ") + f.toObject().value(QStringLiteral("sentence")).toString();
                else if (!exports.at(i).lostPaths.contains(*allowed))
                    v.unexpected << QStringLiteral("%1 is allowed as lost %2, which the export did not list (%3)")
                                        .arg(key, *allowed, exports.at(i).lostPaths.join(QStringLiteral(", ")));
            }
            if (o.value(QStringLiteral("verdict")).toString() == QStringLiteral("error"))
                v.unexpected << name + QStringLiteral(": could not run: ") + o.value(QStringLiteral("error")).toString();
            v.table << QStringLiteral("%1 %2 (%3 attempts)%4")
                           .arg(o.value(QStringLiteral("verdict")).toString().toUpper().leftJustified(5), name)
                           .arg(o.value(QStringLiteral("attempts")).toArray().size())
                           .arg(rules.isEmpty() ? QString() : QStringLiteral(": ") + rules.join(QStringLiteral(", ")));
        }
    }
    return out;
}

// TARGET's proof client for the unit UNITFILE (VERSION) written beside it in DIR, as the window's check
// writes it; the command that runs it there, or empty when it cannot be written.
inline QStringList writeClient(const QTemporaryDir& dir, const CodeTarget& target, const QString& unitFile,
    const QString& version)
{
    QString error;
    const QString command = writeProofClient(target, dir.path(), unitFile, version, &error);
    if (command.isEmpty())
        return {};
    return { QStringLiteral("/bin/sh"), QStringLiteral("-c"), command };
}

// The verdicts in the log, a line per policy with its lost paths and the cases that did not pass (the
// closing note's table); the problems to fail on.
inline QStringList logVerdicts(const QList<Verdict>& verdicts, const QList<Exported>& exports)
{
    QStringList problems;
    for (qsizetype i = 0; i < verdicts.size(); ++i) {
        const Verdict& v = verdicts.at(i);
        const auto passed = std::count_if(v.table.cbegin(), v.table.cend(),
            [](const QString& line) { return line.startsWith(QStringLiteral("PASS")); });
        qInfo().noquote() << QStringLiteral("== %1: %2/%3 cases pass (lost: %4)")
                                 .arg(v.label)
                                 .arg(passed)
                                 .arg(v.table.size())
                                 .arg(exports.at(i).lostPaths.join(QStringLiteral(", ")));
        for (const QString& line : v.table)
            if (!line.startsWith(QStringLiteral("PASS")))
                qInfo().noquote() << QStringLiteral("   ") + line;
        for (const QString& u : v.unexpected)
            problems << v.label + QStringLiteral(": ") + u;
    }
    return problems;
}

} // namespace ExportProof
