// SPDX-License-Identifier: GPL-3.0-or-later
// Every export carries the parsed rate limits (issue 27 §1): a session attempt's `rate_limit` (the file, the
// journal line, `run --json`), the CSV's rate_limit_* columns and the HAR entry's `_rateLimit`, each derived
// from the recorded fields when written, measured from the answer's Date or from the session's wall origin +
// headers_ms. Rows cite the examples of headers.md (the project's reference on rate-limit dialects).
#include "csvrows.h"
#include "engine/requestheaders.h"
#include "http/ratelimitparser.h"
#include "session/export/sessionexport.h"
#include "session/format/attemptjson.h"
#include "session/format/sessionfile.h"
#include "session/ratelimit/attemptratelimits.h"
#include "session/ratelimit/ratelimitjson.h"
#include "sessiontestdata.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using H = QPair<QByteArray, QByteArray>;

QDateTime utc(const char* iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toUTC();
}

// One answered attempt whose headers came HEADERS_MS after the session's origin.
AttemptRecord answered(int run, int index, qint64 headersMs, const HttpHeaderList& responseHeaders, int status = 200)
{
    AttemptRecord a = SessionTestData::attempt(run, index, false, 0);
    a.status = status;
    a.responseHeaders = responseHeaders;
    a.rateLimitHeaders = rateLimitFieldsOf(responseHeaders); // what the engine records
    a.at.scheduled = MonoTime(std::chrono::milliseconds(headersMs - 50));
    a.at.started = a.at.scheduled;
    a.at.connecting.reset();
    a.at.requestSent = MonoTime(std::chrono::milliseconds(headersMs - 10));
    a.at.headersReceived = MonoTime(std::chrono::milliseconds(headersMs));
    a.at.firstByte = a.at.headersReceived;
    a.at.finished = MonoTime(std::chrono::milliseconds(headersMs + 5));
    return a;
}

Session sessionOf(const QList<AttemptRecord>& attempts, const QDateTime& wallOrigin)
{
    Session s;
    s.meta = SessionMeta::current();
    s.meta.wallOriginUtc = wallOrigin;
    s.redaction.enabled = false;
    RunRecord r = SessionTestData::run(1, 1);
    r.attempts = attempts;
    for (qsizetype i = 0; i < r.attempts.size(); ++i) {
        r.attempts[i].runId = 1;
        r.attempts[i].index = int(i + 1);
    }
    r.attemptCount = int(attempts.size());
    r.finishedAt = attempts.last().at.finished;
    s.addRun(r);
    return s;
}

QByteArray sessionText(const Session& s)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QString error;
    if (!SessionFile::write(s, buffer, {}, &error))
        qFatal("write: %s", qPrintable(error));
    return buffer.data();
}

QJsonValue jsonValue(const QByteArray& text)
{
    return QJsonDocument::fromJson(QByteArray("[" + text + "]")).array().at(0);
}

const HttpHeaderList kGitHub { H("X-Ratelimit-Limit", "15000"), H("X-Ratelimit-Remaining", "14996"),
    H("X-Ratelimit-Reset", "1659645499"), H("X-Ratelimit-Resource", "core"), H("X-Ratelimit-Used", "4") };

HttpHeaderList with(HttpHeaderList headers, const QList<H>& more)
{
    for (const H& h : more)
        headers.append(h);
    return headers;
}

} // namespace

class TestRateLimitExports : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyExportCarriesIt_data();
    void everyExportCarriesIt();
    void cachedParseEqualsAFreshOne();
    void numbersAsQJsonDocumentWritesThem_data();
    void numbersAsQJsonDocumentWritesThem();
};

