// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay/replayscenario.h"

#include <QJsonArray>
#include <QSet>

using namespace Qt::StringLiterals;

namespace {

// The scenario format's "headers" is a JSON object, where a name can appear once; a recorded answer may
// carry a field on several lines (two Set-Cookie, two RateLimit). Field names are case-insensitive
// (RFC 9110 §5.1), so each repetition takes the name in a case not used yet: the lab sends it as a line
// of its own and a client reads it as the same field. Empty when the name has no spelling left.
QString freeSpelling(const QString& name, const QJsonObject& taken)
{
    if (!taken.contains(name))
        return name;
    QList<qsizetype> letters;
    for (qsizetype i = 0; i < name.size(); ++i) {
        if (name.at(i).isLetter())
            letters.append(i);
    }
    const int bits = int(std::min<qsizetype>(letters.size(), 16));
    for (quint32 mask = 0; mask < (1u << bits); ++mask) {
        QString candidate = name;
        for (int b = 0; b < bits; ++b) {
            const qsizetype at = letters.at(b);
            candidate[at] = (mask >> b) & 1 ? name.at(at).toUpper() : name.at(at).toLower();
        }
        if (!taken.contains(candidate))
            return candidate;
    }
    return QString();
}

qint64 spanMs(qint64 from, qint64 to)
{
    if (from == PackedAttempt::kUnset || to == PackedAttempt::kUnset || to < from)
        return 0;
    return std::min<qint64>((to - from) / 1000000, 3600000);
}

QJsonObject step(const Session& s, const PackedAttempt& p, const QSet<QString>& applied, bool haveLab)
{
    const AttemptStore& store = s.attempts;
    QJsonObject o;
    const qint64 think = spanMs(p.at[PackedAttempt::RequestSent], p.at[PackedAttempt::HeadersReceived]);
    if (p.status >= 0) {
        const bool truncated = p.error == qint8(ErrorClass::Protocol) || p.error == qint8(ErrorClass::ConnectionLost);
        o[u"kind"_s] = truncated ? u"truncate"_s : u"respond"_s;
        o[u"status"_s] = p.status;
        QJsonObject headers;
        static const QList<QByteArray> skip { "content-length", "transfer-encoding", "connection", "keep-alive", "date" };
        for (int i = 0; i < store.headerCount(p.responseHeaders); ++i) {
            const QByteArray name = store.headerName(p.responseHeaders, i).toByteArray();
            if (skip.contains(name.toLower()) || Redactor::isRedacted(store.headerValue(p.responseHeaders, i)))
                continue;
            const QString spelling = freeSpelling(QString::fromLatin1(name), headers);
            if (!spelling.isEmpty())
                headers.insert(spelling, QString::fromUtf8(store.headerValue(p.responseHeaders, i)));
        }
        o[u"headers"_s] = headers;
        QString body = store.strings().string(p.bodyExcerpt);
        body.replace(u"{{"_s, u"{ {"_s); // the lab renders {{…}} templates
        o[u"body"_s] = body;
        if (think > 0)
            o[u"delay_ms"_s] = think;
    } else if (p.error == qint8(ErrorClass::ResponseTimeout) || p.error == qint8(ErrorClass::ConnectTimeout)
        || p.abortReason != qint8(AbortReason::None)) {
        o[u"kind"_s] = u"hang"_s;
        o[u"duration_ms"_s] = std::min<qint64>(2 * spanMs(p.at[PackedAttempt::Started], p.at[PackedAttempt::Finished]) + 1000, 3600000);
    } else {
        o[u"kind"_s] = u"reset"_s; // refused, lost, dns, tls: the closest a route can do
    }
    if (haveLab)
        o[u"applied"_s] = applied.contains(store.strings().string(p.attemptId));
    o[u"note"_s] = u"run %1 attempt %2"_s.arg(p.runId).arg(p.index);
    return o;
}

} // namespace

namespace ReplayScenario {

QString pathFor(int runId)
{
    return u"/replay/run-"_s + QString::number(runId);
}

QJsonObject fromSession(const Session& s)
{
    QSet<QString> applied;
    for (const LabEvent& e : s.labEvents) {
        if (e.kind == LabEvent::Kind::OperationApplied)
            applied.insert(e.attemptId);
    }
    const bool haveLab = !s.labEvents.isEmpty();
    QJsonArray routes;
    for (const SessionRun& run : s.runs) {
        QJsonArray steps;
        for (quint32 row : run.rows) {
            const PackedAttempt& p = s.attempts.packed(row);
            if (p.verdict < 0 && p.status < 0 && p.error < 0)
                continue; // cancelled before anything came back
            steps.append(step(s, p, applied, haveLab));
        }
        if (steps.isEmpty())
            steps.append(QJsonObject { { u"kind"_s, u"respond"_s }, { u"status"_s, 200 } });
        QJsonObject last = steps.last().toObject();
        last[u"repeat"_s] = u"forever"_s;
        steps[steps.size() - 1] = last;
        const RequestSpec& spec = s.requests.value(run.request);
        const QString name = u"run-"_s + QString::number(run.runId);
        routes.append(QJsonObject { { u"name"_s, name }, { u"method"_s, spec.method },
            { u"path"_s, pathFor(run.runId) }, { u"operation"_s, name },
            { u"steps"_s, steps } });
    }
    return QJsonObject { { u"format"_s, 1 }, { u"name"_s, u"replay"_s },
        { u"description"_s, u"The answers a recorded session got, per run, in order"_s }, { u"seed"_s, 1 },
        { u"routes"_s, routes } };
}

} // namespace ReplayScenario
