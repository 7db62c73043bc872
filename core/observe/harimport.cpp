// SPDX-License-Identifier: GPL-3.0-or-later
#include "observe/harimport.h"

#include "observe/harentry.h"
#include "json/jsonpullreader.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonObject>

#include <map>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("har", text); }

// An entry read member by member, with the line each member (and each member of its objects) began on,
// so a problem deep in it can be placed.
struct EntryLines
{
    int line = 1;
    QHash<QString, int> lines; // "request", "request.url", …

    int lineOf(const QString& field) const
    {
        for (QString f = field; !f.isEmpty(); f = f.section(u'.', 0, -2)) {
            const QString bare = f.section(u'[', 0, 0);
            if (const auto it = lines.constFind(bare); it != lines.constEnd())
                return *it;
            if (!f.contains(u'.'))
                break;
        }
        return line;
    }
};

bool readObject(JsonPullReader& in, const QString& prefix, int depth, QJsonObject* out, EntryLines* lines)
{
    if (!in.enterObject())
        return false;
    QByteArray key;
    while (in.nextKey(&key)) {
        const QString name = QString::fromUtf8(key);
        const QString path = prefix.isEmpty() ? name : prefix + u'.' + name;
        lines->lines.insert(path, in.line());
        if (depth > 0 && in.peek() == JsonPullReader::Kind::Object) {
            QJsonObject inner;
            if (!readObject(in, path, depth - 1, &inner, lines))
                return false;
            out->insert(name, inner);
        } else {
            out->insert(name, in.readValue());
        }
        if (in.hasError())
            return false;
    }
    return !in.hasError();
}

class Reader
{
public:
    explicit Reader(QIODevice& device)
        : m_in(device)
    {
    }
    HarImport read();

private:
    bool fail(int line, const QString& path, const QString& message)
    {
        m_result.problem = tr("line %1: %2: %3").arg(line).arg(path, message);
        return false;
    }
    bool syntax()
    {
        m_result.problem = m_in.errorString(); // "line L, column C: …"
        return false;
    }
    bool readLog();
    bool readEntries();

    JsonPullReader m_in;
    HarImport m_result;
    QList<HarEntry> m_entries;
    bool m_sawEntries = false;
};

bool Reader::readEntries()
{
    m_sawEntries = true;
    if (m_in.peek() != JsonPullReader::Kind::Array)
        return m_in.hasError() ? syntax() : fail(m_in.line(), u"$.log.entries"_s, tr("must be an array"));
    m_in.enterArray();
    int index = 0;
    while (m_in.nextElement()) {
        const QString path = u"$.log.entries["_s + QString::number(index) + u']';
        EntryLines lines;
        lines.line = m_in.line();
        if (m_in.peek() != JsonPullReader::Kind::Object)
            return m_in.hasError() ? syntax() : fail(lines.line, path, tr("must be an object"));
        QJsonObject object;
        if (!readObject(m_in, QString(), 2, &object, &lines))
            return syntax();
        HarEntry entry;
        HarFieldProblem problem;
        if (!readHarEntry(object, &entry, &problem))
            return fail(lines.lineOf(problem.field), path + u'.' + problem.field, problem.message);
        ++index;
        if (!entry.http) {
            ++m_result.skipped;
            continue;
        }
        m_entries.append(entry);
    }
    return !m_in.hasError() || syntax();
}

bool Reader::readLog()
{
    if (m_in.peek() != JsonPullReader::Kind::Object)
        return m_in.hasError() ? syntax() : fail(m_in.line(), u"$.log"_s, tr("must be an object"));
    m_in.enterObject();
    QByteArray key;
    bool sawVersion = false;
    while (m_in.nextKey(&key)) {
        const int line = m_in.line();
        if (key == "entries") {
            if (!readEntries())
                return false;
            continue;
        }
        const QJsonValue v = m_in.readValue();
        if (m_in.hasError())
            return syntax();
        if (key == "version") {
            sawVersion = true;
            if (v.toString() != u"1.2"_s && v.toString() != u"1.1"_s)
                return fail(line, u"$.log.version"_s, tr("\"%1\": this reads HAR 1.2 (and 1.1)").arg(v.toVariant().toString()));
        } else if (key == "creator") {
            const QJsonObject c = v.toObject();
            m_result.creator = QString(c.value(u"name"_s).toString() + u' ' + c.value(u"version"_s).toString()).trimmed();
        }
    }
    if (m_in.hasError())
        return syntax();
    if (!sawVersion)
        return fail(m_in.line(), u"$.log.version"_s, tr("missing: not a HAR file"));
    if (!m_sawEntries)
        return fail(m_in.line(), u"$.log.entries"_s, tr("missing: not a HAR file"));
    return true;
}

HarImport Reader::read()
{
    if (m_in.peek() != JsonPullReader::Kind::Object) {
        if (m_in.hasError())
            syntax();
        else
            fail(m_in.line(), u"$"_s, m_in.peek() == JsonPullReader::Kind::End ? tr("the file is empty") : tr("a HAR file is a JSON object"));
        return m_result;
    }
    m_in.enterObject();
    QByteArray key;
    bool sawLog = false;
    while (m_in.nextKey(&key)) {
        if (key == "log") {
            sawLog = true;
            if (!readLog())
                return m_result;
        } else {
            m_in.skipValue();
        }
    }
    if (m_in.hasError() || (!m_in.atEnd() && !m_in.hasError())) {
        if (!m_in.hasError())
            m_in.fail(tr("text after the end of the HAR document"));
        syntax();
        return m_result;
    }
    if (!sawLog) {
        fail(m_in.line(), u"$.log"_s, tr("missing: not a HAR file"));
        return m_result;
    }
    for (const HarEntry& entry : std::as_const(m_entries)) {
        if (!m_result.wallOrigin.isValid() || entry.started < m_result.wallOrigin)
            m_result.wallOrigin = entry.started;
    }
    std::map<QString, std::pair<quint64, int>> connections; // id → (number, requests so far)
    quint64 id = 1;
    for (const HarEntry& entry : std::as_const(m_entries)) {
        LabExchange e = entry.exchange;
        const qint64 shift = m_result.wallOrigin.msecsTo(entry.started);
        e.requestId = id++;
        e.arrivedMs += shift;
        for (std::optional<qint64>* t : { &e.requestCompleteMs, &e.responseStartedMs, &e.responseFinishedMs, &e.clientGoneMs }) {
            if (*t)
                **t += shift;
        }
        if (!entry.connection.isEmpty()) {
            const auto [it, added] = connections.try_emplace(entry.connection, quint64(connections.size() + 1), 0);
            e.connectionId = it->second.first;
            e.requestOnConnection = ++it->second.second;
        }
        m_result.urls.insert(e.requestId, entry.url);
        m_result.exchanges.append(e);
    }
    return m_result;
}

} // namespace

HarImport HarImport::read(QIODevice& device)
{
    Reader reader(device);
    return reader.read();
}

HarImport HarImport::readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        HarImport result;
        result.problem = tr("cannot open %1: %2").arg(path, file.errorString());
        return result;
    }
    return read(file);
}
