// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/resilience4jimport.h"

#include "codegen/yamlreader.h"

#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

// Spring's relaxed binding: maxAttempts, max-attempts and max_attempts are one property.
QString canonical(const QString& key)
{
    QString out;
    for (const QChar c : key)
        if (c != u'-' && c != u'_')
            out += c.toLower();
    return out;
}

QJsonValue member(const QJsonObject& o, const QString& name)
{
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        if (canonical(it.key()) == canonical(name))
            return it.value();
    return QJsonValue(QJsonValue::Undefined);
}

// A Spring Boot duration: "500ms", "2s", "1m", a bare number of milliseconds, or ISO-8601 "PT0.5S".
std::optional<Millis> springDuration(const QJsonValue& v)
{
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (d >= 0 && d == std::floor(d) && d < 1e12)
            return Millis(qint64(d));
        return std::nullopt;
    }
    static const QRegularExpression simple(u"^\\s*([0-9]{1,12})\\s*(ns|us|ms|s|m|h|d)?\\s*$"_s);
    static const QRegularExpression iso(u"^PT(?:([0-9]{1,6})H)?(?:([0-9]{1,6})M)?(?:([0-9]{1,9})(?:\\.([0-9]{1,9}))?S)?$"_s,
        QRegularExpression::CaseInsensitiveOption);
    const QString text = v.toString();
    if (const QRegularExpressionMatch m = simple.match(text); v.isString() && m.hasMatch()) {
        const double n = m.captured(1).toDouble();
        const QString unit = m.captured(2).isEmpty() ? u"ms"_s : m.captured(2);
        const double factor = unit == u"ns"_s ? 1e-6 : unit == u"us"_s ? 1e-3 : unit == u"ms"_s ? 1 : unit == u"s"_s ? 1e3
            : unit == u"m"_s ? 6e4 : unit == u"h"_s ? 3.6e6 : 8.64e7;
        const double ms = n * factor;
        if (ms > 1e12)
            return std::nullopt;
        return Millis(qint64(std::floor(ms)));
    }
    if (const QRegularExpressionMatch m = iso.match(text); v.isString() && m.hasMatch() && text.size() > 2) {
        const double ms = m.captured(1).toDouble() * 3.6e6 + m.captured(2).toDouble() * 6e4 + m.captured(3).toDouble() * 1e3
            + (m.captured(4).isEmpty() ? 0.0 : QString(u"0."_s + m.captured(4)).toDouble() * 1e3);
        return Millis(qint64(std::floor(ms)));
    }
    return std::nullopt;
}

} // namespace

