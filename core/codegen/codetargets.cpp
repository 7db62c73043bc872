// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/codeexport.h"

#include <QDir>
#include <QFile>
#include <QHash>

using namespace Qt::StringLiterals;

namespace CodeTargets {

const QList<CodeTarget>& all()
{
    static const QList<CodeTarget> targets = [] {
        QList<CodeTarget> list;
        list << dotnetTargets() << pythonTargets() << nodeTargets() << goTargets() << javaTargets() << proxyTargets();
        return list;
    }();
    return targets;
}

const CodeTarget* find(const QString& id)
{
    for (const CodeTarget& t : all())
        if (t.id.compare(id, Qt::CaseInsensitive) == 0)
            return &t;
    return nullptr;
}

QStringList ids()
{
    QStringList out;
    for (const CodeTarget& t : all())
        out << t.id;
    return out;
}

QString fileSuffix(const QString& language)
{
    static const QHash<QString, QString> suffixes { { u"python"_s, u"py"_s }, { u"javascript"_s, u"mjs"_s },
        { u"csharp"_s, u"cs"_s }, { u"go"_s, u"go"_s }, { u"java"_s, u"java"_s }, { u"yaml"_s, u"yaml"_s },
        { u"json"_s, u"json"_s } };
    return suffixes.value(language, u"txt"_s);
}

} // namespace CodeTargets

std::optional<CodeExport> exportPolicy(const CodeTarget& target, const RetryPolicy& policy, const QString& version,
    QString* error)
{
    const QString v = version.isEmpty() ? target.versions.value(0) : version;
    if (!target.versions.contains(v)) {
        if (error)
            *error = u"%1 is written for version %2, not \"%3\""_s.arg(target.id, target.versions.join(u" or "_s), version);
        return std::nullopt;
    }
    return target.generate(policy, v);
}

namespace {

// TEXT as one word of /bin/sh: single-quoted, a quote inside closed, escaped and reopened.
QString shellWord(const QString& text)
{
    return u'\'' + QString(text).replace(u"'"_s, u"'\\''"_s) + u'\'';
}

} // namespace

QString writeProofClient(const CodeTarget& target, const QString& dir, const QString& unitFile, const QString& version,
    QString* error)
{
    if (!target.proofClient) {
        *error = u"%1 does not run here (%2)"_s.arg(target.title, target.runtime);
        return {};
    }
    const ProofClient client = target.proofClient(unitFile, version);
    QFile f(QDir(dir).filePath(client.fileName));
    const QByteArray text = client.text.toUtf8();
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size()) {
        *error = u"cannot write %1: %2"_s.arg(f.fileName(), f.errorString());
        return {};
    }
    QStringList argv;
    for (const QString& a : client.command)
        argv << shellWord(a);
    return u"cd %1 && exec %2"_s.arg(shellWord(dir), argv.join(u' '));
}
