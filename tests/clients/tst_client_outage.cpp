// SPDX-License-Identifier: GPL-3.0-or-later
// "An outage of 10 s under 20 calls a second is one click" (issue 28 §4), with clients nobody here wrote:
// Debian's curl 7.88 (--rate 20/s) and python3-urllib3 1.26 call the lab 20 times a second, one request a
// call, through the built-in scenario outage-10s with its numbers scaled down to keep the test short (20
// answers of 200 = 1 s at 20 a second, then an outage of 1 s). What they saw must be 200 before, the
// outage's 503 during, 200 after, the 21st call being the first 503; the outage must last 1 s by the lab's
// clock and, within the spacing of the calls, by the client's; and the lab must have counted exactly the
// requests the client made. Timing bounds are loose: these run under the sanitizers two at a time too.
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"

#include "fixedrateclients.h"

#include <QFileInfo>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace fixedrate;
using std::chrono::milliseconds;

namespace {

constexpr int kCalls = 60; // 3 s at 20 a second
constexpr int kPerSecond = 20;
constexpr int kIntervalMs = 1000 / kPerSecond;
constexpr int kBefore = 20; // answers of 200 before the outage: 1 s
constexpr qint64 kOutageMs = 1000;

} // namespace

class TestClientOutage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kCurl).isExecutable(), "Debian's curl is not installed: run packaging/install-deps.sh");
        QProcess p;
        p.start(kPython, { u"-c"_s, u"import urllib3; print(urllib3.__version__)"_s });
        QVERIFY2(p.waitForFinished(30000) && p.exitCode() == 0,
            "Debian's python3-urllib3 is not installed: run packaging/install-deps.sh");
    }

    void twentyCallsASecondThroughAnOutage_data()
    {
        QTest::addColumn<QString>("client");
        QTest::newRow("curl 7.88, --rate 20/s over a URL glob") << u"curl"_s;
        QTest::newRow("python3-urllib3 1.26, a call every 50 ms") << u"urllib3"_s;
    }
    void twentyCallsASecondThroughAnOutage()
    {
        QFETCH(QString, client);

        // The built-in scenario as shipped: 200 x 200, an outage step of 10 s (503), then 200 for good.
        ScenarioLoader::Result loaded = ScenarioCatalog::load(u"outage-10s"_s);
        QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
        FaultScenario scenario = *loaded.scenario;
        QCOMPARE(scenario.routes.size(), 1);
        QList<FaultStep>& steps = scenario.routes[0].steps;
        QCOMPARE(steps.size(), 3);
        QCOMPARE(steps[0].repeat, 200);
        QCOMPARE(steps[1].kind, FaultStep::Kind::Outage);
        QCOMPARE(steps[1].duration.count(), 10000);
        QCOMPARE(steps[1].status, 503);
        steps[0].repeat = kBefore; // scaled down: 1 s of answers, a 1 s outage
        steps[1].duration = milliseconds(kOutageMs);

        FaultServer lab;
        QVERIFY(lab.start());
        lab.loadScenario(scenario);
        const Run run = client == u"curl"_s ? curlAtRate(lab.url(), kCalls, kPerSecond)
                                            : urllib3AtRate(lab.url(), kCalls, kIntervalMs);
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error));
        QCOMPARE(run.calls.size(), kCalls);

        // What the client saw: 200 x 20, then one block of 503s (the 21st call starts the outage), then 200.
        QString seen;
        for (const Call& c : run.calls)
            seen += c.status == 200 ? u'.' : c.status == 503 ? u'X' : u'?';
        qInfo("%s: %s", qPrintable(client), qPrintable(seen));
        static const QRegularExpression shape(u"^\\.{20}(X+)\\.+$"_s);
        const QRegularExpressionMatch m = shape.match(seen);
        QVERIFY2(m.hasMatch(), qPrintable(seen));
        const int failed = int(m.capturedLength(1));
        QVERIFY2(
            failed >= 10 && failed <= 30, qPrintable(u"%1 calls failed in a 1 s outage at 20 a second"_s.arg(failed)));

        // The lab heard exactly the calls made, and says when the outage began and ended.
        const LabLedger& ledger = lab.ledger();
        QCOMPARE(ledger.requestsReceived(), kCalls);
        QCOMPARE(ledger.exchangesRecorded(), qint64(kCalls));
        QCOMPARE(ledger.outages().size(), 1);
        const LabOutage& outage = ledger.outages().first();
        QCOMPARE(outage.cause, u"step"_s);
        QVERIFY(outage.untilMs.has_value());
        QCOMPARE(*outage.untilMs - outage.fromMs, kOutageMs);
        QCOMPARE(outage.requestsFailed, failed);
        const QList<LabExchange>& exchanges = ledger.exchanges();
        QCOMPARE(exchanges.size(), kCalls);
        QCOMPARE(exchanges[kBefore].target, "/orders/21"_ba);
        QVERIFY2(
            outage.fromMs - exchanges[kBefore].arrivedMs >= 0 && outage.fromMs - exchanges[kBefore].arrivedMs <= 50,
            qPrintable(u"the outage began at %1 ms, its first request arrived at %2 ms"_s.arg(outage.fromMs)
                           .arg(exchanges[kBefore].arrivedMs)));
        // By the lab's clock: a request is failed when it is played inside [from, until), answered 200 otherwise.
        // Its exchange is stamped when its head arrived, a millisecond or two before it was played: near
        // either end, either answer is right.
        for (const LabExchange& x : exchanges) {
            if (std::abs(x.arrivedMs - outage.fromMs) <= 5 || std::abs(x.arrivedMs - *outage.untilMs) <= 5)
                continue;
            const bool inside = x.arrivedMs >= outage.fromMs && x.arrivedMs < *outage.untilMs;
            QVERIFY2(x.status == (inside ? 503 : 200),
                qPrintable(u"%1 arrived at %2 ms (outage %3..%4 ms): %5"_s.arg(QString::fromLatin1(x.target))
                               .arg(x.arrivedMs)
                               .arg(outage.fromMs)
                               .arg(*outage.untilMs)
                               .arg(x.status)));
        }

        QCOMPARE(int(std::count_if(
                     exchanges.cbegin(), exchanges.cend(), [](const LabExchange& x) { return x.status == 503; })),
            failed);

        // By the client's clock: from the call that got the first 503 to the first call answered 200 again is
        // the outage, give or take the spacing of the calls (each call starts a little before it arrives).
        const Call& first = run.calls[kBefore];
        const Call& last = run.calls[kBefore + failed - 1];
        const Call& back = run.calls[kBefore + failed];
        const double lastIn = last.startMs - first.startMs;
        const double backAfter = back.startMs - first.startMs;
        qInfo("%s: the outage seen from %.1f ms to between %.1f and %.1f ms after its first call", qPrintable(client),
            first.startMs, lastIn, backAfter);
        QVERIFY2(lastIn <= kOutageMs + 50, qPrintable(u"a 503 %1 ms after the first"_s.arg(lastIn)));
        QVERIFY2(backAfter >= kOutageMs - 50 && backAfter <= kOutageMs + kIntervalMs + 400,
            qPrintable(u"200 again %1 ms after the first 503"_s.arg(backAfter)));
        // And the calls came at about 20 a second throughout.
        const double span = run.calls.last().startMs - run.calls.first().startMs;
        QVERIFY2(span >= (kCalls - 1) * kIntervalMs * 0.9 && span <= (kCalls - 1) * kIntervalMs * 1.6,
            qPrintable(u"%1 calls over %2 ms"_s.arg(kCalls).arg(span)));
    }
};

QTEST_GUILESS_MAIN(TestClientOutage)
#include "tst_client_outage.moc"
