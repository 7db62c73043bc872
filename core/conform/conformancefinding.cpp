// SPDX-License-Identifier: GPL-3.0-or-later
#include "conform/conformancefinding.h"

#include "policy/enumtext.h"

using namespace Qt::StringLiterals;

QString findingRuleName(FindingRule rule) { return EnumText::name(rule); }

std::optional<FindingRule> findingRuleFromName(const QString& name)
{
    for (int i = 0; i < EnumText::enumCount<FindingRule>(); ++i) {
        if (findingRuleName(FindingRule(i)) == name)
            return FindingRule(i);
    }
    return std::nullopt;
}

QStringList findingRuleNames()
{
    QStringList names;
    for (int i = 0; i < EnumText::enumCount<FindingRule>(); ++i)
        names << findingRuleName(FindingRule(i));
    return names;
}

bool findingRuleIsNote(FindingRule rule)
{
    return rule == FindingRule::NotObserved || rule == FindingRule::Unfinished || rule == FindingRule::Unplaced;
}

QString ConformanceFinding::sentence() const
{
    QString text = findingRuleName(rule) + u": "_s + observed;
    if (!expected.isEmpty())
        text += u"; "_s + expected;
    return text;
}
