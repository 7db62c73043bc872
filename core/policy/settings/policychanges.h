// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a policy is as a client is configured: a preset (or a policy file) and the fields changed in it,
// "preset curl-7.88, changed: limits.max_retries 7 → 3". Reports, sessions and the policy editor say so
// from the same diff, so a judgement against a changed preset is never read as one against the preset.

#include "policy/retrypolicy.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

// One field that differs, by its path in the policy file (the spelling --set takes).
struct PolicyChange
{
    QString path; // "limits.max_retries", "rules[2].action", "hints[0].statuses"
    QJsonValue before; // undefined: the field was not there
    QJsonValue after; // undefined: the field is not there any more
    // "limits.max_retries 7 → 3": values as JSON (a long one shortened), "(absent)" where there is none.
    QString text() const;
    friend bool operator==(const PolicyChange&, const PolicyChange&) = default;
};

struct PolicyChanges
{
    enum class BaseKind {
        Preset, // a built-in preset: "preset curl-7.88"
        File, // a policy file: "policy file my.json"
        Policy, // any other policy, by its name (one a session recorded, one built from a curl command)
    };

    QString base; // the preset's name, the policy file as given, or the policy's name
    BaseKind baseKind = BaseKind::Preset;
    QList<PolicyChange> changes; // in the order of the policy file's keys

    bool isEmpty() const { return changes.isEmpty(); }

    // Every field of AFTER that differs from BEFORE, as the policy file writes them: a nested object is
    // compared key by key, an array of objects (rules, hints, headers) element by element, any other
    // array (statuses, methods) whole. A limit given as attempts in one and retries in the other is
    // compared in AFTER's spelling.
    static QList<PolicyChange> between(const RetryPolicy& before, const RetryPolicy& after);

    // "preset curl-7.88, changed: limits.max_retries 7 → 3, backoff.base_ms 1000 → 500"; "preset curl-7.88"
    // with no change. A file is "policy file FILE", another policy "policy NAME". With SHOWN ≥ 0, only the
    // first SHOWN changes are listed, then "and N more".
    QString text(qsizetype shown = -1) const;
    // "limits.max_retries 7 → 3, …": the changes alone.
    QString changesText(qsizetype shown = -1) const;

    // { "base", "base_kind": "preset"|"file"|"policy", "changes": [ { "path", "from"?, "to"? } ] }: from/to
    // left out where the field was or is not there.
    QJsonObject toJson() const;
    // Reads toJson()'s form; nullopt with *problem ("field: message") when it is not that.
    static std::optional<PolicyChanges> fromJson(const QJsonObject& object, QString* problem);

    friend bool operator==(const PolicyChanges&, const PolicyChanges&) = default;
};
