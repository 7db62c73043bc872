// SPDX-License-Identifier: GPL-3.0-or-later
// What a pipeline's circuit breaker leaves in a session (issue 28 §2, session-format.md): a refused call
// (never sent) and a call that waited for a half-open verdict keep every fact through save and open and
// through the journal; the breaker's changes of state are kept in order; the summary counts what the
// breaker did; a damaged file is refused with the place of the problem.
#include "sessiontestdata.h"
#include "session/breakersummary.h"
#include "session/format/sessionfile.h"
#include "session/journal/sessionjournal.h"
#include "session/store/storedattempt.h"

#include <QBuffer>
#include <QTemporaryDir>
#include <QTest>

using namespace std::chrono_literals;

namespace {

using State = CircuitBreaker::State;

AttemptRecord refusedAttempt(int runId)
{
    AttemptRecord a = SessionTestData::attempt(runId, 1, true);
    a.at = AttemptTimestamps {};
    a.at.scheduled = MonoTime(5s);
    a.at.verdictWait = MonoTime(5s) + 250us;
    a.at.finished = MonoTime(5s) + 3ms;
    a.phaseReached = AttemptPhase::Scheduled;
    a.status.reset();
    a.reasonPhrase.clear();
    a.responseHeaders.clear();
    a.bodyExcerpt.clear();
    a.rateLimitHeaders.clear();
    a.retryAfter.reset();
    a.bytesDown = 0;
    a.bytesUp = 0;
    a.refused = StrategyRefusal { StrategyRefusal::By::CircuitBreaker, QStringLiteral("127.0.0.1:8080"), State::HalfOpen, 4321ms };
    RetryDecision d;
    d.verdict = Verdict::Stop;
    d.finalKind = FinalKind::CircuitOpen;
    d.reason = QStringLiteral("attempt 1 not sent: the circuit breaker (127.0.0.1:8080) is half-open");
    a.decision = d;
    return a;
}

Session breakerSession()
{
    Session s = SessionTestData::session(2, 2);
    RunRecord run = SessionTestData::run(3, 1);
    run.attempts = { refusedAttempt(3) };
    run.outcome = FinalKind::CircuitOpen;
    run.reason = run.attempts.first().decision->reason;
    s.addRun(run);
    s.breakerChanges = {
        BreakerChange { QStringLiteral("opossum-9"), QStringLiteral("client"), MonoTime(1s) + 7ns, State::Closed, State::Open, { 20, 11 }, 5000ms },
        BreakerChange { QStringLiteral("opossum-9"), QStringLiteral("client"), MonoTime(6s), State::Open, State::HalfOpen, { 20, 11 }, 0ms },
        BreakerChange { QStringLiteral("opossum-9"), QStringLiteral("client"), MonoTime(6s) + 12ms, State::HalfOpen, State::Closed, { 21, 11 }, 0ms },
    };
    return s;
}

QByteArray written(const Session& s)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString error;
    if (!SessionFile::write(s, buffer, {}, &error))
        qWarning() << error;
    return buffer.data();
}

std::unique_ptr<Session> readBack(const QByteArray& json, QString* error)
{
    QBuffer buffer;
    buffer.setData(json);
    buffer.open(QIODevice::ReadOnly);
    return SessionFile::read(buffer, json.size(), {}, error);
}

} // namespace

class TestSessionBreakers : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip();
    void journalKeepsThem();
    void summary();
    void damagedRefused_data();
    void damagedRefused();
};

void TestSessionBreakers::roundTrip()
{
    const Session s = breakerSession();
    const QByteArray json = written(s);
    QVERIFY(json.contains("\"breaker_changes\":["));
    QVERIFY(json.contains("\"refused_by\":\"circuit_breaker\""));
    QString error;
    const std::unique_ptr<Session> back = readBack(json, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->breakerChanges, s.breakerChanges);
    const AttemptRecord refused = back->attempt(back->runIndex(3), 0);
    const AttemptRecord expected = s.attempt(s.runIndex(3), 0);
    QCOMPARE(refused.refused, expected.refused);
    QCOMPARE(refused.at.verdictWait, expected.at.verdictWait);
    QVERIFY(!refused.at.started);
    QCOMPARE(refused.decision->finalKind, FinalKind::CircuitOpen);
    QCOMPARE(back->findRun(3)->outcome, FinalKind::CircuitOpen);
    const StoredAttempt stored(back->attempts, back->findRun(3)->rows.first());
    QVERIFY(stored.refused());
    QCOMPARE(stored.refusal(), expected.refused);
    QCOMPARE(stored.verdictWait(), expected.at.verdictWait);
    QCOMPARE(back->attempts.timestamps(stored.row()).verdictWait, expected.at.verdictWait);
    // An attempt that was sent has none of it, in the file or read back.
    const StoredAttempt sent(back->attempts, back->findRun(1)->rows.first());
    QVERIFY(!sent.refused());
    QVERIFY(!sent.verdictWait());
    QCOMPARE(written(*back), json); // and writing it again gives the same bytes

    // A session without a breaker writes no `breaker_changes` (what earlier builds wrote and read).
    QVERIFY(!written(SessionTestData::session(1, 1)).contains("breaker_changes"));
}

