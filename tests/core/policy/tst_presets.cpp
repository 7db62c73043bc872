// SPDX-License-Identifier: GPL-3.0-or-later
//
// The built-in presets (resources/presets/*.json): exactly the expected set ships, each loads without a
// problem, validates, names itself after its file, cites its source, names and annotates every rule, and
// is written in the canonical form: file JSON → RetryPolicy → JSON gives the file back, key for key.

#include "policy/policyjson.h"
#include "policy/presetcatalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// Read from a library's own code at a named version (issue 13 §4).
QStringList versionedPresets()
{
    return { u"curl"_s, u"curl-7.88"_s, u"stripe"_s, u"stripe-python-5.0"_s, u"stripe-python-15.3"_s, u"stripe-node"_s,
        u"aws-js-v3"_s, u"aws-js-v3-adaptive"_s, u"openai-node"_s, u"openai-node-6.49"_s, u"anthropic-ts"_s };
}

QStringList expectedPresets()
{
    QStringList names {
        u"paymongo"_s, u"slen"_s, u"rfc9110-standard"_s, u"checkout-go"_s, u"polly-gateway"_s, u"pix"_s,
        u"polly"_s, u"ms-http-resilience"_s, u"aws-standard"_s, u"aws-adaptive"_s, u"grpc"_s, u"urllib3"_s,
        u"tenacity-random-exponential"_s, u"curl"_s, u"envoy"_s, u"go-retryablehttp"_s, u"cenkalti-backoff"_s,
        u"resilience4j"_s, u"stripe"_s,
        // Exact to a version (issue 13 §4): releases that part from the presets above.
        u"curl-7.88"_s, u"stripe-python-5.0"_s, u"stripe-python-15.3"_s, u"stripe-node"_s, u"aws-js-v3"_s,
        u"aws-js-v3-adaptive"_s, u"openai-node"_s, u"openai-node-6.49"_s, u"anthropic-ts"_s,
        // Resilience pipelines (issue 28 §3, policy format 2): breakers, timeouts, hedging around the retry.
        u"polly-circuit-breaker"_s, u"ms-http-standard"_s, u"ms-http-hedging"_s, u"resilience4j-circuit-breaker"_s,
        u"cockatiel-3"_s, u"opossum-9"_s, u"grpc-hedging"_s, u"envoy-hedge"_s,
    };
    names.sort();
    return names;
}

