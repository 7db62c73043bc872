// SPDX-License-Identifier: GPL-3.0-or-later
// The judge (issue 13 §1), rule by rule: a client's attempts, as the lab would report them, against a
// preset. Each row is one run; its findings and notes are compared by rule name, and every finding must
// carry what was observed and what the policy expects. The presets' numbers are their own
// (resources/presets/*.json): curl-7.88 retries 408/429/5xx for any method, 1 s doubling, Retry-After
// waited whatever it asks, 7 retries; rfc9110-standard gates every retry by method or key; slen adds an
// Idempotency-Key to every POST.
#include "conform/conformancejudge.h"
#include "conform/conformancerunner.h"
#include "lab/labexchange.h"
#include "policy/backoff.h"
#include "policy/decide.h"
#include "policy/presetcatalog.h"
#include "policy/randomsource.h"

#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// One exchange: METHOD, the answer (a status, or an outcome without one), when it arrived, what the
// answer carried and the Idempotency-Key sent.
struct Ex
{
    QByteArray method = "GET";
    int status = 200;
    qint64 arrivedMs = 0;
    HttpHeaderList answer;
    QByteArray key;
    QString outcome = u"answered"_s; // "reset", "closed", "hang"…
    qint64 durationMs = 10;
};

LabExchange exchange(const Ex& x, quint64 id)
{
    LabExchange e;
    e.requestId = id;
    e.connectionId = id;
    e.clientAddress = u"127.0.0.1"_s;
    e.arrivedMs = x.arrivedMs;
    e.requestCompleteMs = x.arrivedMs;
    e.method = x.method;
    e.target = "/conform/case";
    e.requestHeaders = { { "Host", "127.0.0.1:9" }, { "User-Agent", "client/1" } };
    if (!x.key.isEmpty())
        e.requestHeaders.append({ "Idempotency-Key", x.key });
    e.outcome = x.outcome;
    if (x.outcome == u"answered"_s) {
        e.status = x.status;
        e.responseHeaders = x.answer;
        e.responseStartedMs = x.arrivedMs + x.durationMs / 2;
        e.responseFinishedMs = x.arrivedMs + x.durationMs;
    } else if (x.outcome == u"hang"_s) {
        e.clientGoneMs = x.arrivedMs + x.durationMs;
    } else {
        e.labClosedMs = x.arrivedMs + x.durationMs;
    }
    return e;
}

// Attempts that follow each other: each arrives WAIT ms after the previous one ended.
QList<Ex> chain(QList<Ex> attempts, const QList<qint64>& waits)
{
    qint64 at = 1000;
    for (qsizetype i = 0; i < attempts.size(); ++i) {
        if (i > 0)
            at += attempts.at(i - 1).durationMs + waits.value(i - 1, 0);
        attempts[i].arrivedMs = at;
    }
    return attempts;
}

Ex st(int status, HttpHeaderList answer = {}, QByteArray method = "GET", QByteArray key = {})
{
    Ex x;
    x.status = status;
    x.answer = std::move(answer);
    x.method = std::move(method);
    x.key = std::move(key);
    return x;
}

Ex broken(const QString& outcome, qint64 durationMs = 10)
{
    Ex x;
    x.outcome = outcome;
    x.durationMs = durationMs;
    return x;
}

QStringList rulesOf(const QList<ConformanceFinding>& findings)
{
    QStringList names;
    for (const ConformanceFinding& f : findings)
        names << findingRuleName(f.rule);
    return names;
}

} // namespace

Q_DECLARE_METATYPE(Ex)

class TestConformanceJudge : public QObject
{
    Q_OBJECT

private slots:
    void rules_data();
    void rules();
    void waitFindingCarriesTheRange();
    void toleranceWidensTheRange_data();
    void toleranceWidensTheRange();
    void ruleNamesRoundTrip();
    void aClientDoingWhatThePolicyDoesConforms_data();
    void aClientDoingWhatThePolicyDoesConforms();
};

