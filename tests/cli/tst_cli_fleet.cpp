// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab fleet` (issue 32 §4) with the real Locust (python3-locust 2.12.1): a master and two worker
// processes against the lab with a 3 s outage in the middle, every attempt of every user in the session and
// grouped exactly, the lab's ledger equal to the session, and `retrylab conform --session` satisfied; the open
// loop's arrivals at their rate; and the workers in a network namespace of their own, talking to the master
// and the lab over a veth pair.
#include "cliprocess.h"

#include "session/format/sessionfile.h"
#include "session/session.h"

#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kPolicy = u"openai-node"_s; // no retry quota: every client's budget is its own, as the judge's is
QString scenarioPath()
{
    return QStringLiteral(RETRYLAB_SOURCE_DIR) + u"/resources/fleet/fleet-outage-3s.json"_s;
}

QJsonObject jsonOf(const QByteArray& out)
{
    const QList<QByteArray> lines = out.trimmed().split('\n');
    return QJsonDocument::fromJson(lines.last()).object();
}

int run(const QString& program, const QStringList& args, QByteArray* err = nullptr)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(20000)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    if (err)
        *err = p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

} // namespace

class TestCliFleet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void closedLoopThroughTheLab();
    void openLoop();
    void workersInANetworkNamespace();
    void cleanupTestCase();

private:
    void checkSession(const QString& path, const QJsonObject& report, bool outageMet);
    QTemporaryDir m_dir;
    QString m_namespace;
};

void TestCliFleet::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (QStandardPaths::findExecutable(u"locust"_s).isEmpty())
        QSKIP("python3-locust is not installed (packaging/install-deps.sh)");
}

void TestCliFleet::checkSession(const QString& path, const QJsonObject& report, bool outageMet)
{
    QString error;
    std::unique_ptr<Session> session = SessionFile::open(path, {}, &error);
    QVERIFY2(session, qPrintable(error));
    QCOMPARE(session->meta.source, u"fleet"_s);
    // Every attempt the lab received is in the session, and every attempt the workers sent.
    QCOMPARE(qint64(session->attemptCount()), report.value(u"ledger_requests"_s).toInteger());
    QCOMPARE(qint64(session->attemptCount()), report.value(u"attempts_sent_by_workers"_s).toInteger());
    QCOMPARE(qint64(session->runs.size()), qint64(report.value(u"logical_requests"_s).toDouble()));
    // Grouped exactly: each run's attempts carry one attempt id "ID;attempt=N", N = 1, 2, …, and one key;
    // no id or key in two runs.
    QSet<QString> ids, keys;
    int retried = 0;
    for (qsizetype i = 0; i < session->runs.size(); ++i) {
        const RunRecord r = session->runRecord(i);
        QVERIFY(!r.attempts.isEmpty());
        QVERIFY(r.observed && r.observed->rule == u"attempt-header"_s && !r.observed->heuristic);
        const QString id = r.attempts.first().attemptId.section(u';', 0, 0);
        const QString key = r.attempts.first().idempotencyKey;
        QVERIFY2(!ids.contains(id) && !keys.contains(key), qPrintable(id));
        ids.insert(id);
        keys.insert(key);
        for (qsizetype n = 0; n < r.attempts.size(); ++n) {
            const AttemptRecord& a = r.attempts.at(n);
            QCOMPARE(a.attemptId, u"%1;attempt=%2"_s.arg(id).arg(n + 1));
            QCOMPARE(a.idempotencyKey, key);
            QVERIFY(a.at.started && a.at.finished && *a.at.finished >= *a.at.started);
            if (n > 0) // the wait before it: after the previous answer ended
                QVERIFY(a.observed && a.observed->clientWait && a.observed->clientWait->count() >= 0);
        }
        retried += r.attempts.size() > 1 ? 1 : 0;
    }
    if (outageMet)
        QVERIFY2(retried > 0, "the outage made some users retry");
}

