// SPDX-License-Identifier: GPL-3.0-or-later
// Herd experiment files (what the Herd view saves and `retrylab herd --experiment FILE` reads) round-trip
// losslessly, and every bad file is refused with each of its problems named by path; the result's JSON and
// the series' CSV have the documented shape (issue 29 §2–3).
#include "sim/herdcatalog.h"
#include "sim/herdexperimentjson.h"
#include "sim/herdsimulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

class TestHerdExperimentJson : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void builtInsRoundTrip_data();
    void builtInsRoundTrip();
    void everyFieldRoundTrips();
    void badFiles_data();
    void badFiles();
    void resultJsonAndCsv();
};

void TestHerdExperimentJson::builtInsRoundTrip_data()
{
    QTest::addColumn<QString>("name");
    for (const QString& name : HerdCatalog::names())
        QTest::addRow("%s", qPrintable(name)) << name;
}

void TestHerdExperimentJson::builtInsRoundTrip()
{
    QFETCH(QString, name);
    const HerdExperiment e = *HerdCatalog::experiment(name);
    const QByteArray bytes = herdExperimentToBytes(e);
    const HerdExperimentParse parsed = herdExperimentFromBytes(bytes);
    QVERIFY2(parsed.ok(), parsed.problems.isEmpty() ? "" : qPrintable(parsed.problems.first().path + u": "_qs + parsed.problems.first().message));
    QCOMPARE(herdExperimentToBytes(*parsed.experiment), bytes);
    QCOMPARE(parsed.experiment->policies.size(), e.policies.size());
    for (qsizetype i = 0; i < e.policies.size(); ++i)
        QVERIFY(parsed.experiment->policies.at(i).policy == e.policies.at(i).policy);
    QVERIFY(*parsed.experiment == e);
}

void TestHerdExperimentJson::everyFieldRoundTrips()
{
    HerdExperiment e = *HerdCatalog::experiment(QStringLiteral("retry-collapse"));
    e.server.concurrency = 7;
    e.server.service = HerdDistribution { HerdDistribution::Kind::Normal, 12.5, 3.25 };
    e.server.queueLimit = 40;
    e.server.queueTimeout = Millis(900);
    e.server.overloadStatus = 429;
    e.server.errorRate = 0.125;
    e.server.errorStatus = 500;
    e.server.retryAfter = Millis(2000);
    e.server.outage = HerdWindow { Millis(1000), Millis(2000) };
    e.server.outageAnswer = HerdOutageAnswer::Hang;
    e.server.outageStatus = 502;
    e.server.cut = HerdWindow { Millis(3000), Millis(4000) };
    e.server.cutFraction = 0.3;
    e.server.latencySpike = HerdWindow { Millis(5000), Millis(500) };
    e.server.latencySpikeMs = 250;
    e.clients.poisson = false;
    e.clients.processes = 3;
    e.clients.method = QStringLiteral("POST");
    e.clients.attemptTimeout = Millis(1500);
    e.clients.think = Millis(20);
    e.seed = 18446744073709551615ULL;
    const HerdExperimentParse parsed = herdExperimentFromBytes(herdExperimentToBytes(e));
    QVERIFY(parsed.ok());
    QVERIFY(*parsed.experiment == e);
}