void TestConformanceJudge::rules_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QList<Ex>>("attempts");
    QTest::addColumn<int>("exitCode"); // -1: stopped, no exit status
    QTest::addColumn<qint64>("quietAfterMs"); // how long the observation went on after the last attempt
    QTest::addColumn<QStringList>("findings");
    QTest::addColumn<QStringList>("notes");

    const QList<Ex> curlTwice = chain({ st(503), st(503), st(200) }, { 1000, 2000 });
    QTest::addRow("curl-7.88: 503, 503, 200 with its 1 s, 2 s doubling") << u"curl-7.88"_s << curlTwice << 0 << 0ll
                                                                          << QStringList() << QStringList();
    QTest::addRow("a wait far shorter than the backoff") << u"curl-7.88"_s << chain({ st(503), st(200) }, { 200 }) << 0
                                                         << 0ll << QStringList { u"wait"_s } << QStringList();
    QTest::addRow("a wait far longer than the backoff") << u"curl-7.88"_s << chain({ st(503), st(200) }, { 5000 }) << 0
                                                        << 0ll << QStringList { u"wait"_s } << QStringList();
    QTest::addRow("Retry-After: 2 honoured") << u"curl-7.88"_s
                                             << chain({ st(429, { { "Retry-After", "2" } }), st(200) }, { 2000 }) << 0
                                             << 0ll << QStringList() << QStringList();
    QTest::addRow("Retry-After: 2 not waited") << u"curl-7.88"_s
                                               << chain({ st(429, { { "Retry-After", "2" } }), st(200) }, { 210 }) << 0
                                               << 0ll << QStringList { u"wait"_s } << QStringList();
    QTest::addRow("404 retried") << u"curl-7.88"_s << chain({ st(404), st(200) }, { 1000 }) << 0 << 0ll
                                 << QStringList { u"retried-not-retryable"_s } << QStringList();
    QTest::addRow("200 retried") << u"curl-7.88"_s << chain({ st(200), st(200) }, { 1000 }) << 0 << 0ll
                                 << QStringList { u"retried-after-success"_s } << QStringList();
    QTest::addRow("stopped after a 503 and exited") << u"curl-7.88"_s << chain({ st(503) }, {}) << 22 << 0ll
                                                    << QStringList { u"not-retried"_s } << QStringList();
    QTest::addRow("stopped after a 503, observation ended early")
        << u"curl-7.88"_s << chain({ st(503) }, {}) << -1 << 300ll << QStringList() << QStringList { u"not-observed"_s };
    QTest::addRow("stopped after a 503, quiet far longer than the wait")
        << u"curl-7.88"_s << chain({ st(503) }, {}) << -1 << 60000ll << QStringList { u"not-retried"_s } << QStringList();
    QTest::addRow("success but a failing exit status") << u"curl-7.88"_s << chain({ st(200) }, {}) << 1 << 0ll
                                                       << QStringList { u"final-error"_s } << QStringList();
    QTest::addRow("a refused answer but exit status 0") << u"curl-7.88"_s << chain({ st(404) }, {}) << 0 << 0ll
                                                        << QStringList { u"final-error"_s } << QStringList();
    QList<Ex> endless;
    QList<qint64> doubling;
    for (int i = 0; i < 9; ++i)
        endless << st(503);
    for (qint64 w = 1000; doubling.size() < 8; w *= 2)
        doubling << w;
    QTest::addRow("a ninth attempt after curl's seven retries")
        << u"curl-7.88"_s << chain(endless, doubling) << 22 << 0ll << QStringList { u"attempt-limit"_s } << QStringList();
    QTest::addRow("POST 500 without a key retried (rfc9110-standard)")
        << u"rfc9110-standard"_s << chain({ st(500, {}, "POST"), st(200, {}, "POST") }, { 300 }) << 0 << 0ll
        << QStringList { u"retried-not-retryable"_s } << QStringList();
    QTest::addRow("POST 500 with a key retried in range (rfc9110-standard)")
        << u"rfc9110-standard"_s << chain({ st(500, {}, "POST", "k1"), st(200, {}, "POST", "k1") }, { 300 }) << 0 << 0ll
        << QStringList() << QStringList();
    QTest::addRow("the key changed between attempts")
        << u"curl-7.88"_s << chain({ st(503, {}, "POST", "k1"), st(200, {}, "POST", "k2") }, { 1000 }) << 0 << 0ll
        << QStringList { u"key-changed"_s } << QStringList();
    QTest::addRow("slen adds a key: a POST without one")
        << u"slen"_s << chain({ st(201, {}, "POST") }, {}) << 0 << 0ll << QStringList { u"key-missing"_s } << QStringList();
    QTest::addRow("reset, not retried by curl without --retry-all-errors")
        << u"curl-7.88"_s << chain({ broken(u"reset"_s) }, {}) << 56 << 0ll << QStringList() << QStringList();
    QTest::addRow("reset, retried anyway") << u"curl-7.88"_s << chain({ broken(u"reset"_s), st(200) }, { 1000 }) << 0 << 0ll
                                           << QStringList { u"retried-not-retryable"_s } << QStringList();
    QTest::addRow("a hang the client left, retried after its timeout (a response timeout)")
        << u"curl-7.88"_s << chain({ broken(u"hang"_s, 3000), st(200) }, { 1000 }) << 0 << 0ll << QStringList()
        << QStringList();
    QTest::addRow("nothing sent") << u"curl-7.88"_s << QList<Ex>() << 7 << 0ll << QStringList { u"no-request"_s }
                                  << QStringList();
}

