// SPDX-License-Identifier: GPL-3.0-or-later
// `--set PATH=VALUE` on every command that takes a policy (issue 27 §4: presets take the client's
// settings), run as a user runs it: the real binary. The setting is what decides (curl-7.88 with
// limits.max_retries=1 sends 2 attempts where the preset sends 4), every report says what was changed,
// and a session records it and gives it back to replay and export. Bad settings: tst_cli_badinput.
#include "cliprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;
using CliProcess::retrylab;

namespace {

// seed-001-slen's first route answers 503, 503, 503, then 201: curl-7.88 retries each 503. The backoff is
// made short so the run takes milliseconds.
const QStringList kFast { u"--set"_s, u"backoff.base_ms=10"_s };
const QString kChanged = u"preset curl-7.88, changed: backoff.base_ms 1000 → 10, limits.max_retries 7 → 1"_s;

QJsonObject jsonOf(const QByteArray& bytes)
{
    return QJsonDocument::fromJson(bytes).object();
}

QJsonObject fileJson(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? jsonOf(file.readAll()) : QJsonObject();
}

// The last line of TEXT that is JSON: run --json's summary.
QJsonObject lastJsonLine(const QByteArray& text)
{
    const QList<QByteArray> lines = text.trimmed().split('\n');
    return lines.isEmpty() ? QJsonObject() : jsonOf(lines.last());
}

QJsonObject changesJson(const QString& base, const QList<std::tuple<QString, QJsonValue, QJsonValue>>& changes)
{
    QJsonArray list;
    for (const auto& [path, from, to] : changes)
        list << QJsonObject { { u"path"_s, path }, { u"from"_s, from }, { u"to"_s, to } };
    return QJsonObject { { u"base"_s, base }, { u"base_kind"_s, u"preset"_s }, { u"changes"_s, list } };
}

const QJsonObject kChangedJson = changesJson(u"curl-7.88"_s,
    { { u"backoff.base_ms"_s, 1000, 10 }, { u"limits.max_retries"_s, 7, 1 } });

} // namespace

