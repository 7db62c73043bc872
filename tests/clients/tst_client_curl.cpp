// SPDX-License-Identifier: GPL-3.0-or-later
// Debian 12's curl (7.88.1) with `--retry 3`, observed through the lab by `retrylab observe` (issue 12 §5).
// curl sends no attempt header (src/tool_operate.c), so its retries are told by the fingerprint rule, a
// heuristic; its waits follow its documented formula (curl(1) --retry: "curl will by default wait one second
// before the first retry and then double the waiting time for each following retry"; a Retry-After is slept
// instead, and in 7.88 the doubling goes on behind it — tests/core/policy/tst_curlretrywaits.cpp).
#include "observeclient.h"

#include <QStandardPaths>

using namespace Qt::StringLiterals;
using namespace clienttest;

class TestClientCurl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"curl"_s).isEmpty())
            QFAIL("curl is not installed: run packaging/install-deps.sh");
    }

    void retries_data()
    {
        QTest::addColumn<QJsonArray>("steps");
        QTest::addColumn<QList<qint64>>("waits"); // the formula's, per retry
        QTest::addColumn<qint64>("asked"); // what the first failed answer asked for; -1: nothing

        QTest::addRow("three 503s: 1, 2, 4 s") << QJsonArray { status(503), status(503), status(503) } << QList<qint64> { 1000, 2000, 4000 }
                                              << qint64(-1);
        QTest::addRow("503 with Retry-After: 2, then 503: 2 s, then the doubled 2 s")
            << QJsonArray { status(503, u"2"_s), status(503) } << QList<qint64> { 2000, 2000 } << qint64(2000);
    }
    void retries()
    {
        QFETCH(QJsonArray, steps);
        QFETCH(QList<qint64>, waits);
        QFETCH(qint64, asked);
        const Observed o = observe(scenario(u"/retry"_s, steps),
            { u"sh"_s, u"-c"_s, u"exec curl -sS --retry 3 -o /dev/null \"$RETRYLAB_URL/retry\""_s });
        QVERIFY2(o.finished, o.err.constData());
        QVERIFY2(o.exitCode == 0, o.err.constData()); // curl's own status: the last answer was a 200
        QCOMPARE(o.attempts.size(), waits.size() + 1);
        QStringList expectedRuns;
        QStringList expectedRules;
        for (qsizetype i = 0; i <= waits.size(); ++i) {
            expectedRuns << u"1.%1"_s.arg(i + 1);
            expectedRules << u"fingerprint?"_s;
        }
        QCOMPARE(o.runs(), expectedRuns.join(u' ')); // one logical request
        QCOMPARE(o.rules(), expectedRules.join(u',')); // by the heuristic, and labelled so
        QCOMPARE(o.summary.value(u"retries"_s).toInt(), int(waits.size()));
        QCOMPARE(o.attempts.last().value(u"status"_s).toInt(), 200);
        QString why;
        QVERIFY2(waitsWithin(o, waits, &why), qPrintable(why));
        qInfo("curl waits: %s", qPrintable(why));
        const QJsonValue askedFor = o.attempts.at(1).value(u"asked_for_ms"_s);
        if (asked < 0)
            QVERIFY(askedFor.isNull());
        else
            QCOMPARE(qint64(askedFor.toDouble()), asked);
    }

    void twoRequestsAreTwoRuns()
    {
        // A success is not retried: the same URL fetched twice after a 200 is two logical requests.
        const Observed o = observe(scenario(u"/retry"_s, {}),
            { u"sh"_s, u"-c"_s, u"curl -sS -o /dev/null \"$RETRYLAB_URL/retry\" && curl -sS -o /dev/null \"$RETRYLAB_URL/retry\""_s });
        QVERIFY2(o.finished && o.exitCode == 0, o.err.constData());
        QCOMPARE(o.runs(), u"1.1 2.1"_s);
    }

    void exitStatusIsTheCommands()
    {
        // curl --fail on a 503 it is not told to retry: exit 22, passed through.
        const Observed o = observe(scenario(u"/retry"_s, { status(503) }),
            { u"sh"_s, u"-c"_s, u"exec curl -sS --fail -o /dev/null \"$RETRYLAB_URL/retry\""_s });
        QVERIFY(o.finished);
        QCOMPARE(o.exitCode, 22);
        QCOMPARE(o.attempts.size(), 1);
        QCOMPARE(o.summary.value(u"exit"_s).toInt(), 22);
    }
};

QTEST_GUILESS_MAIN(TestClientCurl)
#include "tst_client_curl.moc"
