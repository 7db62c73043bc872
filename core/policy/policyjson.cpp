// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/policyjson.h"

#include "policy/jsonreader.h"
#include "policy/policyjsonparts.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace {

const QString kFormat = QStringLiteral("retrylab-policy");

QString tr(const char* text)
{
    return QCoreApplication::translate("RetryPolicy", text);
}

QStringList names(std::initializer_list<const char*> list)
{
    QStringList out;
    for (const char* name : list)
        out << QString::fromLatin1(name);
    return out;
}


QJsonArray stringsArray(const QStringList& list)
{
    return QJsonArray::fromStringList(list);
}

QJsonArray statusArray(const QList<StatusRange>& ranges)
{
    QJsonArray array;
    for (const StatusRange& range : ranges)
        array << statusRangeText(range);
    return array;
}

} // namespace

QJsonValue millisValue(const std::optional<Millis>& value)
{
    return value ? QJsonValue(double(value->count())) : QJsonValue(QJsonValue::Null);
}

QJsonObject conditionToJson(const RuleCondition& when)
{
    QJsonObject o;
    o[u"outcome"] = PolicyNames::outcomeKinds().at(int(when.outcome));
    if (!when.methods.isEmpty())
        o[u"methods"] = stringsArray(when.methods);
    if (when.idempotencyKey)
        o[u"idempotency_key"] = *when.idempotencyKey;
    if (!when.statuses.isEmpty())
        o[u"statuses"] = statusArray(when.statuses);
    if (!when.errors.isEmpty()) {
        QJsonArray errors;
        for (ErrorClass error : when.errors)
            errors << errorClassName(error);
        o[u"errors"] = errors;
    }
    if (when.serverCouldHaveActed)
        o[u"server_could_have_acted"] = *when.serverCouldHaveActed;
    if (when.body)
        o[u"body"] = QJsonObject { { u"path"_s, when.body->path }, { u"values"_s, stringsArray(when.body->values) } };
    if (!when.headers.isEmpty()) {
        QJsonArray headers;
        for (const HeaderMatch& header : when.headers) {
            headers << QJsonObject { { u"name"_s, header.name }, { u"values"_s, stringsArray(header.values) },
                { u"absent"_s, header.absent } };
        }
        o[u"headers"] = headers;
    }
    if (when.afterLostAnswer)
        o[u"after_lost_answer"] = *when.afterLostAnswer;
    return o;
}

RuleCondition conditionFromJson(JsonReader r)
{
    RuleCondition when;
    when.outcome = r.choice(u"outcome"_s, OutcomeKind::Any, PolicyNames::outcomeKinds());
    for (const QString& method : r.stringList(u"methods"_s, {}))
        when.methods << method.toUpper();
    when.idempotencyKey = r.optionalBoolean(u"idempotency_key"_s);
    when.statuses = r.statusList(u"statuses"_s);
    const QStringList errors = r.stringList(u"errors"_s, {});
    for (qsizetype i = 0; i < errors.size(); ++i) {
        if (const auto error = errorClassFromName(errors.at(i)))
            when.errors << *error;
        else
            r.problem(QStringLiteral("errors[%1]").arg(i),
                tr("is not an error class (one of %1)").arg(errorClassNames().join(QStringLiteral(", "))));
    }
    when.serverCouldHaveActed = r.optionalBoolean(u"server_could_have_acted"_s);
    if (r.has(u"body"_s)) {
        JsonReader body = r.child(u"body"_s);
        when.body = BodyMatch { body.string(u"path"_s, {}), body.stringList(u"values"_s, {}) };
        body.rejectUnknownKeys();
    } else {
        r.child(u"body"_s);
    }
    const QList<QJsonObject> headers = r.objectList(u"headers"_s);
    for (qsizetype i = 0; i < headers.size(); ++i) {
        JsonReader header = r.element(u"headers"_s, i, headers.at(i));
        HeaderMatch match { header.string(u"name"_s, {}), header.stringList(u"values"_s, {}),
            header.boolean(u"absent"_s, false) };
        header.rejectUnknownKeys();
        when.headers << match;
    }
    when.afterLostAnswer = r.optionalBoolean(u"after_lost_answer"_s);
    r.rejectUnknownKeys();
    return when;
}

