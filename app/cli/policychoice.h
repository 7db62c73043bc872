// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The policy a command runs, judges or shows: a preset or a policy file, with `--set PATH=VALUE` applied
// (repeatable) the way the client is configured. Every command that takes a policy reads it here.

#include "policy/retrypolicy.h"
#include "policy/settings/policychanges.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

class CliArgs;

struct PolicyChoice
{
    RetryPolicy policy;
    PolicyChanges changes; // the preset or file and the fields the settings changed in it

    // Declares --set PATH=VALUE (repeatable) on ARGS.
    static void declareSettings(CliArgs& args);

    struct Problems
    {
        QString policy; // the preset or file; empty for a --set that is not PATH=VALUE, or has no policy
        QStringList settings; // the --set values, when the problems are the settings'
        QList<PolicyProblem> list; // each with its field path
        QString what() const; // "curl-7.88", "curl-7.88 with --set limits.max_retries=x"
        // All on one line for an error message: `policy "curl-7.88" with --set limits.max_retries=x:
        // limits.max_retries: must be a number, not a string`.
        QString line() const;
    };
    // NAMEORFILE (a preset name or a policy file) with every --set of ARGS applied in order. Nullopt with
    // *PROBLEMS when the policy cannot be read or a setting is refused; settings without a policy are
    // refused too (NAMEORFILE empty: the command was given no policy).
    static std::optional<PolicyChoice> resolve(const QString& nameOrFile, const CliArgs& args, Problems* problems);

    // "preset curl-7.88, changed: limits.max_retries 7 → 3" when a setting changed something, else empty.
    QString changesLine() const { return changes.isEmpty() ? QString() : changes.text(); }
};