CodeImport importResilience4jYaml(const QByteArray& text)
{
    CodeImport out;
    const YamlDocument doc = YamlReader::parse(text);
    if (!doc.ok()) {
        out.problems << u"not YAML this reader takes: "_s + doc.problem;
        return out;
    }
    const QJsonObject retry = member(member(doc.value.toObject(), u"resilience4j"_s).toObject(), u"retry"_s).toObject();
    if (retry.isEmpty()) {
        out.problems << u"no resilience4j.retry section: expected resilience4j.retry.instances.<name> or configs.default"_s;
        return out;
    }
    const QJsonObject instances = member(retry, u"instances"_s).toObject();
    const QJsonObject configs = member(retry, u"configs"_s).toObject();
    QString name;
    QString prefix;
    QJsonObject chosen;
    if (!instances.isEmpty()) {
        name = instances.constBegin().key();
        prefix = u"resilience4j.retry.instances."_s + name;
        chosen = instances.constBegin().value().toObject();
        for (auto it = std::next(instances.constBegin()); it != instances.constEnd(); ++it)
            out.lost.append({ u"resilience4j.retry.instances."_s + it.key(), u"another instance: the policy holds one (the first, %1, was read)"_s.arg(name) });
    } else if (member(configs, u"default"_s).isObject()) {
        name = u"default"_s;
        prefix = u"resilience4j.retry.configs.default"_s;
        chosen = member(configs, u"default"_s).toObject();
    } else {
        out.problems << u"resilience4j.retry has neither instances nor configs.default"_s;
        return out;
    }
    for (auto it = retry.constBegin(); it != retry.constEnd(); ++it) {
        const QString k = canonical(it.key());
        if (k != u"instances"_s && k != u"configs"_s)
            out.lost.append({ u"resilience4j.retry."_s + it.key(), u"not read"_s });
    }
    // baseConfig: the named config's settings beneath the instance's own.
    QJsonObject settings;
    const QJsonValue baseName = member(chosen, u"baseConfig"_s);
    if (baseName.isString()) {
        const QJsonValue base = member(configs, baseName.toString());
        if (!base.isObject())
            out.problems << u"%1.baseConfig: no config named \"%2\" under resilience4j.retry.configs"_s.arg(prefix, baseName.toString().left(60));
        settings = base.toObject();
    } else if (!baseName.isUndefined()) {
        out.problems << prefix + u".baseConfig: not a config name"_s;
    }
    for (auto it = chosen.constBegin(); it != chosen.constEnd(); ++it)
        if (canonical(it.key()) != u"baseconfig"_s)
            settings.insert(it.key(), it.value());

    RetryPolicy p;
    p.name = name;
    p.description = u"Imported from a resilience4j retry configuration (Spring Boot)."_s;
    p.limits.maxAttempts = 3;
    p.backoff.kind = BackoffKind::Constant;
    p.backoff.base = Millis(500);
    p.jitter.kind = JitterKind::None;
    p.jitter.capOrder = CapOrder::AfterJitter;
    bool exponential = false;
    bool randomized = false;
    double multiplier = 1.5; // IntervalFunction.DEFAULT_MULTIPLIER
    double factor = 0.5; // IntervalFunction.DEFAULT_RANDOMIZATION_FACTOR
    std::optional<Millis> maxWait;
    const auto problem = [&](const QString& key, const QString& what) { out.problems << u"%1.%2: %3"_s.arg(prefix, key, what); };
    for (auto it = settings.constBegin(); it != settings.constEnd(); ++it) {
        const QString k = canonical(it.key());
        const QJsonValue v = it.value();
        const QString path = prefix + u'.' + it.key();
        if (k == u"maxattempts"_s) {
            const double d = v.toDouble(-1);
            if (!v.isDouble() || d < 1 || d != std::floor(d) || d > 1000)
                problem(it.key(), u"a whole number of attempts from 1 to 1000"_s);
            else
                p.limits.maxAttempts = int(d);
        } else if (k == u"waitduration"_s) {
            if (const auto d = springDuration(v))
                p.backoff.base = *d;
            else
                problem(it.key(), u"not a duration (\"500ms\", \"2s\", a number of milliseconds or ISO-8601 \"PT0.5S\")"_s);
        } else if (k == u"exponentialmaxwaitduration"_s) {
            maxWait = springDuration(v);
            if (!maxWait)
                problem(it.key(), u"not a duration"_s);
        } else if (k == u"enableexponentialbackoff"_s || k == u"enablerandomizedwait"_s) {
            if (!v.isBool())
                problem(it.key(), u"not true or false"_s);
            (k == u"enableexponentialbackoff"_s ? exponential : randomized) = v.toBool();
        } else if (k == u"exponentialbackoffmultiplier"_s) {
            multiplier = v.toDouble(-1);
            if (!v.isDouble() || !(multiplier > 0) || multiplier > 1000)
                problem(it.key(), u"a number above 0"_s);
        } else if (k == u"randomizedwaitfactor"_s) {
            factor = v.toDouble(-1);
            if (!v.isDouble() || factor < 0 || factor >= 1)
                problem(it.key(), u"a number from 0 up to (not including) 1"_s);
        } else if (k == u"retryexceptions"_s || k == u"ignoreexceptions"_s || k == u"retryexceptionpredicate"_s
            || k == u"resultpredicate"_s || k == u"intervalbifunction"_s) {
            out.lost.append({ path, u"Java classes deciding what is retried or how long to wait: the policy's rules see HTTP outcomes, not exception types"_s });
        } else if (k == u"failaftermaxattempts"_s) {
            out.lost.append({ path, u"which exception a result-based retry ends with: the policy has no results besides HTTP answers"_s });
        } else {
            out.lost.append({ path, u"not a retry behaviour the policy holds: not read"_s });
        }
    }
    if (!out.problems.isEmpty())
        return out;
    if (exponential) {
        p.backoff.kind = BackoffKind::Exponential;
        p.backoff.multiplier = multiplier;
        p.backoff.cap = maxWait;
    } else if (maxWait) {
        out.lost.append({ prefix + u".exponentialMaxWaitDuration"_s, u"set without enableExponentialBackoff: resilience4j ignores it"_s });
    }
    if (randomized) {
        p.jitter.kind = JitterKind::Proportional;
        p.jitter.factor = factor;
        p.jitter.floor = Millis(1);
    }
    RetryRule anyError;
    anyError.name = u"any-exception"_s;
    anyError.when.outcome = OutcomeKind::Error;
    anyError.note = u"Retry on every exception (retryExceptions/ignoreExceptions defaults)."_s;
    RetryRule thrown;
    thrown.name = u"thrown-status"_s;
    thrown.when.outcome = OutcomeKind::Status;
    thrown.when.statuses = { StatusRange { 400, 599 } };
    thrown.note = u"The call throws for a failed answer (RestTemplate, Feign), and every exception is retried."_s;
    p.rules = { anyError, thrown };
    for (const PolicyProblem& pp : validate(p))
        out.problems << u"the policy read is not valid: %1: %2"_s.arg(pp.path, pp.message);
    if (out.problems.isEmpty())
        out.policy = p;
    return out;
}