class TestCliSet : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // A recording under curl-7.88 as `curl --retry 1` with a 10 ms backoff: 503, 503, stopped.
        m_session = m_dir.filePath(u"retry1.json"_s);
        const CliProcess::Result r = retrylab(QStringList { u"run"_s, u"--policy"_s, u"curl-7.88"_s, u"--set"_s,
                                                  u"limits.max_retries=1"_s }
            + kFast + QStringList { u"--scenario"_s, u"seed-001-slen"_s, u"--session"_s, m_session });
        QCOMPARE(r.exit, 1); // the run failed: two 503s and no retry left
        QVERIFY2(r.out.contains("1 runs, 2 attempts"), r.out.constData());
    }

    // The setting decides: the same preset and scenario, another number of attempts.
    void settingsDecide_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<int>("exit");
        QTest::addColumn<QString>("summary");
        QTest::addRow("curl --retry 1: two 503s, then stop") << QStringList { u"--set"_s, u"limits.max_retries=1"_s } << 1
                                                            << u"1 runs, 2 attempts, 0.0% succeeded"_s;
        QTest::addRow("curl --retry 3: three 503s, then 201") << QStringList { u"--set"_s, u"limits.max_retries=3"_s } << 0
                                                             << u"1 runs, 4 attempts, 100.0% succeeded"_s;
        QTest::addRow("--set=PATH=VALUE, counted as attempts") << QStringList { u"--set=limits.max_attempts=2"_s } << 1
                                                              << u"1 runs, 2 attempts, 0.0% succeeded"_s;
        QTest::addRow("503 made a stop (a rule's action, text)") << QStringList { u"--set"_s, u"rules[4].action=stop"_s } << 1
                                                                << u"1 runs, 1 attempts, 0.0% succeeded"_s;
    }

    void settingsDecide()
    {
        QFETCH(QStringList, settings);
        QFETCH(int, exit);
        QFETCH(QString, summary);
        const CliProcess::Result r = retrylab(QStringList { u"run"_s, u"--policy"_s, u"curl-7.88"_s } + settings + kFast
            + QStringList { u"--scenario"_s, u"seed-001-slen"_s, u"--quiet"_s });
        QCOMPARE(r.exit, exit);
        QVERIFY2(QString::fromUtf8(r.out).startsWith(summary), r.out.constData());
    }

    // Every report of every command that takes a policy says what was changed.
    void reports_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exit");
        QTest::addColumn<QString>("text"); // in stdout (or, with "stderr:" in front, in stderr)
        const QStringList set { u"--set"_s, u"limits.max_retries=1"_s, u"--set"_s, u"backoff.base_ms=10"_s };
        QTest::addRow("policy show") << QStringList { u"policy"_s, u"show"_s, u"curl-7.88"_s } + set << 0 << kChanged + u"\n\n"_s;
        QTest::addRow("policy show --json: on stderr, stdout stays a policy file")
            << QStringList { u"policy"_s, u"show"_s, u"curl-7.88"_s, u"--json"_s } + set << 0
            << u"stderr:retrylab policy show: "_s + kChanged;
        QTest::addRow("policy explain") << QStringList { u"policy"_s, u"explain"_s, u"curl-7.88"_s, u"--method"_s, u"GET"_s,
                                               u"--status"_s, u"503"_s } + set
                                        << 0 << u"  policy: "_s + kChanged + u'\n';
        QTest::addRow("policy table") << QStringList { u"policy"_s, u"table"_s, u"curl-7.88"_s } + set << 0 << kChanged + u"\n\n"_s;
        QTest::addRow("run") << QStringList { u"run"_s, u"--policy"_s, u"curl-7.88"_s, u"--scenario"_s, u"seed-001-slen"_s } + set
                             << 1 << u"policy: "_s + kChanged + u'\n';
        QTest::addRow("run --quiet") << QStringList { u"run"_s, u"--policy"_s, u"curl-7.88"_s, u"--scenario"_s, u"seed-001-slen"_s,
                                            u"--quiet"_s } + set
                                     << 1 << u"policy: "_s + kChanged + u'\n';
        QTest::addRow("conform --session") << QStringList { u"conform"_s, u"--policy"_s, u"curl-7.88"_s, u"--session"_s, m_session } + set
                                           << 0 << u"policy: "_s + kChanged + u'\n';
        QTest::addRow("replay --policy") << QStringList { u"replay"_s, m_session, u"--policy"_s, u"curl-7.88"_s } + set << 0
                                         << u"policy: "_s + kChanged + u'\n';
        QTest::addRow("replay --policy --compare") << QStringList { u"replay"_s, m_session, u"--policy"_s, u"curl-7.88"_s, u"--compare"_s } + set
                                                   << 0 << u"policy: "_s + kChanged + u'\n';
    }

    void reports()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exit);
        QFETCH(QString, text);
        const CliProcess::Result r = retrylab(args);
        QCOMPARE(r.exit, exit);
        const bool onErr = text.startsWith(u"stderr:"_s);
        const QString stream = QString::fromUtf8(onErr ? r.err : r.out);
        QVERIFY2(stream.contains(onErr ? text.mid(7) : text), qPrintable(u"stdout:\n%1\nstderr:\n%2"_s.arg(
                                                                  QString::fromUtf8(r.out), QString::fromUtf8(r.err))));
        // Without a setting, no such line.
        QStringList plain = args;
        for (qsizetype i = plain.indexOf(u"--set"_s); i >= 0; i = plain.indexOf(u"--set"_s))
            plain.remove(i, 2);
        const CliProcess::Result without = retrylab(plain);
        QVERIFY2(!without.out.contains("changed:") && !without.err.contains("changed:"), without.out.constData());
    }

    void jsonReports_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("shape"); // where the report keeps it
        const QStringList set { u"--set"_s, u"limits.max_retries=1"_s, u"--set"_s, u"backoff.base_ms=10"_s };
        QTest::addRow("policy explain --json") << QStringList { u"policy"_s, u"explain"_s, u"curl-7.88"_s, u"--method"_s, u"GET"_s,
                                                      u"--status"_s, u"503"_s, u"--json"_s } + set
                                               << u"object"_s;
        QTest::addRow("run --json: in the summary")
            << QStringList { u"run"_s, u"--policy"_s, u"curl-7.88"_s, u"--scenario"_s, u"seed-001-slen"_s, u"--json"_s } + set
            << u"summary"_s;
        QTest::addRow("conform --json") << QStringList { u"conform"_s, u"--policy"_s, u"curl-7.88"_s, u"--session"_s, m_session,
                                               u"--json"_s } + set
                                        << u"object"_s;
        QTest::addRow("replay --json") << QStringList { u"replay"_s, m_session, u"--policy"_s, u"curl-7.88"_s, u"--json"_s } + set
                                       << u"object"_s;
    }

    void jsonReports()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, shape);
        const CliProcess::Result r = retrylab(args);
        QVERIFY2(r.exit == 0 || r.exit == 1, r.err.constData());
        const QJsonObject report = shape == u"summary"_s ? lastJsonLine(r.out).value(u"summary"_s).toObject() : jsonOf(r.out);
        QCOMPARE(report.value(u"policy_changes"_s).toObject(), kChangedJson);
    }

    void junitReport()
    {
        const QString junit = m_dir.filePath(u"report.xml"_s);
        const CliProcess::Result r = retrylab({ u"conform"_s, u"--policy"_s, u"curl-7.88"_s, u"--set"_s, u"limits.max_retries=1"_s,
            u"--set"_s, u"backoff.base_ms=10"_s, u"--session"_s, m_session, u"--junit"_s, junit });
        QCOMPARE(r.exit, 0);
        QFile file(junit);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString xml = QString::fromUtf8(file.readAll());
        QVERIFY2(xml.contains(u"<property name=\"policy_changes\" value=\""_s + kChanged + u"\"/>"_s), qPrintable(xml));
    }

    // The recording was made with curl-7.88's settings changed: judged against the preset as shipped, its
    // 10 ms waits are far too short and it stopped a retry early; against the same settings it conforms.
    void conformJudgesTheChangedPolicy()
    {
        const CliProcess::Result plain = retrylab({ u"conform"_s, u"--policy"_s, u"curl-7.88"_s, u"--session"_s, m_session, u"--json"_s });
        QCOMPARE(plain.exit, 1);
        const CliProcess::Result same = retrylab({ u"conform"_s, u"--policy"_s, u"curl-7.88"_s, u"--set"_s, u"limits.max_retries=1"_s,
            u"--set"_s, u"backoff.base_ms=10"_s, u"--session"_s, m_session, u"--json"_s });
        QCOMPARE(same.exit, 0);
        QCOMPARE(jsonOf(same.out).value(u"failed"_s).toInt(), 0);
    }

    // The session keeps the changes beside the policy they made; export and replay keep them.
    void sessionRecordsChanges()
    {
        const QJsonObject session = fileJson(m_session);
        const QJsonArray policies = session.value(u"policies"_s).toArray();
        QCOMPARE(policies.size(), 1);
        QCOMPARE(policies.first().toObject().value(u"limits"_s).toObject().value(u"max_retries"_s).toInt(), 1);
        QJsonObject expected = kChangedJson;
        expected.insert(u"policy_ref"_s, 0);
        QCOMPARE(session.value(u"policy_changes"_s).toArray(), QJsonArray { expected });

        const QString exported = m_dir.filePath(u"exported.json"_s);
        QCOMPARE(retrylab({ u"export"_s, m_session, u"--format"_s, u"json"_s, u"-o"_s, exported }).exit, 0);
        QCOMPARE(fileJson(exported).value(u"policy_changes"_s).toArray(), QJsonArray { expected });

        // Replayed under its own policy: the replay's session says what was changed in it, as the recording did.
        const QString replayed = m_dir.filePath(u"replayed.json"_s);
        const CliProcess::Result same = retrylab({ u"replay"_s, m_session, u"--export"_s, replayed });
        QVERIFY2(same.exit == 0, same.out.constData());
        QCOMPARE(fileJson(replayed).value(u"policy_changes"_s).toArray(), QJsonArray { expected });

        // Replayed under curl-7.88 as `--retry 3`: that policy's changes instead.
        const QString other = m_dir.filePath(u"retry3.json"_s);
        const CliProcess::Result under = retrylab({ u"replay"_s, m_session, u"--policy"_s, u"curl-7.88"_s, u"--set"_s,
            u"limits.max_retries=3"_s, u"--export"_s, other });
        QCOMPARE(under.exit, 0);
        QJsonObject retry3 = changesJson(u"curl-7.88"_s, { { u"limits.max_retries"_s, 7, 3 } });
        retry3.insert(u"policy_ref"_s, 0);
        QCOMPARE(fileJson(other).value(u"policy_changes"_s).toArray(), QJsonArray { retry3 });

        // A recording without --set has none (and reads as it always did).
        const QString plain = m_dir.filePath(u"plain.json"_s);
        QCOMPARE(retrylab({ u"run"_s, u"--policy"_s, u"curl-7.88"_s, u"--scenario"_s, u"seed-001-slen"_s, u"--set"_s,
                              u"limits.max_retries=7"_s, u"--quiet"_s, u"--export"_s, plain })
                     .exit,
            0); // set to what it was: nothing changed
        QVERIFY(!fileJson(plain).contains(u"policy_changes"_s));
    }

    // policy show --json with settings writes a policy file that validates and reads back as the changed policy.
    void showJsonIsThePolicyFile()
    {
        const CliProcess::Result r = retrylab({ u"policy"_s, u"show"_s, u"curl-7.88"_s, u"--set"_s, u"limits.max_retries=3"_s,
            u"--set"_s, u"rules[4].when.methods=[\"GET\"]"_s, u"--json"_s });
        QCOMPARE(r.exit, 0);
        const QString path = m_dir.filePath(u"curl-retry3.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(r.out);
        file.close();
        QCOMPARE(retrylab({ u"policy"_s, u"validate"_s, path }).exit, 0);
        const QJsonObject policy = jsonOf(r.out);
        QCOMPARE(policy.value(u"limits"_s).toObject().value(u"max_retries"_s).toInt(), 3);
        QCOMPARE(policy.value(u"rules"_s).toArray().at(4).toObject().value(u"when"_s).toObject().value(u"methods"_s).toArray(),
            QJsonArray { u"GET"_s });
        // A file as the base: "policy file FILE, changed: …".
        const CliProcess::Result again = retrylab({ u"policy"_s, u"table"_s, path, u"--set"_s, u"limits.max_retries=2"_s });
        QCOMPARE(again.exit, 0);
        QVERIFY2(again.out.startsWith((u"policy file "_s + path + u", changed: limits.max_retries 3 → 2\n"_s).toUtf8()),
            again.out.constData());
    }

    // The decision explained follows the setting: attempt 4 after a 503 is retried by curl-7.88 (--retry 7)
    // and is the last one under --retry 3.
    void explainFollowsTheSetting()
    {
        const QStringList query { u"--method"_s, u"GET"_s, u"--status"_s, u"503"_s, u"--attempt"_s, u"4"_s, u"--json"_s };
        const CliProcess::Result preset = retrylab(QStringList { u"policy"_s, u"explain"_s, u"curl-7.88"_s } + query);
        QCOMPARE(jsonOf(preset.out).value(u"decision"_s).toString(), u"retry"_s);
        const CliProcess::Result set
            = retrylab(QStringList { u"policy"_s, u"explain"_s, u"curl-7.88"_s, u"--set"_s, u"limits.max_retries=3"_s } + query);
        QCOMPARE(jsonOf(set.out).value(u"decision"_s).toString(), u"stop"_s);
    }

private:
    QTemporaryDir m_dir;
    QString m_session;
};

QTEST_GUILESS_MAIN(TestCliSet)
#include "tst_cli_set.moc"