void TestSessionBreakers::journalKeepsThem()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.json"));
    const Session s = breakerSession();
    Session live;
    live.meta = s.meta;
    live.redaction = s.redaction;
    SessionJournal journal;
    QString error;
    QVERIFY2(journal.open(path, live, &error), qPrintable(error));
    for (const BreakerChange& change : s.breakerChanges)
        journal.writeBreakerChange(change);
    journal.close();
    SessionJournal::Info info;
    std::unique_ptr<Session> back = SessionJournal::recover(SessionJournal::pathFor(path), &info, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->breakerChanges, s.breakerChanges);
    QCOMPARE(info.skippedLines, 0);
}

void TestSessionBreakers::summary()
{
    const Session s = breakerSession();
    const QList<BreakerSummary> all = summarizeBreakers(s, MonoTime(10s));
    QCOMPARE(all.size(), 2); // the changes' scope, and the scope of the refused call of another policy
    const BreakerSummary& b = all.first();
    QCOMPARE(b.scope, QStringLiteral("client"));
    QCOMPARE(b.opened, 1);
    QCOMPARE(b.halfOpened, 1);
    QCOMPARE(b.closed, 1);
    QCOMPARE(b.openFor, MonoTime(5s + 12ms - 7ns)); // open and half-open, until it closed
    QCOMPARE(b.last, State::Closed);
    QCOMPARE(all.at(1).scope, QStringLiteral("127.0.0.1:8080"));
    QCOMPARE(all.at(1).refused, 1);
    QVERIFY(breakerSummaryLine(b).contains(QStringLiteral("opened 1×")));

    // Up to a moment (a recording played back to there): what happened later is not counted yet. At 5 s the
    // breaker is still open (4 s so far) and the refused call, at 5.003 s, has not come.
    const QList<BreakerSummary> early = summarizeBreakers(s, MonoTime(5s));
    QCOMPARE(early.size(), 1);
    QCOMPARE(early.first().opened, 1);
    QCOMPARE(early.first().halfOpened, 0);
    QCOMPARE(early.first().closed, 0);
    QCOMPARE(early.first().openFor, MonoTime(4s - 7ns));
    QCOMPARE(early.first().last, State::Open);
    QCOMPARE(summarizeBreakers(s, MonoTime(5s) + 3ms).at(1).refused, 1);
}

void TestSessionBreakers::damagedRefused_data()
{
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("where"); // part of the error
    QTest::newRow("unknown state") << QByteArray("\"to\":\"open\"") << QByteArray("\"to\":\"ajar\"")
                                   << QStringLiteral("breaker_changes[0].to");
    QTest::newRow("negative calls") << QByteArray("\"calls\":20") << QByteArray("\"calls\":-1")
                                    << QStringLiteral("breaker_changes[0].calls");
    QTest::newRow("more failures than calls") << QByteArray("\"failures\":11") << QByteArray("\"failures\":99")
                                              << QStringLiteral("breaker_changes[0].failures");
    QTest::newRow("unknown field") << QByteArray("\"break_ms\":5000") << QByteArray("\"break_ms\":5000,\"color\":1")
                                   << QStringLiteral("breaker_changes[0].color");
    QTest::newRow("unknown refusal") << QByteArray("\"refused_by\":\"circuit_breaker\"")
                                     << QByteArray("\"refused_by\":\"fuse\"") << QStringLiteral("refused_by");
    QTest::newRow("unknown refused state") << QByteArray("\"refused_state\":\"half-open\"")
                                           << QByteArray("\"refused_state\":\"shut\"") << QStringLiteral("refused_state");
    QTest::newRow("negative time left") << QByteArray("\"refused_retry_in_ms\":4321")
                                        << QByteArray("\"refused_retry_in_ms\":-4") << QStringLiteral("refused_retry_in_ms");
}

void TestSessionBreakers::damagedRefused()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, where);
    QByteArray json = written(breakerSession());
    QVERIFY2(json.contains(from), from.constData());
    json.replace(json.indexOf(from), from.size(), to);
    QString error;
    QVERIFY(!readBack(json, &error));
    QVERIFY2(error.contains(where), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestSessionBreakers)
#include "tst_sessionbreakers.moc"
