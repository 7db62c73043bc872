// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One row of a preset test: a request and an attempt outcome on a preset, and what must come of it.
// Shared by tst_seedrules (the seed documents, sentence by sentence) and tst_systempresets (the systems of
// retry-systems.md). decideAt() pins every jitter draw, earlier retries included, so a row asserts the
// ends of the delay range exactly.

#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/policyjson.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"
#include "policy/rulematcher.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMetaType>

namespace presettest {

using namespace Qt::StringLiterals;

// One row: a request and an attempt outcome on a preset, and what must come of it.
struct PresetCase
{
    QString preset;
    QList<QPair<QString, QJsonValue>> overrides; // JSON path → value, applied to the preset's JSON first

    QString method = u"GET"_s;
    bool key = false;
    bool autoKey = false; // the key is present when the preset adds one automatically for this method
    bool rewindable = true;
    bool lost = false;
    std::optional<int> status;
    QString error; // error class name when there is no status
    HttpHeaderList headers;
    QByteArray body;
    int attempt = 1;
    qint64 elapsedMs = 0;
    std::optional<qint64> hostResetMs;
    std::optional<int> quotaTokens;
    std::optional<double> throttlingTokens;

    QString verdict; // "retry", "stop", "success"; empty for a settings row
    std::optional<qint64> low, high; // delay with every draw pinned at 0, and at 1
    QString source;
    QString finalKind;
    std::optional<qint64> asked;

    QString settingPath; // settings row: the preset's JSON at this path …
    QJsonValue settingValue; // … equals this
    QString invalidPath; // validation row: setting settingValue here is refused with a problem at this path

    QString gap; // a known modelling gap: the row is expected to fail, and why

    PresetCase& with(const QString& path, const QJsonValue& value) { overrides.append({ path, value }); return *this; }
    PresetCase& on(const QString& m) { method = m; return *this; }
    PresetCase& withKey() { key = true; return *this; }
    PresetCase& withAutoKey() { autoKey = true; return *this; }
    PresetCase& bodyNotRewindable() { rewindable = false; return *this; }
    PresetCase& afterLostAnswer() { lost = true; return *this; }
    PresetCase& answered(int s) { status = s; return *this; }
    PresetCase& failed(const QString& e) { error = e; return *this; }
    PresetCase& header(const char* name, const char* value) { headers.append({ QByteArray(name), QByteArray(value) }); return *this; }
    PresetCase& json(const char* text) { body = QByteArray(text); return *this; }
    PresetCase& at(int n) { attempt = n; return *this; }
    PresetCase& elapsed(qint64 ms) { elapsedMs = ms; return *this; }
    PresetCase& hostResetIn(qint64 ms) { hostResetMs = ms; return *this; }
    PresetCase& quota(int tokens) { quotaTokens = tokens; return *this; }
    PresetCase& throttlingAt(double tokens) { throttlingTokens = tokens; return *this; }
    PresetCase& retry(qint64 lo, qint64 hi, const QString& src = u"backoff"_s)
    {
        verdict = u"retry"_s;
        low = lo;
        high = hi;
        source = src;
        return *this;
    }
    PresetCase& retryAnyDelay() { verdict = u"retry"_s; return *this; }
    PresetCase& stop(const QString& kind = {}) { verdict = u"stop"_s; finalKind = kind; return *this; }
    PresetCase& success() { verdict = u"success"_s; finalKind = u"success"_s; return *this; }
    PresetCase& serverAsked(qint64 ms) { asked = ms; return *this; }
    PresetCase& setting(const QString& path, const QJsonValue& value) { settingPath = path; settingValue = value; return *this; }
    PresetCase& refused(const QString& path, const QJsonValue& value)
    {
        invalidPath = path;
        overrides.append({ path, value });
        return *this;
    }
    PresetCase& knownGap(const QString& why) { gap = why; return *this; }
};

inline PresetCase on(const QString& preset)
{
    PresetCase c;
    c.preset = preset;
    return c;
}

inline QJsonObject setPath(QJsonObject object, QStringList path, const QJsonValue& value)
{
    const QString head = path.takeFirst();
    if (path.isEmpty())
        object[head] = value;
    else
        object[head] = setPath(object.value(head).toObject(), path, value);
    return object;
}

inline QJsonValue valueAt(const QJsonObject& object, const QString& path)
{
    QJsonValue current = object;
    for (const QString& step : path.split(u'.'))
        current = current.toObject().value(step);
    return current;
}

inline QJsonObject presetJson(const QString& name)
{
    const PolicyParseResult parsed = PresetCatalog::load(name);
    return parsed.policy ? policyToJson(*parsed.policy) : QJsonObject();
}

inline const QDateTime& now()
{
    static const QDateTime fixed(QDate(2026, 11, 6), QTime(12, 0), Qt::UTC); // a Friday
    return fixed;
}

// decide() for the row with every jitter draw pinned at PIN, earlier retries included.
inline RetryDecision decideAt(const RetryPolicy& policy, const PresetCase& c, double pin)
{
    RequestFacts request;
    request.method = c.method;
    request.hasIdempotencyKey = c.key
        || (c.autoKey && policy.idempotency.autoAdd && policy.idempotency.methods.contains(c.method));
    request.bodyRewindable = c.rewindable;
    request.answerLostEarlier = c.lost;

    AttemptOutcome outcome;
    if (c.status)
        outcome = AttemptOutcome::answered(*c.status, c.headers, c.body);
    else
        outcome = AttemptOutcome::failed(errorClassFromName(c.error).value_or(ErrorClass::Protocol));

    const RetryRule* rule = firstMatchingRule(policy, request, outcome);
    BackoffState state;
    FixedRandomSource history({ pin });
    for (int i = 1; i < c.attempt; ++i)
        drawBackoff(policy.backoff, policy.jitter, state, history, rule && rule->throttling);

    DecisionContext context;
    context.attempt = c.attempt;
    context.elapsed = Millis(c.elapsedMs);
    context.now = now();
    if (c.hostResetMs)
        context.budget.hostResetIn = Millis(*c.hostResetMs);
    context.budget.quotaTokens = c.quotaTokens;
    context.budget.throttlingTokens = c.throttlingTokens;
    FixedRandomSource random({ pin });
    return decide(policy, request, outcome, context, state, random);
}

inline QString expectedSummary(const PresetCase& c)
{
    QString s = c.verdict;
    if (c.low)
        s += u" %1..%2 ms"_s.arg(*c.low).arg(*c.high);
    if (!c.source.isEmpty())
        s += u" via "_s + c.source;
    if (!c.finalKind.isEmpty())
        s += u" (%1)"_s.arg(c.finalKind);
    if (c.asked)
        s += u" asked %1 ms"_s.arg(*c.asked);
    return s;
}

inline QString actualSummary(const PresetCase& c, const RetryDecision& d0, const RetryDecision& d1)
{
    QString s = verdictName(d0.verdict);
    if (d1.verdict != d0.verdict)
        s += u"/"_s + verdictName(d1.verdict);
    if (c.low)
        s += u" %1..%2 ms"_s.arg(d0.delay.count()).arg(d1.delay.count());
    if (!c.source.isEmpty())
        s += u" via "_s + delaySourceName(d0.source);
    if (!c.finalKind.isEmpty())
        s += u" (%1)"_s.arg(finalKindName(d0.finalKind));
    if (c.asked)
        s += u" asked %1 ms"_s.arg(d0.serverAskedFor ? d0.serverAskedFor->count() : -1);
    return s;
}


} // namespace presettest

Q_DECLARE_METATYPE(presettest::PresetCase)