namespace {

QJsonObject hintToJson(const DelayHint& hint)
{
    return QJsonObject {
        { u"header"_s, hint.header },
        { u"format"_s, PolicyNames::hintFormats().at(int(hint.format)) },
        { u"statuses"_s, statusArray(hint.statuses) },
        { u"combine"_s, PolicyNames::hintCombines().at(int(hint.combine)) },
        { u"window_ms"_s, double(hint.window.count()) },
        { u"max_ms"_s, millisValue(hint.max) },
        { u"over_max"_s, PolicyNames::hintOverMax().at(int(hint.overMax)) },
        { u"zero_falls_back_to_backoff"_s, hint.zeroFallsBackToBackoff },
        { u"resets_exponent"_s, hint.resetsExponent },
        { u"negative_means_stop"_s, hint.negativeMeansStop },
        { u"capped_by_backoff_cap"_s, hint.cappedByBackoffCap },
        { u"also_retry_after_ms"_s, hint.alsoRetryAfterMs },
        { u"invalid_means_stop"_s, hint.invalidMeansStop },
        { u"jittered"_s, hint.jittered },
        { u"advances_backoff"_s, hint.advancesBackoff },
    };
}

DelayHint hintFromJson(JsonReader r)
{
    DelayHint hint;
    hint.header = r.string(u"header"_s, {});
    hint.format = r.choice(u"format"_s, hint.format, PolicyNames::hintFormats());
    hint.statuses = r.statusList(u"statuses"_s);
    hint.combine = r.choice(u"combine"_s, hint.combine, PolicyNames::hintCombines());
    hint.window = r.millis(u"window_ms"_s, hint.window);
    hint.max = r.optionalMillis(u"max_ms"_s, hint.max);
    hint.overMax = r.choice(u"over_max"_s, hint.overMax, PolicyNames::hintOverMax());
    hint.zeroFallsBackToBackoff = r.boolean(u"zero_falls_back_to_backoff"_s, hint.zeroFallsBackToBackoff);
    hint.resetsExponent = r.boolean(u"resets_exponent"_s, hint.resetsExponent);
    hint.negativeMeansStop = r.boolean(u"negative_means_stop"_s, hint.negativeMeansStop);
    hint.cappedByBackoffCap = r.boolean(u"capped_by_backoff_cap"_s, hint.cappedByBackoffCap);
    hint.alsoRetryAfterMs = r.boolean(u"also_retry_after_ms"_s, hint.alsoRetryAfterMs);
    hint.invalidMeansStop = r.boolean(u"invalid_means_stop"_s, hint.invalidMeansStop);
    hint.jittered = r.boolean(u"jittered"_s, hint.jittered);
    hint.advancesBackoff = r.boolean(u"advances_backoff"_s, hint.advancesBackoff);
    r.rejectUnknownKeys();
    return hint;
}

} // namespace

