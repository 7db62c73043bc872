// SPDX-License-Identifier: GPL-3.0-or-later
// RateLimit and RateLimit-Policy as Structured Fields (headers.md §2.1, §2.3, §2.4).
#include "http/ratelimitdialects.h"
#include "http/structuredfield.h"

#include <QSet>

namespace {

using namespace Qt::StringLiterals;

using PolicyMember = RateLimitPolicyMember;
using PolicyField = RateLimitPolicyField;

// Non-negative Integer parameter KEY; *bad is set when the parameter is present with another type or < 0.
std::optional<qint64> nonNegative(const SfParameters& params, QByteArrayView key, bool* bad)
{
    if (!params.contains(key))
        return std::nullopt;
    const std::optional<qint64> value = sfInteger(params, key);
    if (!value || *value < 0) {
        *bad = true;
        return std::nullopt;
    }
    return value;
}

// The identifier of a List member: a String (draft) or a Token (editor's copy on the token branch).
std::optional<QString> identifier(const SfItem& item, bool* isToken)
{
    if (const auto* text = std::get_if<QString>(&item.value))
        return *text;
    if (const auto* token = std::get_if<SfToken>(&item.value)) {
        *isToken = true;
        return QString::fromLatin1(token->value);
    }
    return std::nullopt;
}

} // namespace

RateLimitPolicyField readRateLimitPolicy(const HttpHeaderList& headers, QStringList* warnings)
{
    PolicyField result;
    const QList<QByteArray> lines = headerValues(headers, "RateLimit-Policy");
    if (lines.isEmpty())
        return result;
    QString error;
    const std::optional<SfList> list = parseSfList(lines, &error);
    if (!list) {
        if (warnings)
            *warnings << u"RateLimit-Policy ignored: not a Structured Field List ("_s + error + u")"_s;
        return result;
    }
    PolicyField parsed;
    bool bad = false;
    bool tokens = false;
    for (const SfListMember& member : *list) {
        const auto* item = std::get_if<SfItem>(&member);
        if (!item) {
            bad = true;
            break;
        }
        PolicyMember policy;
        policy.window = nonNegative(item->params, "w", &bad);
        if (policy.window && *policy.window == 0)
            bad = true;
        if (const auto* quota = std::get_if<qint64>(&item->value)) {
            policy.quota = *quota >= 0 ? std::optional<qint64>(*quota) : std::nullopt;
            bad = bad || *quota < 0;
            parsed.integer << policy;
            continue;
        }
        const std::optional<QString> name = identifier(*item, &tokens);
        policy.quota = nonNegative(item->params, "q", &bad);
        if (!name || !policy.quota) {
            bad = true; // q is REQUIRED (draft-11 §3.1)
            break;
        }
        policy.name = *name;
        if (item->params.contains("qu")) {
            const std::optional<QString> unit = sfString(item->params, "qu");
            bad = bad || !unit;
            policy.unit = unit.value_or(QString());
        }
        if (item->params.contains("pk")) {
            const std::optional<QByteArray> key = sfByteSequence(item->params, "pk");
            bad = bad || !key;
            policy.partitionKey = key.value_or(QByteArray());
        }
        parsed.named << policy;
    }
    if (bad) {
        if (warnings)
            *warnings << u"RateLimit-Policy ignored: a member breaks the draft's rules (q missing or not a "
                         u"non-negative Integer, w not a positive Integer, qu not a String or pk not a Byte "
                         u"Sequence)"_s;
        return result;
    }
    parsed.tokenNames = tokens; // judged with the RateLimit field beside it (readIetfRateLimit)
    parsed.byName.reserve(parsed.named.size());
    for (qsizetype i = 0; i < parsed.named.size(); ++i) {
        const QString key = parsed.named.at(i).name.toLower();
        if (!parsed.byName.contains(key)) // the first of equal names wins
            parsed.byName.insert(key, i);
    }
    return parsed;
}

const RateLimitPolicyMember* RateLimitPolicyField::find(const QString& name) const
{
    const auto it = byName.constFind(name.toLower());
    return it == byName.constEnd() ? nullptr : &named.at(it.value());
}

std::optional<qint64> RateLimitPolicyField::integerWindow(qint64 quota) const
{
    for (const RateLimitPolicyMember& policy : integer) {
        if (policy.quota == quota || integer.size() == 1)
            return policy.window;
    }
    return std::nullopt;
}