void TestHerdExperimentJson::badFiles_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("path"); // a problem has this path
    QTest::addColumn<QString>("words"); // and its message holds these words
    const QJsonObject good = herdExperimentToJson(*HerdCatalog::experiment(QStringLiteral("metastable-osdi22")));
    const auto with = [&](const std::function<void(QJsonObject&)>& change) {
        QJsonObject o = good;
        change(o);
        return QJsonDocument(o).toJson();
    };
    const auto inServer = [&](const QString& key, const QJsonValue& value) {
        return with([&](QJsonObject& o) {
            QJsonObject s = o.value(u"server").toObject();
            s.insert(key, value);
            o.insert(u"server"_qs, s);
        });
    };
    QTest::newRow("not JSON") << QByteArrayLiteral("{\"format\": ") << QString() << QStringLiteral("not JSON");
    QTest::newRow("an array") << QByteArrayLiteral("[]") << QString() << QStringLiteral("JSON object");
    QTest::newRow("binary") << QByteArray("\x00\xff\xfe{", 4) << QString() << QStringLiteral("not JSON");
    QTest::newRow("another format") << with([](QJsonObject& o) { o.insert(u"format"_qs, u"retrylab-policy"_qs); })
                                    << QStringLiteral("format") << QStringLiteral("retrylab-herd");
    QTest::newRow("a later version") << with([](QJsonObject& o) { o.insert(u"version"_qs, 9); }) << QStringLiteral("version") << QStringLiteral("reads 1");
    QTest::newRow("unknown key") << with([](QJsonObject& o) { o.insert(u"clientz"_qs, 1); }) << QStringLiteral("clientz") << QString();
    QTest::newRow("concurrency a string") << inServer(u"concurrency"_qs, u"many"_qs) << QStringLiteral("server.concurrency") << QString();
    QTest::newRow("negative concurrency") << inServer(u"concurrency"_qs, -1) << QStringLiteral("server.concurrency") << QStringLiteral("between");
    QTest::newRow("cut fraction 2") << inServer(u"cut"_qs, QJsonObject { { u"start_ms"_qs, 0 }, { u"duration_ms"_qs, 10 }, { u"fraction"_qs, 2 } })
                                    << QStringLiteral("server.cut.fraction") << QString();
    QTest::newRow("outage without duration") << inServer(u"outage"_qs, QJsonObject { { u"start_ms"_qs, 0 } })
                                             << QStringLiteral("server.outage.duration_ms") << QString();
    QTest::newRow("outage answer misspelt") << inServer(u"outage"_qs, QJsonObject { { u"start_ms"_qs, 0 }, { u"duration_ms"_qs, 5 }, { u"answer"_qs, u"explode"_qs } })
                                            << QStringLiteral("server.outage.answer") << QString();
    QTest::newRow("error rate 1.5") << inServer(u"error_rate"_qs, 1.5) << QStringLiteral("server.error_rate") << QString();
    QTest::newRow("status 99") << inServer(u"error_status"_qs, 99) << QStringLiteral("server.error_status") << QString();
    QTest::newRow("seed not a number") << with([](QJsonObject& o) { o.insert(u"seed"_qs, u"lucky"_qs); }) << QStringLiteral("seed") << QString();
    QTest::newRow("zero runs") << with([](QJsonObject& o) { o.insert(u"runs"_qs, 0); }) << QStringLiteral("runs") << QString();
    QTest::newRow("too many clients") << with([](QJsonObject& o) {
        QJsonObject c = o.value(u"clients").toObject();
        c.insert(u"count"_qs, 1000001);
        o.insert(u"clients"_qs, c);
    }) << QStringLiteral("clients.count") << QStringLiteral("1 000 000");
    QTest::newRow("no policies") << with([](QJsonObject& o) { o.insert(u"policies"_qs, QJsonArray {}); }) << QStringLiteral("policies") << QString();
    QTest::newRow("a bad policy") << with([](QJsonObject& o) {
        QJsonArray policies = o.value(u"policies").toArray();
        QJsonObject p = policies.at(0).toObject();
        QJsonObject body = p.value(u"policy").toObject();
        QJsonObject limits = body.value(u"limits").toObject();
        limits.insert(u"max_attempts"_qs, 0);
        body.insert(u"limits"_qs, limits);
        p.insert(u"policy"_qs, body);
        policies[0] = p;
        o.insert(u"policies"_qs, policies);
    }) << QStringLiteral("policies[0].policy.limits.max_attempts") << QString();
    QTest::newRow("a policy that is not an object") << with([](QJsonObject& o) {
        o.insert(u"policies"_qs, QJsonArray { QJsonObject { { u"label"_qs, u"x"_qs }, { u"policy"_qs, 3 } } });
    }) << QStringLiteral("policies[0].policy") << QString();
}

void TestHerdExperimentJson::badFiles()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, path);
    QFETCH(QString, words);
    const HerdExperimentParse parsed = herdExperimentFromBytes(bytes);
    QVERIFY(!parsed.ok());
    QVERIFY(!parsed.problems.isEmpty());
    QStringList seen;
    bool found = false;
    for (const PolicyProblem& p : parsed.problems) {
        seen << p.path + u": "_qs + p.message;
        if (p.path == path && (words.isEmpty() || p.message.contains(words)))
            found = true;
    }
    QVERIFY2(found, qPrintable(seen.join(u" | ")));
}

void TestHerdExperimentJson::resultJsonAndCsv()
{
    HerdExperiment e = *HerdCatalog::experiment(QStringLiteral("retry-collapse"));
    e.duration = Millis(10000);
    e.clients.spike = HerdWindow { Millis(2000), Millis(2000) };
    const HerdResult result = runHerdExperiment(e);
    const QJsonObject json = herdResultToJson(result);
    QCOMPARE(json.value(u"experiment").toString(), QStringLiteral("retry-collapse"));
    QCOMPARE(json.value(u"seed").toString(), QStringLiteral("1"));
    const QJsonArray results = json.value(u"results").toArray();
    QCOMPARE(results.size(), 3);
    const QJsonObject first = results.at(0).toObject();
    for (const char* key : { "policy", "clients", "runs", "completion_ms_mean", "server_calls_mean", "amplification", "goodput", "recovered" })
        QVERIFY2(first.contains(QLatin1StringView(key)), key);
    QCOMPARE(first.value(u"policy").toString(), QStringLiteral("immediate"));
    QCOMPARE(json.value(u"series").toObject().value(u"immediate").toArray().size(), 10);
    QVERIFY(!herdResultToJson(result, false).contains(u"series"));
    const QList<QByteArray> lines = herdSeriesCsv(result.results.first().series).trimmed().split('\n');
    QCOMPARE(lines.size(), 11);
    QCOMPARE(lines.first(), QByteArrayLiteral("t_ms,offered,attempts,goodput,retries,utilisation,in_service,queue,breaker_open,budget_tokens"));
    QVERIFY(lines.at(3).startsWith("2000,"));
    QCOMPARE(lines.at(3).count(','), 9);
}

QTEST_GUILESS_MAIN(TestHerdExperimentJson)
#include "tst_herdexperimentjson.moc"