void TestRateLimitExports::everyExportCarriesIt_data()
{
    QTest::addColumn<HttpHeaderList>("headers"); // the answer's
    QTest::addColumn<QDateTime>("wallOrigin");
    QTest::addColumn<qint64>("headersMs");
    QTest::addColumn<QByteArray>("expected"); // the rate_limit object, exactly as written
    QTest::addColumn<QStringList>("csv"); // rate_limit_limit, _remaining, _reset_s, _dialect

    const QDateTime origin = utc("2022-08-04T19:56:00Z");
    QTest::addRow("headers.md §4 GitHub: the epoch reset 2498 s after the answer's Date (received 3 s later)")
        << with(kGitHub, { H("Date", "Thu, 04 Aug 2022 19:56:41 GMT") }) << origin << qint64(44000)
        << R"({"limit":15000,"remaining":14996,"reset_seconds":2498,"policy":"core","dialect":"github","policies":[{"limit":15000,"remaining":14996,"reset_seconds":2498,"policy":"core","dialect":"github"}]})"_ba
        << QStringList { u"15000"_s, u"14996"_s, u"2498"_s, u"github"_s };
    QTest::addRow("headers.md §4 GitHub without a Date: from the wall origin + headers_ms")
        << kGitHub << origin << qint64(44500)
        << R"({"limit":15000,"remaining":14996,"reset_seconds":2494.5,"policy":"core","dialect":"github","policies":[{"limit":15000,"remaining":14996,"reset_seconds":2494.5,"policy":"core","dialect":"github"}]})"_ba
        << QStringList { u"15000"_s, u"14996"_s, u"2494.5"_s, u"github"_s };
    QTest::addRow("headers.md §4 GitHub, no Date and no wall origin: the reset is unknown, and said so")
        << kGitHub << QDateTime() << qint64(44500)
        << R"({"limit":15000,"remaining":14996,"reset_seconds":null,"policy":"core","dialect":"github","policies":[{"limit":15000,"remaining":14996,"reset_seconds":null,"policy":"core","dialect":"github"}],"warnings":["x-ratelimit-reset 1659645499 is a point in time, and when the answer came is not known; reset left unknown"]})"_ba
        << QStringList { u"15000"_s, u"14996"_s, QString(), u"github"_s };
    QTest::addRow("headers.md §3.4 express-rate-limit legacy: 61 s after Date, the unit guessed and said so")
        << HttpHeaderList { H("Date", "Mon, 30 Nov 2026 04:15:00 GMT"), H("X-RateLimit-Limit", "2"),
               H("X-RateLimit-Remaining", "1"), H("X-RateLimit-Reset", "1796012161") }
        << utc("2026-11-30T04:14:00Z") << qint64(60400)
        << R"json({"limit":2,"remaining":1,"reset_seconds":61,"policy":null,"dialect":"x-ratelimit","policies":[{"limit":2,"remaining":1,"reset_seconds":61,"policy":null,"dialect":"x-ratelimit"}],"warnings":["x-ratelimit-reset 1796012161 read as epoch seconds (magnitude heuristic: the dialect does not define the unit)"]})json"_ba
        << QStringList { u"2"_s, u"1"_s, u"61"_s, u"x-ratelimit"_s };
    QTest::addRow("headers.md §3.3 express-rate-limit draft-8, five limiters: the exhausted one, then every quota")
        << HttpHeaderList { H("RateLimit-Policy",
                                "\"1-in-5sec\"; q=1; w=5; pk=:MmMyNmI0NmI2OGZm:, \"5-in-1min\"; q=5; w=60; "
                                "pk=:MmMyNmI0NmI2OGZm:, \"6-in-1hr\"; q=6; w=3600; pk=:MmMyNmI0NmI2OGZm:, "
                                "\"7-in-1day\"; q=7; w=86400; pk=:MmMyNmI0NmI2OGZm:, \"8-in-2days\"; q=8; w=172800; "
                                "pk=:MmMyNmI0NmI2OGZm:"),
               H("RateLimit",
                   "\"1-in-5sec\"; r=0; t=5, \"5-in-1min\"; r=4; t=60, \"6-in-1hr\"; r=5; t=3600, "
                   "\"7-in-1day\"; r=6; t=86400, \"8-in-2days\"; r=7; t=172800") }
        << origin << qint64(1000)
        << R"({"limit":1,"remaining":0,"reset_seconds":5,"policy":"1-in-5sec","dialect":"ietf-draft-11","policies":[)"
           R"({"limit":1,"remaining":0,"reset_seconds":5,"policy":"1-in-5sec","dialect":"ietf-draft-11"},)"
           R"({"limit":5,"remaining":4,"reset_seconds":60,"policy":"5-in-1min","dialect":"ietf-draft-11"},)"
           R"({"limit":6,"remaining":5,"reset_seconds":3600,"policy":"6-in-1hr","dialect":"ietf-draft-11"},)"
           R"({"limit":7,"remaining":6,"reset_seconds":86400,"policy":"7-in-1day","dialect":"ietf-draft-11"},)"
           R"({"limit":8,"remaining":7,"reset_seconds":172800,"policy":"8-in-2days","dialect":"ietf-draft-11"}]})"_ba
        << QStringList { u"1"_s, u"0"_s, u"5"_s, u"ietf-draft-11"_s };
    QTest::addRow("headers.md §4 Discord: a fractional Reset-After as the shortest decimal")
        << HttpHeaderList { H("X-RateLimit-Limit", "5"), H("X-RateLimit-Remaining", "0"),
               H("X-RateLimit-Reset", "1470173023.123"), H("X-RateLimit-Reset-After", "64.57"),
               H("X-RateLimit-Bucket", "abcd1234") }
        << origin << qint64(1000)
        << R"({"limit":5,"remaining":0,"reset_seconds":64.57,"policy":"abcd1234","dialect":"discord","policies":[{"limit":5,"remaining":0,"reset_seconds":64.57,"policy":"abcd1234","dialect":"discord"}]})"_ba
        << QStringList { u"5"_s, u"0"_s, u"64.57"_s, u"discord"_s };
    QTest::addRow("headers.md §2.1 draft §7.3: an answer from a cache (Age) states no current quota")
        << HttpHeaderList { H("Age", "12"), H("RateLimit", "\"default\";r=50;t=30") } << origin << qint64(1000)
        << "null"_ba << QStringList { QString(), QString(), QString(), QString() };
    QTest::addRow("headers.md §1 RFC 9110 §10.2.3: a Retry-After alone is no quota")
        << HttpHeaderList { H("Retry-After", "20") } << origin << qint64(1000) << "null"_ba
        << QStringList { QString(), QString(), QString(), QString() };
    QTest::addRow("no rate-limit field at all")
        << HttpHeaderList { H("Content-Type", "text/plain") } << origin << qint64(1000) << "null"_ba
        << QStringList { QString(), QString(), QString(), QString() };
}

