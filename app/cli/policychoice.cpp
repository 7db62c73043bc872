// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/policychoice.h"

#include "cli/cliargs.h"
#include "cli/problemline.h"

#include "policy/presetcatalog.h"
#include "policy/settings/policysetting.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("cli", text); }

const QString kSet = u"set"_s;

} // namespace

void PolicyChoice::declareSettings(CliArgs& args)
{
    args.option(kSet, true);
}

QString PolicyChoice::Problems::what() const
{
    return settings.isEmpty() ? policy : tr("%1 with --set %2").arg(policy, settings.join(u" --set "_s));
}

QString PolicyChoice::Problems::line() const
{
    if (policy.isEmpty())
        return policyProblemsText(list);
    if (settings.isEmpty())
        return policyProblemLine(policy, list);
    return tr("policy \"%1\" with --set %2: %3").arg(policy, settings.join(u" --set "_s), policyProblemsText(list));
}

std::optional<PolicyChoice> PolicyChoice::resolve(const QString& nameOrFile, const CliArgs& args, Problems* problems)
{
    const QStringList assignments = args.values(kSet);
    *problems = Problems();
    QList<PolicySetting> settings;
    for (const QString& assignment : assignments) {
        QString error;
        if (const std::optional<PolicySetting> setting = PolicySetting::parse(assignment, &error))
            settings << *setting;
        else
            problems->list << PolicyProblem { QString(), u"--set "_s + error };
    }
    if (!problems->list.isEmpty())
        return std::nullopt;
    if (nameOrFile.isEmpty() && !settings.isEmpty()) {
        problems->list << PolicyProblem { QString(), tr("--set changes a field of the policy given with --policy: give --policy too") };
        return std::nullopt;
    }
    problems->policy = nameOrFile;
    const PolicyParseResult base = PresetCatalog::resolve(nameOrFile);
    if (!base.ok()) {
        problems->list = base.problems;
        return std::nullopt;
    }
    PolicyChoice choice;
    choice.policy = *base.policy;
    choice.changes.base = nameOrFile;
    choice.changes.baseKind = PresetCatalog::names().contains(nameOrFile) ? PolicyChanges::BaseKind::Preset
                                                                          : PolicyChanges::BaseKind::File;
    if (settings.isEmpty())
        return choice;
    const PolicyParseResult changed = applyPolicySettings(*base.policy, settings);
    if (!changed.ok()) {
        problems->settings = assignments;
        problems->list = changed.problems;
        return std::nullopt;
    }
    choice.policy = *changed.policy;
    choice.changes.changes = PolicyChanges::between(*base.policy, choice.policy);
    return choice;
}
