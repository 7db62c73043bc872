// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One lab event, field by field, from a JsonPullReader into a session's store: no QJsonObject and no
// LabEvent with seven strings built for each (a session recorded with the lab has two to four events per
// attempt). It reads what SessionJson::labEventFromJson reads: unknown fields skipped, the last of a
// repeated field kept. Part of the session reader (sessionreader.h).

#include <QByteArray>
#include <QString>

#include <array>

class JsonPullReader;
class LabEventStore;

class LabEventReader
{
public:
    explicit LabEventReader(JsonPullReader& in)
        : m_in(in)
    {
    }

    // The event at the reader's position, the INDEXth of the lab_events array, appended to EVENTS. False when
    // it cannot be read, with *PATH the JSON path of what failed and *MESSAGE why (empty: the pull reader's
    // own error says it).
    bool read(qsizetype index, LabEventStore& events, QString* path, QString* message);

private:
    bool laxInteger(qint64* out);
    bool laxText(QByteArray& out);

    JsonPullReader& m_in;
    // An event's texts while its object is read (their capacity is kept from one event to the next).
    std::array<QByteArray, 8> m_texts;
};
