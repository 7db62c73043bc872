// SPDX-License-Identifier: GPL-3.0-or-later
// Every export target against every built-in preset (issue 30 §1–2): a unit that names the policy, Retrylab's
// version and the target's in its header, lists exactly the lost behaviours it reports (none hidden, none
// invented), is the same twice, and refuses a version the target does not write for. The per-target tests
// (tst_export_*) prove what the code does; this one holds every target to the shared contract.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "policy/presetcatalog.h"

#include <QTest>

using namespace Qt::StringLiterals;

class TestCodeTargets : public QObject
{
    Q_OBJECT

private slots:
    void registry();
    void everyPreset_data();
    void everyPreset();
    void unknownVersionIsRefused();
    void names_data();
    void names();
    void literals();
    void commonLosses();
};

void TestCodeTargets::registry()
{
    const QStringList ids = CodeTargets::ids();
    QCOMPARE(QSet<QString>(ids.cbegin(), ids.cend()).size(), ids.size()); // no id twice
    for (const CodeTarget& t : CodeTargets::all()) {
        QVERIFY2(!t.versions.isEmpty(), qPrintable(t.id));
        QVERIFY2(t.generate, qPrintable(t.id));
        QVERIFY2(CodeTargets::fileSuffix(t.language) != u"txt", qPrintable(t.id + u": language "_s + t.language));
        QCOMPARE(CodeTargets::find(t.id.toUpper()), &t);
    }
    QCOMPARE(CodeTargets::find(u"no-such-library"_s), nullptr);
}

void TestCodeTargets::everyPreset_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("preset");
    for (const CodeTarget& t : CodeTargets::all())
        for (const QString& v : t.versions)
            for (const QString& p : PresetCatalog::names())
                QTest::addRow("%s %s %s", qPrintable(t.id), qPrintable(v), qPrintable(p)) << t.id << v << p;
}

void TestCodeTargets::everyPreset()
{
    QFETCH(QString, target);
    QFETCH(QString, version);
    QFETCH(QString, preset);
    const PolicyParseResult parsed = PresetCatalog::load(preset);
    QVERIFY(parsed.ok());
    const CodeTarget* t = CodeTargets::find(target);
    QString error;
    const std::optional<CodeExport> e = exportPolicy(*t, *parsed.policy, version, &error);
    QVERIFY2(e, qPrintable(error));
    QVERIFY(e->code.endsWith(u'\n'));
    const QString head = e->code.left(e->code.indexOf(u"\n\n"_s) > 0 ? e->code.size() : e->code.size());
    QVERIFY2(head.contains(u"\"%1\""_s.arg(preset)), qPrintable(e->code.left(400)));
    QVERIFY(head.contains(QStringLiteral(RETRYLAB_VERSION)));
    QVERIFY2(head.contains(t->title + u' ' + version), qPrintable(e->code.left(400)));
    // Each lost behaviour is in the code's own header, and nothing is called exact that lost something.
    for (const LostBehaviour& l : e->lost) {
        QVERIFY(!l.path.isEmpty());
        QVERIFY(!l.what.isEmpty());
        QVERIFY2(e->code.contains(u"- "_s + l.path + u':'), qPrintable(l.path));
    }
    QCOMPARE(e->code.contains(u"Exact: every behaviour"_s), e->exact());
    // The same policy gives the same unit.
    const std::optional<CodeExport> again = exportPolicy(*t, *parsed.policy, version, &error);
    QCOMPARE(again->code, e->code);
    QCOMPARE(again->lost, e->lost);
}

void TestCodeTargets::unknownVersionIsRefused()
{
    const PolicyParseResult parsed = PresetCatalog::load(u"slen"_s);
    for (const CodeTarget& t : CodeTargets::all()) {
        QString error;
        QVERIFY(!exportPolicy(t, *parsed.policy, u"0.0.1-none"_s, &error));
        QVERIFY2(error.contains(u"0.0.1-none"_s) && error.contains(t.versions.first()), qPrintable(error));
        QVERIFY(exportPolicy(t, *parsed.policy, QString(), &error)); // empty: the default version
    }
}

void TestCodeTargets::names_data()
{
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("snake");
    QTest::addColumn<QString>("camel");
    QTest::addColumn<QString>("pascal");
    QTest::newRow("plain") << u"slen"_s << u"slen"_s << u"slen"_s << u"Slen"_s;
    QTest::newRow("dashes") << u"aws-standard"_s << u"aws_standard"_s << u"awsStandard"_s << u"AwsStandard"_s;
    QTest::newRow("dots and digits") << u"curl-7.88"_s << u"curl_7_88"_s << u"curl788"_s << u"Curl788"_s;
    QTest::newRow("leading digit") << u"3-retries"_s << u"policy_3_retries"_s << u"policy3Retries"_s << u"Policy3Retries"_s;
    QTest::newRow("nothing usable") << u"ü–ß"_s << u"policy"_s << u"policy"_s << u"Policy"_s;
}

void TestCodeTargets::names()
{
    QFETCH(QString, policy);
    QTEST(snakeName(policy), "snake");
    QTEST(camelName(policy), "camel");
    QTEST(pascalName(policy), "pascal");
}

void TestCodeTargets::literals()
{
    QCOMPARE(quoted(u"a\"b\\c\nd"_s), u"\"a\\\"b\\\\c\\nd\""_s);
    QCOMPARE(quoted(u"€"_s), u"\"\\u20ac\""_s);
    QCOMPARE(numberText(0.2), u"0.2"_s);
    QCOMPARE(numberText(2.0), u"2"_s);
    QCOMPARE(numberText(0.25), u"0.25"_s);
    QCOMPARE(secondsText(Millis(200)), u"0.2"_s);
    QCOMPARE(secondsText(Millis(120000)), u"120"_s);
    bool wide = false;
    QCOMPARE(statusCodes({ StatusRange { 502, 504 }, StatusRange { 429, 429 } }, 100, &wide), (QList<int> { 429, 502, 503, 504 }));
    QVERIFY(!wide);
    QCOMPARE(statusCodes({ StatusRange { 500, 599 } }, 50, &wide), QList<int>());
    QVERIFY(wide);
}

void TestCodeTargets::commonLosses()
{
    RetryPolicy p = *PresetCatalog::load(u"aws-standard"_s).policy; // the retry quota on
    QVERIFY(p.quota.enabled);
    p.limits.deadline = Millis(9000);
    LossList lost;
    loseUnsupported(p, TargetAbilities {}, u"X"_s, lost);
    QVERIFY(lost.contains(u"quota"_s));
    QVERIFY(lost.contains(u"limits.deadline_ms"_s));
    LossList none;
    loseUnsupported(p, TargetAbilities { .retryQuota = true, .deadline = true, .attemptTimeout = true, .connectTimeout = true }, u"X"_s, none);
    QVERIFY2(none.items().isEmpty(), qPrintable(none.items().value(0).path));
    lost.add(u"quota"_s, u"again"_s); // a path is listed once
    QCOMPARE(std::count_if(lost.items().cbegin(), lost.items().cend(), [](const LostBehaviour& l) { return l.path == u"quota"; }), 1);
}

QTEST_GUILESS_MAIN(TestCodeTargets)
#include "tst_codetargets.moc"