void TestConformanceJudge::rules()
{
    QFETCH(QString, preset);
    QFETCH(QList<Ex>, attempts);
    QFETCH(int, exitCode);
    QFETCH(qint64, quietAfterMs);
    QFETCH(QStringList, findings);
    QFETCH(QStringList, notes);
    const PolicyParseResult policy = PresetCatalog::load(preset);
    QVERIFY(policy.ok());
    QList<LabExchange> exchanges;
    for (qsizetype i = 0; i < attempts.size(); ++i)
        exchanges << exchange(attempts.at(i), quint64(i + 1));
    const qint64 lastEnd = attempts.isEmpty() ? 0 : attempts.last().arrivedMs + attempts.last().durationMs;
    const QDateTime origin = QDateTime(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC);
    const JudgedRun run = judgedRunOf(exchanges, exitCode < 0 ? std::nullopt : std::optional<int>(exitCode),
        lastEnd + quietAfterMs, origin);
    QCOMPARE(run.record.attempts.size(), attempts.size());
    JudgeOptions options;
    options.wallOrigin = origin;
    ConformanceJudge judge(*policy.policy, options);
    const RunJudgement j = judge.judge(run);
    QStringList sentences;
    for (const ConformanceFinding& f : j.findings + j.notes)
        sentences << f.sentence();
    QVERIFY2(rulesOf(j.findings) == findings, qPrintable(sentences.join(u'\n')));
    QVERIFY2(rulesOf(j.notes) == notes, qPrintable(sentences.join(u'\n')));
    QCOMPARE(j.conforms(), findings.isEmpty());
    for (const ConformanceFinding& f : j.findings) {
        QVERIFY2(!f.observed.isEmpty() && !f.expected.isEmpty(), qPrintable(f.sentence()));
        QVERIFY2(f.sentence().startsWith(findingRuleName(f.rule) + u": "_s), qPrintable(f.sentence()));
    }
    if (!attempts.isEmpty())
        QCOMPARE(j.attempts.size(), attempts.size());
}

void TestConformanceJudge::waitFindingCarriesTheRange()
{
    const PolicyParseResult policy = PresetCatalog::load(u"curl-7.88"_s);
    QVERIFY(policy.ok());
    const QList<Ex> attempts = chain({ st(429, { { "Retry-After", "2" } }), st(200) }, { 210 });
    const JudgedRun run = judgedRunOf({ exchange(attempts.at(0), 1), exchange(attempts.at(1), 2) }, 0, std::nullopt, {});
    ConformanceJudge judge(*policy.policy, {});
    const RunJudgement j = judge.judge(run);
    QCOMPARE(j.findings.size(), 1);
    const ConformanceFinding& f = j.findings.first();
    QCOMPARE(f.attempt, 2);
    QCOMPARE(f.observedWait, Millis(210));
    QCOMPARE(f.expectedLow, Millis(2000));
    QCOMPARE(f.expectedHigh, Millis(2000));
    QCOMPARE(f.toleranceEarly, Millis(250));
    QCOMPARE(f.toleranceLate, Millis(500));
    QVERIFY2(f.observed.contains(u"210 ms"_s) && f.observed.contains(u"Retry-After: 2"_s), qPrintable(f.observed));
    QVERIFY2(f.expected.contains(u"curl-7.88 waits 2 s"_s), qPrintable(f.expected));
}

void TestConformanceJudge::toleranceWidensTheRange_data()
{
    QTest::addColumn<QString>("tolerance");
    QTest::addColumn<qint64>("waitMs");
    QTest::addColumn<bool>("conforms");
    // curl-7.88 after one 503: exactly 1 s.
    QTest::addRow("default, 800 ms is within -250 ms") << QString() << 800ll << true;
    QTest::addRow("default, 700 ms is not") << QString() << 700ll << false;
    QTest::addRow("default, 1.5 s is within +500 ms") << QString() << 1500ll << true;
    QTest::addRow("0.1 both sides, 850 ms is not") << u"0.1"_s << 850ll << false;
    QTest::addRow("0.4:2, 2.9 s is within") << u"0.4:2"_s << 2900ll << true;
}

