// SPDX-License-Identifier: GPL-3.0-or-later
// A latency ramp (issue 28 §4) as clients nobody here wrote feel it: Debian's curl 7.88 (--rate 10/s) and
// python3-urllib3 1.26 (a call every 100 ms) call the built-in scenario latency-ramp with its numbers scaled
// down (from 20 ms to 400 ms over 1 s instead of 2 s over 30 s). Each call's wait for the answer's head, on
// the client's own clock, must be the ramp's delay at the moment the lab received it (time since its first
// request), never less, and not much more; the last calls wait the ramp's end. Loose upper bounds: these
// run under the sanitizers two at a time too.
#include "lab/faultserver.h"
#include "lab/scenariocatalog.h"

#include "fixedrateclients.h"

#include <QFileInfo>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace fixedrate;
using std::chrono::milliseconds;

namespace {

constexpr int kCalls = 16;
constexpr int kIntervalMs = 100;
constexpr qint64 kSlackMs = 300; // above the ramp: the loopback round trip, a late timer, a busy machine

} // namespace

class TestClientLatencyRamp : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(kCurl).isExecutable(), "Debian's curl is not installed: run packaging/install-deps.sh");
        QProcess p;
        p.start(kPython, { u"-c"_s, u"import urllib3"_s });
        QVERIFY2(p.waitForFinished(30000) && p.exitCode() == 0,
            "Debian's python3-urllib3 is not installed: run packaging/install-deps.sh");
    }

    void delaysFollowTheRamp_data()
    {
        QTest::addColumn<QString>("client");
        QTest::newRow("curl 7.88, --rate 10/s over a URL glob") << u"curl"_s;
        QTest::newRow("python3-urllib3 1.26, a call every 100 ms") << u"urllib3"_s;
    }
    void delaysFollowTheRamp()
    {
        QFETCH(QString, client);

        ScenarioLoader::Result loaded = ScenarioCatalog::load(u"latency-ramp"_s);
        QVERIFY2(loaded.ok(), qPrintable(loaded.problemText()));
        FaultScenario scenario = *loaded.scenario;
        FaultStep& step = scenario.routes[0].steps[0];
        QVERIFY(step.latencyRamp.has_value());
        QCOMPARE(step.latencyRamp->from.count(), 20);
        QCOMPARE(step.latencyRamp->to.count(), 2000);
        QCOMPARE(step.latencyRamp->over.count(), 30000);
        const LatencyRamp ramp { milliseconds(20), milliseconds(400), milliseconds(1000), 0 }; // scaled down
        step.latencyRamp = ramp;

        FaultServer lab;
        QVERIFY(lab.start());
        lab.loadScenario(scenario);
        const Run run = client == u"curl"_s ? curlAtRate(lab.url(), kCalls, 1000 / kIntervalMs)
                                            : urllib3AtRate(lab.url(), kCalls, kIntervalMs);
        QVERIFY2(run.error.isEmpty(), qPrintable(run.error));
        QCOMPARE(lab.ledger().requestsReceived(), kCalls);
        const QList<LabExchange>& exchanges = lab.ledger().exchanges();
        QCOMPARE(exchanges.size(), kCalls);

        const qint64 firstPlay = exchanges.first().arrivedMs;
        bool reachedEnd = false;
        QStringList waits;
        for (int i = 0; i < kCalls; ++i) {
            const Call& call = run.calls[i];
            const LabExchange& x = exchanges[i];
            QCOMPARE(call.status, 200);
            QCOMPARE(x.target, "/orders/" + QByteArray::number(i + 1));
            const qint64 expected = ramp.delayAt(i + 1, milliseconds(x.arrivedMs - firstPlay)).count();
            const double waited = call.firstByteMs - call.startMs;
            waits << u"%1/%2"_s.arg(qRound(waited)).arg(expected);
            QVERIFY2(call.firstByteMs >= 0, qPrintable(u"call %1: no answer's head"_s.arg(i + 1)));
            QVERIFY2(waited >= expected - 3 && waited <= expected + kSlackMs,
                qPrintable(u"call %1, +%2 ms into the ramp: %3 waited %4 ms, the ramp says %5"_s.arg(i + 1)
                               .arg(x.arrivedMs - firstPlay)
                               .arg(client)
                               .arg(waited)
                               .arg(expected)));
            reachedEnd = reachedEnd || expected == ramp.to.count();
        }
        qInfo("%s, waited/ramp ms: %s", qPrintable(client), qPrintable(waits.join(u' ')));
        QVERIFY2(reachedEnd, "no call came after the ramp's end");
    }
};

QTEST_GUILESS_MAIN(TestClientLatencyRamp)
#include "tst_client_latencyramp.moc"
