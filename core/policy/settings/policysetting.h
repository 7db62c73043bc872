// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A field of a policy set the way the client is configured: `curl --retry 3` is curl-7.88 with
// `limits.max_retries=3`. What `--set PATH=VALUE` gives every command that takes a policy.
//
// PATH is the field's path as a policy file spells it (resources/docs/policy-format.md): keys joined by
// dots, [N] for element N of an array (`backoff.base_ms`, `rules[2].action`, `hints[0].statuses`).
// VALUE is JSON (3, 0.5, true, null, "text", ["GET"], {"outcome": "status"}) or, when it does not parse as
// one JSON value, the text itself (`rules[2].action=stop`).

#include "policy/policyjson.h"
#include "policy/retrypolicy.h"

#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

struct PolicySetting
{
    QString path;
    QJsonValue value;

    // "PATH=VALUE" → a setting; nullopt with *error when there is no '=' or PATH is not a field path.
    static std::optional<PolicySetting> parse(const QString& assignment, QString* error);
    friend bool operator==(const PolicySetting&, const PolicySetting&) = default;
};

// POLICY with SETTINGS applied in order, then read back by the policy file's own reader and validate(), so
// a setting is held to every rule a file is, with the same messages and field paths: a key the format
// does not have, a value of the wrong type, an index past the end of an array, a value validate() refuses.
// A key the format has but POLICY's file leaves out (rules[0].when.methods) is simply added.
// Every problem at once: the settings that cannot be placed (an index out of range, a key under a number),
// then the reader's. limits.max_attempts and limits.max_retries are two spellings of one limit: setting one
// drops the other.
PolicyParseResult applyPolicySettings(const RetryPolicy& policy, const QList<PolicySetting>& settings);
