// SPDX-License-Identifier: GPL-3.0-or-later
// The resilience pipeline in the policy file (format 2, resources/docs/policy-format.md "The pipeline"):
// read and written back unchanged, version 1 files read as before, every problem with its field path, the
// rules across strategies that Microsoft.Extensions.Http.Resilience's validators enforce
// (resilience-fleets.md §1.2), hedging only with idempotency keys unless said (issue 28 §1), and the pipeline
// presets of issue 28 §3 as `policy show` prints them.

#include "policy/policydescription.h"
#include "policy/policyjson.h"
#include "policy/presetcatalog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QStringList kPipelinePresets { u"polly-circuit-breaker"_s, u"ms-http-standard"_s, u"ms-http-hedging"_s,
    u"resilience4j-circuit-breaker"_s, u"cockatiel-3"_s, u"opossum-9"_s, u"grpc-hedging"_s, u"envoy-hedge"_s };

// A version 2 policy: LIMITS and PIPELINE as JSON text, the rest defaults.
QByteArray policy(const QByteArray& pipeline, const QByteArray& more = "\"limits\": {\"max_attempts\": 3}")
{
    return "{\"format\": \"retrylab-policy\", \"version\": 2, " + more + ", \"pipeline\": " + pipeline + "}";
}

QStringList paths(const PolicyParseResult& r)
{
    QStringList out;
    for (const PolicyProblem& p : r.problems)
        out.append(p.path);
    return out;
}

} // namespace

