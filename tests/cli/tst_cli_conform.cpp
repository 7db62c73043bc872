// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab conform` from the command line (issue 13): bad input is refused with one line and exit 2
// before anything runs; a command that cannot be started is exit 127; a session recorded by `retrylab
// observe` with curl (the client nobody here wrote) is judged afterwards with --session.
#include "cliprocess.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using CliProcess::retrylab;

class TestCliConform : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QFile bad(m_dir.filePath(u"bad-suite.json"_s));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(R"({"format":"retrylab-suite","version":1,"name":"x","cases":[{"name":"a","steps":[{"kind":"respnd"}]}]})");
    }

    void badInput_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QStringList cmd { u"--"_s, u"true"_s };
        QTest::addRow("no policy") << (QStringList { u"--suite"_s, u"standard"_s } + cmd) << u"--policy is required"_s;
        QTest::addRow("unknown policy") << (QStringList { u"--policy"_s, u"nope"_s, u"--suite"_s, u"standard"_s } + cmd) << u"nope"_s;
        QTest::addRow("neither suite nor session") << (QStringList { u"--policy"_s, u"curl"_s } + cmd) << u"--suite"_s;
        QTest::addRow("both suite and session")
            << (QStringList { u"--policy"_s, u"curl"_s, u"--suite"_s, u"standard"_s, u"--session"_s, u"x"_s } + cmd) << u"--session"_s;
        QTest::addRow("no command") << QStringList { u"--policy"_s, u"curl"_s, u"--suite"_s, u"standard"_s } << u"after --"_s;
        QTest::addRow("unknown suite") << (QStringList { u"--policy"_s, u"curl"_s, u"--suite"_s, u"nosuch"_s } + cmd) << u"no suite"_s;
        QTest::addRow("bad suite file") << (QStringList { u"--policy"_s, u"curl"_s, u"--suite"_s, m_dir.filePath(u"bad-suite.json"_s) } + cmd)
                                        << u"$.cases[0].steps[0].kind"_s;
        QTest::addRow("unknown case") << (QStringList { u"--policy"_s, u"curl"_s, u"--suite"_s, u"standard"_s, u"--case"_s, u"zzz"_s } + cmd)
                                      << u"no case \"zzz\""_s;
        QTest::addRow("bad tolerance") << (QStringList { u"--policy"_s, u"curl"_s, u"--suite"_s, u"standard"_s, u"--tolerance"_s, u"-3"_s } + cmd)
                                       << u"--tolerance"_s;
        QTest::addRow("bad case timeout")
            << (QStringList { u"--policy"_s, u"curl"_s, u"--suite"_s, u"standard"_s, u"--case-timeout"_s, u"soon"_s } + cmd) << u"case-timeout"_s;
        QTest::addRow("junit into a missing directory")
            << (QStringList { u"--policy"_s, u"curl"_s, u"--suite"_s, u"standard"_s, u"--junit"_s, u"/no/such/dir/r.xml"_s } + cmd) << u"--junit"_s;
        QTest::addRow("session that is not there") << QStringList { u"--policy"_s, u"curl"_s, u"--session"_s, u"/no/such.retrylab"_s }
                                                   << u"/no/such.retrylab"_s;
        QTest::addRow("a command with --session")
            << (QStringList { u"--policy"_s, u"curl"_s, u"--session"_s, u"x"_s } + cmd) << u"no command is run"_s;
        QTest::addRow("unknown option") << (QStringList { u"--policy"_s, u"curl"_s, u"--sutie"_s, u"standard"_s } + cmd) << u"--sutie"_s;
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliProcess::Result r = retrylab(QStringList { u"conform"_s } + args, 20000);
        QCOMPARE(r.exit, 2);
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith(u"retrylab conform: "_s) && err.contains(message), qPrintable(err));
        QVERIFY2(r.out.isEmpty(), r.out.constData());
    }

    void commandNotFound()
    {
        const CliProcess::Result r = retrylab({ u"conform"_s, u"--policy"_s, u"curl"_s, u"--suite"_s, u"standard"_s, u"--"_s,
                                                u"/no/such/client"_s },
            30000);
        QCOMPARE(r.exit, 127);
        QVERIFY2(r.err.contains("cannot run /no/such/client"), r.err.constData());
    }

    // A client the case's timeout stops is stopped with everything it started: a shell's child too.
    void timeoutStopsTheWholeClient()
    {
        QElapsedTimer t;
        t.start();
        const CliProcess::Result r = retrylab({ u"conform"_s, u"--policy"_s, u"curl"_s, u"--suite"_s, u"standard"_s, u"--case"_s,
                                                u"404-not-found"_s, u"--case-timeout"_s, u"1"_s, u"--json"_s, u"--"_s, u"sh"_s, u"-c"_s,
                                                u"sleep 37.25; true"_s },
            30000);
        QVERIFY2(t.elapsed() < 15000, "the case's timeout did not stop the command");
        QCOMPARE(r.exit, 1); // nothing was sent: no-request
        QVERIFY2(r.out.contains("\"timed_out\": true") && r.out.contains("no-request"), r.out.constData());
        QProcess pgrep;
        pgrep.start(u"pgrep"_s, { u"-f"_s, u"sleep 37.25"_s });
        QVERIFY(pgrep.waitForFinished(5000));
        QVERIFY2(pgrep.readAllStandardOutput().trimmed().isEmpty(), "the shell's child outlived the case");
    }

    void listShowsTheSuites()
    {
        const CliProcess::Result r = retrylab({ u"conform"_s, u"--list"_s });
        QCOMPARE(r.exit, 0);
        QVERIFY(r.out.startsWith("breakers — "));
        QVERIFY(r.out.contains("\nseeds — "));
        QVERIFY(r.out.contains("\nstandard — "));
        QVERIFY(r.out.contains("  outage-reset-5s "));
        QVERIFY(r.out.contains("  endless-503 "));
    }

    void judgesAnObservedSession()
    {
        QFile scenario(m_dir.filePath(u"flaky.json"_s));
        QVERIFY(scenario.open(QIODevice::WriteOnly));
        // ANY stands for the catch-all path (a slash and two stars in a raw string would end moc's scan).
        scenario.write(QByteArray(R"({"format":1,"name":"flaky","routes":[{"path":"ANY","steps":[
            {"kind":"respond","status":503},{"kind":"respond","status":404},{"kind":"respond","status":200,"repeat":"forever"}]}]})")
                           .replace("ANY", "/" "**"));
        scenario.close();
        const QString session = m_dir.filePath(u"observed.retrylab"_s);
        // curl retries the 503 after 1 s, then stops at the 404.
        const CliProcess::Result observed = retrylab({ u"observe"_s, u"--scenario"_s, scenario.fileName(), u"--session"_s, session,
                                                       u"--"_s, u"sh"_s, u"-c"_s, u"curl -s -o /dev/null --retry 3 \"$RETRYLAB_URL/x\""_s },
            60000);
        QCOMPARE(observed.exit, 0);
        // Judged against curl-7.88 it conforms; against slen (no bare 503 retried) it does not.
        const CliProcess::Result ok = retrylab({ u"conform"_s, u"--policy"_s, u"curl-7.88"_s, u"--session"_s, session, u"--json"_s });
        QVERIFY2(ok.exit == 0, ok.out.constData());
        const QJsonObject report = QJsonDocument::fromJson(ok.out).object();
        const QJsonArray cases = report.value(u"cases"_s).toArray();
        QCOMPARE(cases.size(), 1);
        QCOMPARE(cases.first().toObject().value(u"attempts"_s).toArray().size(), 2);
        const CliProcess::Result bad = retrylab({ u"conform"_s, u"--policy"_s, u"slen"_s, u"--session"_s, session });
        QCOMPARE(bad.exit, 1);
        QVERIFY2(bad.out.contains("retried-not-retryable: attempt 2 was sent"), bad.out.constData());
        QVERIFY2(bad.out.contains("FAIL   run-1"), bad.out.constData());
    }

    // Retrylab's own engine (`retrylab run`) as the client, on the seeds suite's cases for each seed's preset:
    // the judge and the engine read one policy the same way, body rules (error.code) included, since the
    // lab keeps the start of every answer's body.
    void engineConformsToTheSeedPresets_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QString>("prefix");
        QTest::addRow("seed 000") << u"paymongo"_s << u"paymongo-"_s;
        QTest::addRow("seed 001") << u"slen"_s << u"slen-"_s;
        QTest::addRow("seed 002") << u"rfc9110-standard"_s << u"rfc9110-"_s;
        QTest::addRow("seed 003") << u"checkout-go"_s << u"checkout-"_s;
        QTest::addRow("seed 004") << u"pix"_s << u"pix-"_s;
    }

    void engineConformsToTheSeedPresets()
    {
        QFETCH(QString, preset);
        QFETCH(QString, prefix);
        const CliProcess::Result list = retrylab({ u"conform"_s, u"--list"_s });
        QStringList args { u"conform"_s, u"--policy"_s, preset, u"--suite"_s, u"seeds"_s, u"--json"_s };
        int cases = 0;
        for (const QString& line : QString::fromUtf8(list.out).split(u'\n')) {
            if (line.startsWith(u"  "_s + prefix)) {
                args << u"--case"_s << line.trimmed().section(u' ', 0, 0);
                ++cases;
            }
        }
        QVERIFY(cases >= 2);
        // The URL and method come from the environment: through a shell.
        const QString shell = u"exec '%1' run --quiet --policy %2 --url \"$RETRYLAB_URL\" --method \"$RETRYLAB_METHOD\""_s.arg(
            QStringLiteral(RETRYLAB_BINARY), preset);
        args << u"--"_s << u"sh"_s << u"-c"_s << shell;
        const CliProcess::Result r = retrylab(args, 170000);
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        QStringList findings;
        for (const QJsonValue& c : report.value(u"cases"_s).toArray()) {
            for (const QJsonValue& f : c.toObject().value(u"findings"_s).toArray())
                findings << c.toObject().value(u"case"_s).toString() + u": "_s + f.toObject().value(u"sentence"_s).toString();
        }
        QVERIFY2(r.exit == 0, qPrintable(findings.join(u'\n') + QString::fromUtf8(r.err.right(1500))));
        QCOMPARE(report.value(u"cases"_s).toArray().size(), cases);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestCliConform)
#include "tst_cli_conform.moc"