void TestRateLimitExports::everyExportCarriesIt()
{
    QFETCH(HttpHeaderList, headers);
    QFETCH(QDateTime, wallOrigin);
    QFETCH(qint64, headersMs);
    QFETCH(QByteArray, expected);
    QFETCH(QStringList, csv);
    const Session s = sessionOf({ answered(1, 1, headersMs, headers) }, wallOrigin);

    // The session file: right after the raw fields, in the order the reader expects.
    const QByteArray text = sessionText(s);
    QVERIFY2(text.contains(QByteArray(",\"rate_limit\":" + expected + ",\"throttle_wait_ms\":")), text.constData());
    const QJsonObject root = QJsonDocument::fromJson(text).object();
    const QJsonObject attempt = root.value(u"runs"_s)[0][u"attempts"_s][0].toObject();
    QCOMPARE(attempt.value(u"rate_limit"_s), jsonValue(expected));
    QVERIFY(attempt.value(u"rate_limit_fields"_s).isArray());

    // The journal's line and `run --json` write the attempt the same way.
    QByteArray line;
    AttemptJson::write(line, s.attempts, s.attempts.packed(0), Redactor::none(), s.meta.wallOriginUtc);
    QVERIFY2(line.contains(QByteArray(",\"rate_limit\":" + expected + ",")), line.constData());

    // Read back: the same session, written again to the same bytes (the field is derived, not stored).
    QBuffer in;
    in.setData(text);
    in.open(QIODevice::ReadOnly);
    QString error;
    const std::unique_ptr<Session> back = SessionFile::read(in, text.size(), {}, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->attemptCount(), s.attemptCount());
    QCOMPARE(sessionText(*back), text);

    // CSV: the most restrictive quota beside the raw text.
    QBuffer csvOut;
    csvOut.open(QIODevice::WriteOnly);
    QVERIFY(SessionExport::writeCsv(s, Redactor::none(), csvOut, {}));
    const QList<QStringList> rows = CsvRows::read(csvOut.data());
    QCOMPARE(rows.size(), 2);
    const QStringList& columns = rows.at(0);
    const QStringList& row = rows.at(1);
    const qsizetype raw = columns.indexOf(u"rate_limit"_s);
    QVERIFY(raw >= 0);
    QCOMPARE(columns.mid(raw + 1, 4),
        (QStringList {
            u"rate_limit_limit"_s, u"rate_limit_remaining"_s, u"rate_limit_reset_s"_s, u"rate_limit_dialect"_s }));
    QCOMPARE(row.size(), columns.size());
    QCOMPARE(row.mid(raw + 1, 4), csv);

    // HAR: the same object on the entry.
    QBuffer harOut;
    harOut.open(QIODevice::WriteOnly);
    QVERIFY(SessionExport::writeHar(s, Redactor::none(), harOut, {}));
    const QJsonObject har = QJsonDocument::fromJson(harOut.data()).object();
    const QJsonObject entry = har.value(u"log"_s)[u"entries"_s][0].toObject();
    QVERIFY(entry.contains(u"_rateLimit"_s));
    QCOMPARE(entry.value(u"_rateLimit"_s), jsonValue(expected));
    QCOMPARE(SessionExport::harEntry(s, 0, s.runs.at(0).rows.at(0), Redactor::none()).value(u"_rateLimit"_s),
        jsonValue(expected));
}

