// SPDX-License-Identifier: GPL-3.0-or-later
// A rate limiter nobody here wrote: express-rate-limit 8.7.5 on express 5.3.0 (pinned by
// tests/clients/node/package-lock.json), in its draft-6, draft-7, draft-8 and legacy X-RateLimit-* modes,
// each a limit of 3 in a 60 s window (node/ratelimit-server.mjs). `retrylab run` sends four GETs one after
// the other to each, and every output a script reads (`run --json`, the session file of `run --export`,
// `export --format csv` and `--format har` of that file) must carry the parsed quota: limit 3, remaining
// 2, 1, 0, then a 429 whose reset matches its Retry-After (express-rate-limit sends both from the same
// window end, rounded up to whole seconds: they differ by at most 1 s).

#include "../cli/cliprocess.h"
#include "../core/session/csvrows.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

// What one attempt says, whichever output it was read from.
struct Seen
{
    int status = 0;
    QJsonValue rateLimit; // the session format's rate_limit object (or null)
    std::optional<double> retryAfterSeconds;
};

QString npmDir()
{
    return QStringLiteral(RETRYLAB_NPM_CLIENTS);
}

std::optional<double> number(const QJsonValue& v, double scale = 1.0)
{
    return v.isDouble() ? std::optional<double>(v.toDouble() / scale) : std::nullopt;
}

std::optional<double> number(const QString& text, double scale = 1.0)
{
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok ? std::optional<double>(v / scale) : std::nullopt;
}

// Attempts of the session format (run --json lines, a session file's runs), in run order.
QList<Seen> fromAttempts(QList<QJsonObject> attempts)
{
    std::sort(attempts.begin(), attempts.end(), [](const QJsonObject& a, const QJsonObject& b) {
        return a.value(u"run"_s).toInt() < b.value(u"run"_s).toInt();
    });
    QList<Seen> seen;
    for (const QJsonObject& a : attempts)
        seen << Seen { a.value(u"status"_s).toInt(), a.value(u"rate_limit"_s),
            number(a.value(u"retry_after_ms"_s), 1000) };
    return seen;
}

QString describe(const QList<Seen>& seen)
{
    QStringList lines;
    for (const Seen& s : seen) {
        lines << u"%1 %2 retry-after %3"_s.arg(s.status)
                     .arg(QString::fromUtf8(QJsonDocument(QJsonArray { s.rateLimit }).toJson(QJsonDocument::Compact)))
                     .arg(s.retryAfterSeconds ? QString::number(*s.retryAfterSeconds) : u"none"_s);
    }
    return lines.join(u'\n');
}

} // namespace

class TestClientExpressRateLimit : public QObject
{
    Q_OBJECT

private:
    QProcess m_server;
    int m_port = 0;
    QTemporaryDir m_dir;
    QString m_policy;

    // Four sequential answers of one limiter as OUTPUT read them: 3 of 3 left after each 200, then a 429.
    void check(const QList<Seen>& seen, const QString& dialect, const QString& policy, const char* output)
    {
        const QByteArray where = QByteArray(output) + ":\n" + describe(seen).toUtf8();
        QVERIFY2(seen.size() == 4, where.constData());
        for (int i = 0; i < 4; ++i) {
            const Seen& s = seen.at(i);
            QVERIFY2(s.status == (i < 3 ? 200 : 429), where.constData());
            const QJsonObject q = s.rateLimit.toObject();
            QVERIFY2(!q.isEmpty(), where.constData());
            QVERIFY2(q.value(u"limit"_s).toInteger() == 3, where.constData());
            QVERIFY2(q.value(u"remaining"_s).toInteger() == std::max(0, 2 - i), where.constData());
            QVERIFY2(q.value(u"dialect"_s).toString() == dialect, where.constData());
            QVERIFY2(q.value(u"policy"_s) == (policy.isEmpty() ? QJsonValue() : QJsonValue(policy)), where.constData());
            const std::optional<double> reset = number(q.value(u"reset_seconds"_s));
            // The window is 60 s; the four requests take well under 3 s; a reset in whole seconds rounds up.
            QVERIFY2(reset && *reset >= 56 && *reset <= 61, where.constData());
            if (!q.value(u"policies"_s).isNull()) // the session format lists every quota (CSV has one)
                QVERIFY2(q.value(u"policies"_s).toArray().size() == 1, where.constData());
            if (i == 3) {
                QVERIFY2(s.retryAfterSeconds, where.constData());
                QVERIFY2(std::abs(*reset - *s.retryAfterSeconds) <= 1.0, where.constData());
            }
        }
    }

