// SPDX-License-Identifier: GPL-3.0-or-later
#include "herd/form/herdfield.h"

#include "editors/policyfield.h"

#include <QLabel>
#include <QWidget>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

// "server.queue_timeout_ms" and "server.queue_timeout" name the same field: the unit suffix is dropped from
// every segment before paths are compared.
QString withoutUnits(QString path)
{
    path.replace(u"_ms."_s, u"."_s).replace(u"_ms["_s, u"["_s);
    if (path.endsWith(u"_ms"_s))
        path.chop(3);
    return path;
}

} // namespace

bool HerdField::owns(const QString& problemPath) const
{
    const QString problem = withoutUnits(problemPath);
    const auto under = [&](const QString& field) { return !field.isEmpty() && problemPathUnder(problem, withoutUnits(field)); };
    return under(path) || std::any_of(aliases.cbegin(), aliases.cend(), under);
}

void HerdField::setProblems(const QStringList& messages)
{
    showFieldProblems(editor, message, messages, true, editor ? editor->whatsThis() : QString(), "herdProblem");
}

void HerdField::updateRelevance(const HerdExperiment& experiment)
{
    const bool applies = !relevant || relevant(experiment);
    if (editor)
        editor->setEnabled(applies);
    if (label)
        label->setEnabled(applies);
}