// A million attempts parse their fields once while they repeat; that reuse must never change what is
// written. Consecutive attempts here repeat fields whose reading depends on the instant (GitHub's epoch
// reset, without and with a Date) and fields whose reading does not (draft-11's t), flip an Age on and off,
// and move the Date: every attempt's rate_limit equals a parse made for it alone.
void TestRateLimitExports::cachedParseEqualsAFreshOne()
{
    const QDateTime origin = utc("2022-08-04T19:56:00Z");
    const HttpHeaderList ietf { H("RateLimit", "\"default\";r=50;t=30") };
    QList<AttemptRecord> attempts;
    int index = 0;
    qint64 ms = 1000;
    const auto add = [&](const HttpHeaderList& headers, qint64 step) {
        ms += step;
        attempts << answered(1, ++index, ms, headers);
    };
    for (int i = 0; i < 4; ++i)
        add(kGitHub, 250); // no Date: 250 ms later each time, a reset 0.25 s shorter
    for (int i = 0; i < 3; ++i)
        add(with(kGitHub, { H("Date", "Thu, 04 Aug 2022 19:56:41 GMT") }), 100); // the same Date: the same reset
    add(with(kGitHub, { H("Date", "Thu, 04 Aug 2022 19:56:42 GMT") }), 100);
    add(kGitHub, 100); // the Date gone again
    for (int i = 0; i < 3; ++i)
        add(ietf, 1000);
    add(with(ietf, { H("Age", "3") }), 10);
    add(ietf, 10);
    add(with(ietf, { H("Date", "yesterday") }), 10);
    add(with(kGitHub, { H("Date", "yesterday") }), 10); // not an HTTP-date: the receive time
    add(with(kGitHub, { H("Date", "yesterday") }), 10);
    const Session s = sessionOf(attempts, origin);

    AttemptRateLimits cached(s.attempts, origin);
    QSet<QByteArray> distinct;
    for (qsizetype row = 0; row < s.attempts.size(); ++row) {
        const PackedAttempt p = s.attempts.packed(row);
        const QByteArray once = AttemptRateLimits(s.attempts, origin).json(p).toByteArray();
        QCOMPARE(cached.json(p).toByteArray(), once);
        distinct.insert(once);
    }
    QVERIFY2(distinct.size() >= 8, qPrintable(QString::number(distinct.size()))); // the rows above do differ
    const QByteArray text = sessionText(s);
    for (const QByteArray& json : std::as_const(distinct))
        QVERIFY(text.contains(QByteArray(",\"rate_limit\":" + json + ",")));
}

void TestRateLimitExports::numbersAsQJsonDocumentWritesThem_data()
{
    QTest::addColumn<double>("reset");
    QTest::addRow("headers.md §4 GitHub: 2498") << 2498.0;
    QTest::addRow("headers.md §4 Discord: 64.57") << 64.57;
    QTest::addRow("headers.md §4 OpenAI: 20ms is 0.02") << 0.02;
    QTest::addRow("headers.md §4 Discord: 3.123 after an epoch with fractions") << 1470173023.123 - 1470173020.0;
    QTest::addRow("headers.md §3.3 draft-8: 172800") << 172800.0;
    QTest::addRow("a sum that is not its decimal: 0.1 + 0.2") << 0.1 + 0.2;
    QTest::addRow("tiny: 1e-7") << 1e-7;
    QTest::addRow("huge: 1e21") << 1e21;
    QTest::addRow("zero") << 0.0;
}

// `inspect --json` printed quotas through QJsonDocument before it used RateLimitJson: the same text.
void TestRateLimitExports::numbersAsQJsonDocumentWritesThem()
{
    QFETCH(double, reset);
    RateLimitSnapshot q;
    q.limit = 10;
    q.remaining = 0;
    q.resetSeconds = reset;
    q.policy = u"a \"quoted\" \\ name"_s;
    q.dialect = u"ietf-draft-11"_s;
    QByteArray mine;
    {
        JsonSink sink(mine);
        RateLimitJson::writeQuota(sink, q);
    }
    const auto text = [](const QJsonValue& v) {
        const QByteArray wrapped = QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact);
        return wrapped.mid(1, wrapped.size() - 2);
    };
    const QByteArray qt = "{\"limit\":" + text(QJsonValue(qint64(10))) + ",\"remaining\":" + text(QJsonValue(qint64(0)))
        + ",\"reset_seconds\":" + text(QJsonValue(reset)) + ",\"policy\":" + text(QJsonValue(q.policy))
        + ",\"dialect\":" + text(QJsonValue(q.dialect)) + "}";
    QCOMPARE(mine, qt);
    QCOMPARE(jsonValue(mine).toObject().value(u"reset_seconds"_s).toDouble(), reset); // reads back exactly
}

QTEST_GUILESS_MAIN(TestRateLimitExports)
#include "tst_ratelimitexports.moc"