    // `retrylab export SESSION --format FORMAT`: the file it wrote, empty (and the test failed) otherwise.
    QByteArray exported(const QString& session, const QString& format)
    {
        const QString path = session + u'.' + format;
        const CliProcess::Result ran
            = CliProcess::retrylab({ u"export"_s, session, u"--format"_s, format, u"-o"_s, path });
        QFile file(path);
        if (ran.exit != 0 || !file.open(QIODevice::ReadOnly)) {
            QTest::qFail(ran.err.constData(), __FILE__, __LINE__);
            return {};
        }
        return file.readAll();
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString node = QStandardPaths::findExecutable(u"node"_s);
        if (node.isEmpty())
            QFAIL("node is not installed: run packaging/install-deps.sh (Debian 12: nodejs npm)");
        for (const char* package : { "express", "express-rate-limit" }) {
            QFile manifest(npmDir() + u"/node_modules/"_s + QString::fromLatin1(package) + u"/package.json"_s);
            if (!manifest.open(QIODevice::ReadOnly))
                QFAIL(qPrintable(
                    u"%1 is missing: the npm_ci_clients fixture did not install it"_s.arg(manifest.fileName())));
        }
        QFile manifest(npmDir() + u"/node_modules/express-rate-limit/package.json"_s);
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(manifest.readAll()).object().value(u"version"_s).toString(), u"8.7.5"_s);

        // One attempt per run: the 429 is a fact to read, not something to wait a minute for.
        m_policy = m_dir.filePath(u"once.json"_s);
        QFile policy(m_policy);
        QVERIFY(policy.open(QIODevice::WriteOnly));
        policy.write(R"({"format":"retrylab-policy","version":1,"name":"once","limits":{"max_attempts":1}})");
        policy.close();

