// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy/retrypolicy.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

// Reads fields out of a JSON object while collecting every problem with its path, so a file with five
// mistakes is reported as five mistakes. Unknown keys are problems too: a typo never passes silently.
class JsonReader
{
public:
    JsonReader(QList<PolicyProblem>& problems, QString path, QJsonObject object);

    // A nested object reader for KEY; missing → an empty object (defaults apply).
    JsonReader child(const QString& key);
    // A reader for element INDEX (an object) of the array KEY.
    JsonReader element(const QString& key, qsizetype index, const QJsonObject& object);
    bool has(const QString& key) const;
    QString path(const QString& key) const;

    QString string(const QString& key, const QString& fallback);
    bool boolean(const QString& key, bool fallback);
    double number(const QString& key, double fallback);
    int integer(const QString& key, int fallback);
    std::optional<bool> optionalBoolean(const QString& key);
    Millis millis(const QString& key, Millis fallback);
    std::optional<Millis> optionalMillis(const QString& key, std::optional<Millis> fallback);
    QStringList stringList(const QString& key, const QStringList& fallback);
    QList<QJsonObject> objectList(const QString& key);
    QList<StatusRange> statusList(const QString& key);

    // An enumeration spelled as one of NAMES (index = value).
    template<typename Enum>
    Enum choice(const QString& key, Enum fallback, const QStringList& names)
    {
        const int index = choiceIndex(key, int(fallback), names);
        return Enum(index);
    }

    void problem(const QString& key, const QString& message);
    // Reports every key of the object that was never read.
    void rejectUnknownKeys();

private:
    int choiceIndex(const QString& key, int fallback, const QStringList& names);
    void touch(const QString& key);

    QList<PolicyProblem>& m_problems;
    QString m_path;
    QJsonObject m_object;
    QStringList m_known;
};

// "null", "a number", "an object"…: how a problem names what it found.
QString jsonTypeName(const QJsonValue& value);

// "503" or "500-599" → a range; nullopt when malformed.
std::optional<StatusRange> parseStatusRange(const QString& text);
QString statusRangeText(const StatusRange& range);
