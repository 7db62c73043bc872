// SPDX-License-Identifier: GPL-3.0-or-later
// `--set PATH=VALUE` (issue 27 §4): a preset takes the client's settings. A setting is parsed (PATH as a
// policy file spells it, VALUE as JSON or else text), applied to the policy's file form and read back by
// the file's own reader, so every refusal carries the same field path and message a file would get; the
// changes are worked out by one diff (PolicyChanges::between) that reports, sessions and the policy
// editor share.
#include "policy/policyjson.h"
#include "policy/presetcatalog.h"
#include "policy/settings/policychanges.h"
#include "policy/settings/policysetting.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

RetryPolicy preset(const QString& name)
{
    const PolicyParseResult loaded = PresetCatalog::load(name);
    if (!loaded.ok())
        qFatal("preset %s does not load", qPrintable(name));
    return *loaded.policy;
}

QJsonValue json(const char* text)
{
    return QJsonDocument::fromJson(QByteArray("[") + text + "]").array().first();
}

// ASSIGNMENTS parsed and applied to PRESET; a failed parse is a test failure.
PolicyParseResult applied(const QString& presetName, const QStringList& assignments)
{
    QList<PolicySetting> settings;
    for (const QString& assignment : assignments) {
        QString error;
        const std::optional<PolicySetting> setting = PolicySetting::parse(assignment, &error);
        if (!setting)
            qFatal("%s does not parse: %s", qPrintable(assignment), qPrintable(error));
        settings << *setting;
    }
    return applyPolicySettings(preset(presetName), settings);
}

QStringList texts(const QList<PolicyChange>& changes)
{
    QStringList out;
    for (const PolicyChange& change : changes)
        out << change.text();
    return out;
}

} // namespace