void TestCliFleet::closedLoopThroughTheLab()
{
    const QString sessionPath = m_dir.filePath(u"closed.json"_s);
    const CliProcess::Result r = CliProcess::retrylab(
        { u"fleet"_s, u"--policy"_s, kPolicy, u"--scenario"_s, scenarioPath(), u"--users"_s, u"50"_s, u"--spawn-rate"_s,
            u"50"_s, u"--duration"_s, u"7"_s, u"--workers"_s, u"2"_s, u"--arrival"_s, u"closed:0.1"_s, u"--session"_s,
            sessionPath, u"--json"_s, u"--compare-herd"_s },
        55000);
    QVERIFY2(r.exit == 0, r.err.constData());
    const QJsonObject o = jsonOf(r.out);
    QCOMPARE(o.value(u"arrival"_s).toString(), u"closed"_s);
    QCOMPARE(o.value(u"workers_done"_s).toInt(), 2);
    QCOMPARE(o.value(u"runs_broken"_s).toInt(), 0);
    const qint64 recorded = o.value(u"attempts_recorded"_s).toInteger();
    QVERIFY(recorded > 600); // past the outage's start
    QCOMPARE(o.value(u"ledger_requests"_s).toInteger(), recorded);
    QVERIFY(o.value(u"amplification"_s).toDouble() > 1.0);
    QVERIFY(o.value(u"worst_wait_slip_ms"_s).toDouble() < 250);
    const QJsonObject herd = o.value(u"compare_herd"_s).toObject();
    QVERIFY(herd.value(u"simulated"_s).toObject().value(u"attempts_per_s"_s).toDouble() > 0);
    QVERIFY(herd.value(u"apart"_s).toObject().contains(u"amplification"_s));
    checkSession(sessionPath, o, true);

    // The waits follow the policy: the judge reads the session as any other.
    const CliProcess::Result judged
        = CliProcess::retrylab({ u"conform"_s, u"--policy"_s, kPolicy, u"--session"_s, sessionPath, u"--json"_s });
    QVERIFY2(judged.exit == 0, judged.out.right(3000).constData());
}

void TestCliFleet::openLoop()
{
    // 60 arrivals a second for 3 s from 6 users: about 180 logical requests whatever the answers.
    const CliProcess::Result r = CliProcess::retrylab(
        { u"fleet"_s, u"--policy"_s, kPolicy, u"--scenario"_s, scenarioPath(), u"--users"_s, u"6"_s, u"--spawn-rate"_s,
            u"100"_s, u"--duration"_s, u"3"_s, u"--workers"_s, u"2"_s, u"--arrival"_s, u"open:60"_s, u"--json"_s },
        45000);
    QVERIFY2(r.exit == 0, r.err.constData());
    const QJsonObject o = jsonOf(r.out);
    QCOMPARE(o.value(u"arrival"_s).toString(), u"open"_s);
    QVERIFY(o.value(u"arrival_text"_s).toString().startsWith(u"open loop"_s));
    const double logical = o.value(u"logical_requests"_s).toDouble();
    QVERIFY2(logical >= 150 && logical <= 200, qPrintable(QString::number(logical)));
    QCOMPARE(o.value(u"ledger_requests"_s).toInteger(), o.value(u"attempts_recorded"_s).toInteger());
}

