// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs `retrylab observe --json --scenario FILE -- COMMAND…` as a real process, for clients nobody here
// wrote (Debian's curl, python3-urllib3 …), and reads back what it inferred: one JSON object per attempt
// and the summary (app/cli/observecommand.cpp).

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace clienttest {

// A measured wait may be this much shorter than the client's formula (the lab stamps the end of its answer
// just after the last byte left; the client sleeps from when it read it) or longer (a loaded machine,
// the client's own connect and start-up).
constexpr qint64 kEarlyMs = 60;
constexpr qint64 kLateMs = 900;

struct Observed
{
    bool finished = false;
    int exitCode = -1;
    QList<QJsonObject> attempts;
    QJsonObject summary;
    QByteArray err;

    QString rules() const // "fingerprint?,fingerprint?" — "?" marks a heuristic grouping
    {
        QStringList list;
        for (const QJsonObject& a : attempts)
            list << a.value(QLatin1String("rule")).toString() + (a.value(QLatin1String("heuristic")).toBool() ? QStringLiteral("?") : QString());
        return list.join(QLatin1Char(','));
    }
    QString runs() const // "1.1 1.2 1.3": run.attempt of each line
    {
        QStringList list;
        for (const QJsonObject& a : attempts)
            list << QStringLiteral("%1.%2").arg(a.value(QLatin1String("run")).toInt()).arg(a.value(QLatin1String("attempt")).toInt());
        return list.join(QLatin1Char(' '));
    }
};

// A scenario whose only route, PATH, answers STEPS (JSON step objects) in order, then 200 for ever.
inline QByteArray scenario(const QString& path, const QJsonArray& steps)
{
    QJsonArray all = steps;
    all.append(QJsonObject { { QStringLiteral("kind"), QStringLiteral("respond") }, { QStringLiteral("status"), 200 },
        { QStringLiteral("body"), QStringLiteral("ok") }, { QStringLiteral("repeat"), QStringLiteral("forever") } });
    const QJsonObject route { { QStringLiteral("path"), path }, { QStringLiteral("steps"), all } };
    return QJsonDocument(QJsonObject { { QStringLiteral("format"), 1 }, { QStringLiteral("name"), QStringLiteral("client-test") },
                             { QStringLiteral("routes"), QJsonArray { route } } })
        .toJson(QJsonDocument::Compact);
}

inline QJsonObject status(int code, const QString& retryAfter = {})
{
    QJsonObject step { { QStringLiteral("kind"), QStringLiteral("respond") }, { QStringLiteral("status"), code } };
    if (!retryAfter.isEmpty())
        step.insert(QStringLiteral("headers"), QJsonObject { { QStringLiteral("Retry-After"), retryAfter } });
    return step;
}

inline Observed observe(const QByteArray& scenarioText, const QStringList& command, int timeoutMs = 90000)
{
    Observed result;
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("scenario.json")));
    if (!file.open(QIODevice::WriteOnly) || file.write(scenarioText) != scenarioText.size())
        return result;
    file.close();
    QProcess p;
    p.start(QStringLiteral(RETRYLAB_BINARY),
        QStringList { QStringLiteral("observe"), QStringLiteral("--json"), QStringLiteral("--scenario"), file.fileName(),
            QStringLiteral("--") }
            + command);
    if (!p.waitForStarted(5000))
        return result;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(2000);
        return result;
    }
    result.finished = true;
    result.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    result.err = p.readAllStandardError();
    for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.contains(QLatin1String("summary")))
            result.summary = o;
        else if (!o.isEmpty())
            result.attempts.append(o);
    }
    return result;
}

// Each retry's measured wait (client_wait_ms, from the end of the previous answer to the arrival) against
// EXPECTED (ms, the client's formula), within [−kEarlyMs, +kLateMs].
inline bool waitsWithin(const Observed& o, const QList<qint64>& expected, QString* why)
{
    QList<qint64> measured;
    for (const QJsonObject& a : o.attempts) {
        if (a.value(QLatin1String("attempt")).toInt() > 1)
            measured << qint64(a.value(QLatin1String("client_wait_ms")).toDouble());
    }
    QStringList text;
    for (qsizetype i = 0; i < measured.size(); ++i)
        text << QStringLiteral("%1 ms (formula %2)").arg(measured.at(i)).arg(expected.value(i, -1));
    *why = text.join(QStringLiteral(", "));
    if (measured.size() != expected.size())
        return false;
    for (qsizetype i = 0; i < measured.size(); ++i) {
        if (measured.at(i) < expected.at(i) - kEarlyMs || measured.at(i) > expected.at(i) + kLateMs)
            return false;
    }
    return true;
}

} // namespace clienttest
