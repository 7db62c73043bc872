// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/problemline.h"

#include <QStringList>

using namespace Qt::StringLiterals;

QString policyProblemsText(const QList<PolicyProblem>& problems)
{
    QStringList parts;
    for (const PolicyProblem& p : problems)
        parts << (p.path.isEmpty() ? p.message : p.path + u": "_s + p.message);
    return parts.join(u"; "_s);
}

QString policyProblemLine(const QString& what, const QList<PolicyProblem>& problems)
{
    const QString joined = policyProblemsText(problems);
    if (problems.size() == 1 && joined.contains(u'"' + what + u'"'))
        return joined;
    return u"policy \""_s + what + u"\": "_s + joined;
}
