// SPDX-License-Identifier: GPL-3.0-or-later
// The lab as a reverse proxy under abuse (issue 14 §3), on loopback, bounded in time and count.
// `retrylab serve --upstream` runs as its own process in front of Python's http.server
// (tests/data/upstream/upstream_server.py); a second one forwards to a closed port. While a well-behaved
// client (a thread with plain blocking sockets) measures its latency through the proxy to /echo, the test
// sends, in waves of tens at once: requests whose upstream refuses, resets, hangs past the timeout, answers
// garbage, streams a body without end or trickles one a byte at a time for ever; clients that vanish while
// their request is at the upstream; idle connections; a large body that fits and one over the lab's limit.
// Checked: each is answered with its status and X-Retrylab-Upstream-Error; the well-behaved client never
// fails; the proxy sent each request upstream exactly once (the Python side counts them); the proxies do
// not crash and exit cleanly; their file descriptors (upstream sockets included) return to the baseline;
// the proxy's peak RSS stays bounded. The figures are printed for the closing note.
#include "labprocess.h"
#include "abusesupport.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTemporaryDir>

#include <sys/resource.h>

#include <algorithm>
#include <map>
#include <thread>

using namespace Qt::StringLiterals;
using namespace Abuse;

namespace {

// The answer body the proxy keeps (--upstream-max-body): an endless answer is cut there.
constexpr qint64 kMaxBody = 1 << 20;
constexpr int kWaves = 2;
constexpr int kPerWave = 20; // of each kind
constexpr int kVanishPerWave = 10;

struct Kind
{
    const char* name;
    const char* path;
    bool refusing; // sent to the proxy whose upstream is a closed port
    int status;
    QByteArray error; // X-Retrylab-Upstream-Error; or, for a streamed answer, why the lab cut it
    bool streamed = false; // the head (200) went out before the limit broke: the answer is cut, not a 502/504
};

const Kind kKinds[] = {
    { "refused", "/echo?refused", true, 502, "refused" },
    { "reset", "/reset?n", false, 502, "reset" },
    { "hang", "/hang?n", false, 504, "timeout" },
    { "garbage", "/garbage?n", false, 502, "garbage" },
    // A plain forward streams (scenario-format.md, Forwarding): past the max body or the timeout, the answer
    // is cut after its head — the chunked body never gets its last chunk.
    { "endless", "/endless?n", false, 200, "too_large", true },
    { "trickle", "/trickle?n", false, 200, "timeout", true },
};

const char kScenario[] = R"({"format":1,"name":"proxy-abuse","description":"issue 14: the proxy under abuse",
 "limits":{"header_timeout_ms":2000,"request_timeout_ms":3000,"idle_timeout_ms":3000,"forward_body_bytes":2097152},
 "routes":[{"path":"ANY","steps":[{"kind":"forward","repeat":"forever"}]}]})"; // ANY: see tst_lababuse

} // namespace

