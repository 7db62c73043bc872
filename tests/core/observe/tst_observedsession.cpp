// SPDX-License-Identifier: GPL-3.0-or-later
// Observed runs in a session (core/observe/observationrecorder.h, observedrecords.h): they go into the
// same store as the engine's, keep their grouping and each attempt's wait and ask through a save and a
// load, through a journal's recovery, and in the CSV and HAR exports.
#include "observe/observationrecorder.h"

#include "session/export/sessionexport.h"
#include "session/format/sessionfile.h"
#include "session/journal/sessionjournal.h"
#include "support/manualclock.h"

#include "exchangebuilder.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using B = ExchangeBuilder;

namespace {

// Two clients: one numbered its attempts (503 with Retry-After: 1, then 200), one did not (reset, 200).
QList<LabExchange> traffic()
{
    return { B(1, 0, 100).header("x-stainless-retry-count", "0").status(503).answer("Retry-After", "1"),
        B(2, 20).client(u"127.0.0.2"_s).target("/v1/other").reset(),
        B(3, 400).client(u"127.0.0.2"_s).target("/v1/other"),
        B(4, 1350).header("x-stainless-retry-count", "1") };
}

void checkObserved(const Session& s)
{
    QCOMPARE(s.runs.size(), 2);
    QCOMPARE(s.attemptCount(), 4);
    const RunRecord first = s.runRecord(0);
    QVERIFY(first.observed);
    QCOMPARE(first.observed->rule, u"attempt-header"_s);
    QVERIFY(!first.observed->heuristic);
    QCOMPARE(first.attempts.size(), 2);
    QVERIFY(first.attempts.at(0).observed);
    QVERIFY(!first.attempts.at(0).observed->clientWait);
    QVERIFY(!first.attempts.at(0).decision); // nobody here decided anything
    const ObservedAttemptFacts second = *first.attempts.at(1).observed;
    QCOMPARE(std::chrono::duration_cast<Millis>(*second.clientWait).count(), 1250); // 1350 − (0 + 100)
    QCOMPARE(second.askedFor, std::optional<Millis>(Millis(1000)));
    QCOMPARE(second.askedBy, u"retry-after"_s);
    QCOMPARE(second.exchange, quint64(4));
    QCOMPARE(first.outcome, FinalKind::Success);
    QCOMPARE(first.attempts.at(0).status, std::optional<int>(503));

    const RunRecord other = s.runRecord(1);
    QVERIFY(other.observed);
    QCOMPARE(other.observed->rule, u"fingerprint"_s);
    QVERIFY(other.observed->heuristic);
    QCOMPARE(other.attempts.size(), 2);
    QCOMPARE(other.attempts.at(0).error, std::optional<ErrorClass>(ErrorClass::ConnectionLost));
    QCOMPARE(std::chrono::duration_cast<Millis>(*other.attempts.at(1).observed->clientWait).count(), 379); // 400 − 21
}

} // namespace

