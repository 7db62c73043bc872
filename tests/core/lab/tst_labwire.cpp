// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's answers read as HTTP/1.1 to a client nobody here wrote (Debian's curl): no content after a 204,
// a 304 or a HEAD (RFC 9110 §6.4.1), no Content-Length on a 204 (§8.6), the connection reusable after each,
// and no 1xx "answers" (a 1xx is interim: curl and Qt both misread one sent as final).
#include "lab/faultserver.h"
#include "lab/scenarioloader.h"

#include <QProcess>
#include <QTest>

namespace {

const char* kScenario = R"({
  "format": 1, "name": "wire",
  "routes": [
    { "path": "/no-content", "steps": [ { "kind": "respond", "status": 204, "body": "not sent", "repeat": "forever" } ] },
    { "path": "/not-modified", "steps": [ { "kind": "respond", "status": 304, "body": "not sent", "repeat": "forever" } ] },
    { "path": "/ok", "steps": [ { "kind": "respond", "status": 200, "body": "hello", "repeat": "forever" } ] }
  ]
})";

struct CurlRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err; // curl -v's trace
};

// Runs curl without blocking the event loop the lab answers on.
CurlRun curl(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral("curl"), QStringList { QStringLiteral("-sv"), QStringLiteral("--max-time"), QStringLiteral("10") } + args);
    CurlRun run;
    if (!p.waitForStarted(5000))
        return run;
    if (!QTest::qWaitFor([&] { return p.state() == QProcess::NotRunning; }, 15000)) {
        p.kill();
        p.waitForFinished(1000);
        return run;
    }
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    return run;
}

} // namespace

class TestLabWire : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void noContentAfterTheHead_data();
    void noContentAfterTheHead();
    void headKeepsContentLength();
    void interimStatusesAreNotAnswers_data();
    void interimStatusesAreNotAnswers();

private:
    QString url(const char* path) const { return m_lab.url().toString() + QLatin1String(path); }
    FaultServer m_lab;
};

void TestLabWire::initTestCase()
{
    const ScenarioLoader::Result loaded = ScenarioLoader::fromJson(kScenario);
    QVERIFY2(loaded.scenario, qPrintable(loaded.problemText()));
    m_lab.loadScenario(*loaded.scenario);
    QVERIFY2(m_lab.start(), qPrintable(m_lab.errorString()));
    QProcess probe;
    probe.start(QStringLiteral("curl"), { QStringLiteral("--version") });
    QVERIFY2(probe.waitForFinished(5000), "curl is needed (packaging/install-deps.sh installs it)");
}

void TestLabWire::noContentAfterTheHead_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("status");
    QTest::addRow("RFC 9110 §15.3.5: 204 has no content") << QStringLiteral("/no-content") << 204;
    QTest::addRow("RFC 9110 §15.4.5: 304 has no content") << QStringLiteral("/not-modified") << 304;
}

void TestLabWire::noContentAfterTheHead()
{
    QFETCH(QString, path);
    QFETCH(int, status);
    // Two requests on one connection: stray content after the first would corrupt the second.
    const CurlRun run = curl({ url(qPrintable(path)), url("/ok") });
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.err.contains(QByteArray("< HTTP/1.1 ").append(QByteArray::number(status))), run.err.constData());
    QVERIFY2(!run.err.contains("Excess found"), run.err.constData());
    QVERIFY2(run.err.contains("Re-using existing connection"), run.err.constData());
    if (status == 204) {
        const QByteArray first = run.err.left(run.err.indexOf("Re-using existing connection"));
        QVERIFY2(!first.contains("< Content-Length:"), run.err.constData());
    }
    QCOMPARE(run.out, QByteArray("hello"));
}

void TestLabWire::headKeepsContentLength()
{
    // curl --head, then a GET on the same connection (--next).
    const CurlRun run = curl({ QStringLiteral("--head"), url("/ok"), QStringLiteral("--next"), url("/ok") });
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("Content-Length: 5"), run.out.constData());
    QVERIFY2(run.out.endsWith("\r\n\r\nhello"), run.out.constData());
    QVERIFY2(!run.err.contains("Excess found"), run.err.constData());
    QVERIFY2(run.err.contains("Re-using existing connection"), run.err.constData());
}

void TestLabWire::interimStatusesAreNotAnswers_data()
{
    QTest::addColumn<int>("status");
    for (int status : { 100, 101, 103, 199 })
        QTest::addRow("%d", status) << status;
}

void TestLabWire::interimStatusesAreNotAnswers()
{
    QFETCH(int, status);
    const QByteArray json = R"({"format": 1, "name": "x", "routes": [ { "path": "/", "steps": [ { "status": )"
        + QByteArray::number(status) + R"( } ] } ]})";
    const ScenarioLoader::Result loaded = ScenarioLoader::fromJson(json);
    QVERIFY(!loaded.scenario);
    QVERIFY2(loaded.problemText().contains(u"$.routes[0].steps[0].status"_qs), qPrintable(loaded.problemText()));
    QVERIFY2(loaded.problemText().contains(u"200 to 599"_qs), qPrintable(loaded.problemText()));
}

QTEST_GUILESS_MAIN(TestLabWire)
#include "tst_labwire.moc"
