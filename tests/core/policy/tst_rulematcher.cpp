// SPDX-License-Identifier: GPL-3.0-or-later
// Rule conditions: every condition a rule can set, alone, as a table.
#include "policy/rulematcher.h"

#include <QtTest>

using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(RuleCondition)
Q_DECLARE_METATYPE(AttemptOutcome)
Q_DECLARE_METATYPE(RequestFacts)

namespace {

RequestFacts get()
{
    return RequestFacts {};
}

RequestFacts method(const QString& m, bool key = false, bool lost = false)
{
    return RequestFacts { m, key, true, lost };
}

} // namespace

class TestRuleMatcher : public QObject
{
    Q_OBJECT
private slots:
    void matches_data()
    {
        QTest::addColumn<RuleCondition>("when");
        QTest::addColumn<RequestFacts>("request");
        QTest::addColumn<AttemptOutcome>("outcome");
        QTest::addColumn<bool>("expected");

        RuleCondition any;
        QTest::addRow("empty condition matches a status") << any << get() << AttemptOutcome::answered(200) << true;
        QTest::addRow("empty condition matches an error") << any << get() << AttemptOutcome::failed(ErrorClass::Tls) << true;

        RuleCondition statusOnly;
        statusOnly.outcome = OutcomeKind::Status;
        QTest::addRow("status kind rejects errors") << statusOnly << get() << AttemptOutcome::failed(ErrorClass::Dns) << false;

        RuleCondition range;
        range.statuses = { StatusRange { 500, 599 } };
        QTest::addRow("range contains 503") << range << get() << AttemptOutcome::answered(503) << true;
        QTest::addRow("range excludes 429") << range << get() << AttemptOutcome::answered(429) << false;
        QTest::addRow("statuses never match an error") << range << get() << AttemptOutcome::failed(ErrorClass::Protocol) << false;

        RuleCondition methods;
        methods.methods = { u"GET"_s, u"DELETE"_s };
        QTest::addRow("method in set") << methods << method(u"delete"_s) << AttemptOutcome::answered(503) << true;
        QTest::addRow("method not in set") << methods << method(u"POST"_s) << AttemptOutcome::answered(503) << false;

        RuleCondition keyed;
        keyed.idempotencyKey = true;
        QTest::addRow("key required, present") << keyed << method(u"POST"_s, true) << AttemptOutcome::answered(502) << true;
        QTest::addRow("key required, absent") << keyed << method(u"POST"_s) << AttemptOutcome::answered(502) << false;

        RuleCondition errors;
        errors.errors = { ErrorClass::Refused, ErrorClass::Dns };
        QTest::addRow("error class listed") << errors << get() << AttemptOutcome::failed(ErrorClass::Refused) << true;
        QTest::addRow("error class not listed") << errors << get() << AttemptOutcome::failed(ErrorClass::Tls) << false;

        RuleCondition neverActed;
        neverActed.serverCouldHaveActed = false;
        QTest::addRow("tls proves no action") << neverActed << get() << AttemptOutcome::failed(ErrorClass::Tls) << true;
        QTest::addRow("connect-timeout proves no action") << neverActed << get() << AttemptOutcome::failed(ErrorClass::ConnectTimeout) << true;
        QTest::addRow("connection-lost may have acted") << neverActed << get() << AttemptOutcome::failed(ErrorClass::ConnectionLost) << false;
        QTest::addRow("an answer proves the server saw it") << neverActed << get() << AttemptOutcome::answered(503) << false;

        RuleCondition body;
        body.body = BodyMatch { u"errors[0].code"_s, { u"rate_limited"_s } };
        QTest::addRow("seed-000 body code") << body << get()
                                            << AttemptOutcome::answered(429, {}, R"({"errors":[{"code":"rate_limited","detail":"Too many requests."}]})")
                                            << true;
        QTest::addRow("other body code") << body << get() << AttemptOutcome::answered(429, {}, R"({"errors":[{"code":"plan_limit"}]})") << false;
        QTest::addRow("body not JSON") << body << get() << AttemptOutcome::answered(429, {}, "Too many") << false;
        QTest::addRow("index out of range") << body << get() << AttemptOutcome::answered(429, {}, R"({"errors":[]})") << false;

        RuleCondition header;
        header.headers = { HeaderMatch { u"Stripe-Should-Retry"_s, { u"true"_s }, false } };
        QTest::addRow("header value, case-insensitive") << header << get()
                                                        << AttemptOutcome::answered(429, { { "stripe-should-retry", "TRUE" } }) << true;
        QTest::addRow("header other value") << header << get() << AttemptOutcome::answered(429, { { "Stripe-Should-Retry", "false" } }) << false;
        RuleCondition absent;
        absent.headers = { HeaderMatch { u"Retry-After"_s, {}, true } };
        QTest::addRow("header absent required, absent") << absent << get() << AttemptOutcome::answered(503) << true;
        QTest::addRow("header absent required, present") << absent << get() << AttemptOutcome::answered(503, { { "Retry-After", "1" } }) << false;

        RuleCondition lost;
        lost.afterLostAnswer = true;
        QTest::addRow("after lost answer") << lost << method(u"DELETE"_s, false, true) << AttemptOutcome::answered(404) << true;
        QTest::addRow("no answer was lost") << lost << method(u"DELETE"_s) << AttemptOutcome::answered(404) << false;
    }

    void matches()
    {
        QFETCH(RuleCondition, when);
        QFETCH(RequestFacts, request);
        QFETCH(AttemptOutcome, outcome);
        QTEST(conditionMatches(when, request, outcome), "expected");
    }

    void jsonPaths_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected"); // "<none>" for nullopt
        QTest::addRow("nested") << QByteArray(R"({"error":{"type":"service_unavailable"}})") << u"error.type"_s << u"service_unavailable"_s;
        QTest::addRow("array root") << QByteArray(R"([{"code":1}])") << u"[0].code"_s << u"1"_s;
        QTest::addRow("boolean") << QByteArray(R"({"ok":false})") << u"ok"_s << u"false"_s;
        QTest::addRow("object is not a scalar") << QByteArray(R"({"a":{"b":1}})") << u"a"_s << u"<none>"_s;
        QTest::addRow("unclosed bracket") << QByteArray(R"({"a":[1]})") << u"a[0"_s << u"<none>"_s;
        QTest::addRow("negative index") << QByteArray(R"({"a":[1]})") << u"a[-1]"_s << u"<none>"_s;
        QTest::addRow("empty body") << QByteArray() << u"a"_s << u"<none>"_s;
    }

    void jsonPaths()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, path);
        const std::optional<QString> value = jsonBodyValue(body, path);
        QTEST(value.value_or(u"<none>"_s), "expected");
    }

    void firstMatchWins()
    {
        RetryPolicy p;
        RetryRule stop;
        stop.name = u"first"_s;
        stop.when.statuses = { StatusRange { 503, 503 } };
        stop.action = RuleAction::Stop;
        RetryRule retry = stop;
        retry.name = u"second"_s;
        retry.action = RuleAction::Retry;
        p.rules = { stop, retry };
        const RetryRule* matched = firstMatchingRule(p, get(), AttemptOutcome::answered(503));
        QVERIFY(matched);
        QCOMPARE(matched->name, u"first"_s);
        QCOMPARE(firstMatchingRule(p, get(), AttemptOutcome::answered(200)), nullptr);
    }
};

QTEST_GUILESS_MAIN(TestRuleMatcher)
#include "tst_rulematcher.moc"
