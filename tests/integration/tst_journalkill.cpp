// SPDX-License-Identifier: GPL-3.0-or-later
// Journal crash safety as a test (issue 14 §4): `retrylab run --session` recording against a separate
// `retrylab serve`, killed with SIGKILL at 100 random moments (a fixed seed: the same moments every run),
// each followed at once by `retrylab recover`.
//
// Which attempts had finished before the kill? Three witnesses, none of them the recovery code:
//  1. the journal's bytes as the kill left them. Each attempt is one write() of one line on an unbuffered
//     file, so a complete line is exactly an attempt whose write returned — the journal's commit point;
//     the page cache keeps it through SIGKILL. Recovered attempts must equal those lines, field for field.
//  2. the recorder's own stdout (`--json`, one line per finished attempt). The CLI prints a line just
//     before the recorder journals it, so every printed attempt but the very last must be recovered.
//  3. the lab's ledger: every recovered attempt that has a status was received by the lab with that
//     attempt id and answered with that status.
// Then a recorder killed and not reaped (a zombie, what made `recover` wait ~30 s before): recovered at once.
#include "labprocess.h"
#include "session/format/attemptjson.h"
#include "session/format/sessionfile.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>

#include <csignal>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

using namespace Qt::StringLiterals;

namespace {

const char kScenario[] = R"({"format":1,"name":"kill","description":"issue 14: recordings killed",
 "routes":[{"path":"ANY","mode":"loop","steps":[{"kind":"respond","status":503,"body":"busy"},
   {"kind":"respond","status":503,"body":"busy"},{"kind":"respond","status":201,"body":"done"}]}]})";

const char kPolicy[] = R"({"format":"retrylab-policy","version":1,"name":"fast",
 "limits":{"max_attempts":4},"backoff":{"kind":"constant","base_ms":2},"jitter":{"kind":"none"},
 "rules":[{"action":"retry","when":{"statuses":[503]}}]})";

QJsonObject attemptObject(const AttemptStore& store, const PackedAttempt& p)
{
    QByteArray text;
    AttemptJson::write(text, store, p, Redactor::none(), QDateTime());
    return QJsonDocument::fromJson(text).object();
}

// Witness 1: the attempt lines the journal holds whole.
QList<QJsonObject> journalledAttempts(const QByteArray& journal)
{
    QList<QJsonObject> out;
    const QByteArrayList lines = journal.split('\n');
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) { // the last piece has no '\n': never complete
        const QJsonObject o = QJsonDocument::fromJson(lines.at(i)).object();
        if (o.value(u"event"_s).toString() == u"attempt"_s)
            out << o.value(u"attempt"_s).toObject();
    }
    return out;
}

} // namespace

