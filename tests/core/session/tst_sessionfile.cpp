// SPDX-License-Identifier: GPL-3.0-or-later
// The session file: round trip, migration of every older version from stored fixtures, refusal of
// malformed, truncated and wrong-version files (message names line and field), atomic saves, redaction.
#include "session/format/attemptjson.h"
#include "session/format/sessionfile.h"
#include "session/sessionrecorder.h"
#include "sessiontestdata.h"

#include <QBuffer>
#include <QJsonArray>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestSessionFile : public QObject
{
    Q_OBJECT

private:
    static QByteArray attemptText(const Session& s, quint32 row)
    {
        QByteArray out;
        AttemptJson::write(out, s.attempts, s.attempts.packed(row), Redactor::none(), s.meta.wallOriginUtc);
        return out;
    }

private Q_SLOTS:
    void runsFoundByIdInAnyOrder_data()
    {
        // A batch records its runs in ascending id order: found by binary search over their ids, no hash.
        // Any other order (a file's, a replay's before its sort, an id twice) switches to a hash, the
        // later run winning for an id given twice, as before.
        QTest::addColumn<QList<int>>("ids");
        QList<int> ascending;
        for (int i = 0; i < 3000; ++i)
            ascending << 2 * i + 5;
        QTest::newRow("ascending with gaps") << ascending;
        QTest::newRow("descending") << QList<int> { 5, 4, 3, 2, 1 };
        QTest::newRow("out of order after a while") << QList<int> { 1, 2, 3, 9, 4, -7 };
        QTest::newRow("an id twice") << QList<int> { 1, 2, 2, 3 };
        QTest::newRow("one run") << QList<int> { 0 };
    }
    void runsFoundByIdInAnyOrder()
    {
        QFETCH(QList<int>, ids);
        Session s;
        for (const int id : ids) {
            SessionRun r;
            r.runId = id;
            r.reason = QString::number(id) + u"-"_s + QString::number(s.runs.size());
            s.appendRun(r);
        }
        const auto expected = [&](int id) { // the last run with ID, as a hash gave it
            for (qsizetype i = s.runs.size() - 1; i >= 0; --i) {
                if (s.runs.at(i).runId == id)
                    return i;
            }
            return qsizetype(-1);
        };
        for (const int id : ids) {
            QCOMPARE(s.runIndex(id), expected(id));
            QCOMPARE(s.findRun(id), &s.runs.at(expected(id)));
            QCOMPARE(&s.run(id), &s.runs.at(expected(id))); // found, not created again
        }
        QCOMPARE(s.runs.size(), ids.size());
        for (const int unknown : { -1000, 1000000 })
            QCOMPARE(s.runIndex(unknown), -1);
        s.run(1000000); // a new run, created at the end
        QCOMPARE(s.runIndex(1000000), s.runs.size() - 1);
        // Sorted and reindexed (what a replay does): every run found at its new place.
        std::stable_sort(s.runs.begin(), s.runs.end(), [](const SessionRun& a, const SessionRun& b) { return a.runId < b.runId; });
        s.rebuildIndex();
        for (qsizetype i = 0; i < s.runs.size(); ++i)
            QCOMPARE(s.runs.at(s.runIndex(s.runs.at(i).runId)).runId, s.runs.at(i).runId);
    }

    void looksLikeSessionByFormatField()
    {
        const QString data = QStringLiteral(RETRYLAB_TEST_DATA) + u"/sessions/"_s;
        QVERIFY(SessionFile::looksLikeSession(data + u"v1-session.json"_s));
        QVERIFY(SessionFile::looksLikeSession(data + u"v0-attempt-log.json"_s));
        QVERIFY(!SessionFile::looksLikeSession(QStringLiteral(RETRYLAB_SOURCE_DIR) + u"/resources/presets/slen.json"_s));
        QVERIFY(!SessionFile::looksLikeSession(data + u"no-such-file.json"_s));
    }

    void roundTripIsExact()
    {
        Session original = SessionTestData::session(5, 3);
        original.redaction.enabled = false; // compare every value as recorded
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.json"_s);
        QString error;
        QVERIFY2(SessionFile::save(original, path, {}, &error), qPrintable(error));
        const std::unique_ptr<Session> back = SessionFile::open(path, {}, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->meta.readFromVersion, 1);
        QCOMPARE(back->runs.size(), original.runs.size());
        QCOMPARE(back->attemptCount(), original.attemptCount());
        QCOMPARE(back->policies, original.policies);
        QCOMPARE(back->requests, original.requests);
        for (qsizetype r = 0; r < original.runs.size(); ++r) {
            const RunRecord a = original.runRecord(r);
            const RunRecord b = back->runRecord(r);
            QCOMPARE(b.runId, a.runId);
            QCOMPARE(b.seed, a.seed);
            QCOMPARE(b.outcome, a.outcome);
            QCOMPARE(b.attempts.size(), a.attempts.size());
            for (qsizetype i = 0; i < a.attempts.size(); ++i) {
                QCOMPARE(attemptText(*back, back->runs.at(r).rows.at(i)), attemptText(original, original.runs.at(r).rows.at(i)));
                QCOMPARE(b.attempts.at(i).at.finished, a.attempts.at(i).at.finished);
                QCOMPARE(b.attempts.at(i).requestHeaders, a.attempts.at(i).requestHeaders);
                QCOMPARE(b.attempts.at(i).decision->delay, a.attempts.at(i).decision->delay);
            }
        }
        QVERIFY(!back->redaction.enabled); // the choice is remembered
    }

    // What --set changed in a preset (issue 27 §4) is kept beside the policy it made: written only when
    // there is some (a session without any is byte for byte what earlier builds wrote), read back, and
    // refused with its path when it is malformed or names no policy.
    void policyChangesRoundTrip()
    {
        Session original = SessionTestData::session(2, 2);
        RunRecord changedRun = SessionTestData::run(3, 1);
        changedRun.policy.limits.maxAttempts = 4;
        changedRun.policy.limits.countedAs = AttemptCounting::Retries;
        original.addRun(changedRun);
        QCOMPARE(original.policies.size(), 2);
        QTemporaryDir dir;
        QVERIFY(SessionFile::save(original, dir.filePath(u"plain.json"_s)));
        QFile plain(dir.filePath(u"plain.json"_s));
        QVERIFY(plain.open(QIODevice::ReadOnly));
        QVERIFY(!plain.readAll().contains("policy_changes"));

        original.policyChanges.insert(1, PolicyChanges { u"curl-7.88"_s, PolicyChanges::BaseKind::Preset,
            { PolicyChange { u"limits.max_retries"_s, QJsonValue(7), QJsonValue(3) },
                PolicyChange { u"rules[4].when.methods"_s, QJsonValue(QJsonValue::Undefined), QJsonArray { u"GET"_s } } } });
        const QString path = dir.filePath(u"s.json"_s);
        QString error;
        QVERIFY2(SessionFile::save(original, path, {}, &error), qPrintable(error));
        const std::unique_ptr<Session> back = SessionFile::open(path, {}, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->policies, original.policies);
        QCOMPARE(back->policyChanges, original.policyChanges);
        QCOMPARE(back->policyChanges.value(1).text(),
            u"preset curl-7.88, changed: limits.max_retries 7 → 3, rules[4].when.methods (absent) → [\"GET\"]"_s);
    }

    void policyChangesRefused_data()
    {
        QTest::addColumn<QByteArray>("changes");
        QTest::addColumn<QString>("where");
        QTest::addRow("a policy that is not in the file")
            << QByteArray(R"([{"policy_ref":3,"base":"curl-7.88","base_kind":"preset","changes":[]}])")
            << u"policy_ref 3 refers to a policy that is not in the file (at $.policy_changes)"_s;
        QTest::addRow("one policy twice")
            << QByteArray(R"([{"policy_ref":0,"base":"a","base_kind":"preset","changes":[]},{"policy_ref":0,"base":"b","base_kind":"file","changes":[]}])")
            << u"policy 0 has its changes twice (at $.policy_changes[1].policy_ref)"_s;
        QTest::addRow("no policy_ref") << QByteArray(R"([{"base":"curl-7.88","base_kind":"preset","changes":[]}])")
                                       << u"must be the index of a policy (at $.policy_changes[0].policy_ref)"_s;
        QTest::addRow("another kind of base") << QByteArray(R"([{"policy_ref":0,"base":"x","base_kind":"url","changes":[]}])")
                                              << u"(at $.policy_changes[0].base_kind)"_s;
        QTest::addRow("a change without a path")
            << QByteArray(R"([{"policy_ref":0,"base":"x","base_kind":"preset","changes":[{"to":3}]}])")
            << u"must be an object with a \"path\" (at $.policy_changes[0].changes[0])"_s;
        QTest::addRow("not an array") << QByteArray(R"({})") << u"expected '[', found '{' (at $.policy_changes)"_s;
        QTest::addRow("not an object") << QByteArray(R"([3])") << u"must be an object (at $.policy_changes[0])"_s;
    }
    void policyChangesRefused()
    {
        QFETCH(QByteArray, changes);
        QFETCH(QString, where);
        QByteArray text = "{\"format\":\"retrylab-session\",\"version\":1,\"policies\":[{\"format\":\"retrylab-policy\",\"version\":1}],"
                          "\n\"policy_changes\":"
            + changes + "}";
        QBuffer buffer(&text);
        buffer.open(QIODevice::ReadOnly);
        QString error;
        QVERIFY(!SessionFile::read(buffer, text.size(), {}, &error));
        QVERIFY2(error.endsWith(where), qPrintable(error));
    }

    // The recorder writes them beside the policy they belong to, into the session and into the journal a
    // crash leaves; a policy nobody changed gets none.
    void policyChangesRecordedAndJournalled()
    {
        QStandardPaths::setTestModeEnabled(true);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"recorded.json"_s);
        const PolicyChanges changes { u"curl-7.88"_s, PolicyChanges::BaseKind::Preset,
            { PolicyChange { u"limits.max_retries"_s, QJsonValue(7), QJsonValue(3) } } };
        RunRecord changedRun = SessionTestData::run(1, 1);
        changedRun.policy.limits.maxAttempts = 4;
        RunRecord plainRun = SessionTestData::run(2, 1);
        SessionRecorder recorder(path);
        recorder.notePolicyChanges(changedRun.policy, changes);
        QString error;
        QVERIFY2(recorder.start(&error), qPrintable(error));
        for (const RunRecord& r : { changedRun, plainRun }) {
            recorder.recordRunStarted(r);
            recorder.recordRunFinished(r);
        }
        QCOMPARE(recorder.session().policies.size(), 2);
        const QMap<qsizetype, PolicyChanges> expected { { 0, changes } };
        QCOMPARE(recorder.session().policyChanges, expected);
        SessionJournal::Info info;
        const std::unique_ptr<Session> recovered = SessionJournal::recover(recorder.journalPath(), &info, &error);
        QVERIFY2(recovered, qPrintable(error));
        QVERIFY2(info.problems.isEmpty(), qPrintable(info.problems.join(u'\n')));
        QCOMPARE(recovered->policyChanges, expected);
        QVERIFY2(recorder.finish(&error), qPrintable(error));
        const std::unique_ptr<Session> saved = SessionFile::open(path, {}, &error);
        QVERIFY2(saved, qPrintable(error));
        QCOMPARE(saved->policyChanges, expected);
    }

    void savedSessionsRedactByDefault()
    {
        Session s = SessionTestData::session(2, 2);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.json"_s);
        QVERIFY(SessionFile::save(s, path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(!text.contains("sk_live_123456789"));
        QVERIFY(!text.contains("s3cr3t"));
        QVERIFY(text.contains("[redacted:17-32:"));
        const std::unique_ptr<Session> back = SessionFile::open(path);
        QVERIFY(back);
        QVERIFY(back->redaction.enabled);
        // Same secret, same hash: attempts stay comparable.
        const AttemptRecord a = back->attempt(0, 0);
        const AttemptRecord b = back->attempt(1, 1);
        QCOMPARE(a.requestHeaders.at(1).value, b.requestHeaders.at(1).value);
    }

    void userListRedactsHeadersAndQuery()
    {
        Session s = SessionTestData::session(1, 1);
        s.redaction.headers = { "Idempotency-Key" };
        s.redaction.queryParameters = { u"token"_s };
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(SessionFile::write(s, buffer, {}, nullptr));
        const QByteArray text = buffer.data();
        QVERIFY(!text.contains("token=abc"));
        QVERIFY(text.contains("page=2"));
        QVERIFY(!text.contains("\\\"k-1\\\""));
    }

    void migrates_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("version");
        QTest::addColumn<int>("runs");
        QTest::addColumn<int>("attempts");
        // Stored fixtures, one per format version ever written.
        QTest::addRow("version 0: the engine's interim attempt log (retrylab run --export)")
            << u"v0-attempt-log.json"_s << 0 << 3 << 5;
        QTest::addRow("version 1: retrylab run --session") << u"v1-session.json"_s << 1 << 3 << 5;
    }
    void migrates()
    {
        QFETCH(QString, file);
        QFETCH(int, version);
        QFETCH(int, runs);
        QFETCH(int, attempts);
        QString error;
        const std::unique_ptr<Session> s = SessionFile::open(QStringLiteral(RETRYLAB_TEST_DATA "/sessions/") + file, {}, &error);
        QVERIFY2(s, qPrintable(error));
        QCOMPARE(s->meta.readFromVersion, version);
        QVERIFY(s->policyChanges.isEmpty()); // files from before --set: no policy was changed
        QCOMPARE(s->runs.size(), runs);
        QCOMPARE(s->attemptCount(), attempts);
        for (qsizetype r = 0; r < s->runs.size(); ++r) {
            const RunRecord run = s->runRecord(r);
            QVERIFY(run.outcome != FinalKind::None);
            QCOMPARE(run.request.method, u"POST"_s);
            QVERIFY(validate(run.policy).isEmpty());
            for (const AttemptRecord& a : run.attempts) {
                QCOMPARE(a.runId, run.runId);
                QVERIFY(a.decision.has_value());
                QVERIFY(a.at.started.has_value());
            }
        }
        // Saving a migrated session writes the current version, which reads back the same.
        QTemporaryDir dir;
        QVERIFY(SessionFile::save(*s, dir.filePath(u"m.json"_s)));
        const std::unique_ptr<Session> again = SessionFile::open(dir.filePath(u"m.json"_s));
        QVERIFY(again);
        QCOMPARE(again->meta.readFromVersion, Session::currentVersion);
        QCOMPARE(again->attemptCount(), s->attemptCount());
        for (qsizetype i = 0; i < s->attemptCount(); ++i)
            QCOMPARE(attemptText(*again, quint32(i)), attemptText(*s, quint32(i)));
    }

    void refused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("where");
        const QByteArray head = "{\"format\":\"retrylab-session\",\"version\":1,\n\"runs\":[\n{\"run\":1,\"attempts\":[\n";
        const QByteArray good = "{\"index\":1,\"start_ms\":1.5,\"end_ms\":3,\"status\":503,\"decision\":\"stop\"}";
        QTest::addRow("empty file") << QByteArray() << u"file is empty"_s;
        QTest::addRow("not JSON") << QByteArray("hello") << u"line 1, column 1"_s;
        QTest::addRow("not a session") << QByteArray("{\"format\":\"har\",\"version\":1}") << u"$.format"_s;
        QTest::addRow("newer version") << QByteArray("{\"format\":\"retrylab-session\",\"version\":9,\"runs\":[]}")
                                       << u"version 9 is newer"_s;
        QTest::addRow("version missing") << QByteArray("{\"format\":\"retrylab-session\",\"runs\":[]}") << u"$.version"_s;
        QTest::addRow("truncated inside an attempt") << head + good.left(30) << u"line 4"_s;
        QTest::addRow("truncated between attempts") << head + good + ",\n" << u"truncated"_s;
        QTest::addRow("unknown attempt field") << head + "{\"index\":1,\"colour\":\"red\"}]}]}" << u"$.runs[0].attempts[0].colour"_s;
        QTest::addRow("status not HTTP") << head + "{\"index\":1,\"status\":7,\"decision\":\"stop\"}]}]}"
                                         << u"$.runs[0].attempts[0].status"_s;
        QTest::addRow("status a string") << head + "{\"index\":1,\"status\":\"503\",\"decision\":\"stop\"}]}]}"
                                         << u"line 4, column"_s;
        QTest::addRow("unknown decision") << head + "{\"index\":1,\"decision\":\"maybe\"}]}]}" << u"$.runs[0].attempts[0].decision"_s;
        QTest::addRow("second attempt broken") << head + good + ",\n{\"index\":0,\"decision\":\"stop\"}]}]}"
                                               << u"$.runs[0].attempts[1].index"_s;
        QTest::addRow("run id missing") << QByteArray("{\"format\":\"retrylab-session\",\"version\":1,\"runs\":[{\"attempts\":[]}]}")
                                        << u"$.runs[0].run"_s;
        QTest::addRow("garbage after the end") << QByteArray("{\"format\":\"retrylab-session\",\"version\":1,\"runs\":[]} x")
                                               << u"after the end"_s;
        QTest::addRow("bad policy") << QByteArray("{\"format\":\"retrylab-session\",\"version\":1,\"policies\":[{\"max_attempts\":-3}]}")
                                    << u"$.policies[0]"_s;
    }
    void refused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, where);
        QBuffer buffer(&text);
        buffer.open(QIODevice::ReadOnly);
        QString error;
        SessionFile::Status status = SessionFile::Status::Ok;
        const std::unique_ptr<Session> s = SessionFile::read(buffer, text.size(), {}, &error, &status);
        QVERIFY(!s);
        QCOMPARE(status, SessionFile::Status::Failed);
        QVERIFY2(error.contains(where), qPrintable(error));
    }

    void cancelledSaveLeavesTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.json"_s);
        const Session small = SessionTestData::session(1, 1);
        QVERIFY(SessionFile::save(small, path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray before = f.readAll();
        f.close();
        const Session big = SessionTestData::session(3000, 3);
        QString error;
        QVERIFY(!SessionFile::save(big, path, [](qint64, qint64) { return false; }, &error));
        QVERIFY(error.contains(u"cancelled"_s));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
    }

    void writeBufferFollowsTheSession()
    {
        // A session of a few attempts (a recovered journal, a small file) starts with a small buffer, not
        // 2 MiB; a big one gets the whole 2 MiB it flushes from. Either way it is written whole.
        const Session small = SessionTestData::session(2, 3);
        QVERIFY(SessionFile::writeBufferBytes(small) <= 64 * 1024);
        QVERIFY(SessionFile::writeBufferBytes(Session()) >= 16 * 1024);
        const Session big = SessionTestData::session(3000, 3);
        QCOMPARE(SessionFile::writeBufferBytes(big), qsizetype(2) << 20);
        for (const Session* s : { &small, &big }) {
            QBuffer buffer;
            buffer.open(QIODevice::WriteOnly);
            QString error;
            QVERIFY2(SessionFile::write(*s, buffer, {}, &error), qPrintable(error));
            buffer.close();
            buffer.open(QIODevice::ReadOnly);
            const std::unique_ptr<Session> back = SessionFile::read(buffer, buffer.size(), {}, &error);
            QVERIFY2(back, qPrintable(error));
            QCOMPARE(back->attemptCount(), s->attemptCount());
        }
    }

    void cancelledOpenReturnsNothing()
    {
        const Session big = SessionTestData::session(3000, 3);
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(SessionFile::write(big, buffer, {}, nullptr));
        buffer.close();
        buffer.open(QIODevice::ReadOnly);
        SessionFile::Status status = SessionFile::Status::Ok;
        QList<qint64> seen;
        const auto s = SessionFile::read(buffer, buffer.size(), [&](qint64 done, qint64) { seen << done; return seen.size() < 2; },
            nullptr, &status);
        QVERIFY(!s);
        QCOMPARE(status, SessionFile::Status::Cancelled);
        QCOMPARE(seen.size(), 2);
        QVERIFY(seen.at(1) > seen.at(0));
    }
};

QTEST_GUILESS_MAIN(TestSessionFile)
#include "tst_sessionfile.moc"