class TestObservedSession : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void savesAndLoads()
    {
        RecordOptions options;
        options.wallOrigin = QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);
        InferenceOptions inference;
        inference.wallOrigin = options.wallOrigin;
        const Session original = ObservationRecorder::sessionOf(RetryInference::infer(traffic(), inference), options, u"import"_s);
        checkObserved(original);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"observed.json"_s);
        QString error;
        QVERIFY2(SessionFile::save(original, path, {}, &error), qPrintable(error));
        const std::unique_ptr<Session> back = SessionFile::open(path, {}, &error);
        QVERIFY2(back, qPrintable(error));
        checkObserved(*back);
        QCOMPARE(back->meta.source, u"import"_s);
        QCOMPARE(back->runs.at(0).policy, qsizetype(-1)); // a client's run: no policy of ours
    }

    void liveRecordingJournalsAndRecovers()
    {
        ManualClock clock;
        QTemporaryDir dir;
        const QString path = dir.filePath(u"live.json"_s);
        QString error;
        {
            ObservationRecorder recorder(clock);
            QVERIFY2(recorder.journalTo(path, &error), qPrintable(error));
            // What a batch says, for views that follow the session: each run's facts so far (still open) before
            // each of its attempts, the attempt as the row it was stored at, the runs' final facts at finish().
            QList<qsizetype> rows;
            QList<FinalKind> open;
            int finished = 0;
            connect(&recorder, &ObservationRecorder::attemptStored, this, [&](qsizetype row) { rows << row; });
            connect(&recorder, &ObservationRecorder::runStarted, this, [&](const RunSummary& r) {
                QCOMPARE(recorder.session().attemptCount(), qsizetype(rows.size())); // before its attempt
                open << r.outcome;
            });
            connect(&recorder, &ObservationRecorder::runFinished, this, [&](const RunSummary& r) {
                QVERIFY(r.outcome != FinalKind::None);
                ++finished;
            });
            for (const LabExchange& e : traffic())
                recorder.addExchange(e);
            QCOMPARE(rows, (QList<qsizetype> { 0, 1, 2, 3 }));
            QCOMPARE(open, QList<FinalKind>(4, FinalKind::None));
            QCOMPARE(finished, 0);
            checkObserved(recorder.session());
            // Killed here: the journal is all there is.
            SessionJournal::Info info;
            const std::unique_ptr<Session> recovered = SessionJournal::recover(SessionJournal::pathFor(path), &info, &error);
            QVERIFY2(recovered, qPrintable(error));
            QVERIFY2(info.problems.isEmpty(), qPrintable(info.problems.join(u'\n')));
            QCOMPARE(recovered->attemptCount(), 4);
            QVERIFY(recovered->runRecord(0).observed);
            QCOMPARE(recovered->runRecord(1).observed->rule, u"fingerprint"_s);
            QVERIFY2(recorder.save(&error), qPrintable(error));
            QCOMPARE(finished, int(recorder.session().runs.size()));
        }
        QVERIFY(!QFile::exists(SessionJournal::pathFor(path)));
        const std::unique_ptr<Session> saved = SessionFile::open(path, {}, &error);
        QVERIFY2(saved, qPrintable(error));
        checkObserved(*saved);
        QCOMPARE(saved->meta.source, u"observe"_s);
    }

    void exportsSayObserved()
    {
        RecordOptions options;
        options.wallOrigin = QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);
        const Session s = ObservationRecorder::sessionOf(RetryInference::infer(traffic()), options, u"import"_s);
        const Redactor redactor = SessionExport::redactorFor(s, true);
        QBuffer har;
        QVERIFY(har.open(QIODevice::WriteOnly));
        QVERIFY2(SessionExport::writeHar(s, redactor, har, {}), "har");
        const QJsonArray entries = QJsonDocument::fromJson(har.data()).object().value(u"log"_s).toObject().value(u"entries"_s).toArray();
        QCOMPARE(entries.size(), 4);
        const QJsonObject retry = entries.at(1).toObject();
        QCOMPARE(retry.value(u"_decision"_s).toString(), u"observed"_s);
        QCOMPARE(retry.value(u"_clientWaitMs"_s).toDouble(), 1250.0);
        QCOMPARE(retry.value(u"_askedBy"_s).toString(), u"retry-after"_s);
        QCOMPARE(retry.value(u"_grouping"_s).toObject().value(u"rule"_s).toString(), u"attempt-header"_s);
        QBuffer csv;
        QVERIFY(csv.open(QIODevice::WriteOnly));
        QVERIFY2(SessionExport::writeCsv(s, redactor, csv, {}), "csv");
        const QList<QByteArray> lines = csv.data().trimmed().replace('\r', QByteArray()).split('\n');
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines.first().endsWith("client_wait_ms,asked_for_ms,asked_by,grouping"));
        QVERIFY2(lines.at(2).endsWith(",1250.000,1000,retry-after,attempt-header"), lines.at(2).constData());
        QVERIFY2(lines.at(4).endsWith(",fingerprint (heuristic)"), lines.at(4).constData());
    }
};

QTEST_GUILESS_MAIN(TestObservedSession)
#include "tst_observedsession.moc"
