// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/herdfiles.h"

#include "sim/herdexperimentjson.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace HerdFiles {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("HerdFiles", text);
}

QString write(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return tr("%1 cannot be written: %2").arg(path, file.errorString());
    return {};
}

QByteArray csvField(const QString& text)
{
    QByteArray bytes = text.toUtf8();
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n') || bytes.contains('\r'))
        bytes = '"' + bytes.replace("\"", "\"\"") + '"';
    return bytes;
}

} // namespace

QString saveExperiment(const HerdExperiment& experiment, const QString& path)
{
    return write(path, herdExperimentToBytes(experiment));
}

Opened openExperiment(const QString& path)
{
    Opened opened;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        opened.problem = tr("%1 cannot be read: %2").arg(path, file.errorString());
        return opened;
    }
    const HerdExperimentParse parsed = herdExperimentFromBytes(file.readAll());
    if (parsed.ok()) {
        opened.experiment = parsed.experiment;
        return opened;
    }
    QStringList lines;
    for (const PolicyProblem& p : parsed.problems)
        lines << (p.path.isEmpty() ? p.message : p.path + u": "_s + p.message);
    if (lines.isEmpty())
        lines << tr("it is not a herd experiment");
    opened.problem = tr("%1 is not a usable herd experiment:\n%2").arg(path, lines.join(u'\n'));
    return opened;
}

QString saveJson(const HerdResult& result, const QString& path)
{
    return write(path, QJsonDocument(herdResultToJson(result)).toJson(QJsonDocument::Indented));
}

QByteArray seriesCsv(const HerdResult& result)
{
    QByteArray out;
    for (const HerdPolicyResult& r : result.results) {
        const QList<QByteArray> lines = herdSeriesCsv(r.series).split('\n');
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (lines.at(i).isEmpty())
                continue;
            if (i == 0) { // the header, once
                if (out.isEmpty())
                    out += "policy," + lines.at(i) + '\n';
                continue;
            }
            out += csvField(r.label) + ',' + lines.at(i) + '\n';
        }
    }
    return out;
}

QString saveCsv(const HerdResult& result, const QString& path)
{
    return write(path, seriesCsv(result));
}

QString fileNameFor(const QString& label)
{
    QString name;
    for (const QChar c : label)
        name += c.isLetterOrNumber() || c == u'-' || c == u'_' || c == u'.' ? c : u'_';
    if (name.isEmpty() || name.startsWith(u'.'))
        name.prepend(u"policy"_s);
    return name;
}

QString saveCsvFolder(const HerdResult& result, const QString& directory, QStringList* written)
{
    const QDir dir(directory);
    if (!dir.exists() && !QDir().mkpath(directory))
        return tr("The folder %1 cannot be made.").arg(directory);
    QStringList used;
    for (const HerdPolicyResult& r : result.results) {
        QString base = fileNameFor(r.label);
        for (int n = 2; used.contains(base, Qt::CaseInsensitive); ++n)
            base = fileNameFor(r.label) + u"-"_s + QString::number(n);
        used << base;
        const QString path = dir.filePath(base + u".csv"_s);
        if (const QString problem = write(path, herdSeriesCsv(r.series)); !problem.isEmpty())
            return problem;
        if (written)
            *written << path;
    }
    return {};
}

} // namespace HerdFiles
