// SPDX-License-Identifier: GPL-3.0-or-later
// Debian 12's python3-urllib3 (1.26.12) with a Retry, observed through the lab by `retrylab observe`
// (issue 12 §5). urllib3 sends no attempt header (urllib3/util/retry.py, connectionpool.py urlopen), so a
// GET's retries are told by the fingerprint rule (a heuristic), a POST's by its Idempotency-Key. Its waits
// follow Retry.get_backoff_time(): 0 after the first failure, then backoff_factor * 2 ** (n - 1) for the
// n-th consecutive failure (capped at 120 s); a Retry-After on a 503 is slept instead (sleep_for_retry).
#include "observeclient.h"

#include <QStandardPaths>

using namespace Qt::StringLiterals;
using namespace clienttest;

namespace {

// Debian's interpreter, not one on PATH that may bring another urllib3.
const QString kPython = u"/usr/bin/python3"_s;

QString script(const QString& method, const QString& headers)
{
    const QStringList lines { u"import os, urllib3"_s, u"from urllib3.util.retry import Retry"_s,
        u"retry = Retry(total=3, backoff_factor=0.5, status_forcelist=[503], allowed_methods=None)"_s,
        u"http = urllib3.PoolManager()"_s,
        u"r = http.request('%1', os.environ['RETRYLAB_URL'] + '/retry', body=b'{}' if '%1' == 'POST' else None, headers=%2, retries=retry)"_s,
        u"raise SystemExit(0 if r.status == 200 else 1)"_s };
    return lines.join(u'\n').arg(method, headers);
}

} // namespace

class TestClientUrllib3 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QProcess p;
        p.start(kPython, { u"-c"_s, u"import urllib3; print(urllib3.__version__)"_s });
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            QFAIL("Debian's python3-urllib3 is not installed: run packaging/install-deps.sh");
        qInfo("urllib3 %s", p.readAllStandardOutput().trimmed().constData());
    }

    void retries_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("headers"); // a Python dict
        QTest::addColumn<QJsonArray>("steps");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QList<qint64>>("waits"); // the formula's, per retry

        QTest::addRow("GET, three 503s: 0, 1, 2 s, by fingerprint")
            << u"GET"_s << u"{}"_s << QJsonArray { status(503), status(503), status(503) } << u"fingerprint?"_s
            << QList<qint64> { 0, 1000, 2000 };
        QTest::addRow("POST with an Idempotency-Key, two 503s: 0, 1 s, by the key")
            << u"POST"_s << u"{'Idempotency-Key': 'order-17'}"_s << QJsonArray { status(503), status(503) } << u"idempotency-key"_s
            << QList<qint64> { 0, 1000 };
        QTest::addRow("GET, 503 with Retry-After: 1, then 503: 1 s slept, then the backoff's 1 s")
            << u"GET"_s << u"{}"_s << QJsonArray { status(503, u"1"_s), status(503) } << u"fingerprint?"_s << QList<qint64> { 1000, 1000 };
    }
    void retries()
    {
        QFETCH(QString, method);
        QFETCH(QString, headers);
        QFETCH(QJsonArray, steps);
        QFETCH(QString, rule);
        QFETCH(QList<qint64>, waits);
        const Observed o = observe(scenario(u"/retry"_s, steps), { kPython, u"-c"_s, script(method, headers) });
        QVERIFY2(o.finished, o.err.constData());
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QCOMPARE(o.attempts.size(), waits.size() + 1);
        QStringList runs;
        QStringList rules;
        for (qsizetype i = 0; i <= waits.size(); ++i) {
            runs << u"1.%1"_s.arg(i + 1);
            rules << rule;
        }
        QCOMPARE(o.runs(), runs.join(u' '));
        QCOMPARE(o.rules(), rules.join(u','));
        QString why;
        QVERIFY2(waitsWithin(o, waits, &why), qPrintable(why));
        qInfo("urllib3 waits: %s", qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestClientUrllib3)
#include "tst_client_urllib3.moc"
