// SPDX-License-Identifier: GPL-3.0-or-later
// Every HTTP status is an answer (issue 10 §2): for each status the fault lab can send, and for the same
// statuses from a server nobody here wrote (Python's http.server), the engine's first attempt records the
// status, no error class, and exactly the decision decide() gives for that answer, under several presets.
// Qt 6.4 turns 400 and 418 into ProtocolInvalidOperationError and other statuses into their own codes;
// none of that may leak into the record.
#include "engine/retryengine.h"
#include "lab/faultserver.h"
#include "lab/scenarioloader.h"
#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"
#include "policy/retrybudget.h"
#include "support/manualclock.h"
#include "support/manualscheduler.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

namespace {

const QStringList kPresets { QStringLiteral("slen"), QStringLiteral("aws-standard"), QStringLiteral("stripe"),
    QStringLiteral("rfc9110-standard"), QStringLiteral("paymongo") };

QByteArray sweepScenario()
{
    QJsonArray routes;
    for (int status = 200; status <= 599; ++status) {
        QJsonObject step { { u"kind"_qs, u"respond"_qs }, { u"status"_qs, status }, { u"repeat"_qs, u"forever"_qs } };
        if (status != 204 && status != 304)
            step.insert(u"json"_qs, QJsonObject { { u"status"_qs, status } });
        routes.append(QJsonObject { { u"path"_qs, QStringLiteral("/status/%1").arg(status) },
            { u"steps"_qs, QJsonArray { step } } });
    }
    // Authentication challenges Qt answers by itself when it supports the scheme (Basic, Digest; not Bearer).
    const QList<std::pair<QString, QJsonObject>> challenges {
        { QStringLiteral("/challenge/401-basic"), { { u"WWW-Authenticate"_qs, u"Basic realm=\"lab\""_qs } } },
        { QStringLiteral("/challenge/401-digest"),
            { { u"WWW-Authenticate"_qs, u"Digest realm=\"lab\", nonce=\"abc\", qop=\"auth\""_qs } } },
        { QStringLiteral("/challenge/401-bearer"), { { u"WWW-Authenticate"_qs, u"Bearer realm=\"lab\""_qs } } },
        { QStringLiteral("/challenge/407-basic"), { { u"Proxy-Authenticate"_qs, u"Basic realm=\"lab\""_qs } } },
    };
    for (const auto& [path, headers] : challenges) {
        const int status = path.mid(11, 3).toInt();
        const QJsonObject step { { u"kind"_qs, u"respond"_qs }, { u"status"_qs, status }, { u"repeat"_qs, u"forever"_qs },
            { u"headers"_qs, headers }, { u"body"_qs, u"who are you?"_qs } };
        routes.append(QJsonObject { { u"path"_qs, path }, { u"steps"_qs, QJsonArray { step } } });
    }
    const QJsonObject scenario { { u"format"_qs, 1 }, { u"name"_qs, u"status-sweep"_qs }, { u"routes"_qs, routes } };
    return QJsonDocument(scenario).toJson(QJsonDocument::Compact);
}

// The first attempt of one GET under each preset, against BASE/status/STATUS (runs at once, one engine per
// call so no budget carries over).
QList<AttemptRecord> firstAttempts(const QUrl& base, const QString& path, const QList<RetryPolicy>& policies, ManualClock& clock)
{
    ManualScheduler scheduler(clock);
    RetryEngine engine(clock, scheduler);
    engine.setConcurrencyLimit(int(policies.size()));
    FixedRandomSource random({ 0.5 });
    engine.setRandomSource(&random);
    QHash<int, AttemptRecord> byRun;
    QObject::connect(&engine, &RetryEngine::attemptFinished, &engine, [&](const AttemptRecord& a) {
        if (a.index == 1)
            byRun.insert(a.runId, a);
    });
    QList<int> ids;
    for (const RetryPolicy& policy : policies) {
        RequestSpec spec;
        spec.url = base.resolved(QUrl(path));
        spec.attemptTimeout = Millis(5000);
        ids.append(engine.submit(spec, policy));
    }
    if (!QTest::qWaitFor([&] { return byRun.size() == ids.size(); }, 10000))
        return {};
    engine.cancelAll(); // retries wait on the manual scheduler, which never runs
    QList<AttemptRecord> out;
    for (int id : std::as_const(ids))
        out.append(byRun.value(id));
    return out;
}

} // namespace

class TestStatusSweep : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void everyStatusIsAnAnswer_data();
    void everyStatusIsAnAnswer();