void TestCliFleet::workersInANetworkNamespace()
{
    // A namespace, a veth pair on private test addresses: the lab and the master on the host's end, the two
    // workers in the namespace, so everything between them crosses a network device.
    const qint64 pid = QCoreApplication::applicationPid();
    const QString ns = u"rlfleet%1"_s.arg(pid);
    const QString hostEnd = u"rlf%1h"_s.arg(pid % 100000), nsEnd = u"rlf%1n"_s.arg(pid % 100000);
    const int subnet = int(pid % 250) + 1;
    const QString hostAddress = u"10.213.%1.1"_s.arg(subnet), nsAddress = u"10.213.%1.2"_s.arg(subnet);
    const QString ip = QStandardPaths::findExecutable(u"ip"_s, { u"/usr/sbin"_s, u"/sbin"_s, u"/usr/bin"_s });
    if (ip.isEmpty())
        QSKIP("no ip(8) here to make a network namespace");
    QByteArray err;
    if (run(ip, { u"netns"_s, u"add"_s, ns }, &err) != 0)
        QSKIP(qPrintable(u"cannot make a network namespace here (needs root or CAP_SYS_ADMIN): "_s
            + QString::fromUtf8(err).trimmed()));
    m_namespace = ns;
    const QList<QStringList> setup {
        { u"link"_s, u"add"_s, hostEnd, u"type"_s, u"veth"_s, u"peer"_s, u"name"_s, nsEnd },
        { u"link"_s, u"set"_s, nsEnd, u"netns"_s, ns },
        { u"addr"_s, u"add"_s, hostAddress + u"/30"_s, u"dev"_s, hostEnd },
        { u"link"_s, u"set"_s, hostEnd, u"up"_s },
        { u"-n"_s, ns, u"addr"_s, u"add"_s, nsAddress + u"/30"_s, u"dev"_s, nsEnd },
        { u"-n"_s, ns, u"link"_s, u"set"_s, nsEnd, u"up"_s },
        { u"-n"_s, ns, u"link"_s, u"set"_s, u"lo"_s, u"up"_s },
    };
    for (const QStringList& step : setup) {
        if (run(ip, step, &err) != 0)
            QSKIP(qPrintable(
                u"cannot set up the veth pair (ip %1): %2"_s.arg(step.join(u' '), QString::fromUtf8(err).trimmed())));
    }
    QVERIFY(run(ip, { u"netns"_s, u"exec"_s, ns, u"ping"_s, u"-c"_s, u"1"_s, u"-W"_s, u"2"_s, hostAddress }) == 0
        || run(ip, { u"netns"_s, u"exec"_s, ns, u"true"_s }) == 0);

    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress(hostAddress), 0));
        port = probe.serverPort();
    }
    const QString locustfile = m_dir.filePath(u"netns_locustfile.py"_s);
    const QString sessionPath = m_dir.filePath(u"netns.json"_s);
    QProcess master;
    master.start(QStringLiteral(RETRYLAB_BINARY),
        { u"fleet"_s, u"--policy"_s, kPolicy, u"--scenario"_s, scenarioPath(), u"--lab-bind"_s, hostAddress,
            u"--users"_s, u"20"_s, u"--spawn-rate"_s, u"20"_s, u"--duration"_s, u"4"_s, u"--arrival"_s,
            u"closed:0.05"_s, u"--master"_s, u"--expect-workers"_s, u"2"_s, u"--bind"_s, hostAddress, u"--port"_s,
            QString::number(port), u"--locustfile"_s, locustfile, u"--session"_s, sessionPath, u"--json"_s });
    QVERIFY(master.waitForStarted());
    // The master prints the one command that starts a worker elsewhere: the first worker, in the namespace,
    // runs exactly that line (it fetches the locustfile from the master, over the veth pair, and checks its
    // SHA-256); the second is given a copy (--locustfile), the other way the issue allows.
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += master.readAllStandardError()).contains(" --sha256 "), 15000);
    QString line;
    for (const QByteArray& l : said.split('\n')) {
        if (l.trimmed().startsWith("retrylab fleet worker "))
            line = QString::fromUtf8(l.trimmed());
    }
    QVERIFY2(line.contains(u"--master-host %1 --master-port %2 --fetch-port "_s.arg(hostAddress).arg(port)), said.constData());
    QStringList printed = line.split(u' ', Qt::SkipEmptyParts);
    printed.first() = QStringLiteral(RETRYLAB_BINARY);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(locustfile), 10000);
    std::vector<std::unique_ptr<QProcess>> workers;
    for (int i = 0; i < 2; ++i) {
        auto w = std::make_unique<QProcess>();
        w->start(ip,
            QStringList { u"netns"_s, u"exec"_s, ns }
                + (i == 0 ? printed
                          : QStringList { QStringLiteral(RETRYLAB_BINARY), u"fleet"_s, u"worker"_s, u"--master-host"_s,
                                hostAddress, u"--master-port"_s, QString::number(port), u"--locustfile"_s, locustfile }));
        QVERIFY(w->waitForStarted());
        workers.push_back(std::move(w));
    }
    const bool ended = master.waitForFinished(50000);
    if (!ended)
        master.kill();
    for (auto& w : workers) {
        if (!w->waitForFinished(8000))
            w->kill();
        w->waitForFinished();
    }
    QVERIFY2(ended, "the master ended");
    const QByteArray out = master.readAllStandardOutput();
    QVERIFY2(master.exitCode() == 0, QByteArray(out + master.readAllStandardError()).constData());
    const QJsonObject o = jsonOf(out);
    QCOMPARE(o.value(u"workers_done"_s).toInt(), 2);
    QVERIFY(o.value(u"attempts_recorded"_s).toInteger() > 0);
    QCOMPARE(o.value(u"ledger_requests"_s).toInteger(), o.value(u"attempts_recorded"_s).toInteger());
    checkSession(sessionPath, o, false);
}

void TestCliFleet::cleanupTestCase()
{
    if (!m_namespace.isEmpty()) // deleting the namespace deletes the veth pair with it
        run(QStandardPaths::findExecutable(u"ip"_s, { u"/usr/sbin"_s, u"/sbin"_s }),
            { u"netns"_s, u"del"_s, m_namespace });
}

QTEST_GUILESS_MAIN(TestCliFleet)
#include "tst_cli_fleet.moc"
