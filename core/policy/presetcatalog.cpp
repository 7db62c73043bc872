// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/presetcatalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace {

const QString kPresetDir = QStringLiteral(":/retrylab/presets");

QString tr(const char* text)
{
    return QCoreApplication::translate("PresetCatalog", text);
}

PolicyParseResult readFile(const QString& path, const QString& shownAs)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        PolicyParseResult result;
        result.problems << PolicyProblem { QString(), tr("cannot read %1: %2").arg(shownAs, file.errorString()) };
        return result;
    }
    // Policy files are small; anything huge is not a policy.
    constexpr qint64 kMaxPolicyBytes = 4 * 1024 * 1024;
    if (file.size() > kMaxPolicyBytes) {
        PolicyParseResult result;
        result.problems << PolicyProblem { QString(), tr("%1 is %2 bytes; a policy file is at most 4 MiB").arg(shownAs).arg(file.size()) };
        return result;
    }
    return policyFromJsonBytes(file.readAll());
}

} // namespace

namespace PresetCatalog {

QStringList names()
{
    QStringList result;
    const QStringList files = QDir(kPresetDir).entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
    for (const QString& file : files)
        result << QFileInfo(file).completeBaseName();
    std::sort(result.begin(), result.end());
    return result;
}

QList<PresetInfo> list()
{
    QList<PresetInfo> result;
    for (const QString& name : names()) {
        const PolicyParseResult parsed = load(name);
        PresetInfo info { name, {}, {}, {} };
        if (parsed.policy) {
            info.description = parsed.policy->description;
            info.source = parsed.policy->source;
            info.sourceTitle = parsed.policy->sourceTitle;
        } else {
            info.description = tr("(invalid preset: %1)").arg(parsed.problems.value(0).message);
        }
        result << info;
    }
    return result;
}

PolicyParseResult load(const QString& name)
{
    const QString path = kPresetDir + QLatin1Char('/') + name + QStringLiteral(".json");
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || !QFile::exists(path)) {
        PolicyParseResult result;
        result.problems << PolicyProblem { QString(),
            tr("no preset named \"%1\" (presets: %2)").arg(name, names().join(QStringLiteral(", "))) };
        return result;
    }
    return readFile(path, tr("preset %1").arg(name));
}

PolicyParseResult resolve(const QString& nameOrFile)
{
    if (names().contains(nameOrFile))
        return load(nameOrFile);
    const QFileInfo info(nameOrFile);
    if (info.exists() && info.isFile())
        return readFile(info.filePath(), info.filePath());
    PolicyParseResult result;
    result.problems << PolicyProblem { QString(),
        tr("\"%1\" is neither a preset (%2) nor a readable file").arg(nameOrFile, names().join(QStringLiteral(", "))) };
    return result;
}

QString summaryOf(const QString& description)
{
    const qsizetype end = description.indexOf(QStringLiteral(". "));
    return end < 0 ? description.trimmed() : description.left(end + 1).trimmed();
}

} // namespace PresetCatalog