class TestProxyAbuse : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        rlimit files {};
        getrlimit(RLIMIT_NOFILE, &files);
        files.rlim_cur = std::min<rlim_t>(files.rlim_max, 8192);
        setrlimit(RLIMIT_NOFILE, &files);
        QVERIFY(m_dir.isValid());
        QVERIFY(m_python.start());
        quint16 closedPort = 0;
        {
            QTcpServer probe; // a port nobody listens on: bound, then closed
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            closedPort = probe.serverPort();
        }
        QFile scenario(m_dir.filePath(u"proxy.json"_s));
        QVERIFY(scenario.open(QIODevice::WriteOnly));
        scenario.write(QByteArray(kScenario).replace("ANY", "/" "**"));
        scenario.close();
        const QStringList common { u"--upstream-timeout"_s, u"2"_s, u"--upstream-max-body"_s, QString::number(kMaxBody) };
        QVERIFY2(m_proxy.start(scenario.fileName(), QStringList { u"--upstream"_s, u"http://127.0.0.1:%1"_s.arg(m_python.port()) } + common),
            qPrintable(m_proxy.lines().join(u'\n')));
        QVERIFY2(m_refusing.start(scenario.fileName(), QStringList { u"--upstream"_s, u"http://127.0.0.1:%1"_s.arg(closedPort) } + common),
            qPrintable(m_refusing.lines().join(u'\n')));
        QTest::qWait(300);
        m_baselineFds = m_proxy.openFds();
        m_refusingBaselineFds = m_refusing.openFds();
        m_baselineRssKb = m_proxy.memoryKb("VmRSS:");
    }

    void storm()
    {
        Prober prober; // through the proxy
        prober.port = m_proxy.port();
        prober.target = "/echo?p";
        Prober direct; // straight to the upstream: what the upstream itself adds under the same load
        direct.port = m_python.port();
        direct.target = "/echo?d";
        std::thread probe([&prober] { prober.run(); });
        std::thread probeDirect([&direct] { direct.run(); });
        const auto finishProbe = [&] {
            prober.stop = true;
            direct.stop = true;
            if (probe.joinable())
                probe.join();
            if (probeDirect.joinable())
                probeDirect.join();
        };
        const auto guard = qScopeGuard(finishProbe);
        QTest::qWait(2000); // the baseline latency
        prober.phase = 1;
        direct.phase = 1;
        QElapsedTimer storm;
        storm.start();

        std::vector<std::unique_ptr<Raw>> idle; // connected, never a byte: the idle timeout (3 s) closes them
        for (int i = 0; i < 20; ++i)
            idle.push_back(std::make_unique<Raw>(m_proxy.port()));
        // A body that fits goes upstream whole (streamed); one whose Content-Length is over the forwarded-body
        // limit (forward_body_bytes, 2 MiB here) is not streamed, and over body_bytes (1 MiB) it is refused 413.
        const QByteArray fits(768 * 1024, 'f');
        Raw big(m_proxy.port(), post("/echo?big", fits, fits.size()));
        Raw over(m_proxy.port(), post("/echo?over", QByteArray(1024, 'o'), 4 << 20)); // the head is enough to refuse

        std::map<QByteArray, std::vector<std::unique_ptr<Raw>>> sent;
        std::vector<std::unique_ptr<Raw>> vanished;
        for (int wave = 0; wave < kWaves; ++wave) {
            if (wave > 0)
                QTest::qWait(1500);
            for (const Kind& kind : kKinds) {
                const quint16 port = kind.refusing ? m_refusing.port() : m_proxy.port();
                for (int i = 0; i < kPerWave; ++i)
                    sent[kind.name].push_back(std::make_unique<Raw>(port, get(kind.path)));
            }
            // Gone while the upstream is still on it: half with a FIN, half with an RST.
            for (int i = 0; i < kVanishPerWave; ++i) {
                auto raw = std::make_unique<Raw>(m_proxy.port(), get(i % 2 ? "/hang?vanish" : "/trickle?vanish"));
                QTcpSocket* s = raw->socket.get();
                QTimer::singleShot(500, s, [s, i] { i % 4 < 2 ? s->abort() : s->disconnectFromHost(); });
                vanished.push_back(std::move(raw));
            }
        }

        const auto allClosed = [](const std::vector<std::unique_ptr<Raw>>& raws) {
            return std::all_of(raws.cbegin(), raws.cend(), [](const auto& r) { return r->closed; });
        };
        for (const Kind& kind : kKinds)
            QTRY_VERIFY_WITH_TIMEOUT(allClosed(sent[kind.name]), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(big.closed && over.closed && allClosed(vanished), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(allClosed(idle), 20000);
        const qint64 stormMs = storm.elapsed();
        finishProbe();

        // Each answered with the lab's own 502/504 naming what went wrong.
        QStringList perKind;
        for (const Kind& kind : kKinds) {
            for (const auto& r : sent[kind.name]) {
                const QByteArray what = QByteArray(kind.name) + ": " + r->got.left(300);
                QVERIFY2(r->status() == kind.status, what.constData());
                if (kind.streamed) {
                    QVERIFY2(r->header("Transfer-Encoding") == "chunked", what.constData());
                    QVERIFY2(!r->got.endsWith("\r\n0\r\n\r\n"), what.constData()); // cut: no last chunk
                    continue;
                }
                QVERIFY2(r->header("X-Retrylab-Upstream-Error") == kind.error, what.constData());
                const QJsonObject body = QJsonDocument::fromJson(r->body()).object();
                QVERIFY2(body.value(u"error"_s).toString() == u"upstream_"_s + QString::fromLatin1(kind.error), what.constData());
            }
            perKind << u"%1 %2 → %3 %4"_s.arg(QString::fromLatin1(kind.name)).arg(sent[kind.name].size()).arg(kind.status).arg(QString::fromLatin1(kind.error));
        }
        QVERIFY2(big.status() == 200, big.got.left(300).constData());
        const QJsonObject echoed = QJsonDocument::fromJson(big.body()).object();
        QCOMPARE(echoed.value(u"body_size"_s).toInt(), fits.size());
        QCOMPARE(echoed.value(u"body_sha256"_s).toString().toLatin1(), QCryptographicHash::hash(fits, QCryptographicHash::Sha256).toHex());
        QVERIFY2(over.status() == 413, over.got.left(300).constData());
        QVERIFY2(prober.failures == 0, prober.lastFailure.constData());

        // Exactly one upstream request per client request: the proxy never retried on its own.
        for (const Kind& kind : kKinds) {
            if (!kind.refusing)
                QTRY_COMPARE(m_python.received(kind.path), int(sent[kind.name].size()));
        }
        QTRY_COMPARE(m_python.received("/echo?p"), prober.sent.load());
        QTRY_COMPARE(m_python.received("/echo?d"), direct.sent.load());
        QTRY_COMPARE(m_python.received("/echo?big"), 1);
        QCOMPARE(m_python.received("/echo?refused"), 0);
        QCOMPARE(m_python.received("/echo?over"), 0);
        const int vanishedUp = m_python.received("/hang?vanish") + m_python.received("/trickle?vanish");
        QVERIFY2(vanishedUp <= int(vanished.size()) && vanishedUp >= int(vanished.size()) / 2, QByteArray::number(vanishedUp).constData());
        QTest::qWait(300);
        for (const Kind& kind : kKinds) {
            if (!kind.refusing)
                QCOMPARE(m_python.received(kind.path), int(sent[kind.name].size()));
        }

        QVERIFY(m_proxy.running());
        QVERIFY(m_refusing.running());
        // Everything closed, upstream sockets included: the descriptors return to the baseline.
        idle.clear();
        vanished.clear();
        sent.clear();
        QTRY_VERIFY_WITH_TIMEOUT(m_proxy.openFds() <= m_baselineFds, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(m_refusing.openFds() <= m_refusingBaselineFds, 20000);

        const double baseP50 = percentile(prober.samples[0], 0.5);
        const double baseP99 = percentile(prober.samples[0], 0.99);
        const double abuseP50 = percentile(prober.samples[1], 0.5);
        const double abuseP99 = percentile(prober.samples[1], 0.99);
        const long peakKb = m_proxy.memoryKb("VmHWM:");
        qInfo("well-behaved client through the proxy: %lld requests before, %lld under abuse (%lld ms of abuse)",
            qint64(prober.samples[0].size()), qint64(prober.samples[1].size()), stormMs);
        qInfo("latency ms: before p50 %.2f p99 %.2f; under abuse p50 %.2f p99 %.2f; p99 added %.2f (goal <= 50)",
            baseP50, baseP99, abuseP50, abuseP99, abuseP99 - baseP99);
        qInfo("the upstream alone (no proxy): before p50 %.2f p99 %.2f; under abuse p50 %.2f p99 %.2f (%d failures)",
            percentile(direct.samples[0], 0.5), percentile(direct.samples[0], 0.99), percentile(direct.samples[1], 0.5),
            percentile(direct.samples[1], 0.99), direct.failures.load());
        // The storm's requests are forwarded (that is the proxy's job), so the upstream slows down too; what the
        // proxy itself adds is the through-proxy p99 over the upstream's own p99 in the same storm.
        qInfo("p99 under abuse, through the proxy over the upstream alone: %.2f ms (goal <= 50)",
            abuseP99 - percentile(direct.samples[1], 0.99));
        qInfo("answered: %s; vanished clients %lld (%d reached the upstream)", qPrintable(perKind.join(u", "_s)),
            qint64(kWaves * kVanishPerWave), vanishedUp);
        qInfo("proxy: peak RSS %ld KiB (baseline RSS %ld KiB, --upstream-max-body %lld); fds baseline %d, after %d; "
              "refusing proxy fds baseline %d, after %d; crashes 0",
            peakKb, m_baselineRssKb, kMaxBody, m_baselineFds, m_proxy.openFds(), m_refusingBaselineFds, m_refusing.openFds());
        QVERIFY(prober.samples[1].size() >= 20);
        // Generous for a loaded 2-core machine; the figure above is what the goal is judged by.
        QVERIFY2(abuseP99 - baseP99 < 1000, "the well-behaved client waited more than a second longer under abuse");
        // Up to 2 waves x 20 endless answers may be in flight, each holding at most --upstream-max-body
        // (1 MiB) read, plus the socket's own buffer and the copy relayed: 40 x 4 MiB over the baseline bounds
        // it; with the old fixed 64 MiB it would have been GiBs.
        // Under AddressSanitizer (the dev-asan preset builds the proxy the same way) freed memory waits in
        // its 256 MiB quarantine and every block has redzones: the same bound plus that quarantine.
#if defined(__SANITIZE_ADDRESS__)
        constexpr long kSlackKb = (160 + 384) * 1024;
#else
        constexpr long kSlackKb = 160 * 1024;
#endif
        QVERIFY2(peakKb - m_baselineRssKb < kSlackKb,
            qPrintable(u"the proxy's peak RSS grew by %1 MiB, more than %2 MiB"_s.arg((peakKb - m_baselineRssKb) / 1024).arg(kSlackKb / 1024)));
    }

    void cleanupTestCase()
    {
        QCOMPARE(m_proxy.stop(), 0); // exited cleanly: no crash under or after the storm
        QCOMPARE(m_refusing.stop(), 0);
    }

private:
    QTemporaryDir m_dir;
    PythonUpstream m_python;
    LabProcess m_proxy;
    LabProcess m_refusing;
    int m_baselineFds = 0;
    int m_refusingBaselineFds = 0;
    long m_baselineRssKb = 0;
};

QTEST_GUILESS_MAIN(TestProxyAbuse)
#include "tst_proxyabuse.moc"