class TestJournalKill : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_env = QProcessEnvironment::systemEnvironment();
        m_env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"data"_s)); // this test's own journal registry
        // "ANY": the catch-all path, written so that moc does not read a comment in the raw string.
        writeFile(u"kill.json"_s, QByteArray(kScenario).replace("ANY", "/" "**"));
        writeFile(u"fast.json"_s, kPolicy);
        QCOMPARE(cli({ u"policy"_s, u"validate"_s, m_dir.filePath(u"fast.json"_s) }), 0);
        m_lab.process().setProcessEnvironment(m_env);
        QVERIFY2(m_lab.start(m_dir.filePath(u"kill.json"_s)), qPrintable(m_lab.lines().join(u'\n')));
    }

    void hundredKills()
    {
        QRandomGenerator random(14); // fixed: the same 100 moments every run
        int printedButLost = 0;
        qint64 journalled = 0;
        for (int round = 0; round < 100; ++round) {
            const QString session = m_dir.filePath(u"run-%1.json"_s.arg(round));
            http(u"POST"_s, u"/_lab/reset"_s); // this round's ledger only
            QProcess recorder;
            recorder.setProcessEnvironment(m_env);
            QByteArray printed;
            connect(&recorder, &QProcess::readyReadStandardOutput, &recorder, [&] { printed += recorder.readAllStandardOutput(); });
            recorder.start(QStringLiteral(RETRYLAB_BINARY),
                { u"run"_s, u"--policy"_s, m_dir.filePath(u"fast.json"_s), u"--url"_s, m_lab.url(u"/pay"_s),
                    u"--repeat"_s, u"5000"_s, u"--concurrency"_s, u"2"_s, u"--session"_s, session, u"--json"_s });
            QVERIFY(recorder.waitForStarted(10000));
            QTRY_VERIFY_WITH_TIMEOUT(printed.count('\n') >= 1, 20000); // recording for real
            QTest::qWait(int(random.bounded(300)));
            ::kill(pid_t(recorder.processId()), SIGKILL);
            QVERIFY(recorder.waitForFinished(10000));
            printed += recorder.readAllStandardOutput();
            QCOMPARE(recorder.exitStatus(), QProcess::CrashExit);

            QFile journalFile(session + u".journal"_s);
            QVERIFY(journalFile.open(QIODevice::ReadOnly));
            const QList<QJsonObject> written = journalledAttempts(journalFile.readAll());
            journalFile.close();
            const QJsonObject ledger = QJsonDocument::fromJson(http(u"GET"_s, u"/_lab/ledger"_s)).object();

            QByteArray out;
            QCOMPARE(cli({ u"recover"_s, session + u".journal"_s }, &out), 0);
            QVERIFY2(out.contains("recovered"), out.constData()); // at once: the recorder is dead, not "still recording"
            QString error;
            const std::unique_ptr<Session> s = SessionFile::open(session, {}, &error);
            QVERIFY2(s, qPrintable(error));

            // Witness 1: exactly the complete journal lines, unaltered.
            QList<QJsonObject> recovered;
            QSet<QString> recoveredIds;
            for (qsizetype i = 0; i < s->attempts.size(); ++i) {
                recovered << attemptObject(s->attempts, s->attempts.packed(i));
                recoveredIds << recovered.last().value(u"attempt_id"_s).toString();
            }
            // The session groups attempts by run (the journal has them as they finished): match by id.
            QCOMPARE(recovered.size(), written.size());
            QHash<QString, QJsonObject> byId;
            for (const QJsonObject& a : std::as_const(recovered))
                byId.insert(a.value(u"attempt_id"_s).toString(), a);
            for (const QJsonObject& w : std::as_const(written)) {
                const QString id = w.value(u"attempt_id"_s).toString();
                QVERIFY2(byId.contains(id), qPrintable(u"round %1: journalled attempt %2 missing"_s.arg(round).arg(id)));
                const QJsonObject r = byId.value(id);
                QStringList differ;
                for (const QString& key : w.keys() + r.keys()) {
                    if (w.value(key) != r.value(key) && !differ.contains(key))
                        differ << key + u": "_s
                                + QString::fromUtf8(QJsonDocument(QJsonObject { { u"journal"_s, w.value(key) }, { u"recovered"_s, r.value(key) } })
                                                        .toJson(QJsonDocument::Compact));
                }
                QVERIFY2(differ.isEmpty(), qPrintable(u"round %1, attempt %2 altered: "_s.arg(round).arg(id) + differ.join(u"; "_s)));
            }
            journalled += written.size();

            // Witness 2: every attempt the recorder printed, but possibly the last.
            QStringList printedIds;
            for (const QByteArray& line : printed.split('\n')) {
                if (line.endsWith('}'))
                    printedIds << QJsonDocument::fromJson(line).object().value(u"attempt_id"_s).toString();
            }
            for (qsizetype i = 0; i + 1 < printedIds.size(); ++i)
                QVERIFY2(recoveredIds.contains(printedIds.at(i)), qPrintable(u"round %1: printed attempt %2 lost"_s.arg(round).arg(printedIds.at(i))));
            if (!printedIds.isEmpty() && !recoveredIds.contains(printedIds.last()))
                ++printedButLost;

            // Witness 3: the lab received and answered each of them so.
            QHash<QString, int> labStatus;
            for (const QJsonValue& r : ledger.value(u"requests"_s).toArray())
                labStatus.insert(r[u"attempt_id"_s].toString(), r[u"status"_s].toInt());
            for (const QJsonObject& a : std::as_const(recovered)) {
                if (!a.value(u"status"_s).isDouble())
                    continue;
                const QString id = a.value(u"attempt_id"_s).toString();
                QVERIFY2(labStatus.contains(id), qPrintable(u"round %1: attempt %2 never reached the lab"_s.arg(round).arg(id)));
                QCOMPARE(a.value(u"status"_s).toInt(), labStatus.value(id));
            }
        }
        qInfo("100 kills: %lld journalled attempts recovered unaltered; the last printed attempt was not yet journalled "
              "in %d of 100 kills (printed before the recorder writes it)", journalled, printedButLost);
    }

    // Killed and not reaped: a zombie whose pid still "exists". recover restores it at once.
    void zombieRecorderRecoveredAtOnce()
    {
        const QString session = m_dir.filePath(u"zombie.json"_s);
        const QByteArray binary = RETRYLAB_BINARY;
        const QByteArray policy = m_dir.filePath(u"fast.json"_s).toLocal8Bit();
        const QByteArray url = m_lab.url(u"/pay"_s).toLocal8Bit();
        const QByteArray sessionArg = session.toLocal8Bit();
        const QByteArray home = "XDG_DATA_HOME=" + m_dir.filePath(u"data"_s).toLocal8Bit();
        QList<QByteArray> args { binary, "run", "--policy", policy, "--url", url, "--repeat", "5000", "--session", sessionArg, "--quiet" };
        std::vector<char*> argv;
        for (QByteArray& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        std::vector<char*> envp;
        QList<QByteArray> env;
        for (char** e = environ; *e; ++e) {
            if (!QByteArray(*e).startsWith("XDG_DATA_HOME="))
                env << QByteArray(*e);
        }
        env << home;
        for (QByteArray& e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        pid_t pid = 0;
        QCOMPARE(::posix_spawn(&pid, binary.constData(), nullptr, nullptr, argv.data(), envp.data()), 0);
        const auto reap = qScopeGuard([pid] { ::kill(pid, SIGKILL); ::waitpid(pid, nullptr, 0); });
        QTRY_VERIFY_WITH_TIMEOUT(journalledAttempts(readFile(session + u".journal"_s)).size() >= 3, 20000);
        ::kill(pid, SIGKILL);
        QTRY_VERIFY(readFile(u"/proc/%1/stat"_s.arg(pid)).contains(") Z "));
        QByteArray out;
        QElapsedTimer t;
        t.start();
        QCOMPARE(cli({ u"recover"_s, session + u".journal"_s }, &out), 0);
        QVERIFY2(out.contains("interrupted (recorder pid") && out.contains("zombie") && out.contains("recovered"), out.constData());
        QVERIFY2(t.elapsed() < 10000, "recover waited");
        QVERIFY(!QFile::exists(session + u".journal"_s));
        QVERIFY(SessionFile::open(session));
    }

    void cleanupTestCase() { QCOMPARE(m_lab.stop(), 0); }

private:
    void writeFile(const QString& name, const QByteArray& text)
    {
        QFile f(m_dir.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }
    static QByteArray readFile(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    int cli(const QStringList& args, QByteArray* out = nullptr)
    {
        QProcess p;
        p.setProcessEnvironment(m_env);
        p.start(QStringLiteral(RETRYLAB_BINARY), args);
        if (!p.waitForFinished(60000))
            return -1;
        if (out)
            *out = p.readAllStandardOutput() + p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }
    // The lab's control endpoints, through curl.
    QByteArray http(const QString& method, const QString& path)
    {
        QProcess curl;
        curl.start(u"curl"_s, { u"-s"_s, u"-X"_s, method, m_lab.url(path) });
        curl.waitForFinished(20000);
        return curl.readAllStandardOutput();
    }

    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    LabProcess m_lab;
};

QTEST_GUILESS_MAIN(TestJournalKill)
#include "tst_journalkill.moc"