        m_server.setWorkingDirectory(npmDir());
        m_server.setProcessChannelMode(QProcess::SeparateChannels);
        m_server.start(node, { u"ratelimit-server.mjs"_s });
        QVERIFY2(m_server.waitForStarted(10000), qPrintable(m_server.errorString()));
        while (!m_server.canReadLine()) {
            if (!m_server.waitForReadyRead(20000))
                QFAIL(qPrintable(
                    u"the express server said nothing: "_s + QString::fromUtf8(m_server.readAllStandardError())));
        }
        m_port = QJsonDocument::fromJson(m_server.readLine()).object().value(u"port"_s).toInt();
        QVERIFY(m_port > 0);
    }

    void cleanupTestCase()
    {
        m_server.closeWriteChannel(); // the script exits when its stdin ends
        if (!m_server.waitForFinished(5000)) {
            m_server.kill();
            m_server.waitForFinished();
        }
    }

    void everyOutputCarriesTheQuota_data()
    {
        QTest::addColumn<QString>("mode"); // the route, and express-rate-limit's header mode
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<QString>("policy");
        QTest::addRow("headers.md §3.1 draft-6: RateLimit-Policy, RateLimit-Limit/-Remaining/-Reset")
            << u"draft-6"_s << u"ratelimit-legacy"_s << QString();
        QTest::addRow("headers.md §3.1 draft-7: the RateLimit Dictionary limit, remaining, reset")
            << u"draft-7"_s << u"ietf-draft-07"_s << QString();
        QTest::addRow("headers.md §3.1 draft-8: \"3-in-1min\"; r=…; t=… with its RateLimit-Policy")
            << u"draft-8"_s << u"ietf-draft-11"_s << u"3-in-1min"_s;
        QTest::addRow("headers.md §3.1 legacy: X-RateLimit-* with an epoch reset, read against Date")
            << u"legacy"_s << u"x-ratelimit"_s << QString();
    }

    void everyOutputCarriesTheQuota()
    {
        QFETCH(QString, mode);
        QFETCH(QString, dialect);
        QFETCH(QString, policy);
        const QString session = m_dir.filePath(mode + u".json"_s);
        const CliProcess::Result ran = CliProcess::retrylab(
            { u"run"_s, u"--policy"_s, m_policy, u"--url"_s, u"http://127.0.0.1:%1/%2"_s.arg(m_port).arg(mode),
                u"--repeat"_s, u"4"_s, u"--concurrency"_s, u"1"_s, u"--json"_s, u"--export"_s, session });
        QVERIFY2(ran.exit == 0 || ran.exit == 1, ran.err.constData()); // 1: a run ended in a 429

        QList<QJsonObject> lines;
        for (const QByteArray& line : ran.out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (o.contains(u"index"_s) && o.contains(u"rate_limit_fields"_s))
                lines << o;
        }
        check(fromAttempts(lines), dialect, policy, "run --json");
        if (QTest::currentTestFailed())
            return;

        QFile file(session);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(session));
        QList<QJsonObject> stored;
        for (const QJsonValue& run : QJsonDocument::fromJson(file.readAll()).object().value(u"runs"_s).toArray()) {
            for (const QJsonValue& a : run.toObject().value(u"attempts"_s).toArray())
                stored << a.toObject();
        }
        check(fromAttempts(stored), dialect, policy, "the session file of run --export");
        if (QTest::currentTestFailed())
            return;

        const QByteArray csvText = exported(session, u"csv"_s);
        QVERIFY(!csvText.isEmpty());
        const QList<QStringList> rows = CsvRows::read(csvText);
        QVERIFY(rows.size() == 5);
        const QStringList& columns = rows.first();
        const auto cell
            = [&](const QStringList& row, const QString& column) { return row.value(columns.indexOf(column)); };
        QList<Seen> fromCsv;
        for (qsizetype i = 1; i < rows.size(); ++i) {
            const QStringList& row = rows.at(i);
            const std::optional<double> reset = number(cell(row, u"rate_limit_reset_s"_s));
            const QJsonObject q { { u"limit"_s, cell(row, u"rate_limit_limit"_s).toInt() },
                { u"remaining"_s, cell(row, u"rate_limit_remaining"_s).toInt() },
                { u"reset_seconds"_s, reset ? QJsonValue(*reset) : QJsonValue() },
                { u"dialect"_s, cell(row, u"rate_limit_dialect"_s) },
                { u"policy"_s, policy.isEmpty() ? QJsonValue() : QJsonValue(policy) }, // CSV has no policy column
                { u"policies"_s, QJsonValue() } };
            fromCsv << Seen { cell(row, u"status"_s).toInt(), q, number(cell(row, u"retry_after_ms"_s), 1000) };
        }
        check(fromCsv, dialect, policy, "export --format csv");
        if (QTest::currentTestFailed())
            return;

        const QByteArray harText = exported(session, u"har"_s);
        QVERIFY(!harText.isEmpty());
        const QJsonObject harDoc = QJsonDocument::fromJson(harText).object();
        QList<QJsonObject> entries;
        for (const QJsonValue& e : harDoc.value(u"log"_s)[u"entries"_s].toArray())
            entries << e.toObject();
        std::sort(entries.begin(), entries.end(), [](const QJsonObject& a, const QJsonObject& b) {
            return a.value(u"_runId"_s).toInt() < b.value(u"_runId"_s).toInt();
        });
        QList<Seen> fromHar;
        for (const QJsonObject& e : std::as_const(entries)) {
            fromHar << Seen { e.value(u"response"_s)[u"status"_s].toInt(), e.value(u"_rateLimit"_s),
                number(e.value(u"_retryAfterMs"_s), 1000) };
        }
        check(fromHar, dialect, policy, "export --format har");
    }
};

QTEST_GUILESS_MAIN(TestClientExpressRateLimit)
#include "tst_client_express_ratelimit.moc"
