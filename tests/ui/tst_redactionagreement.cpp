// SPDX-License-Identifier: GPL-3.0-or-later
// Every user of the secret-header list agrees with it (issue 11 §5: X-Refresh-Token was redacted in exports
// and shown in clear in the detail pane). For each header name, sent as a request header and received as a
// response header: the engine marks it, the attempt store keeps the mark, the Redactor, the session JSON,
// the journal, the HAR and CSV exports, "copy as curl", the v0 attempt log and the Attempts detail pane all
// hide its value exactly when core/http says it is secret.
#include "run/attemptdetailpane.h"

#include "engine/requestheaders.h"
#include "http/secretheaders.h"
#include "session/export/curlcommand.h"
#include "session/export/sessionexport.h"
#include "session/format/sessionfile.h"
#include "session/journal/sessionjournal.h"

#include <QApplication>
#include <QBuffer>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

Session sessionWith(const QByteArray& name, const QByteArray& value)
{
    RequestSpec spec;
    spec.method = u"GET"_s;
    spec.url = QUrl(u"http://127.0.0.1:8080/v1/x"_s);
    spec.headers = { { name, value } };
    RunRecord run;
    run.runId = 1;
    run.request = spec;
    run.outcome = FinalKind::Success;
    run.startedAt = MonoTime(1000000);
    run.finishedAt = MonoTime(9000000);
    AttemptRecord a;
    a.runId = 1;
    a.index = 1;
    a.at.started = MonoTime(1000000);
    a.at.finished = MonoTime(9000000);
    a.phaseReached = AttemptPhase::Finished;
    a.method = spec.method;
    a.url = spec.url;
    a.requestHeaders = buildRequestHeaders(spec, RetryPolicy(), spec.url, QString(), QString(), QByteArray());
    a.status = 200;
    a.reasonPhrase = u"OK"_s;
    a.responseHeaders = { { name, value } };
    RetryDecision d;
    d.verdict = Verdict::Success;
    d.finalKind = FinalKind::Success;
    d.reason = u"200 is a success"_s;
    a.decision = d;
    run.attempts = { a };
    Session s;
    s.redaction.salt = "00112233";
    s.addRun(run);
    return s;
}

} // namespace

class TestRedactionAgreement : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyUserAgrees_data()
    {
        QTest::addColumn<QByteArray>("name");
        const QByteArray names[] = { "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key",
            "X-Auth-Token", "X-Refresh-Token", "X-Client-Secret", "Api-Password", "X-Request-Id", "Accept-Language",
            "X-Custom-Header" };
        for (const QByteArray& n : names)
            QTest::addRow("%s", n.constData()) << n;
    }

    void everyUserAgrees()
    {
        QFETCH(QByteArray, name);
        const QByteArray value = "v4lue-" + name.toLower() + "-0451";
        const bool secret = isSecretHeader(name);
        const auto hidden = [&](const QByteArray& text) { return !text.contains(value); };

        const Session session = sessionWith(name, value);
        const AttemptRecord record = session.attempt(0, 0);
        // The engine's mark, kept through the attempt store.
        bool marked = false;
        for (const SentHeader& h : record.requestHeaders)
            marked |= h.name == name && h.secret;
        QCOMPARE(marked, secret);

        const Redactor redactor = SessionExport::redactorFor(session, true);
        QCOMPARE(redactor.isSecretHeader(name), secret);
        QCOMPARE(Redactor::isRedacted(redactor.header(name, value)), secret);

        // Session JSON, HAR, CSV (CSV has no header columns: a secret must just not be in it).
        QTemporaryDir dir;
        for (const SessionExport::Format f : { SessionExport::Format::Json, SessionExport::Format::Har, SessionExport::Format::Csv }) {
            const QString path = dir.filePath(u"export"_s);
            QString error;
            QVERIFY2(SessionExport::save(session, f, redactor, path, {}, &error), qPrintable(error));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            if (f == SessionExport::Format::Csv)
                QVERIFY(!secret || hidden(file.readAll()));
            else
                QCOMPARE(hidden(file.readAll()), secret);
        }
        // The journal written while a session is recorded.
        {
            const QString path = dir.filePath(u"journalled.json"_s);
            SessionJournal journal;
            QString error;
            QVERIFY2(journal.open(path, session, &error), qPrintable(error));
            journal.writeRequest(0, session.requests.at(0));
            journal.writeAttempt(session.attempts, session.attempts.packed(0));
            journal.close();
            QFile file(SessionJournal::pathFor(path));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(hidden(file.readAll()), secret);
        }
        // Copy as curl (`run --json` and `--export` write the session format, checked above).
        QCOMPARE(hidden(CurlCommand::forAttempt(session, 0, redactor).toUtf8()), secret);

        // The window's detail pane, request and response sides.
        AttemptDetailPane pane;
        pane.showAttempt(record);
        QCOMPARE(hidden(pane.toPlainText().toUtf8()), secret);
        QVERIFY(pane.toPlainText().contains(QString::fromLatin1(name)));
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestRedactionAgreement test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_redactionagreement.moc"
