// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet/fleetrecording.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

qint64 FleetRecording::attemptsSent() const
{
    qint64 sum = 0;
    for (const FleetWorkerReport& w : workers)
        sum += w.attemptsSent;
    return sum;
}

FleetRecording FleetRecording::readFile(const QString& path)
{
    FleetRecording r;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        r.problem = u"the master's record %1 cannot be read: %2"_s.arg(path, file.errorString());
        return r;
    }
    qint64 line = 0;
    while (!file.atEnd()) {
        const QByteArray text = file.readLine().trimmed();
        ++line;
        if (text.isEmpty())
            continue;
        QJsonParseError parse;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &parse);
        if (!doc.isObject()) {
            r.problem = u"%1 line %2: not a JSON object (%3)"_s.arg(path).arg(line).arg(parse.errorString());
            return r;
        }
        const QJsonObject o = doc.object();
        if (o.contains(u"done"_s)) {
            const QJsonObject d = o.value(u"done"_s).toObject();
            r.workers.append({ o.value(u"worker"_s).toString(), d.value(u"attempts"_s).toInteger(),
                d.value(u"logical"_s).toInteger(), d.value(u"users"_s).toInt() });
            continue;
        }
        QString error;
        std::optional<FleetAttempt> a = FleetAttempt::fromJson(o, &error);
        if (!a) {
            r.problem = u"%1 line %2: %3"_s.arg(path).arg(line).arg(error);
            return r;
        }
        r.attempts.append(std::move(*a));
    }
    return r;
}
