// SPDX-License-Identifier: GPL-3.0-or-later
// Two circuit breakers nobody here wrote — cockatiel 3.2.1 and opossum 9.0.0, pinned by
// node/package-lock.json, each set up as its preset says (node/breaker-calls.mjs) — make calls at 20 a
// second through an outage of the lab and back, judged by `retrylab conform --suite breakers` (issue 28 §5,
// §6): each conforms to its own preset, and does not conform to the other's, where the judge names the
// breaker rule it broke. opossum's 30 s break outlasts a case, so it also runs with a 2.5 s resetTimeout
// against opossum-9 with the same break set by --set: then its probes (the first during the outage, failing;
// the next after it, closing) are judged too.

#include "conformclient.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

constexpr int kRunTimeoutMs = 120000; // a whole suite is about 25 s

// The library's own state changes, as the script printed them (JUnit system-err): "open +3.702 s, …".
QStringList libraryChanges(const QByteArray& junit, const QString& caseName)
{
    QXmlStreamReader xml(junit);
    QString current;
    QStringList changes;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == u"testcase"_s)
            current = xml.attributes().value(u"name"_s).toString();
        if (xml.isStartElement() && xml.name() == u"system-err"_s && current == caseName) {
            for (const QString& line : xml.readElementText().split(u'\n')) {
                const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
                if (o.contains(u"event"_s))
                    changes << u"%1 +%2 s"_s.arg(o.value(u"event"_s).toString())
                                   .arg(o.value(u"t"_s).toDouble() / 1000.0, 0, 'f', 3);
                else if (o.contains(u"library"_s))
                    changes << u"(%1 ok, %2 failed, %3 refused)"_s.arg(o.value(u"ok"_s).toInt())
                                   .arg(o.value(u"failed"_s).toInt())
                                   .arg(o.value(u"refused"_s).toInt());
            }
        }
    }
    return changes;
}

// The policy's breaker along the calls, as the report gives it: "open +2.104 s (5 calls, 5 failures), …".
QStringList policyChanges(const QJsonObject& calls)
{
    QStringList out;
    for (const QJsonValue& v : calls.value(u"breaker"_s).toArray()) {
        const QJsonObject c = v.toObject();
        QString m = u"%1 +%2 s"_s.arg(c.value(u"to"_s).toString())
                        .arg(double(c.value(u"at_ms"_s).toInteger()) / 1000.0, 0, 'f', 3);
        if (c.value(u"to"_s).toString() == u"open"_s)
            m += u" (%1 calls, %2 failures)"_s.arg(c.value(u"window_calls"_s).toInt())
                     .arg(c.value(u"window_failures"_s).toInt());
        out << m;
    }
    return out;
}

} // namespace

