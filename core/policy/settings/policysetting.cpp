// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/settings/policysetting.h"

#include "policy/jsonreader.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text, int n = -1)
{
    return QCoreApplication::translate("PolicySetting", text, nullptr, n);
}

QString notAPath()
{
    return tr("is not a field path: keys joined by dots, [N] for an element of an array (e.g. limits.max_retries, "
              "rules[2].action)");
}

// One step of a path: a key of an object, or an index into an array.
struct Step
{
    QString key;
    qsizetype index = -1;
    bool isIndex() const { return index >= 0; }
};

bool isKeyCharacter(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_' || c == u'-';
}

// PATH as steps; nullopt when it is not a field path. It starts with a key: a policy is an object.
std::optional<QList<Step>> stepsOf(const QString& path)
{
    QList<Step> steps;
    qsizetype i = 0;
    while (i < path.size()) {
        if (path.at(i) == u'[' && !steps.isEmpty()) {
            const qsizetype close = path.indexOf(u']', i);
            const QString digits = close < 0 ? QString() : path.mid(i + 1, close - i - 1);
            // At most 9 digits: no index that large exists, and the number cannot overflow.
            if (digits.isEmpty() || digits.size() > 9
                || !std::all_of(digits.cbegin(), digits.cend(), [](QChar c) { return c >= u'0' && c <= u'9'; }))
                return std::nullopt;
            steps << Step { {}, digits.toLongLong() };
            i = close + 1;
            continue;
        }
        if (!steps.isEmpty()) {
            if (path.at(i) != u'.')
                return std::nullopt;
            ++i;
        }
        const qsizetype start = i;
        while (i < path.size() && isKeyCharacter(path.at(i)))
            ++i;
        if (i == start)
            return std::nullopt;
        steps << Step { path.mid(start, i - start) };
    }
    if (steps.isEmpty())
        return std::nullopt;
    return steps;
}

// TEXT as one JSON value, or the text itself when it is not one.
QJsonValue valueOf(const QString& text)
{
    // Qt reads only an object or an array as a document: the value is read as the one element of an array.
    const QByteArray wrapped = QByteArray("[") + text.toUtf8() + QByteArray("]");
    QJsonParseError error {};
    const QJsonDocument document = QJsonDocument::fromJson(wrapped, &error);
    if (error.error == QJsonParseError::NoError && document.isArray() && document.array().size() == 1)
        return document.array().first();
    return QJsonValue(text);
}

// Sets VALUE at STEPS[i…] inside NODE, the value found at the path AT; a problem naming its path, or none.
std::optional<PolicyProblem> setAt(
    QJsonValue& node, const QList<Step>& steps, qsizetype i, const QJsonValue& value, const QString& at)
{
    const Step& step = steps.at(i);
    QJsonObject object;
    QJsonArray array;
    if (!step.isIndex()) {
        // An object the file leaves out (rules[0].when.body) comes into being.
        if (!node.isObject() && !node.isUndefined())
            return PolicyProblem { at,
                tr("is %1, not an object: it has no field \"%2\"").arg(jsonTypeName(node), step.key) };
        object = node.toObject();
    } else {
        // An array the file leaves out has no element.
        if (!node.isArray() && !node.isUndefined())
            return PolicyProblem { at,
                tr("is %1, not an array: it has no element [%2]").arg(jsonTypeName(node)).arg(step.index) };
        array = node.toArray();
        if (step.index >= array.size()) {
            const int size = int(array.size());
            return PolicyProblem { at + u"[%1]"_s.arg(step.index),
                size == 0 ? tr("is out of range: %1 is empty").arg(at)
                          : tr("is out of range: %1 has %n element(s), [0] to [%2]", size).arg(at).arg(size - 1) };
        }
    }
    const QString here = step.isIndex() ? at + u"[%1]"_s.arg(step.index)
        : at.isEmpty()                  ? step.key
                                        : at + u'.' + step.key;
    QJsonValue child = step.isIndex() ? array.at(step.index) : object.value(step.key);
    if (i + 1 == steps.size())
        child = value;
    else if (std::optional<PolicyProblem> problem = setAt(child, steps, i + 1, value, here))
        return problem;
    if (step.isIndex()) {
        array.replace(step.index, child);
        node = array;
    } else {
        object.insert(step.key, child);
        node = object;
    }
    return std::nullopt;
}

} // namespace

std::optional<PolicySetting> PolicySetting::parse(const QString& assignment, QString* error)
{
    const qsizetype equals = assignment.indexOf(u'=');
    if (equals < 0) {
        *error = tr("\"%1\" is not PATH=VALUE (e.g. limits.max_retries=3)").arg(assignment);
        return std::nullopt;
    }
    const QString path = assignment.left(equals).trimmed();
    if (!stepsOf(path)) {
        *error = u"\"%1\" "_s.arg(path) + notAPath();
        return std::nullopt;
    }
    return PolicySetting { path, valueOf(assignment.mid(equals + 1)) };
}

PolicyParseResult applyPolicySettings(const RetryPolicy& policy, const QList<PolicySetting>& settings)
{
    PolicyParseResult result;
    QJsonValue root = policyToJson(policy);
    bool setAttempts = false;
    bool setRetries = false;
    for (const PolicySetting& setting : settings) {
        const std::optional<QList<Step>> steps = stepsOf(setting.path);
        if (!steps) {
            result.problems << PolicyProblem { setting.path, notAPath() };
            continue;
        }
        if (std::optional<PolicyProblem> problem = setAt(root, *steps, 0, setting.value, QString())) {
            result.problems << *problem;
            continue;
        }
        setAttempts = setAttempts || setting.path == u"limits.max_attempts"_s;
        setRetries = setRetries || setting.path == u"limits.max_retries"_s;
    }
    QJsonObject object = root.toObject();
    // One limit, two spellings: the one set stands, unless both were (then the reader checks they agree).
    if (setAttempts != setRetries && object.value(u"limits"_s).isObject()) {
        QJsonObject limits = object.value(u"limits"_s).toObject();
        limits.remove(setAttempts ? u"max_retries"_s : u"max_attempts"_s);
        object.insert(u"limits"_s, limits);
    }
    // Every problem at once: the settings that could not be placed, then what the reader says of the rest.
    PolicyParseResult read = policyFromJson(object);
    if (result.problems.isEmpty())
        return read;
    result.problems << read.problems;
    return result;
}