QByteArray presetBytes(const QString& name)
{
    QFile file(u":/retrylab/presets/%1.json"_s.arg(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// "a.b[2].c: value differs" for the first place where two JSON values differ.
QString firstDifference(const QJsonValue& a, const QJsonValue& b, const QString& at = {})
{
    if (a.type() != b.type())
        return u"%1: type %2 vs %3"_s.arg(at).arg(int(a.type())).arg(int(b.type()));
    if (a.isObject()) {
        const QJsonObject oa = a.toObject();
        const QJsonObject ob = b.toObject();
        QStringList keys = oa.keys() + ob.keys();
        keys.removeDuplicates();
        for (const QString& key : keys) {
            const QString path = at.isEmpty() ? key : at + u'.' + key;
            if (!oa.contains(key) || !ob.contains(key))
                return u"%1: only in the %2"_s.arg(path, oa.contains(key) ? u"file"_s : u"written JSON"_s);
            const QString d = firstDifference(oa.value(key), ob.value(key), path);
            if (!d.isEmpty())
                return d;
        }
        return {};
    }
    if (a.isArray()) {
        const QJsonArray xa = a.toArray();
        const QJsonArray xb = b.toArray();
        if (xa.size() != xb.size())
            return u"%1: %2 vs %3 elements"_s.arg(at).arg(xa.size()).arg(xb.size());
        for (qsizetype i = 0; i < xa.size(); ++i) {
            const QString d = firstDifference(xa.at(i), xb.at(i), u"%1[%2]"_s.arg(at).arg(i));
            if (!d.isEmpty())
                return d;
        }
        return {};
    }
    if (a != b)
        return u"%1: %2 vs %3"_s.arg(at, a.toVariant().toString(), b.toVariant().toString());
    return {};
}

// A library read at a version: "npm openai 7.59.0: client.js …", "curl/curl tag curl-8_21_0: src/tool_operate.c".
bool citesVersionedFile(const QString& source)
{
    static const QRegularExpression version(u"\\b(\\d+\\.\\d+\\.\\d+|curl-\\d+_\\d+_\\d+|v\\d+\\.\\d+\\.\\d+)\\b"_s);
    static const QRegularExpression file(u"[\\w-]+\\.(c|h|py|js|ts|go)\\b"_s);
    return version.match(source).hasMatch() && file.match(source).hasMatch();
}

} // namespace

class TestPresets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void catalogHoldsExactlyThePresets();
    void preset_data();
    void preset();
};

void TestPresets::catalogHoldsExactlyThePresets()
{
    QCOMPARE(PresetCatalog::names(), expectedPresets());
    const QList<PresetInfo> infos = PresetCatalog::list();
    QCOMPARE(infos.size(), expectedPresets().size());
    for (const PresetInfo& info : infos)
        QVERIFY2(!info.description.startsWith(u"(invalid preset"_s), qPrintable(info.name + u": "_s + info.description));
}

void TestPresets::preset_data()
{
    QTest::addColumn<QString>("name");
    for (const QString& name : expectedPresets())
        QTest::newRow(qPrintable(name)) << name;
}

void TestPresets::preset()
{
    QFETCH(QString, name);

    const QByteArray bytes = presetBytes(name);
    QVERIFY2(!bytes.isEmpty(), "the preset is not compiled into the resources");
    QJsonParseError error {};
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QVERIFY(document.isObject());

    // Loads through the catalog without a single problem.
    const PolicyParseResult loaded = PresetCatalog::load(name);
    for (const PolicyProblem& problem : loaded.problems)
        qWarning("%s: %s", qPrintable(problem.path), qPrintable(problem.message));
    QVERIFY(loaded.ok());
    const RetryPolicy& policy = *loaded.policy;
    QVERIFY(validate(policy).isEmpty());

    // Names match: the file, the catalog and the policy.
    QCOMPARE(policy.name, name);

    // Description: a one-line summary first; the source cites where it comes from.
    const QString summary = PresetCatalog::summaryOf(policy.description);
    QVERIFY2(summary.endsWith(u'.'), qPrintable(summary));
    QVERIFY2(summary.size() >= 40 && summary.size() <= 320, qPrintable(summary));
    QVERIFY(!policy.source.isEmpty());
    QVERIFY2(policy.source.contains(u"seeds/"_s) || policy.source.contains(u"retry-systems.md"_s)
            || policy.source.contains(u"resilience-fleets.md"_s) || citesVersionedFile(policy.source),
        qPrintable(policy.source));
    QVERIFY2(!policy.sourceTitle.isEmpty(), "a preset names the document it was read from");
    // A preset exact to a version names it where the window shows the source.
    if (versionedPresets().contains(name)) {
        static const QRegularExpression titleVersion(u"\\b\\d+\\.\\d+(\\.\\d+)?\\b"_s);
        QVERIFY2(titleVersion.match(policy.sourceTitle).hasMatch(), qPrintable(policy.sourceTitle));
        QVERIFY2(citesVersionedFile(policy.source), qPrintable(policy.source));
    }

    // Every rule has a unique name and a note citing the sentence it implements. A pipeline without a retry
    // (opossum: a breaker alone) needs none: nothing is sent again.
    const bool retries = policy.pipeline.isEmpty()
        || std::any_of(policy.pipeline.cbegin(), policy.pipeline.cend(),
            [](const ResilienceStrategy& s) { return s.kind == ResilienceStrategy::Kind::Retry; });
    QVERIFY(!retries || !policy.rules.isEmpty());
    QSet<QString> ruleNames;
    for (const RetryRule& rule : policy.rules) {
        QVERIFY2(!rule.name.isEmpty(), "a rule without a name");
        QVERIFY2(!rule.note.isEmpty(), qPrintable(u"rule %1 has no note"_s.arg(rule.name)));
        QVERIFY2(!ruleNames.contains(rule.name), qPrintable(u"rule name %1 twice"_s.arg(rule.name)));
        ruleNames.insert(rule.name);
    }

    // Round trip: the file is in canonical form, and policy → JSON → policy is lossless.
    const QJsonObject written = policyToJson(policy);
    const QString difference = firstDifference(document.object(), written);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QCOMPARE(written, document.object());
    const PolicyParseResult reread = policyFromJsonBytes(policyToJsonBytes(policy));
    QVERIFY(reread.ok());
    QVERIFY(*reread.policy == policy);

    // The checked-in file is the one compiled in.
    QFile source(QStringLiteral(RETRYLAB_SOURCE_DIR "/resources/presets/") + name + u".json"_s);
    QVERIFY(source.open(QIODevice::ReadOnly));
    QCOMPARE(source.readAll(), bytes);
}

QTEST_GUILESS_MAIN(TestPresets)
#include "tst_presets.moc"
