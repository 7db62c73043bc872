// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Structured Field Values for HTTP (RFC 9651, which obsoletes RFC 8941): value types and parsers.
//
// The types are plain copyable values. Parsing follows RFC 9651 §4.2 exactly: any syntax error makes the
// whole field fail (std::nullopt), there is no partial result. Parsers never read past the input and run in
// linear time, whatever bytes they are given.

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>
#include <utility>
#include <variant>

// sf-token (RFC 9651 §3.3.4): ASCII, kept as sent.
struct SfToken
{
    QByteArray value;
    friend bool operator==(const SfToken&, const SfToken&) = default;
};

// sf-binary (§3.3.5): the decoded bytes, not the base64 text.
struct SfByteSequence
{
    QByteArray value;
    friend bool operator==(const SfByteSequence&, const SfByteSequence&) = default;
};

// sf-date (§3.3.7): seconds since the Unix epoch.
struct SfDate
{
    qint64 seconds = 0;
    friend bool operator==(const SfDate&, const SfDate&) = default;
};

// sf-displaystring (§3.3.8): the decoded Unicode text.
struct SfDisplayString
{
    QString value;
    friend bool operator==(const SfDisplayString&, const SfDisplayString&) = default;
};

// A bare item: Integer (qint64), Decimal (double), String (QString, ASCII only), Token, Byte Sequence,
// Boolean, Date or Display String.
using SfBareItem = std::variant<qint64, double, QString, SfToken, SfByteSequence, bool, SfDate, SfDisplayString>;

// An ordered map with unique keys, as RFC 9651 uses for Parameters and Dictionaries: inserting an existing
// key overwrites its value and keeps its original position ("last wins"). Read `entries` freely; change the
// map only through insertOrAssign(). Past a few entries a hash of key → position keeps insertOrAssign() and
// find() constant-time, so parsing a field of N members stays linear (a 300 KB Dictionary is 30 000 keys).
template <typename Value>
struct SfOrderedMap
{
    QList<std::pair<QByteArray, Value>> entries;

    const Value* find(QByteArrayView key) const
    {
        const qsizetype at = indexOf(key);
        return at < 0 ? nullptr : &entries.at(at).second;
    }
    bool contains(QByteArrayView key) const { return find(key) != nullptr; }
    void insertOrAssign(const QByteArray& key, Value value)
    {
        const qsizetype at = indexOf(key);
        if (at >= 0) {
            entries[at].second = std::move(value);
            return;
        }
        const bool indexed = !m_positions.isEmpty() && m_positions.size() == entries.size();
        entries.append({ key, std::move(value) });
        if (indexed)
            m_positions.insert(key, entries.size() - 1);
        else if (entries.size() >= kIndexFrom)
            reindex(); // the first time, or after `entries` was changed directly
    }
    qsizetype size() const { return entries.size(); }
    bool isEmpty() const { return entries.isEmpty(); }
    friend bool operator==(const SfOrderedMap& a, const SfOrderedMap& b) { return a.entries == b.entries; }

private:
    static constexpr qsizetype kIndexFrom = 8; // below this a scan is faster than hashing
    qsizetype indexOf(QByteArrayView key) const
    {
        if (!m_positions.isEmpty() && m_positions.size() == entries.size()) {
            const auto it = m_positions.constFind(key.toByteArray());
            return it == m_positions.constEnd() ? -1 : it.value();
        }
        for (qsizetype i = 0; i < entries.size(); ++i) {
            if (entries.at(i).first == key)
                return i;
        }
        return -1;
    }
    void reindex()
    {
        m_positions.clear();
        m_positions.reserve(entries.size());
        for (qsizetype i = 0; i < entries.size(); ++i)
            m_positions.insert(entries.at(i).first, i);
    }
    QHash<QByteArray, qsizetype> m_positions; // key → index in entries, once there are kIndexFrom of them
};

using SfParameters = SfOrderedMap<SfBareItem>;

struct SfItem
{
    SfBareItem value;
    SfParameters params;
    friend bool operator==(const SfItem&, const SfItem&) = default;
};

struct SfInnerList
{
    QList<SfItem> items;
    SfParameters params;
    friend bool operator==(const SfInnerList&, const SfInnerList&) = default;
};

using SfListMember = std::variant<SfItem, SfInnerList>;
using SfList = QList<SfListMember>;
using SfDictionary = SfOrderedMap<SfListMember>;

// Parsers. On failure they return std::nullopt and, when ERROR is given, a one-line reason with the byte
// offset where parsing stopped. Leading and trailing SP are ignored (RFC 9651 §4.2 steps 2 and 6).
std::optional<SfItem> parseSfItem(QByteArrayView field, QString* error = nullptr);
std::optional<SfList> parseSfList(QByteArrayView field, QString* error = nullptr);
std::optional<SfDictionary> parseSfDictionary(QByteArrayView field, QString* error = nullptr);

// The same for a field sent on several lines: the lines are joined with ", " before parsing, as RFC 9651
// §4.2 requires. No lines at all is an empty List/Dictionary but a failed Item.
std::optional<SfItem> parseSfItem(const QList<QByteArray>& fieldLines, QString* error = nullptr);
std::optional<SfList> parseSfList(const QList<QByteArray>& fieldLines, QString* error = nullptr);
std::optional<SfDictionary> parseSfDictionary(const QList<QByteArray>& fieldLines, QString* error = nullptr);

// Convenience accessors for the common "parameter of a given type" question; nullopt when the parameter
// is absent or has another type.
std::optional<qint64> sfInteger(const SfParameters& params, QByteArrayView key);
std::optional<QString> sfString(const SfParameters& params, QByteArrayView key);
std::optional<QByteArray> sfByteSequence(const SfParameters& params, QByteArrayView key);
