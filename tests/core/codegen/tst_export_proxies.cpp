// SPDX-License-Identifier: GPL-3.0-or-later
// The Envoy and gRPC targets as written (issue 30): golden units for six presets, YAML that a real YAML
// parser reads and whose every key is an Envoy v3 proto field, JSON whose every key is a service-config field,
// and the lost lists of a few presets exactly.
#include "codegen/codeexport.h"
#include "codegen/yamlreader.h"
#include "policy/presetcatalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;

class TestExportProxies : public QObject
{
    Q_OBJECT

private slots:
    void golden_data();
    void golden();
    void lostLists_data();
    void lostLists();
};

static const QString kData = QStringLiteral(RETRYLAB_SOURCE_DIR "/tests/core/codegen/data/proxy/");

static QSet<QString> fieldList(const QString& file)
{
    QFile f(kData + file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QSet<QString> out;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (!line.trimmed().isEmpty() && !line.startsWith('#'))
            out.insert(QString::fromUtf8(line.trimmed()));
    return out;
}

static void collectKeys(const QJsonValue& v, QStringList& keys)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            keys << it.key();
            collectKeys(it.value(), keys);
        }
    } else if (v.isArray()) {
        for (const QJsonValue& item : v.toArray())
            collectKeys(item, keys);
    }
}

void TestExportProxies::golden_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("preset");
    for (const QString& t : { u"envoy"_s, u"grpc"_s })
        for (const QString& p : { u"slen"_s, u"aws-standard"_s, u"envoy"_s, u"envoy-hedge"_s, u"grpc"_s, u"grpc-hedging"_s })
            QTest::addRow("%s %s", qPrintable(t), qPrintable(p)) << t << p;
}

void TestExportProxies::golden()
{
    QFETCH(QString, target);
    QFETCH(QString, preset);
    const CodeTarget* t = CodeTargets::find(target);
    QVERIFY(t);
    const CodeExport e = t->generate(*PresetCatalog::load(preset).policy, t->versions.first());
    QString code = e.code;
    code.replace(QStringLiteral("Retrylab " RETRYLAB_VERSION), u"Retrylab @VERSION@"_s);
    const QString file = u"%1.%2.%3"_s.arg(preset, target, CodeTargets::fileSuffix(t->language));
    QFile f(kData + file);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(file));
    QCOMPARE(code, QString::fromUtf8(f.readAll()));

    QStringList keys;
    if (target == u"envoy"_s) {
        // A real YAML parser reads it (python3-yaml), and so does ours.
        QProcess python;
        python.start(u"/usr/bin/python3"_s, { u"-c"_s, u"import yaml,sys; yaml.safe_load(sys.stdin)"_s });
        if (python.waitForStarted()) {
            python.write(e.code.toUtf8());
            python.closeWriteChannel();
            QVERIFY(python.waitForFinished());
            QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        }
        const YamlDocument doc = YamlReader::parse(e.code.toUtf8());
        QVERIFY2(doc.ok(), qPrintable(doc.problem));
        collectKeys(doc.value, keys);
        const QSet<QString> fields = fieldList(u"envoy-fields.txt"_s);
        QVERIFY(!fields.isEmpty());
        for (const QString& k : std::as_const(keys))
            QVERIFY2(fields.contains(k), qPrintable(u"not an Envoy field: "_s + k));
    } else {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(e.code.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        collectKeys(doc.object(), keys);
        const QSet<QString> fields = fieldList(u"grpc-fields.txt"_s);
        for (const QString& k : std::as_const(keys))
            QVERIFY2(fields.contains(k), qPrintable(u"not a service config field: "_s + k));
        const QJsonObject policy = doc.object().value(u"methodConfig"_s).toArray().first().toObject().value(u"retryPolicy"_s).toObject();
        if (!policy.isEmpty())
            QVERIFY(policy.value(u"maxAttempts"_s).toInt() >= 2 && policy.value(u"maxAttempts"_s).toInt() <= 5);
    }
}

void TestExportProxies::lostLists_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("lost");
    QTest::newRow("envoy envoy") << u"envoy"_s << u"envoy"_s << QStringList {};
    QTest::newRow("envoy envoy-hedge") << u"envoy"_s << u"envoy-hedge"_s << QStringList {};
    QTest::newRow("envoy aws-standard") << u"envoy"_s << u"aws-standard"_s
                                        << QStringList { u"rules[0].when.body"_s, u"rules[1].when.headers"_s, u"rules[2].when.body"_s,
                                               u"rules[3].when.headers"_s, u"rules.response-timeout"_s, u"quota"_s };
    QTest::newRow("envoy slen") << u"envoy"_s << u"slen"_s
                                << QStringList { u"rules[0].when.body"_s, u"rules[0].when.after_lost_answer"_s, u"rules[3].when.body"_s,
                                       u"jitter.kind"_s, u"hints[0]"_s, u"hints[0].format"_s, u"hints[0].over_max"_s, u"hints[0].statuses"_s,
                                       u"hints[0].flags"_s, u"idempotency"_s };
    QTest::newRow("grpc grpc") << u"grpc"_s << u"grpc"_s << QStringList {};
    QTest::newRow("grpc grpc-hedging") << u"grpc"_s << u"grpc-hedging"_s << QStringList { u"pipeline[0].failures.wider"_s };
    QTest::newRow("grpc envoy") << u"grpc"_s << u"envoy"_s
                                << QStringList { u"rules.wider"_s, u"jitter.kind"_s, u"hints"_s };
}

void TestExportProxies::lostLists()
{
    QFETCH(QString, target);
    QFETCH(QString, preset);
    QFETCH(QStringList, lost);
    const CodeTarget* t = CodeTargets::find(target);
    const CodeExport e = t->generate(*PresetCatalog::load(preset).policy, t->versions.first());
    QStringList paths;
    for (const LostBehaviour& l : e.lost)
        paths << l.path;
    QCOMPARE(paths, lost);
}

QTEST_GUILESS_MAIN(TestExportProxies)
#include "tst_export_proxies.moc"