class TestPipelineJson : public QObject
{
    Q_OBJECT

private slots:
    void presetsRoundTrip_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString& n : kPipelinePresets)
            QTest::newRow(qPrintable(n)) << n;
    }
    void presetsRoundTrip()
    {
        QFETCH(QString, name);
        const auto loaded = PresetCatalog::load(name);
        QVERIFY2(loaded.ok(), qPrintable(loaded.problems.value(0).path + u": "_s + loaded.problems.value(0).message));
        const RetryPolicy& p = *loaded.policy;
        QVERIFY(!p.pipeline.isEmpty());
        QCOMPARE(p.formatVersion(), 2);
        const QJsonObject written = policyToJson(p);
        QCOMPARE(written.value(u"version"_s).toInt(), 2);
        const auto again = policyFromJson(written);
        QVERIFY(again.ok());
        QVERIFY(*again.policy == p);
        // The shipped file is what the writer writes: nothing in it is left to defaults.
        QFile file(u":/retrylab/presets/"_s + name + u".json"_s);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(file.readAll()).object(), written);
    }

    void versionOneIsReadAsBefore()
    {
        const auto v1 = PresetCatalog::load(u"polly"_s);
        QVERIFY(v1.ok());
        QVERIFY(v1.policy->pipeline.isEmpty());
        QCOMPARE(policyToJson(*v1.policy).value(u"version"_s).toInt(), 1);
        QVERIFY(!policyToJson(*v1.policy).contains(u"pipeline"_s));
        // Version 2 without a pipeline is the same policy, written back as version 1.
        auto o = policyToJson(*v1.policy);
        o.insert(u"version"_s, 2);
        const auto v2 = policyFromJson(o);
        QVERIFY(v2.ok());
        QVERIFY(*v2.policy == *v1.policy);
    }

    void problems_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("expected");
        const auto one = [](const char* p) { return QStringList { QString::fromLatin1(p) }; };
        QTest::newRow("a pipeline in version 1")
            << QByteArray(R"({"format": "retrylab-policy", "version": 1, "pipeline": [{"strategy": "retry"}]})")
            << one("pipeline");
        QTest::newRow("an empty pipeline") << policy("[]") << one("pipeline");
        QTest::newRow("no strategy") << policy(R"([{"timeout_ms": 5}])") << QStringList { u"pipeline[0].strategy"_s, u"pipeline[0].timeout_ms"_s };
        QTest::newRow("an unknown strategy") << policy(R"([{"strategy": "retries"}])") << one("pipeline[0].strategy");
        QTest::newRow("a timeout without its length")
            << policy(R"([{"strategy": "retry"}, {"strategy": "attempt_timeout"}])") << one("pipeline[1].timeout_ms");
        QTest::newRow("another strategy's field")
            << policy(R"([{"strategy": "retry", "timeout_ms": 100}])") << one("pipeline[0].timeout_ms");
        QTest::newRow("two retries")
            << policy(R"([{"strategy": "retry"}, {"strategy": "retry"}])") << one("pipeline[1].strategy");
        QTest::newRow("no retry, three attempts")
            << policy(R"([{"strategy": "attempt_timeout", "timeout_ms": 100}])") << one("limits.max_attempts");
        QTest::newRow("no retry, one attempt: fine")
            << policy(R"([{"strategy": "attempt_timeout", "timeout_ms": 100}])", R"("limits": {"max_attempts": 1})")
            << QStringList {};
        QTest::newRow("the deadline given twice")
            << policy(R"([{"strategy": "total_timeout", "timeout_ms": 100}, {"strategy": "retry"}])",
                   R"("limits": {"max_attempts": 3, "deadline_ms": 100})")
            << one("limits.deadline_ms");
        // §1.2: the attempt timeout within the total.
        QTest::newRow("an attempt timeout beyond the total")
            << policy(R"([{"strategy": "total_timeout", "timeout_ms": 1000}, {"strategy": "retry"},
                         {"strategy": "attempt_timeout", "timeout_ms": 1001}])")
            << one("pipeline[2].timeout_ms");
        // §1.2: the breaker's sampling at least twice the attempt timeout, on Polly's breaker.
        QTest::newRow("polly's sampling under twice the attempt timeout")
            << policy(R"([{"strategy": "retry"}, {"strategy": "circuit_breaker", "sampling_ms": 19999},
                         {"strategy": "attempt_timeout", "timeout_ms": 10000}])")
            << one("pipeline[1].sampling_ms");
        QTest::newRow("opossum's buckets on the clock: its own defaults hold")
            << policy(R"([{"strategy": "retry"}, {"strategy": "circuit_breaker", "sampling_ms": 10000, "bucket_start": "fixed"},
                         {"strategy": "attempt_timeout", "timeout_ms": 10000}])")
            << QStringList {};
        QTest::newRow("a breaker's own ranges")
            << policy(R"([{"strategy": "retry"}, {"strategy": "circuit_breaker", "failure_ratio": 2, "half_open_probes": 0}])")
            << QStringList { u"pipeline[1].failure_ratio"_s, u"pipeline[1].half_open_probes"_s };
        QTest::newRow("a breaker's unknown window")
            << policy(R"([{"strategy": "retry"}, {"strategy": "circuit_breaker", "window": "sliding"}])")
            << one("pipeline[1].window");
        QTest::newRow("a failure condition's bad status")
            << policy(R"([{"strategy": "retry"}, {"strategy": "circuit_breaker", "failures": [{"outcome": "status", "statuses": ["5xx"]}]}])")
            << one("pipeline[1].failures[0].statuses[0]");
        QTest::newRow("a breaker nothing opens")
            << policy(R"([{"strategy": "retry"}, {"strategy": "circuit_breaker", "failures": []}])")
            << one("pipeline[1].failures");
        // §1.2: hedges × delay within the total.
        QTest::newRow("hedges beyond the total")
            << policy(R"([{"strategy": "total_timeout", "timeout_ms": 5000},
                         {"strategy": "hedging", "max_hedges": 3, "delay_ms": 2000, "hedge_unsafe": true}])",
                   R"("limits": {"max_attempts": 1})")
            << one("pipeline[1].delay_ms");
        QTest::newRow("fallback hedging has no delay to add up")
            << policy(R"([{"strategy": "total_timeout", "timeout_ms": 5000},
                         {"strategy": "hedging", "max_hedges": 3, "delay_ms": -1, "hedge_unsafe": true}])",
                   R"("limits": {"max_attempts": 1})")
            << QStringList {};
        // Issue 28 §1: no copies of a POST without a key, unless the policy says so.
        QTest::newRow("hedging without keys")
            << policy(R"([{"strategy": "hedging"}])", R"("limits": {"max_attempts": 1})") << one("pipeline[0].hedge_unsafe");
        QTest::newRow("hedging with keys on POST and PATCH")
            << policy(R"([{"strategy": "hedging"}])",
                   R"("limits": {"max_attempts": 1}, "idempotency": {"auto": true, "methods": ["POST", "PATCH"]})")
            << QStringList {};
        QTest::newRow("hedging with keys on POST only")
            << policy(R"([{"strategy": "hedging"}])",
                   R"("limits": {"max_attempts": 1}, "idempotency": {"auto": true, "methods": ["POST"]})")
            << one("pipeline[0].hedge_unsafe");
        QTest::newRow("hedging's own ranges")
            << policy(R"([{"strategy": "hedging", "max_hedges": 11, "delay_ms": -5, "hedge_unsafe": true}])",
                   R"("limits": {"max_attempts": 1})")
            << QStringList { u"pipeline[0].max_hedges"_s, u"pipeline[0].delay_ms"_s };
        QTest::newRow("a limiter without permits")
            << policy(R"([{"strategy": "rate_limiter", "permits": 0, "queue": -1}, {"strategy": "retry"}])")
            << QStringList { u"pipeline[0].permits"_s, u"pipeline[0].queue"_s };
        QTest::newRow("two limiters are fine")
            << policy(R"([{"strategy": "rate_limiter"}, {"strategy": "bulkhead", "permits": 10, "queue": 5}, {"strategy": "retry"}])")
            << QStringList {};
    }
    void problems()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, expected);
        const auto r = policyFromJsonBytes(json);
        QCOMPARE(paths(r), expected);
        QCOMPARE(r.ok(), expected.isEmpty());
        for (const PolicyProblem& p : r.problems)
            QVERIFY2(!p.message.isEmpty(), qPrintable(p.path));
    }

    // `policy show`: the strategies in order, each indented inside the one above.
    void describedAsNestedBoxes()
    {
        const auto loaded = PresetCatalog::load(u"ms-http-standard"_s);
        QVERIFY(loaded.ok());
        const QString text = describePolicy(*loaded.policy);
        const QStringList expected {
            u"Pipeline (outermost first, each inside the one above):"_s,
            u"  1. rate limiter: 1000 at once, no queue"_s,
            u"    2. total timeout 30 s"_s,
            u"      3. retry (limits, backoff, hints and rules below)"_s,
            u"        4. circuit breaker: opens at ≥ 10 % failures in 30 s (10 buckets, each from a call), at least 100 calls, judged on a failure; breaks 5 s; then on the next call 1 probe, other callers refused; one for the client"_s,
            u"           failures: status 408, 429, 500-599; any error"_s,
            u"          5. attempt timeout 10 s"_s,
        };
        for (const QString& line : expected)
            QVERIFY2(text.contains(u'\n' + line + u'\n'), qPrintable(line + u"\n--- in ---\n"_s + text));
        QVERIFY(text.indexOf(u"Pipeline"_s) < text.indexOf(u"Limits:"_s));
    }
};

QTEST_GUILESS_MAIN(TestPipelineJson)
#include "tst_pipelinejson.moc"