class TestConformBreakers : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"node"_s).isEmpty())
            QFAIL("node is not installed: run packaging/install-deps.sh (Debian 12: nodejs npm)");
        for (const char* package : { "cockatiel", "opossum" }) {
            const QString manifest = QStringLiteral(RETRYLAB_NPM_CLIENTS "/node_modules/")
                + QString::fromLatin1(package) + u"/package.json"_s;
            if (!QFile::exists(manifest))
                QFAIL(qPrintable(u"%1 is missing: the npm_ci_clients fixture did not install it"_s.arg(manifest)));
        }
    }

    void judged_data()
    {
        QTest::addColumn<QStringList>("script"); // breaker-calls.mjs's arguments
        QTest::addColumn<QStringList>("policy"); // --policy and any --set
        QTest::addColumn<QStringList>("cases"); // empty: the whole suite
        QTest::addColumn<QStringList>("rules"); // the findings expected (empty: it conforms)
        // The policy's breaker in outage-reset-5s, in order (lazy breakers half-open only at a call they admit).
        QTest::addColumn<QStringList>("states");

        const QStringList reset { u"outage-reset-5s"_s };
        QTest::addRow("cockatiel 3.2.1 against cockatiel-3")
            << QStringList { u"cockatiel"_s } << QStringList { u"--policy"_s, u"cockatiel-3"_s } << QStringList {}
            << QStringList {} << QStringList { u"open"_s, u"half-open"_s, u"closed"_s };
        QTest::addRow("opossum 9.0.0 against opossum-9 (its 30 s break outlasts the case)")
            << QStringList { u"opossum"_s } << QStringList { u"--policy"_s, u"opossum-9"_s } << QStringList {}
            << QStringList {} << QStringList { u"open"_s };
        QTest::addRow("opossum 9.0.0 with a 2.5 s break against opossum-9 with the same")
            << QStringList { u"opossum"_s, u"--reset-ms"_s, u"2500"_s }
            << QStringList { u"--policy"_s, u"opossum-9"_s, u"--set"_s, u"pipeline[0].break_ms=2500"_s } << reset
            << QStringList {} << QStringList { u"open"_s, u"half-open"_s, u"open"_s, u"half-open"_s, u"closed"_s };
        // Crossed: the other library's preset.
        QTest::addRow("crossed: cockatiel 3.2.1 judged by opossum-9")
            << QStringList { u"cockatiel"_s } << QStringList { u"--policy"_s, u"opossum-9"_s } << reset
            << QStringList { u"breaker-opened-early"_s } << QStringList {};
        QTest::addRow("crossed: opossum 9.0.0 judged by cockatiel-3")
            << QStringList { u"opossum"_s } << QStringList { u"--policy"_s, u"cockatiel-3"_s } << reset
            << QStringList { u"breaker-opened-late"_s, u"breaker-too-few-probes"_s } << QStringList { u"open"_s };
    }

    void judged()
    {
        QFETCH(QStringList, script);
        QFETCH(QStringList, policy);
        QFETCH(QStringList, cases);
        QFETCH(QStringList, rules);
        QFETCH(QStringList, states);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString junitPath = dir.filePath(u"report.xml"_s);
        QStringList args = policy + QStringList { u"--suite"_s, u"breakers"_s, u"--junit"_s, junitPath };
        for (const QString& c : cases)
            args << u"--case"_s << c;
        args << u"--"_s << u"node"_s << QStringLiteral(RETRYLAB_NPM_CLIENTS "/breaker-calls.mjs") << script;
        const ConformClient::Result run
            = ConformClient::conform(args, kRunTimeoutMs, QStringLiteral(RETRYLAB_NPM_CLIENTS));
        QVERIFY2(run.exit >= 0, "retrylab conform did not finish in time");
        QVERIFY2(run.report.value(u"format"_s).toString() == u"retrylab-conform-report"_s, run.err.constData());
        QFile junitFile(junitPath);
        QVERIFY(junitFile.open(QIODevice::ReadOnly));
        const QByteArray junit = junitFile.readAll();

        const QJsonArray results = run.report.value(u"cases"_s).toArray();
        QCOMPARE(results.size(), cases.isEmpty() ? 2 : cases.size());
        QCOMPARE(run.report.value(u"errors"_s).toInt(), 0);
        QStringList found;
        for (const QJsonValue& v : results) {
            const QJsonObject c = v.toObject();
            const QString name = c.value(u"case"_s).toString();
            const QJsonObject calls = c.value(u"calls"_s).toObject();
            int resets = 0;
            for (const QJsonValue& a : c.value(u"attempts"_s).toArray())
                resets += a.toObject().value(u"error"_s).toString() == u"connection-lost"_s ? 1 : 0;
            QStringList sentences;
            for (const QJsonValue& f : c.value(u"findings"_s).toArray()) {
                found << f.toObject().value(u"rule"_s).toString();
                sentences << f.toObject().value(u"sentence"_s).toString();
            }
            qInfo().noquote()
                << u"%1 / %2: %3; %4 calls due, %5 reached the lab (%6 requests, %7 reset in the outage), %8 kept"_s
                        .arg(QString::fromLatin1(QTest::currentDataTag()), name, c.value(u"verdict"_s).toString())
                        .arg(calls.value(u"planned"_s).toInt())
                        .arg(calls.value(u"sent"_s).toInt())
                        .arg(calls.value(u"requests"_s).toInt())
                        .arg(resets)
                        .arg(calls.value(u"kept"_s).toInt())
                    + u"\n    policy's breaker: "_s + policyChanges(calls).join(u", "_s) + u"\n    library: "_s
                    + libraryChanges(junit, name).join(u", "_s)
                    + (sentences.isEmpty() ? QString() : u"\n    "_s + sentences.join(u"\n    "_s));
            QVERIFY2(calls.value(u"by_header"_s).toBool(), qPrintable(name));
            QCOMPARE(c.value(u"notes"_s).toArray().size(), 0);
            if (name == u"outage-reset-5s"_s) {
                QVERIFY2(resets > 0, "no request reached the lab during the outage");
                QStringList seen;
                for (const QJsonValue& change : calls.value(u"breaker"_s).toArray())
                    seen << change.toObject().value(u"to"_s).toString();
                QCOMPARE(seen, states);
                if (rules.isEmpty())
                    QVERIFY2(calls.value(u"kept"_s).toInt() > 0, "the breaker refused nothing");
            } else {
                QCOMPARE(resets, 0);
                QCOMPARE(calls.value(u"kept"_s).toInt(), 0); // a 503 is an answer: neither breaker opens
            }
        }
        found.removeDuplicates();
        QCOMPARE(found, rules);
        QCOMPARE(run.exit, rules.isEmpty() ? 0 : 1);
    }
};

QTEST_GUILESS_MAIN(TestConformBreakers)
#include "tst_conform_breakers.moc"
