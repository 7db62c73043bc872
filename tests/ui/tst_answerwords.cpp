// SPDX-License-Identifier: GPL-3.0-or-later
// The words for an answer (issue 15 item 8): an HTTP answer reads as status and reason, not as Qt's error
// text about it; a Retry-After the policy did not read is said; and the detail pane uses those words.
#include "run/answerwords.h"
#include "run/attemptdetailpane.h"

#include "engine/attemptrecord.h"

#include <QApplication>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

AttemptRecord answered(int status, const QString& reason)
{
    AttemptRecord a;
    a.runId = 1;
    a.status = status;
    a.reasonPhrase = reason;
    a.qtError = u"Error transferring http://127.0.0.1:8080/x - server replied: %1"_s.arg(reason);
    a.qtErrorCode = 299;
    RetryDecision d;
    d.verdict = Verdict::Retry;
    d.delay = Millis(400);
    d.source = DelaySource::Backoff;
    d.reason = u"429 on GET is retried"_s;
    a.decision = d;
    return a;
}

RetryAfterValue retryAfter(qint64 ms, const char* raw)
{
    RetryAfterValue v;
    v.delay = Millis(ms);
    v.raw = raw;
    v.source = u"retry-after"_s;
    return v;
}

} // namespace

class TestAnswerWords : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void anAnswerIsAnAnswer()
    {
        const AttemptRecord a = answered(429, u"Too Many Requests"_s);
        QCOMPARE(AnswerWords::answer(a), u"429 Too Many Requests"_s);
        QVERIFY(AnswerWords::transportError(a).isEmpty());
        AttemptDetailPane pane;
        pane.showAttempt(a);
        QVERIFY(pane.toPlainText().contains(u"429 Too Many Requests"_s));
        QVERIFY2(!pane.toPlainText().contains(u"Error transferring"_s), qPrintable(pane.toPlainText()));
    }

    void aTransportFailureIsOne()
    {
        AttemptRecord a;
        a.error = ErrorClass::ConnectionLost;
        a.qtError = u"Connection closed"_s;
        QCOMPARE(AnswerWords::answer(a), u"connection-lost: Connection closed"_s);
        QCOMPARE(AnswerWords::transportError(a), u"Connection closed"_s);
        a.status = 200; // the head arrived, the body did not
        QVERIFY(AnswerWords::answer(a).startsWith(u"200"_s));
        AttemptRecord none;
        none.abortReason = AbortReason::Cancelled;
        QVERIFY(AnswerWords::answer(none).startsWith(u"no answer"_s));
    }

    void anUnreadRetryAfterIsSaid()
    {
        AttemptRecord a = answered(429, u"Too Many Requests"_s);
        a.retryAfter = retryAfter(2000, "2");
        const QString note = AnswerWords::unreadRetryAfter(a);
        QVERIFY2(note.contains(u"retry-after: 2"_s) && note.contains(u"does not read it"_s) && note.contains(u"400 ms"_s), qPrintable(note));
        AttemptDetailPane pane;
        pane.showAttempt(a);
        QVERIFY(pane.toPlainText().contains(u"does not read it"_s));
        // Read (the server asked for it), or none sent: nothing to say.
        a.decision->serverAskedFor = Millis(2000);
        QVERIFY(AnswerWords::unreadRetryAfter(a).isEmpty());
        AttemptRecord plain = answered(503, u"Service Unavailable"_s);
        QVERIFY(AnswerWords::unreadRetryAfter(plain).isEmpty());
        a.decision->serverAskedFor.reset();
        a.decision->verdict = Verdict::Stop;
        QVERIFY(AnswerWords::unreadRetryAfter(a).contains(u"does not read it."_s));
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    TestAnswerWords test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_answerwords.moc"
