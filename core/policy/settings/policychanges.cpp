// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy/settings/policychanges.h"

#include "policy/policyjson.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("PolicyChanges", text);
}

// Longer values (a description, a whole rule) are shortened in the text; the JSON keeps them whole.
constexpr qsizetype kShownValueLength = 60;

bool holdsObjects(const QJsonArray& array)
{
    return std::any_of(array.cbegin(), array.cend(), [](const QJsonValue& v) { return v.isObject(); });
}

void diff(const QJsonValue& before, const QJsonValue& after, const QString& path, QList<PolicyChange>& out)
{
    if (before == after)
        return;
    if (before.isObject() && after.isObject()) {
        const QJsonObject a = before.toObject();
        const QJsonObject b = after.toObject();
        QStringList keys = a.keys();
        for (const QString& key : b.keys()) {
            if (!a.contains(key))
                keys << key;
        }
        std::sort(keys.begin(), keys.end());
        for (const QString& key : std::as_const(keys))
            diff(a.value(key), b.value(key), path.isEmpty() ? key : path + u'.' + key, out);
        return;
    }
    if (before.isArray() && after.isArray() && (holdsObjects(before.toArray()) || holdsObjects(after.toArray()))) {
        const QJsonArray a = before.toArray();
        const QJsonArray b = after.toArray();
        for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
            const QJsonValue x = i < a.size() ? a.at(i) : QJsonValue(QJsonValue::Undefined);
            const QJsonValue y = i < b.size() ? b.at(i) : QJsonValue(QJsonValue::Undefined);
            const QString here = path + u"[%1]"_s.arg(i);
            if (x.isObject() && y.isObject())
                diff(x, y, here, out);
            else if (x != y)
                out << PolicyChange { here, x, y };
        }
        return;
    }
    out << PolicyChange { path, before, after };
}

QString valueText(const QJsonValue& value)
{
    if (value.isUndefined())
        return tr("(absent)");
    // Written as the one element of an array (Qt writes only objects and arrays as documents), unwrapped.
    const QByteArray json = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    const QString text = QString::fromUtf8(json.mid(1, json.size() - 2));
    return text.size() <= kShownValueLength ? text : text.left(kShownValueLength - 1) + u'…';
}

const QStringList& baseKindNames() // by BaseKind
{
    static const QStringList names { u"preset"_s, u"file"_s, u"policy"_s };
    return names;
}

} // namespace

QList<PolicyChange> PolicyChanges::between(const RetryPolicy& before, const RetryPolicy& after)
{
    RetryPolicy base = before;
    base.limits.countedAs = after.limits.countedAs; // the same limit, written as AFTER writes it
    QList<PolicyChange> changes;
    diff(policyToJson(base), policyToJson(after), QString(), changes);
    return changes;
}

QString PolicyChange::text() const
{
    return u"%1 %2 → %3"_s.arg(path, valueText(before), valueText(after));
}

QString PolicyChanges::changesText(qsizetype shown) const
{
    const qsizetype listed = shown < 0 ? changes.size() : std::min(shown, changes.size());
    QStringList parts;
    for (qsizetype i = 0; i < listed; ++i)
        parts << changes.at(i).text();
    if (listed == changes.size())
        return parts.join(u", "_s);
    if (parts.isEmpty())
        return QCoreApplication::translate("PolicyChanges", "%n field(s)", nullptr, int(changes.size()));
    return parts.join(u", "_s) + tr(" and %1 more").arg(changes.size() - listed);
}

QString PolicyChanges::text(qsizetype shown) const
{
    const QString origin = baseKind == BaseKind::File ? tr("policy file %1").arg(base)
        : baseKind == BaseKind::Policy                ? tr("policy %1").arg(base)
                                                      : tr("preset %1").arg(base);
    return isEmpty() ? origin : tr("%1, changed: %2").arg(origin, changesText(shown));
}

QJsonObject PolicyChanges::toJson() const
{
    QJsonArray list;
    for (const PolicyChange& change : changes) {
        QJsonObject o { { u"path"_s, change.path } };
        if (!change.before.isUndefined())
            o.insert(u"from"_s, change.before);
        if (!change.after.isUndefined())
            o.insert(u"to"_s, change.after);
        list << o;
    }
    return QJsonObject { { u"base"_s, base }, { u"base_kind"_s, baseKindNames().at(int(baseKind)) },
        { u"changes"_s, list } };
}

std::optional<PolicyChanges> PolicyChanges::fromJson(const QJsonObject& object, QString* problem)
{
    const auto fail = [problem](const QString& text) {
        *problem = text;
        return std::optional<PolicyChanges>();
    };
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (it.key() != u"base"_s && it.key() != u"base_kind"_s && it.key() != u"changes"_s)
            return fail(it.key() + tr(": is not a known field"));
    }
    PolicyChanges result;
    if (!object.value(u"base"_s).isString())
        return fail(tr("base: must be a string, the preset's name or the policy file"));
    result.base = object.value(u"base"_s).toString();
    const qsizetype kind = baseKindNames().indexOf(object.value(u"base_kind"_s).toString());
    if (kind < 0)
        return fail(tr("base_kind: must be one of %1").arg(baseKindNames().join(u", "_s)));
    result.baseKind = BaseKind(kind);
    if (!object.value(u"changes"_s).isArray())
        return fail(tr("changes: must be an array"));
    const QJsonArray list = object.value(u"changes"_s).toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString at = u"changes[%1]"_s.arg(i);
        const QJsonObject o = list.at(i).toObject();
        if (!list.at(i).isObject() || !o.value(u"path"_s).isString() || o.value(u"path"_s).toString().isEmpty())
            return fail(at + tr(": must be an object with a \"path\""));
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            if (it.key() != u"path"_s && it.key() != u"from"_s && it.key() != u"to"_s)
                return fail(at + u'.' + it.key() + tr(": is not a known field"));
        }
        result.changes << PolicyChange { o.value(u"path"_s).toString(), o.value(u"from"_s), o.value(u"to"_s) };
    }
    return result;
}
