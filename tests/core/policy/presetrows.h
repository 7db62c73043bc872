// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Row types shared by the preset tables (tst_systempresets, tst_versionpresets): a preset's first delays
// with every draw pinned, and several attempts of one request sharing the backoff state. Each runner
// returns the actual summary so that a row compares it with its expectation in one QCOMPARE.

#include "presetcase.h"

namespace presettest {

// The first retries of a preset's backoff alone, every draw pinned.
struct DelayCase
{
    QString preset;
    QList<QPair<QString, QJsonValue>> overrides;
    bool throttling = false;
    QList<qint64> low; // every draw at 0
    QList<qint64> high; // every draw at 1
    QString gap;
};

// One step of a request: what the attempt ended with.
struct Step
{
    std::optional<int> status;
    QString error;
    HttpHeaderList headers;
};

// Several attempts of one logical request, sharing the backoff state; each step's expected summary.
struct SequenceCase
{
    QString preset;
    QString method = u"GET"_s;
    double pin = 1.0;
    QList<Step> steps;
    QStringList expected; // "retry 3000 via retry-after", "stop"
    QString gap;
};

inline Step status(int code, const char* header = nullptr, const char* value = nullptr)
{
    Step s;
    s.status = code;
    if (header)
        s.headers.append({ QByteArray(header), QByteArray(value) });
    return s;
}

inline Step failure(const QString& errorClass)
{
    Step s;
    s.error = errorClass;
    return s;
}

inline std::optional<RetryPolicy> loadWith(const QString& preset, const QList<QPair<QString, QJsonValue>>& overrides)
{
    QJsonObject json = presetJson(preset);
    for (const auto& [path, value] : overrides)
        json = setPath(json, path.split(u'.'), value);
    return policyFromJson(json).policy;
}

inline QString joined(const QList<qint64>& values)
{
    QStringList parts;
    for (qint64 v : values)
        parts << QString::number(v);
    return parts.join(u", "_s);
}

inline QString expectedDelays(const DelayCase& c) { return joined(c.low) + u" | "_s + joined(c.high); }

// "low… | high…": the first c.low.size() delays of POLICY's backoff, every draw at 0, then at 1.
inline QString actualDelays(const RetryPolicy& policy, const DelayCase& c)
{
    QList<qint64> low, high;
    for (const double pin : { 0.0, 1.0 }) {
        BackoffState state;
        FixedRandomSource random({ pin });
        QList<qint64>& out = pin == 0.0 ? low : high;
        for (qsizetype i = 0; i < c.low.size(); ++i)
            out << drawBackoff(policy.backoff, policy.jitter, state, random, c.throttling).delay.count();
    }
    return joined(low) + u" | "_s + joined(high);
}

// One line per step: "retry 3000 via retry-after", "stop", "success".
inline QStringList actualSequence(const RetryPolicy& policy, const SequenceCase& c)
{
    BackoffState state;
    FixedRandomSource random({ c.pin });
    RequestFacts request;
    request.method = c.method;
    QStringList actual;
    for (qsizetype i = 0; i < c.steps.size(); ++i) {
        const Step& step = c.steps.at(i);
        const AttemptOutcome outcome = step.status ? AttemptOutcome::answered(*step.status, step.headers)
                                                   : AttemptOutcome::failed(errorClassFromName(step.error).value_or(ErrorClass::Protocol));
        DecisionContext context;
        context.attempt = int(i) + 1;
        context.now = now();
        const RetryDecision d = decide(policy, request, outcome, context, state, random);
        actual << (d.verdict == Verdict::Retry ? u"retry %1 via %2"_s.arg(d.delay.count()).arg(delaySourceName(d.source))
                                               : verdictName(d.verdict));
    }
    return actual;
}

} // namespace presettest

Q_DECLARE_METATYPE(presettest::Step)
Q_DECLARE_METATYPE(presettest::DelayCase)
Q_DECLARE_METATYPE(presettest::SequenceCase)