private:
    FaultServer m_lab;
    QProcess m_python;
    QUrl m_pythonUrl;
    QList<RetryPolicy> m_policies;
};

void TestStatusSweep::initTestCase()
{
    const ScenarioLoader::Result loaded = ScenarioLoader::fromJson(sweepScenario());
    QVERIFY2(loaded.scenario, qPrintable(loaded.problemText()));
    m_lab.loadScenario(*loaded.scenario);
    QVERIFY2(m_lab.start(), qPrintable(m_lab.errorString()));

    m_python.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_python.start(QStringLiteral("python3"), { QStringLiteral(RETRYLAB_TEST_DATA "/servers/status_server.py") });
    QVERIFY2(m_python.waitForStarted(5000), "python3 is needed (packaging/install-deps.sh installs it)");
    QVERIFY(m_python.waitForReadyRead(10000));
    const int port = m_python.readLine().trimmed().toInt();
    QVERIFY(port > 0);
    m_pythonUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));

    for (const QString& name : kPresets) {
        const PolicyParseResult p = PresetCatalog::load(name);
        QVERIFY2(p.policy, qPrintable(name));
        // decide() is compared with a fresh budget; gRPC-style throttling would take tokens first.
        QVERIFY2(!p.policy->throttling.enabled, qPrintable(name));
        m_policies.append(*p.policy);
    }
}

void TestStatusSweep::cleanupTestCase()
{
    m_python.kill();
    m_python.waitForFinished(5000);
}

void TestStatusSweep::everyStatusIsAnAnswer_data()
{
    QTest::addColumn<QString>("server");
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("status");
    for (const QString& server : { QStringLiteral("lab"), QStringLiteral("python") }) {
        for (int status = 200; status <= 599; ++status)
            QTest::addRow("%s %d", qPrintable(server), status) << server << QStringLiteral("/status/%1").arg(status) << status;
    }
    for (const char* name : { "401-basic", "401-digest", "401-bearer", "407-basic" }) {
        QTest::addRow("lab %s challenge", name)
            << QStringLiteral("lab") << QStringLiteral("/challenge/") + QLatin1String(name) << QByteArray(name).left(3).toInt();
    }
}

void TestStatusSweep::everyStatusIsAnAnswer()
{
    QFETCH(QString, server);
    QFETCH(QString, path);
    QFETCH(int, status);
    ManualClock clock;
    const QUrl base = server == u"lab"_qs ? m_lab.url() : m_pythonUrl;
    const QList<AttemptRecord> attempts = firstAttempts(base, path, m_policies, clock);
    QCOMPARE(attempts.size(), m_policies.size());

    for (qsizetype i = 0; i < attempts.size(); ++i) {
        const AttemptRecord& a = attempts.at(i);
        const RetryPolicy& policy = m_policies.at(i);
        const QByteArray what = (policy.name + QStringLiteral(" on ") + QString::number(status)).toUtf8();
        QVERIFY2(a.status, what.constData());
        QCOMPARE(*a.status, status);
        QVERIFY2(!a.error,
            qPrintable(QString::fromUtf8(what) + u" recorded as "_qs + errorClassName(a.error.value_or(ErrorClass::Protocol)) + u" (Qt error "_qs + QString::number(a.qtErrorCode) + u": "_qs + a.qtError + u")"_qs));
        QVERIFY2(a.qtError.isEmpty(), qPrintable(QString::fromUtf8(what) + u" carries Qt's words: "_qs + a.qtError));
        QVERIFY(a.decision);

        RequestFacts facts;
        facts.method = a.method;
        facts.hasIdempotencyKey = !a.idempotencyKey.isEmpty();
        DecisionContext context;
        context.attempt = 1;
        context.now = clock.wallNow();
        context.budget = RetryBudget(policy.quota, policy.throttling).view();
        BackoffState backoff;
        FixedRandomSource random({ 0.5 });
        const RetryDecision expected
            = decide(policy, facts, AttemptOutcome::answered(status, a.responseHeaders, a.bodyExcerpt), context, backoff, random);
        QCOMPARE(verdictName(a.decision->verdict), verdictName(expected.verdict));
        QCOMPARE(a.decision->reason, expected.reason);
        QCOMPARE(a.decision->ruleName, expected.ruleName);
        QCOMPARE(a.decision->delay, expected.delay);
        QCOMPARE(finalKindName(a.decision->finalKind), finalKindName(expected.finalKind));
    }
}

QTEST_GUILESS_MAIN(TestStatusSweep)
#include "tst_statussweep.moc"
