// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Two clients nobody here wrote, calling the lab at a fixed rate, one request per call (no retries of their
// own), over keep-alive connections: Debian's curl 7.88 (`--rate N/s` over a URL glob, times from its own
// `-v --trace-time` trace) and Debian's python3-urllib3 1.26 (fixed_rate_urllib3.py). Each call as the
// client saw it: when it started, when the answer's head came, the status. The lab runs on the caller's
// thread, so the event loop spins while a client runs.

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QTest>
#include <QUrl>

#include <cmath>

namespace fixedrate {

using namespace Qt::StringLiterals;

const QString kCurl = u"/usr/bin/curl"_s; // Debian's, not one on PATH
const QString kPython = u"/usr/bin/python3"_s; // Debian's interpreter and its python3-urllib3

struct Call
{
    int n = 0; // 1-based: the path /orders/N
    double startMs = 0; // since the first call started, on the client's clock
    double firstByteMs = -1; // the answer's head arrived (-1: never)
    int status = 0; // 0: no answer
};

struct Run
{
    QList<Call> calls; // by n
    QString error; // empty when the client ran and every call was accounted for
};

inline bool runToEnd(QProcess& process, int timeoutMs, QString* error)
{
    if (!process.waitForStarted(10000)) {
        *error = u"%1 did not start: %2"_s.arg(process.program(), process.errorString());
        return false;
    }
    if (!QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        *error = u"%1 did not finish within %2 ms"_s.arg(process.program()).arg(timeoutMs);
        return false;
    }
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        *error = u"%1 exited %2: %3"_s.arg(process.program())
                     .arg(process.exitCode())
                     .arg(QString::fromUtf8(process.readAllStandardError().right(2000)));
        return false;
    }
    return true;
}

// curl --rate PERSECOND/s over BASE/orders/[1-CALLS].
inline Run curlAtRate(const QUrl& base, int calls, int perSecond, int timeoutMs = 60000)
{
    Run run;
    QProcess curl;
    curl.start(kCurl,
        { u"--silent"_s, u"--verbose"_s, u"--trace-time"_s, u"--rate"_s, u"%1/s"_s.arg(perSecond), u"--max-time"_s,
            u"30"_s, u"--output"_s, u"/dev/null"_s, u"--write-out"_s, u"%{http_code} %{url_effective}\\n"_s,
            base.toString() + u"/orders/[1-%1]"_s.arg(calls) });
    if (!runToEnd(curl, timeoutMs, &run.error))
        return run;
    run.calls.resize(calls);
    for (int i = 0; i < calls; ++i)
        run.calls[i].n = i + 1;
    // stdout: "503 http://127.0.0.1:PORT/orders/21", one line per transfer.
    static const QRegularExpression written(u"^(\\d{3}) \\S+/orders/(\\d+)$"_s);
    int statuses = 0;
    for (const QByteArray& line : curl.readAllStandardOutput().split('\n')) {
        const QRegularExpressionMatch m = written.match(QString::fromUtf8(line));
        const int n = m.hasMatch() ? m.captured(2).toInt() : 0;
        if (n >= 1 && n <= calls) {
            run.calls[n - 1].status = m.captured(1).toInt();
            ++statuses;
        }
    }
    // stderr, the trace: "00:48:18.502064 > GET /orders/21 HTTP/1.1", then "00:48:18.552487 < HTTP/1.1 503 …".
    static const QRegularExpression traced(
        u"^(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d{6}) ([<>]) (?:GET /orders/(\\d+)|HTTP/1\\.1 \\d{3})"_s);
    double origin = -1;
    double previous = -1;
    int current = 0;
    for (const QByteArray& line : curl.readAllStandardError().split('\n')) {
        const QRegularExpressionMatch m = traced.match(QString::fromUtf8(line));
        if (!m.hasMatch())
            continue;
        double at = ((m.captured(1).toInt() * 60.0 + m.captured(2).toInt()) * 60.0 + m.captured(3).toInt()) * 1000.0
            + m.captured(4).toInt() / 1000.0;
        if (previous >= 0 && at < previous)
            at += 86400000.0; // past midnight
        previous = at;
        if (m.captured(5) == u">"_s && !m.captured(6).isEmpty()) {
            current = m.captured(6).toInt();
            if (origin < 0)
                origin = at;
            if (current >= 1 && current <= calls)
                run.calls[current - 1].startMs = at - origin;
        } else if (m.captured(5) == u"<"_s && current >= 1 && current <= calls
            && run.calls[current - 1].firstByteMs < 0) {
            run.calls[current - 1].firstByteMs = at - origin;
        }
    }
    if (statuses != calls)
        run.error = u"curl wrote %1 statuses for %2 transfers"_s.arg(statuses).arg(calls);
    return run;
}

// fixed_rate_urllib3.py: BASE/orders/1..CALLS, one every INTERVALMS.
inline Run urllib3AtRate(const QUrl& base, int calls, int intervalMs, int timeoutMs = 60000)
{
    Run run;
    QProcess python;
    python.start(kPython,
        { QStringLiteral(RETRYLAB_CLIENTS_DIR "/fixed_rate_urllib3.py"), base.toString(), QString::number(calls),
            QString::number(intervalMs / 1000.0) });
    if (!runToEnd(python, timeoutMs, &run.error))
        return run;
    for (const QByteArray& line : python.readAllStandardOutput().split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        Call call;
        call.n = o.value(u"n"_s).toInt();
        call.startMs = o.value(u"start_ms"_s).toDouble();
        call.firstByteMs = o.value(u"first_byte_ms"_s).toDouble(-1);
        call.status = o.value(u"status"_s).toInt();
        run.calls << call;
    }
    if (run.calls.size() != calls)
        run.error = u"urllib3 reported %1 calls of %2"_s.arg(run.calls.size()).arg(calls);
    return run;
}

} // namespace fixedrate