namespace PolicyNames {
QStringList backoffKinds() { return names({ "none", "constant", "linear", "exponential", "decorrelated", "decorrelated-v2" }); }
QStringList exponentOrigins() { return names({ "first-retry-is-base", "first-retry-is-zero" }); }
QStringList jitterKinds() { return names({ "none", "full", "equal", "proportional", "multiplicative", "additive" }); }
QStringList capOrders() { return names({ "before-jitter", "after-jitter" }); }
QStringList hintFormats() { return names({ "retry-after", "milliseconds", "seconds" }); }
QStringList hintCombines() { return names({ "replace", "at-least-backoff", "clamp-around-backoff" }); }
QStringList hintOverMax() { return names({ "give-up", "clamp", "ignore" }); }
QStringList ruleActions() { return names({ "retry", "stop", "success" }); }
QStringList outcomeKinds() { return names({ "any", "status", "error", "circuit-open" }); }
QStringList keyFormats() { return names({ "quoted", "bare" }); }
QStringList budgetScopes() { return names({ "client", "host" }); }
QStringList deadlineModes() { return names({ "stop-before-wait", "stop-after-wait" }); }
QStringList breakerWindows() { return names({ "consecutive", "count", "time" }); }
QStringList breakerBucketStarts() { return names({ "at-call", "fixed" }); }
QStringList breakerComparators() { return names({ "at-least", "above" }); }
QStringList breakerHalfOpenCallers() { return names({ "rejected", "wait" }); }
QStringList breakerTransitions() { return names({ "lazy", "timer" }); }
QStringList breakerScopes() { return names({ "client", "host" }); }
} // namespace PolicyNames

QJsonObject policyToJson(const RetryPolicy& p)
{
    QJsonObject limits;
    if (p.limits.countedAs == AttemptCounting::Retries)
        limits[u"max_retries"] = p.maxRetries();
    else
        limits[u"max_attempts"] = p.limits.maxAttempts;
    limits[u"deadline_ms"] = millisValue(p.limits.deadline);
    limits[u"deadline_mode"] = PolicyNames::deadlineModes().at(int(p.limits.deadlineMode));
    limits[u"attempt_timeout_ms"] = millisValue(p.limits.attemptTimeout);
    limits[u"connect_timeout_ms"] = millisValue(p.limits.connectTimeout);
    limits[u"connections_per_host"]
        = p.limits.connectionsPerHost ? QJsonValue(*p.limits.connectionsPerHost) : QJsonValue(QJsonValue::Null);

    const QJsonObject backoff {
        { u"kind"_s, PolicyNames::backoffKinds().at(int(p.backoff.kind)) },
        { u"base_ms"_s, double(p.backoff.base.count()) },
        { u"multiplier"_s, p.backoff.multiplier },
        { u"increment_ms"_s, double(p.backoff.increment.count()) },
        { u"cap_ms"_s, millisValue(p.backoff.cap) },
        { u"origin"_s, PolicyNames::exponentOrigins().at(int(p.backoff.origin)) },
        { u"exponent_offset"_s, p.backoff.exponentOffset },
        { u"throttling_base_ms"_s, millisValue(p.backoff.throttlingBase) },
    };
    const QJsonObject jitter {
        { u"kind"_s, PolicyNames::jitterKinds().at(int(p.jitter.kind)) },
        { u"factor"_s, p.jitter.factor },
        { u"low"_s, p.jitter.low },
        { u"high"_s, p.jitter.high },
        { u"additive_ms"_s, double(p.jitter.additive.count()) },
        { u"cap"_s, PolicyNames::capOrders().at(int(p.jitter.capOrder)) },
        { u"floor_ms"_s, double(p.jitter.floor.count()) },
    };
    QJsonArray hints;
    for (const DelayHint& hint : p.hints)
        hints << hintToJson(hint);
    QJsonArray rules;
    for (const RetryRule& rule : p.rules) {
        QJsonObject o { { u"name"_s, rule.name }, { u"when"_s, conditionToJson(rule.when) },
            { u"action"_s, PolicyNames::ruleActions().at(int(rule.action)) } };
        if (rule.throttling)
            o[u"throttling"] = true;
        if (!rule.note.isEmpty())
            o[u"note"] = rule.note;
        rules << o;
    }
    const QJsonObject idempotency {
        { u"auto"_s, p.idempotency.autoAdd },
        { u"methods"_s, stringsArray(p.idempotency.methods) },
        { u"header"_s, p.idempotency.header },
        { u"format"_s, PolicyNames::keyFormats().at(int(p.idempotency.format)) },
        { u"prefix"_s, p.idempotency.prefix },
    };
    const QJsonObject quota {
        { u"enabled"_s, p.quota.enabled },
        { u"capacity"_s, p.quota.capacity },
        { u"retry_cost"_s, p.quota.retryCost },
        { u"timeout_retry_cost"_s, p.quota.timeoutRetryCost },
        { u"throttling_retry_cost"_s,
            p.quota.throttlingRetryCost ? QJsonValue(*p.quota.throttlingRetryCost) : QJsonValue(QJsonValue::Null) },
        { u"success_reward"_s, p.quota.successReward },
        { u"refund_on_success"_s, p.quota.refundOnSuccess },
        { u"scope"_s, PolicyNames::budgetScopes().at(int(p.quota.scope)) },
    };
    const QJsonObject throttling {
        { u"enabled"_s, p.throttling.enabled },
        { u"max_tokens"_s, p.throttling.maxTokens },
        { u"token_ratio"_s, p.throttling.tokenRatio },
        { u"scope"_s, PolicyNames::budgetScopes().at(int(p.throttling.scope)) },
    };
    const QJsonObject hostThrottle {
        { u"enabled"_s, p.hostThrottle.enabled },
        { u"max_wait_ms"_s, double(p.hostThrottle.maxWait.count()) },
    };
    QJsonObject o {
        { u"format"_s, kFormat },
        { u"version"_s, p.formatVersion() },
        { u"name"_s, p.name },
        { u"description"_s, p.description },
        { u"source"_s, p.source },
        { u"source_title"_s, p.sourceTitle },
        { u"limits"_s, limits },
        { u"backoff"_s, backoff },
        { u"jitter"_s, jitter },
        { u"hints"_s, hints },
        { u"rules"_s, rules },
        { u"idempotency"_s, idempotency },
        { u"quota"_s, quota },
        { u"throttling"_s, throttling },
        { u"host_throttle"_s, hostThrottle },
    };
    if (!p.pipeline.isEmpty())
        o.insert(u"pipeline"_s, pipelineToJson(p.pipeline));
    return o;
}