namespace {

enum class ListSyntax { None, Draft11, EditorsCopy };

// Whether a RateLimit List is the draft-08…-11 syntax (r/t), the editor's copy (a/w/c), or neither.
ListSyntax listSyntaxOf(const SfList& list)
{
    if (list.isEmpty())
        return ListSyntax::None;
    bool editorsCopy = false;
    for (const SfListMember& member : list) {
        const auto* item = std::get_if<SfItem>(&member);
        if (!item || !(std::holds_alternative<QString>(item->value) || std::holds_alternative<SfToken>(item->value)))
            return ListSyntax::None;
        if (item->params.contains("a") && !item->params.contains("r"))
            editorsCopy = true;
    }
    return editorsCopy ? ListSyntax::EditorsCopy : ListSyntax::Draft11;
}

// Reads a List of SYNTAX whole, or not at all (*ACCEPTED false, with a warning saying why).
void readListSyntax(const SfList& list, ListSyntax syntax, const HttpHeaderList& headers, const PolicyField& policies,
    RateLimitParse& out, QSet<QString>* usedPolicies, bool* accepted)
{
    const bool editorsCopy = syntax == ListSyntax::EditorsCopy;
    const QByteArrayView remainingKey = editorsCopy ? "a" : "r";
    const QByteArrayView windowKey = editorsCopy ? "w" : "t";
    const QString dialect = editorsCopy ? u"ietf-editors-copy"_s : u"ietf-draft-11"_s;
    QList<RateLimitSnapshot> snapshots;
    bool bad = false;
    bool tokens = false;
    for (const SfListMember& member : list) {
        const SfItem& item = std::get<SfItem>(member);
        RateLimitSnapshot snapshot;
        snapshot.dialect = dialect;
        snapshot.policy = identifier(item, &tokens).value_or(QString());
        snapshot.remaining = nonNegative(item.params, remainingKey, &bad);
        if (!snapshot.remaining)
            bad = true; // r (a) is REQUIRED
        if (const std::optional<qint64> t = nonNegative(item.params, windowKey, &bad))
            snapshot.resetSeconds = double(*t);
        if (editorsCopy)
            snapshot.requestCost = nonNegative(item.params, "c", &bad);
        if (item.params.contains("pk")) {
            const std::optional<QByteArray> key = sfByteSequence(item.params, "pk");
            bad = bad || !key;
            snapshot.partitionKey = key.value_or(QByteArray());
        }
        if (const PolicyMember* policy = policies.find(snapshot.policy)) {
            snapshot.limit = policy->quota;
            snapshot.windowSeconds = policy->window;
            snapshot.quotaUnit = policy->unit;
            if (snapshot.partitionKey.isEmpty())
                snapshot.partitionKey = policy->partitionKey;
        }
        if (snapshot.quotaUnit.isEmpty())
            snapshot.quotaUnit = u"requests"_s; // the draft's default quota unit
        snapshot.fields = rateLimitFields(headers, { "RateLimit", "RateLimit-Policy" });
        snapshots << snapshot;
    }
    *accepted = false;
    if (bad) {
        out.warnings << u"RateLimit ignored: malformed (%1 must be a non-negative Integer on every member%2)"_s.arg(
            QString::fromLatin1(remainingKey), editorsCopy ? u", w and c too"_s : u", t too"_s);
        return;
    }
    if (tokens && !editorsCopy) {
        out.warnings << u"RateLimit ignored: policy identifiers must be Strings (draft-11 §3.1), not Tokens"_s;
        return;
    }
    if (tokens)
        out.warnings << u"RateLimit: policy identifiers are Tokens (the editor's copy); read as names"_s;
    *accepted = true;
    for (RateLimitSnapshot& snapshot : snapshots) {
        usedPolicies->insert(snapshot.policy.toLower());
        appendSnapshot(out, std::move(snapshot));
    }
}

// draft-07: RateLimit: limit=100, remaining=50, reset=5
bool readDictionarySyntax(const SfDictionary& dict, const HttpHeaderList& headers, const PolicyField& policies,
    RateLimitParse& out, bool* accepted)
{
    if (!dict.contains("limit") && !dict.contains("remaining") && !dict.contains("reset"))
        return false;
    auto integer = [&dict](QByteArrayView key, bool* bad) -> std::optional<qint64> {
        const SfListMember* member = dict.find(key);
        if (!member)
            return std::nullopt;
        const auto* item = std::get_if<SfItem>(member);
        const auto* value = item ? std::get_if<qint64>(&item->value) : nullptr;
        if (!value || *value < 0) {
            *bad = true;
            return std::nullopt;
        }
        return *value;
    };
    bool bad = false;
    RateLimitSnapshot snapshot;
    snapshot.dialect = u"ietf-draft-07"_s;
    snapshot.limit = integer("limit", &bad);
    snapshot.remaining = integer("remaining", &bad);
    const std::optional<qint64> reset = integer("reset", &bad);
    if (bad || !snapshot.limit || !reset) {
        out.warnings << u"RateLimit ignored: draft-07 Dictionary needs non-negative Integers limit and reset "
                        u"(remaining optional)"_s;
        return true;
    }
    *accepted = true;
    snapshot.resetSeconds = double(*reset);
    snapshot.windowSeconds = policies.integerWindow(*snapshot.limit);
    snapshot.fields = rateLimitFields(headers, { "RateLimit", "RateLimit-Policy" });
    appendSnapshot(out, std::move(snapshot));
    return true;
}

} // namespace

