// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the tests that judge real clients with `retrylab conform` (tst_conform_clients, tst_conform_npm):
// a preset written out with its limits changed to match how the test runs the client, and the conform run
// with its JSON report.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <functional>

namespace ConformClient {

// resources/presets/PRESET.json with EDIT applied to its "limits", written into DIR as NAME.json; the path,
// or empty when it cannot be read or written.
inline QString writePolicyVariant(const QTemporaryDir& dir, const QString& preset, const QString& name,
    const std::function<void(QJsonObject& limits)>& edit)
{
    QFile in(QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/presets/") + preset + QStringLiteral(".json"));
    if (!in.open(QIODevice::ReadOnly))
        return {};
    QJsonObject policy = QJsonDocument::fromJson(in.readAll()).object();
    QJsonObject limits = policy.value(QStringLiteral("limits")).toObject();
    edit(limits);
    policy.insert(QStringLiteral("limits"), limits);
    policy.insert(QStringLiteral("name"), name);
    QFile out(dir.filePath(name + QStringLiteral(".json")));
    const QByteArray text = QJsonDocument(policy).toJson();
    if (!out.open(QIODevice::WriteOnly) || out.write(text) != text.size())
        return {};
    return out.fileName();
}

struct Result
{
    int exit = -1; // -1: it crashed or did not finish in time (and was killed)
    QJsonObject report; // the --json report
    QByteArray err; // the progress lines and the client's output
};

// `retrylab conform --json ARGS…` run to its end in WORKINGDIR (the current one when empty).
inline Result conform(const QStringList& args, int timeoutMs = 400000, const QString& workingDir = {})
{
    QProcess p;
    if (!workingDir.isEmpty())
        p.setWorkingDirectory(workingDir);
    p.start(QStringLiteral(RETRYLAB_BINARY), QStringList { QStringLiteral("conform"), QStringLiteral("--json") } + args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(3000);
        return r;
    }
    r.exit = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.report = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace ConformClient