class TestPolicySettings : public QObject
{
    Q_OBJECT

private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addRow("a number") << u"limits.max_retries=3"_s << u"limits.max_retries"_s << QJsonValue(3);
        QTest::addRow("a fraction") << u"backoff.multiplier=1.5"_s << u"backoff.multiplier"_s << QJsonValue(1.5);
        QTest::addRow("true") << u"hints[0].jittered=true"_s << u"hints[0].jittered"_s << QJsonValue(true);
        QTest::addRow("null") << u"backoff.cap_ms=null"_s << u"backoff.cap_ms"_s << QJsonValue(QJsonValue::Null);
        QTest::addRow("a quoted string stays a string") << u"idempotency.header=\"true\""_s << u"idempotency.header"_s
                                                        << QJsonValue(u"true"_s);
        QTest::addRow("an array") << u"rules[4].when.methods=[\"GET\", \"HEAD\"]"_s << u"rules[4].when.methods"_s
                                  << json(R"(["GET","HEAD"])");
        QTest::addRow("an object") << u"jitter={\"kind\": \"full\"}"_s << u"jitter"_s << json(R"({"kind":"full"})");
        QTest::addRow("text that is not JSON") << u"rules[2].action=stop"_s << u"rules[2].action"_s << QJsonValue(u"stop"_s);
        QTest::addRow("text with spaces") << u"description=curl with --retry 3"_s << u"description"_s
                                          << QJsonValue(u"curl with --retry 3"_s);
        QTest::addRow("two JSON values are text") << u"idempotency.prefix=1,2"_s << u"idempotency.prefix"_s << QJsonValue(u"1,2"_s);
        QTest::addRow("nothing after = is empty text") << u"idempotency.prefix="_s << u"idempotency.prefix"_s << QJsonValue(QString());
        QTest::addRow("an = in the value") << u"idempotency.prefix=a=b"_s << u"idempotency.prefix"_s << QJsonValue(u"a=b"_s);
        QTest::addRow("spaces around the path") << u" limits.max_retries =3"_s << u"limits.max_retries"_s << QJsonValue(3);
        QTest::addRow("a text that closes the wrapping array") << u"name=1],[2"_s << u"name"_s << QJsonValue(u"1],[2"_s);
    }

    void parses()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QString error;
        const std::optional<PolicySetting> setting = PolicySetting::parse(assignment, &error);
        QVERIFY2(setting, qPrintable(error));
        QCOMPARE(setting->path, path);
        QCOMPARE(setting->value, value);
    }

    void parseRefuses_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("error");
        const QString notAPath = u" is not a field path: keys joined by dots, [N] for an element of an array"_s;
        QTest::addRow("no =") << u"limits.max_retries"_s << u"\"limits.max_retries\" is not PATH=VALUE (e.g. limits.max_retries=3)"_s;
        QTest::addRow("no path") << u"=3"_s << u"\"\""_s + notAPath;
        QTest::addRow("two dots") << u"limits..max_retries=3"_s << u"\"limits..max_retries\""_s + notAPath;
        QTest::addRow("a trailing dot") << u"limits.=3"_s << u"\"limits.\""_s + notAPath;
        QTest::addRow("a leading dot") << u".limits=3"_s << u"\".limits\""_s + notAPath;
        QTest::addRow("an index first") << u"[0]=1"_s << u"\"[0]\""_s + notAPath;
        QTest::addRow("an unclosed index") << u"rules[1.action=stop"_s << u"\"rules[1.action\""_s + notAPath;
        QTest::addRow("a negative index") << u"rules[-1].action=stop"_s << u"\"rules[-1].action\""_s + notAPath;
        QTest::addRow("an empty index") << u"rules[].action=stop"_s << u"\"rules[].action\""_s + notAPath;
        QTest::addRow("a key right after an index") << u"rules[0]action=stop"_s << u"\"rules[0]action\""_s + notAPath;
        QTest::addRow("a space inside") << u"limits.max retries=3"_s << u"\"limits.max retries\""_s + notAPath;
        QTest::addRow("an index too long") << u"rules[1234567890].action=stop"_s << u"\"rules[1234567890].action\""_s + notAPath;
    }

    void parseRefuses()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, error);
        QString got;
        QVERIFY(!PolicySetting::parse(assignment, &got));
        QVERIFY2(got.startsWith(error), qPrintable(got));
    }

    // Applied to a preset: the policy read back, and the changes the diff finds, as reports print them.
    void applies_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<QStringList>("changes");
        QTest::addRow("curl --retry 3 (README): curl-7.88 models --retry 7")
            << u"curl-7.88"_s << QStringList { u"limits.max_retries=3"_s } << QStringList { u"limits.max_retries 7 → 3"_s };
        QTest::addRow("a number") << u"curl-7.88"_s << QStringList { u"backoff.base_ms=500"_s }
                                  << QStringList { u"backoff.base_ms 1000 → 500"_s };
        QTest::addRow("text in an array's element") << u"curl-7.88"_s << QStringList { u"rules[4].action=stop"_s }
                                                    << QStringList { u"rules[4].action \"retry\" → \"stop\""_s };
        QTest::addRow("null: uncapped") << u"curl-7.88"_s << QStringList { u"backoff.cap_ms=null"_s }
                                        << QStringList { u"backoff.cap_ms 600000 → null"_s };
        QTest::addRow("a key the preset leaves out") << u"curl-7.88"_s << QStringList { u"rules[4].when.methods=[\"get\"]"_s }
                                                     << QStringList { u"rules[4].when.methods (absent) → [\"GET\"]"_s };
        QTest::addRow("an object the preset leaves out comes into being")
            << u"curl-7.88"_s << QStringList { u"rules[0].when.body.path=error.code"_s }
            << QStringList { u"rules[0].when.body (absent) → {\"path\":\"error.code\",\"values\":[]}"_s };
        QTest::addRow("nested in an array of objects") << u"curl-7.88"_s << QStringList { u"hints[0].max_ms=30000"_s }
                                                       << QStringList { u"hints[0].max_ms null → 30000"_s };
        QTest::addRow("an element of a list of statuses: the list whole")
            << u"curl-7.88"_s << QStringList { u"rules[4].when.statuses[5]=599"_s }
            << QStringList { u"rules[4].when.statuses [\"408\",\"429\",\"500\",\"502\",\"503\",\"504\"] → [\"408\",\"429\",\"500\",\"502\",\"503\",\"599\"]"_s };
        QTest::addRow("a whole object: the fields it leaves out take their defaults")
            << u"curl-7.88"_s << QStringList { u"jitter={\"kind\": \"full\"}"_s } << QStringList { u"jitter.kind \"none\" → \"full\""_s };
        QTest::addRow("several, in the file's key order") << u"curl-7.88"_s
                                                          << QStringList { u"limits.max_retries=3"_s, u"backoff.base_ms=500"_s }
                                                          << QStringList { u"backoff.base_ms 1000 → 500"_s, u"limits.max_retries 7 → 3"_s };
        QTest::addRow("the same field twice: the last wins") << u"curl-7.88"_s
                                                             << QStringList { u"backoff.base_ms=500"_s, u"backoff.base_ms=250"_s }
                                                             << QStringList { u"backoff.base_ms 1000 → 250"_s };
        QTest::addRow("set to what it was: no change") << u"curl-7.88"_s << QStringList { u"limits.max_retries=7"_s } << QStringList();
        QTest::addRow("max_attempts replaces max_retries") << u"curl-7.88"_s << QStringList { u"limits.max_attempts=4"_s }
                                                           << QStringList { u"limits.max_attempts 8 → 4"_s };
        QTest::addRow("max_retries replaces max_attempts") << u"aws-standard"_s << QStringList { u"limits.max_retries=4"_s }
                                                           << QStringList { u"limits.max_retries 2 → 4"_s };
        QTest::addRow("both spellings, agreeing") << u"curl-7.88"_s
                                                  << QStringList { u"limits.max_attempts=4"_s, u"limits.max_retries=3"_s }
                                                  << QStringList { u"limits.max_attempts 8 → 4"_s };
    }

    void applies()
    {
        QFETCH(QString, preset);
        QFETCH(QStringList, settings);
        QFETCH(QStringList, changes);
        const PolicyParseResult result = applied(preset, settings);
        QVERIFY2(result.ok(), qPrintable(result.problems.value(0).path + u": "_s + result.problems.value(0).message));
        QCOMPARE(texts(PolicyChanges::between(::preset(preset), *result.policy)), changes);
    }

    void appliedPolicyDecides()
    {
        // Not only the text: the policy applied is the one decided by (curl --retry 3 makes 4 attempts).
        const PolicyParseResult result = applied(u"curl-7.88"_s, { u"limits.max_retries=3"_s, u"rules[4].when.methods=[\"GET\"]"_s });
        QVERIFY(result.ok());
        QCOMPARE(result.policy->limits.maxAttempts, 4);
        QCOMPARE(result.policy->limits.countedAs, AttemptCounting::Retries);
        QCOMPARE(result.policy->rules.at(4).when.methods, QStringList { u"GET"_s });
        RetryPolicy expected = preset(u"curl-7.88"_s);
        expected.limits.maxAttempts = 4;
        expected.rules[4].when.methods = { u"GET"_s };
        QCOMPARE(*result.policy, expected);
    }

    // Every refusal names the field's path, with the message a policy file gets for the same mistake.
    void refuses_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message");
        QTest::addRow("a key the schema does not have") << u"curl-7.88"_s << QStringList { u"limits.max_retry=3"_s }
                                                        << u"limits.max_retry"_s << u"is not a known field"_s;
        QTest::addRow("a top-level key the schema does not have") << u"curl-7.88"_s << QStringList { u"retries=3"_s }
                                                                  << u"retries"_s << u"is not a known field"_s;
        QTest::addRow("a key the schema does not have, in an element")
            << u"curl-7.88"_s << QStringList { u"rules[4].when.status=503"_s } << u"rules[4].when.status"_s << u"is not a known field"_s;
        QTest::addRow("an unknown key inside an object that comes into being")
            << u"curl-7.88"_s << QStringList { u"rules[0].when.body.field=x"_s } << u"rules[0].when.body.field"_s
            << u"is not a known field"_s;
        QTest::addRow("an index out of range") << u"curl-7.88"_s << QStringList { u"rules[5].action=stop"_s } << u"rules[5]"_s
                                               << u"is out of range: rules has 5 element(s), [0] to [4]"_s;
        QTest::addRow("an index into a list the preset leaves out")
            << u"curl-7.88"_s << QStringList { u"rules[0].when.headers[0].name=x"_s } << u"rules[0].when.headers[0]"_s
            << u"is out of range: rules[0].when.headers is empty"_s;
        QTest::addRow("an index into an empty list") << u"urllib3"_s << QStringList { u"hints[0].statuses[0]=503"_s }
                                                     << u"hints[0].statuses[0]"_s << u"is out of range: hints[0].statuses is empty"_s;
        QTest::addRow("a key on an array") << u"curl-7.88"_s << QStringList { u"rules.action=stop"_s } << u"rules"_s
                                           << u"is an array, not an object: it has no field \"action\""_s;
        QTest::addRow("an index on an object") << u"curl-7.88"_s << QStringList { u"limits[0]=1"_s } << u"limits"_s
                                               << u"is an object, not an array: it has no element [0]"_s;
        QTest::addRow("a key under a number") << u"curl-7.88"_s << QStringList { u"limits.max_retries.x=1"_s }
                                              << u"limits.max_retries"_s << u"is a number, not an object: it has no field \"x\""_s;
        QTest::addRow("a key under null") << u"curl-7.88"_s << QStringList { u"backoff.throttling_base_ms.x=1"_s } << u"backoff.throttling_base_ms"_s
                                          << u"is null, not an object: it has no field \"x\""_s;
        QTest::addRow("text for a number") << u"curl-7.88"_s << QStringList { u"limits.max_retries=three"_s }
                                           << u"limits.max_retries"_s << u"must be a number, not a string"_s;
        QTest::addRow("a fraction for a count") << u"curl-7.88"_s << QStringList { u"limits.max_retries=2.5"_s }
                                                << u"limits.max_retries"_s << u"must be a whole number within ±2147483647, not 2.5"_s;
        QTest::addRow("a number for a boolean") << u"curl-7.88"_s << QStringList { u"hints[0].jittered=1"_s }
                                                << u"hints[0].jittered"_s << u"must be true or false, not a number"_s;
        QTest::addRow("a word the enumeration does not have") << u"curl-7.88"_s << QStringList { u"backoff.kind=quadratic"_s }
                                                              << u"backoff.kind"_s
                                                              << u"must be one of none, constant, linear, exponential, decorrelated, decorrelated-v2"_s;
        QTest::addRow("an action the rules do not have") << u"curl-7.88"_s << QStringList { u"rules[4].action=later"_s }
                                                         << u"rules[4].action"_s << u"must be one of retry, stop, success"_s;
        QTest::addRow("validate(): a negative delay") << u"curl-7.88"_s << QStringList { u"backoff.base_ms=-1"_s }
                                                      << u"backoff.base_ms"_s << u"must not be negative (it is -1 ms)"_s;
        QTest::addRow("validate(): a cap below the base") << u"curl-7.88"_s << QStringList { u"backoff.cap_ms=10"_s }
                                                          << u"backoff.cap_ms"_s << u"(10 ms) is below the base delay (1000 ms)"_s;
        QTest::addRow("a status that is not one") << u"curl-7.88"_s << QStringList { u"rules[4].when.statuses[0]=abc"_s }
                                                  << u"rules[4].when.statuses[0]"_s << u"is not a status code or a range like \"500-599\""_s;
        QTest::addRow("both spellings of the limit, disagreeing")
            << u"curl-7.88"_s << QStringList { u"limits.max_attempts=4"_s, u"limits.max_retries=7"_s } << u"limits.max_retries"_s
            << u"says 7 retries but max_attempts says 4 attempts; give one of them"_s;
        QTest::addRow("the format's name") << u"curl-7.88"_s << QStringList { u"format=har"_s } << u"format"_s
                                           << u"must be \"retrylab-policy\""_s;
    }

    void refuses()
    {
        QFETCH(QString, preset);
        QFETCH(QStringList, settings);
        QFETCH(QString, path);
        QFETCH(QString, message);
        const PolicyParseResult result = applied(preset, settings);
        QVERIFY(!result.ok());
        QVERIFY(!result.policy);
        QVERIFY2(result.problems.contains(PolicyProblem { path, message }),
            qPrintable(result.problems.value(0).path + u": "_s + result.problems.value(0).message));
    }

    void refusesEveryBadSettingAtOnce()
    {
        const PolicyParseResult result = applied(u"curl-7.88"_s,
            { u"rules[9].action=stop"_s, u"limits.max_retry=3"_s, u"backoff.kind=quadratic"_s, u"backoff.base_ms=500"_s });
        QVERIFY(!result.ok());
        // The setting that could not be placed first, then what the reader says of the rest.
        QStringList paths;
        for (const PolicyProblem& p : result.problems)
            paths << p.path;
        QCOMPARE(paths.size(), 3);
        QCOMPARE(paths.first(), u"rules[9]"_s);
        paths.removeFirst();
        paths.sort();
        QCOMPARE(paths, (QStringList { u"backoff.kind"_s, u"limits.max_retry"_s }));
    }

    void refusesAPathGivenUnparsed()
    {
        const PolicyParseResult result = applyPolicySettings(preset(u"curl-7.88"_s), { PolicySetting { u"limits..x"_s, QJsonValue(1) } });
        QVERIFY(!result.ok());
        QCOMPARE(result.problems.first().path, u"limits..x"_s);
        QVERIFY(result.problems.first().message.startsWith(u"is not a field path"_s));
    }

    // The diff alone, as the policy editor uses it (rules added and removed, not only values changed).
    void diff_data()
    {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QStringList>("changes");
        QTest::addRow("nothing") << u"none"_s << QStringList();
        QTest::addRow("a rule added at the end") << u"add-rule"_s
                                                 << QStringList { u"rules[5] (absent) → {\"action\":\"stop\",\"name\":\"x\",\"when\":{\"outcome\":\"any\"}}"_s };
        QTest::addRow("the last rule removed") << u"remove-rule"_s
                                               << QStringList { u"rules[4] {\"action\":\"retry\",\"name\":\"transient-http\",\"note\":\"HTTP 408,… → (absent)"_s };
        QTest::addRow("a rule's field and a limit") << u"two-fields"_s
                                                    << QStringList { u"limits.deadline_ms null → 60000"_s, u"rules[1].name \"dns\" → \"resolver\""_s };
        QTest::addRow("the same limit counted the other way: no change") << u"counted"_s << QStringList();
    }

    void diff()
    {
        QFETCH(QString, edit);
        QFETCH(QStringList, changes);
        const RetryPolicy before = preset(u"curl-7.88"_s);
        RetryPolicy after = before;
        if (edit == u"add-rule"_s)
            after.rules << RetryRule { u"x"_s, {}, RuleAction::Stop, false, {} };
        else if (edit == u"remove-rule"_s)
            after.rules.removeLast();
        else if (edit == u"two-fields"_s)
            after.limits.deadline = Millis(60000), after.rules[1].name = u"resolver"_s;
        else if (edit == u"counted"_s)
            after.limits.countedAs = AttemptCounting::Attempts;
        QCOMPARE(texts(PolicyChanges::between(before, after)), changes);
    }

    void text_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<qsizetype>("shown");
        QTest::addColumn<QString>("text");
        QTest::addRow("a preset") << int(PolicyChanges::BaseKind::Preset) << qsizetype(-1)
                                  << u"preset curl-7.88, changed: backoff.base_ms 1000 → 500, limits.max_retries 7 → 3"_s;
        QTest::addRow("a file") << int(PolicyChanges::BaseKind::File) << qsizetype(-1)
                                << u"policy file curl-7.88, changed: backoff.base_ms 1000 → 500, limits.max_retries 7 → 3"_s;
        QTest::addRow("another policy") << int(PolicyChanges::BaseKind::Policy) << qsizetype(-1)
                                        << u"policy curl-7.88, changed: backoff.base_ms 1000 → 500, limits.max_retries 7 → 3"_s;
        QTest::addRow("the first only") << int(PolicyChanges::BaseKind::Preset) << qsizetype(1)
                                        << u"preset curl-7.88, changed: backoff.base_ms 1000 → 500 and 1 more"_s;
        QTest::addRow("none listed") << int(PolicyChanges::BaseKind::Preset) << qsizetype(0)
                                     << u"preset curl-7.88, changed: 2 field(s)"_s;
    }

    void text()
    {
        QFETCH(int, kind);
        QFETCH(qsizetype, shown);
        QFETCH(QString, text);
        const PolicyParseResult result = applied(u"curl-7.88"_s, { u"limits.max_retries=3"_s, u"backoff.base_ms=500"_s });
        QVERIFY(result.ok());
        const PolicyChanges changes { u"curl-7.88"_s, PolicyChanges::BaseKind(kind),
            PolicyChanges::between(preset(u"curl-7.88"_s), *result.policy) };
        QCOMPARE(changes.text(shown), text);
        QCOMPARE((PolicyChanges { u"curl-7.88"_s, PolicyChanges::BaseKind::Preset, {} }.text()), u"preset curl-7.88"_s);
    }

    void jsonRoundTrips()
    {
        RetryPolicy after = preset(u"curl-7.88"_s);
        after.limits.maxAttempts = 4;
        after.rules << RetryRule { u"x"_s, {}, RuleAction::Stop, false, {} };
        after.rules[4].when.methods = { u"GET"_s };
        const PolicyChanges changes { u"my policy.json"_s, PolicyChanges::BaseKind::File,
            PolicyChanges::between(preset(u"curl-7.88"_s), after) };
        QCOMPARE(changes.changes.size(), 3);
        const QJsonObject o = changes.toJson();
        QCOMPARE(o.value(u"base_kind"_s).toString(), u"file"_s);
        const QJsonArray list = o.value(u"changes"_s).toArray();
        QCOMPARE(list.at(0).toObject(), (QJsonObject { { u"path"_s, u"limits.max_retries"_s }, { u"from"_s, 7 }, { u"to"_s, 3 } }));
        QVERIFY(!list.at(1).toObject().contains(u"from"_s)); // rules[4].when.methods: not there before
        QVERIFY(!list.at(2).toObject().contains(u"from"_s)); // rules[5]: added
        QString problem;
        const std::optional<PolicyChanges> back = PolicyChanges::fromJson(o, &problem);
        QVERIFY2(back, qPrintable(problem));
        QCOMPARE(*back, changes);
    }

    void jsonRefuses_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("problem");
        QTest::addRow("no base") << QByteArray(R"({"base_kind":"preset","changes":[]})")
                                 << u"base: must be a string, the preset's name or the policy file"_s;
        QTest::addRow("another kind of base") << QByteArray(R"({"base":"x","base_kind":"url","changes":[]})")
                                              << u"base_kind: must be one of preset, file, policy"_s;
        QTest::addRow("no changes") << QByteArray(R"({"base":"x","base_kind":"preset"})") << u"changes: must be an array"_s;
        QTest::addRow("a change without a path") << QByteArray(R"({"base":"x","base_kind":"preset","changes":[{"to":3}]})")
                                                 << u"changes[0]: must be an object with a \"path\""_s;
        QTest::addRow("a change with another field")
            << QByteArray(R"({"base":"x","base_kind":"preset","changes":[{"path":"a","was":3}]})") << u"changes[0].was: is not a known field"_s;
        QTest::addRow("another field") << QByteArray(R"({"base":"x","base_kind":"preset","changes":[],"by":"me"})")
                                       << u"by: is not a known field"_s;
    }

    void jsonRefuses()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, problem);
        QString got;
        QVERIFY(!PolicyChanges::fromJson(QJsonDocument::fromJson(json).object(), &got));
        QCOMPARE(got, problem);
    }
};

QTEST_GUILESS_MAIN(TestPolicySettings)
#include "tst_policysettings.moc"