QByteArray policyToJsonBytes(const RetryPolicy& policy)
{
    return QJsonDocument(policyToJson(policy)).toJson(QJsonDocument::Indented);
}

PolicyParseResult policyFromJson(const QJsonObject& object)
{
    PolicyParseResult result;
    QList<PolicyProblem>& problems = result.problems;
    JsonReader r(problems, {}, object);
    RetryPolicy p;

    // Both are required (resources/schemas/policy.schema.json): "{}" is not a policy file.
    if (!r.has(u"format"_s))
        r.problem(u"format"_s, tr("is required: \"%1\"").arg(kFormat));
    if (!r.has(u"version"_s))
        r.problem(u"version"_s, tr("is required: 1, or 2 for a policy with a pipeline"));
    const QString format = r.string(u"format"_s, kFormat);
    if (format != kFormat)
        r.problem(u"format"_s, tr("must be \"%1\"").arg(kFormat));
    const int version = r.integer(u"version"_s, RetryPolicy::kFormatVersion);
    if (version < 1 || version > RetryPolicy::kFormatVersion) {
        r.problem(u"version"_s, tr("is %1; this Retrylab reads policy format versions 1 to %2")
                                    .arg(version)
                                    .arg(RetryPolicy::kFormatVersion));
        return result;
    }
    p.name = r.string(u"name"_s, {});
    p.description = r.string(u"description"_s, {});
    p.source = r.string(u"source"_s, {});
    p.sourceTitle = r.string(u"source_title"_s, {});

    JsonReader limits = r.child(u"limits"_s);
    const bool hasAttempts = limits.has(u"max_attempts"_s);
    const bool hasRetries = limits.has(u"max_retries"_s);
    if (hasAttempts && hasRetries) {
        const int attempts = limits.integer(u"max_attempts"_s, 0);
        const int retries = limits.integer(u"max_retries"_s, 0);
        if (attempts != retries + 1)
            limits.problem(u"max_retries"_s,
                tr("says %1 retries but max_attempts says %2 attempts; give one of them").arg(retries).arg(attempts));
        p.limits.maxAttempts = attempts;
    } else if (hasRetries) {
        p.limits.countedAs = AttemptCounting::Retries;
        p.limits.maxAttempts = limits.integer(u"max_retries"_s, 2) + 1;
    } else {
        p.limits.maxAttempts = limits.integer(u"max_attempts"_s, p.limits.maxAttempts);
    }
    p.limits.deadline = limits.optionalMillis(u"deadline_ms"_s, std::nullopt);
    p.limits.deadlineMode = limits.choice(u"deadline_mode"_s, p.limits.deadlineMode, PolicyNames::deadlineModes());
    p.limits.attemptTimeout = limits.optionalMillis(u"attempt_timeout_ms"_s, std::nullopt);
    p.limits.connectTimeout = limits.optionalMillis(u"connect_timeout_ms"_s, std::nullopt);
    if (limits.has(u"connections_per_host"_s))
        p.limits.connectionsPerHost = limits.integer(u"connections_per_host"_s, 0);
    else
        limits.string(u"connections_per_host"_s, {}); // null or absent: marks the key as known
    limits.rejectUnknownKeys();

    JsonReader backoff = r.child(u"backoff"_s);
    p.backoff.kind = backoff.choice(u"kind"_s, p.backoff.kind, PolicyNames::backoffKinds());
    p.backoff.base = backoff.millis(u"base_ms"_s, p.backoff.base);
    p.backoff.multiplier = backoff.number(u"multiplier"_s, p.backoff.multiplier);
    p.backoff.increment = backoff.millis(u"increment_ms"_s, p.backoff.increment);
    p.backoff.cap = backoff.optionalMillis(u"cap_ms"_s, std::nullopt);
    p.backoff.origin = backoff.choice(u"origin"_s, p.backoff.origin, PolicyNames::exponentOrigins());
    p.backoff.exponentOffset = backoff.integer(u"exponent_offset"_s, p.backoff.exponentOffset);
    p.backoff.throttlingBase = backoff.optionalMillis(u"throttling_base_ms"_s, std::nullopt);
    backoff.rejectUnknownKeys();

    JsonReader jitter = r.child(u"jitter"_s);
    p.jitter.kind = jitter.choice(u"kind"_s, p.jitter.kind, PolicyNames::jitterKinds());
    p.jitter.factor = jitter.number(u"factor"_s, p.jitter.factor);
    p.jitter.low = jitter.number(u"low"_s, p.jitter.low);
    p.jitter.high = jitter.number(u"high"_s, p.jitter.high);
    p.jitter.additive = jitter.millis(u"additive_ms"_s, p.jitter.additive);
    p.jitter.capOrder = jitter.choice(u"cap"_s, p.jitter.capOrder, PolicyNames::capOrders());
    p.jitter.floor = jitter.millis(u"floor_ms"_s, p.jitter.floor);
    jitter.rejectUnknownKeys();

    const QList<QJsonObject> hints = r.objectList(u"hints"_s);
    for (qsizetype i = 0; i < hints.size(); ++i)
        p.hints << hintFromJson(r.element(u"hints"_s, i, hints.at(i)));

    const QList<QJsonObject> rules = r.objectList(u"rules"_s);
    for (qsizetype i = 0; i < rules.size(); ++i) {
        JsonReader rr = r.element(u"rules"_s, i, rules.at(i));
        RetryRule rule;
        rule.name = rr.string(u"name"_s, {});
        rule.when = conditionFromJson(rr.child(u"when"_s));
        rule.action = rr.choice(u"action"_s, rule.action, PolicyNames::ruleActions());
        if (!rr.has(u"action"_s))
            rr.problem(u"action"_s, tr("is required (retry, stop or success)"));
        rule.throttling = rr.boolean(u"throttling"_s, false);
        rule.note = rr.string(u"note"_s, {});
        rr.rejectUnknownKeys();
        p.rules << rule;
    }

    JsonReader idem = r.child(u"idempotency"_s);
    p.idempotency.autoAdd = idem.boolean(u"auto"_s, p.idempotency.autoAdd);
    p.idempotency.methods.clear();
    for (const QString& method : idem.stringList(u"methods"_s, { QStringLiteral("POST") }))
        p.idempotency.methods << method.toUpper();
    p.idempotency.header = idem.string(u"header"_s, p.idempotency.header);
    p.idempotency.format = idem.choice(u"format"_s, p.idempotency.format, PolicyNames::keyFormats());
    p.idempotency.prefix = idem.string(u"prefix"_s, p.idempotency.prefix);
    idem.rejectUnknownKeys();

    JsonReader quota = r.child(u"quota"_s);
    p.quota.enabled = quota.boolean(u"enabled"_s, p.quota.enabled);
    p.quota.capacity = quota.integer(u"capacity"_s, p.quota.capacity);
    p.quota.retryCost = quota.integer(u"retry_cost"_s, p.quota.retryCost);
    p.quota.timeoutRetryCost = quota.integer(u"timeout_retry_cost"_s, p.quota.timeoutRetryCost);
    if (quota.has(u"throttling_retry_cost"_s))
        p.quota.throttlingRetryCost = quota.integer(u"throttling_retry_cost"_s, 0);
    else
        quota.string(u"throttling_retry_cost"_s, {}); // null or absent: marks the key as known
    p.quota.successReward = quota.integer(u"success_reward"_s, p.quota.successReward);
    p.quota.refundOnSuccess = quota.boolean(u"refund_on_success"_s, p.quota.refundOnSuccess);
    p.quota.scope = quota.choice(u"scope"_s, p.quota.scope, PolicyNames::budgetScopes());
    quota.rejectUnknownKeys();

    JsonReader throttling = r.child(u"throttling"_s);
    p.throttling.enabled = throttling.boolean(u"enabled"_s, p.throttling.enabled);
    p.throttling.maxTokens = throttling.number(u"max_tokens"_s, p.throttling.maxTokens);
    p.throttling.tokenRatio = throttling.number(u"token_ratio"_s, p.throttling.tokenRatio);
    p.throttling.scope = throttling.choice(u"scope"_s, p.throttling.scope, PolicyNames::budgetScopes());
    throttling.rejectUnknownKeys();

    JsonReader host = r.child(u"host_throttle"_s);
    p.hostThrottle.enabled = host.boolean(u"enabled"_s, p.hostThrottle.enabled);
    p.hostThrottle.maxWait = host.millis(u"max_wait_ms"_s, p.hostThrottle.maxWait);
    host.rejectUnknownKeys();

    if (r.has(u"pipeline"_s)) {
        if (version < 2)
            r.problem(u"pipeline"_s, tr("needs policy format version 2 (\"version\": 2)"));
        p.pipeline = pipelineFromJson(r, u"pipeline"_s);
        if (p.pipeline.isEmpty() && problems.isEmpty())
            r.problem(u"pipeline"_s, tr("is empty: leave it out for the retry alone, or list the strategies"));
    }
    r.rejectUnknownKeys();

    problems << validate(p);
    if (problems.isEmpty())
        result.policy = p;
    return result;
}

PolicyParseResult policyFromJsonBytes(const QByteArray& bytes)
{
    QJsonParseError error {};
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError) {
        const QByteArray before = bytes.left(error.offset);
        const int line = int(before.count('\n')) + 1;
        const int column = int(error.offset - (before.lastIndexOf('\n') + 1)) + 1;
        PolicyParseResult result;
        result.problems << PolicyProblem { QString(),
            tr("not valid JSON at line %1, column %2: %3").arg(line).arg(column).arg(error.errorString()) };
        return result;
    }
    if (!document.isObject()) {
        PolicyParseResult result;
        result.problems << PolicyProblem { QString(), tr("a policy file must hold a JSON object") };
        return result;
    }
    return policyFromJson(document.object());
}
