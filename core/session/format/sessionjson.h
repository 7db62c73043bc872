// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The small parts of the session format as QJsonObjects: metadata, redaction settings, request specs,
// run facts (without attempts) and fault-lab events. Readers report the first problem as "field: message".

#include "engine/breakerchange.h"
#include "engine/requestspec.h"
#include "lab/labevent.h"
#include "policy/settings/policychanges.h"
#include "session/export/redaction.h"
#include "session/sessionmeta.h"
#include "session/sessionrun.h"

#include <QJsonObject>
#include <QString>

namespace SessionJson {
QJsonObject metaToJson(const SessionMeta& meta);
bool metaFromJson(const QJsonObject& o, SessionMeta* meta, QString* problem);

QJsonObject redactionToJson(const RedactionSettings& settings);
bool redactionFromJson(const QJsonObject& o, RedactionSettings* settings, QString* problem);

QJsonObject requestToJson(const RequestSpec& spec, const Redactor& redactor);
bool requestFromJson(const QJsonObject& o, RequestSpec* spec, QString* problem);

// Run facts; policy and request are "policy_ref"/"request_ref" indices into the session's lists.
QJsonObject runFactsToJson(const SessionRun& run, const QString& method, const QString& url);
bool runFactsFromJson(const QJsonObject& o, SessionRun* run, QString* problem);

// An observed run's grouping: { "rule", "evidence", "heuristic" }; null or absent: an engine run.
QJsonObject observedToJson(const ObservedGrouping& grouping);
bool observedFromJson(const QJsonValue& value, std::optional<ObservedGrouping>* grouping, QString* problem);

// An entry of "policy_changes": { "policy_ref", "base", "base_kind", "changes" }.
QJsonObject policyChangesToJson(qsizetype policy, const PolicyChanges& changes);
bool policyChangesFromJson(const QJsonObject& o, qsizetype* policy, PolicyChanges* changes, QString* problem);

QJsonObject labEventToJson(const LabEvent& event);
// A pipeline circuit breaker's change of state (session-format.md, `breaker_changes`); strict: unknown
// fields, states and negative counts are refused, PROBLEM saying "field: why".
QJsonObject breakerChangeToJson(const BreakerChange& change);
bool breakerChangeFromJson(const QJsonObject& o, BreakerChange* change, QString* problem);
bool labEventFromJson(const QJsonObject& o, LabEvent* event, QString* problem);
}