void readIetfRateLimit(const HttpHeaderList& headers, const RateLimitPolicyField& policies, RateLimitParse& out)
{
    // Every IETF value is relative: no "now" needed.
    QSet<QString> usedPolicies; // lower-cased
    const QList<QByteArray> lines = headerValues(headers, "RateLimit");
    QString listError;
    const std::optional<SfList> list = lines.isEmpty() ? std::nullopt : parseSfList(lines, &listError);
    const ListSyntax syntax = list ? listSyntaxOf(*list) : ListSyntax::None;
    // Token names are the editor's copy's; beside a draft-11 RateLimit (or alone) they make the policy
    // field malformed, and it is not read at all.
    const bool policiesRead = !policies.tokenNames || syntax == ListSyntax::EditorsCopy;
    if (!policiesRead && !policies.named.isEmpty()) {
        out.warnings << u"RateLimit-Policy ignored: policy identifiers must be Strings (draft-11 §3.1); Tokens "
                        u"belong to the editor's copy, whose RateLimit uses a/w, not r/t"_s;
    }
    static const RateLimitPolicyField none;
    const RateLimitPolicyField& usable = policiesRead ? policies : none;
    bool rateLimitRead = lines.isEmpty();
    if (!lines.isEmpty()) {
        bool understood = syntax != ListSyntax::None;
        if (understood)
            readListSyntax(*list, syntax, headers, usable, out, &usedPolicies, &rateLimitRead);
        if (!understood) {
            const std::optional<SfDictionary> dict = parseSfDictionary(lines);
            understood = dict && readDictionarySyntax(*dict, headers, usable, out, &rateLimitRead);
        }
        if (!understood) {
            out.warnings << u"RateLimit ignored: neither the draft-08…11 List nor the draft-07 Dictionary syntax"_s
                    + (list ? QString() : u" ("_s + listError + u")"_s);
        }
    }
    // Policies the server announced without a matching RateLimit member still tell the quota and window, but
    // not when the RateLimit field beside them was malformed: the pair is read whole or not at all.
    if (!rateLimitRead) {
        if (!usable.named.isEmpty())
            out.warnings << u"RateLimit-Policy not used: the RateLimit field it describes was ignored"_s;
        return;
    }
    for (const PolicyMember& policy : usable.named) {
        if (usedPolicies.contains(policy.name.toLower()))
            continue;
        RateLimitSnapshot snapshot;
        snapshot.dialect = u"ietf-draft-11"_s;
        snapshot.policy = policy.name;
        snapshot.limit = policy.quota;
        snapshot.windowSeconds = policy.window;
        snapshot.quotaUnit = policy.unit.isEmpty() ? u"requests"_s : policy.unit;
        snapshot.partitionKey = policy.partitionKey;
        snapshot.fields = rateLimitFields(headers, { "RateLimit-Policy" });
        appendSnapshot(out, std::move(snapshot));
    }
}