void TestConformanceJudge::toleranceWidensTheRange()
{
    QFETCH(QString, tolerance);
    QFETCH(qint64, waitMs);
    QFETCH(bool, conforms);
    const PolicyParseResult policy = PresetCatalog::load(u"curl-7.88"_s);
    QVERIFY(policy.ok());
    JudgeOptions options;
    if (!tolerance.isEmpty()) {
        QString error;
        const std::optional<WaitTolerance> t = parseWaitTolerance(tolerance, options.tolerance, &error);
        QVERIFY2(t, qPrintable(error));
        options.tolerance = *t;
        options.tolerance.ratio = 0;
    }
    const QList<Ex> attempts = chain({ st(503), st(200) }, { waitMs });
    ConformanceJudge judge(*policy.policy, options);
    const RunJudgement j = judge.judge(judgedRunOf({ exchange(attempts.at(0), 1), exchange(attempts.at(1), 2) }, 0, std::nullopt, {}));
    QCOMPARE(j.conforms(), conforms);
}

void TestConformanceJudge::ruleNamesRoundTrip()
{
    const QStringList names = findingRuleNames();
    QCOMPARE(names.size(), int(FindingRule::Unplaced) + 1);
    for (const QString& name : names) {
        const std::optional<FindingRule> rule = findingRuleFromName(name);
        QVERIFY(rule);
        QCOMPARE(findingRuleName(*rule), name);
    }
    QVERIFY(!findingRuleFromName(u"no-such-rule"_s));
    QString error;
    QVERIFY(!parseWaitTolerance(u"-1"_s, {}, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!parseWaitTolerance(u"1:2:3"_s, {}, &error));
    QVERIFY(!parseWaitTolerance(u"abc"_s, {}, &error));
}

// Every preset, stateful ones (decorrelated backoff, retry quotas) included: a client that takes exactly the
// waits the policy draws (decide() with a seeded random source) after a run of 503s conforms, and the same
// run with one wait pushed far past the policy's range is found out — unless the policy never retried.
void TestConformanceJudge::aClientDoingWhatThePolicyDoesConforms_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<quint64>("seed");
    for (const QString& name : PresetCatalog::names()) {
        for (quint64 seed : { 1u, 7u })
            QTest::addRow("%s, seed %llu", qPrintable(name), static_cast<unsigned long long>(seed)) << name << seed;
    }
}

void TestConformanceJudge::aClientDoingWhatThePolicyDoesConforms()
{
    QFETCH(QString, preset);
    QFETCH(quint64, seed);
    const PolicyParseResult parsed = PresetCatalog::load(preset);
    QVERIFY(parsed.ok());
    const RetryPolicy& policy = *parsed.policy;
    const QDateTime origin = QDateTime(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC);
    SeededRandomSource random(seed);
    BackoffState backoff;
    QList<Ex> attempts;
    QList<qint64> waits;
    bool retried = true;
    qint64 at = 1000;
    for (int i = 1; i <= 4 && retried; ++i) {
        Ex x = st(503);
        x.arrivedMs = at;
        attempts << x;
        DecisionContext context;
        context.attempt = i;
        context.elapsed = Millis(at + x.durationMs - attempts.first().arrivedMs);
        context.now = origin.addMSecs(at + x.durationMs);
        const RetryDecision d = decide(policy, RequestFacts {}, AttemptOutcome::answered(503), context, backoff, random);
        retried = d.verdict == Verdict::Retry;
        if (retried) {
            waits << d.delay.count();
            at += x.durationMs + d.delay.count();
        }
    }
    if (retried) { // the policy would go on: the server answers at last
        Ex ok = st(200);
        ok.arrivedMs = at;
        attempts << ok;
    }
    const auto judgeOf = [&](const QList<Ex>& list) {
        QList<LabExchange> exchanges;
        for (qsizetype i = 0; i < list.size(); ++i)
            exchanges << exchange(list.at(i), quint64(i + 1));
        JudgeOptions options;
        options.wallOrigin = origin;
        ConformanceJudge judge(policy, options);
        return judge.judge(judgedRunOf(exchanges, retried ? 0 : 1, std::nullopt, origin));
    };
    const RunJudgement faithful = judgeOf(attempts);
    QStringList sentences;
    for (const ConformanceFinding& f : faithful.findings)
        sentences << f.sentence();
    QVERIFY2(faithful.conforms(), qPrintable(sentences.join(u'\n')));
    if (waits.isEmpty())
        return;
    QList<Ex> late = attempts;
    for (qsizetype i = 1; i < late.size(); ++i)
        late[i].arrivedMs += 60000 + 4 * waits.first(); // the first wait far longer than drawn
    const RunJudgement found = judgeOf(late);
    QVERIFY2(rulesOf(found.findings).contains(u"wait"_s), qPrintable(preset));
}

QTEST_GUILESS_MAIN(TestConformanceJudge)
#include "tst_conformancejudge.moc"
