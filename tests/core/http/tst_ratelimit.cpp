// SPDX-License-Identifier: GPL-3.0-or-later
// Rate-limit dialects: one row per example of /work/shared/reference/headers.md, named after its section.
#include "http/ratelimitparser.h"
#include "http/ratelimitvalue.h"

#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using H = QPair<QByteArray, QByteArray>;

QDateTime epoch(qint64 seconds) { return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC); }

// Expected optional numbers travel as QVariant: invalid = must be absent.
const QVariant absent;

template <typename T>
void compareOptional(const std::optional<T>& actual, const QVariant& expected, const char* what)
{
    if (!expected.isValid()) {
        QVERIFY2(!actual, qPrintable(u"%1 should be absent, got %2"_s.arg(QLatin1String(what)).arg(double(*actual))));
        return;
    }
    QVERIFY2(actual, qPrintable(u"%1 missing"_s.arg(QLatin1String(what))));
    if constexpr (std::is_floating_point_v<T>)
        QVERIFY2(qAbs(*actual - expected.toDouble()) < 1e-6,
            qPrintable(u"%1: %2 != %3"_s.arg(QLatin1String(what)).arg(*actual).arg(expected.toDouble())));
    else
        QCOMPARE(qint64(*actual), expected.toLongLong());
}

} // namespace

class TestRateLimit : public QObject
{
    Q_OBJECT

private slots:
    void mostRestrictive_data();
    void mostRestrictive();
    void goDuration_data();
    void goDuration();
    void restrictiveOrder();
    void rawFieldsAreKept();
};

void TestRateLimit::mostRestrictive_data()
{
    QTest::addColumn<HttpHeaderList>("headers");
    QTest::addColumn<QDateTime>("now");
    QTest::addColumn<int>("count"); // snapshots found
    QTest::addColumn<QString>("dialect"); // of the most restrictive; empty = none expected
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QVariant>("limit");
    QTest::addColumn<QVariant>("remaining");
    QTest::addColumn<QVariant>("reset");
    QTest::addColumn<QVariant>("window");
    QTest::addColumn<bool>("guessed");
    QTest::addColumn<QString>("warning"); // a substring of some warning; empty = no warnings at all

    const QDateTime t0 = epoch(1700000000);
    QTest::addRow("headers.md §2.1 draft-11: RateLimit matched with its RateLimit-Policy")
        << HttpHeaderList { H("RateLimit-Policy", "\"burst\";q=100;w=60,\"daily\";q=1000;w=86400"),
               H("RateLimit", "\"burst\";r=50;t=30") }
        << t0 << 2 << u"ietf-draft-11"_s << u"burst"_s << QVariant(100) << QVariant(50) << QVariant(30)
        << QVariant(60) << false << QString();
    QTest::addRow("headers.md §2.1 draft-11 B.2.3: exhausted dynamic policy")
        << HttpHeaderList { H("RateLimit-Policy", "\"dynamic\";q=15;w=20"), H("RateLimit", "\"dynamic\";r=0;t=20") }
        << t0 << 1 << u"ietf-draft-11"_s << u"dynamic"_s << QVariant(15) << QVariant(0) << QVariant(20)
        << QVariant(20) << false << QString();
    QTest::addRow("headers.md §2.1 draft-11 §4.2: r and pk, no policy, no t")
        << HttpHeaderList { H("RateLimit", "\"default\";r=999;pk=:dHJpYWwxMjEzMjM=:") } << t0 << 1
        << u"ietf-draft-11"_s << u"default"_s << absent << QVariant(999) << absent << absent << false << QString();
    QTest::addRow("headers.md §2.1 draft-11: List split over two fields, lowest ratio wins")
        << HttpHeaderList { H("RateLimit", "\"a\";r=5;t=10"), H("RateLimit", "\"b\";r=1;t=100"),
               H("RateLimit-Policy", "\"a\";q=10;w=10, \"b\";q=100;w=1000") }
        << t0 << 2 << u"ietf-draft-11"_s << u"b"_s << QVariant(100) << QVariant(1) << QVariant(100)
        << QVariant(1000) << false << QString();
    QTest::addRow("headers.md §2.2 draft-11: r=-1 parses as SF but is malformed")
        << HttpHeaderList { H("RateLimit", "\"default\";r=-1;t=10") } << t0 << 0 << QString() << QString()
        << absent << absent << absent << absent << false << u"RateLimit ignored"_s;
    QTest::addRow("headers.md §2.2 RFC 9651: SP before ';' fails the whole field")
        << HttpHeaderList { H("RateLimit", "\"default\";r=5;t=1, \"other\" ;r=1") } << t0 << 0 << QString()
        << QString() << absent << absent << absent << absent << false << u"RateLimit ignored"_s;
    QTest::addRow("headers.md §2.2 RFC 9651: malformed RateLimit-Policy ignored, RateLimit kept")
        << HttpHeaderList { H("RateLimit-Policy", "\"p\";q=-5;w=60"), H("RateLimit", "\"p\";r=1;t=2") } << t0 << 1
        << u"ietf-draft-11"_s << u"p"_s << absent << QVariant(1) << QVariant(2) << absent << false
        << u"RateLimit-Policy ignored"_s;
    QTest::addRow("headers.md §2.4 editor's copy: a/w/c instead of r/t")
        << HttpHeaderList { H("RateLimit", "\"api\";a=99;w=60;c=1;pk=:R0VUH2FsaWNl:") } << t0 << 1
        << u"ietf-editors-copy"_s << u"api"_s << absent << QVariant(99) << QVariant(60) << absent << false
        << QString();
    QTest::addRow("headers.md §2.3 draft-07: Dictionary with Integer policy")
        << HttpHeaderList { H("RateLimit", "limit=100, remaining=50, reset=5"), H("RateLimit-Policy", "100;w=10") }
        << t0 << 1 << u"ietf-draft-07"_s << QString() << QVariant(100) << QVariant(50) << QVariant(5)
        << QVariant(10) << false << QString();
    QTest::addRow("headers.md §2.3 draft-07: missing reset is malformed")
        << HttpHeaderList { H("RateLimit", "limit=10") } << t0 << 0 << QString() << QString() << absent << absent
        << absent << absent << false << u"draft-07"_s;
    QTest::addRow("headers.md §2.3 draft-01: RateLimit-Limit List with policies")
        << HttpHeaderList { H("RateLimit-Limit", "5000, 1000;w=3600, 5000;w=86400"),
               H("RateLimit-Remaining", "100"), H("RateLimit-Reset", "36000") }
        << t0 << 1 << u"ratelimit-legacy"_s << QString() << QVariant(5000) << QVariant(100) << QVariant(36000)
        << QVariant(86400) << false << QString();
    QTest::addRow("headers.md §2.3 draft-04: RateLimit-Policy Integer with w")
        << HttpHeaderList { H("RateLimit-Policy", "100;w=10"), H("RateLimit-Limit", "100"),
               H("RateLimit-Remaining", "1"), H("RateLimit-Reset", "7") }
        << t0 << 1 << u"ratelimit-legacy"_s << QString() << QVariant(100) << QVariant(1) << QVariant(7)
        << QVariant(10) << false << QString();
    QTest::addRow("headers.md §2.3 legacy: huge RateLimit-Reset without GitLab fields is guessed epoch")
        << HttpHeaderList { H("RateLimit-Limit", "10"), H("RateLimit-Remaining", "3"),
               H("RateLimit-Reset", "1700000042") }
        << t0 << 1 << u"ratelimit-legacy"_s << QString() << QVariant(10) << QVariant(3) << QVariant(42) << absent
        << true << u"magnitude heuristic"_s;
    QTest::addRow("headers.md §3.3 express-rate-limit draft-6")
        << HttpHeaderList { H("ratelimit-policy", "5;w=60"), H("ratelimit-limit", "5"), H("ratelimit-remaining", "4"),
               H("ratelimit-reset", "60") }
        << t0 << 1 << u"ratelimit-legacy"_s << QString() << QVariant(5) << QVariant(4) << QVariant(60)
        << QVariant(60) << false << QString();
    QTest::addRow("headers.md §3.3 express-rate-limit draft-7")
        << HttpHeaderList { H("ratelimit-policy", "5;w=60"), H("ratelimit", "limit=5, remaining=4, reset=60") } << t0
        << 1 << u"ietf-draft-07"_s << QString() << QVariant(5) << QVariant(4) << QVariant(60) << QVariant(60)
        << false << QString();
    QTest::addRow("headers.md §3.3 express-rate-limit draft-8 (SP after ';')")
        << HttpHeaderList { H("ratelimit-policy", "\"5-in-2hrs\"; q=5; w=7200; pk=:MmMyNmI0NmI2OGZm:"),
               H("ratelimit", "\"5-in-2hrs\"; r=4; t=7200") }
        << t0 << 1 << u"ietf-draft-11"_s << u"5-in-2hrs"_s << QVariant(5) << QVariant(4) << QVariant(7200)
        << QVariant(7200) << false << QString();
    QTest::addRow("headers.md §3.3 express-rate-limit draft-8, five limiters: the exhausted one")
        << HttpHeaderList {
               H("ratelimit-policy",
                   "\"1-in-5sec\"; q=1; w=5; pk=:MmMyNmI0NmI2OGZm:, \"5-in-1min\"; q=5; w=60; pk=:MmMyNmI0NmI2OGZm:, "
                   "\"6-in-1hr\"; q=6; w=3600; pk=:MmMyNmI0NmI2OGZm:, \"7-in-1day\"; q=7; w=86400; "
                   "pk=:MmMyNmI0NmI2OGZm:, \"8-in-2days\"; q=8; w=172800; pk=:MmMyNmI0NmI2OGZm:"),
               H("ratelimit",
                   "\"1-in-5sec\"; r=0; t=5, \"5-in-1min\"; r=4; t=60, \"6-in-1hr\"; r=5; t=3600, \"7-in-1day\"; "
                   "r=6; t=86400, \"8-in-2days\"; r=7; t=172800") }
        << t0 << 5 << u"ietf-draft-11"_s << u"1-in-5sec"_s << QVariant(1) << QVariant(0) << QVariant(5) << QVariant(5)
        << false << QString();
    QTest::addRow("headers.md §3.3 express-rate-limit legacy: epoch reset is a guess")
        << HttpHeaderList { H("x-ratelimit-limit", "5"), H("x-ratelimit-remaining", "4"),
               H("x-ratelimit-reset", "1700000060") }
        << t0 << 1 << u"x-ratelimit"_s << QString() << QVariant(5) << QVariant(4) << QVariant(60) << absent << true
        << u"magnitude heuristic"_s;
    QTest::addRow("headers.md §3.4 express-rate-limit observed: reset 61 s after Date")
        << HttpHeaderList { H("date", "Mon, 30 Nov 2026 04:15:00 GMT"), H("x-ratelimit-limit", "2"),
               H("x-ratelimit-remaining", "1"), H("x-ratelimit-reset", "1796012161") }
        << epoch(1796012100) << 1 << u"x-ratelimit"_s << QString() << QVariant(2) << QVariant(1) << QVariant(61)
        << absent << true << u"epoch seconds"_s;
    QTest::addRow("headers.md §3.4 express-rate-limit standardHeaders:true sends legacy and draft-6")
        << HttpHeaderList { H("x-ratelimit-limit", "2"), H("x-ratelimit-remaining", "0"),
               H("x-ratelimit-reset", "1700000060"), H("ratelimit-policy", "2;w=60"), H("ratelimit-limit", "2"),
               H("ratelimit-remaining", "1"), H("ratelimit-reset", "60") }
        << t0 << 2 << u"x-ratelimit"_s << QString() << QVariant(2) << QVariant(0) << QVariant(60) << absent << true
        << u"magnitude heuristic"_s;
    QTest::addRow("headers.md §4 GitHub: epoch reset, resource, used")
        << HttpHeaderList { H("X-Ratelimit-Limit", "15000"), H("X-Ratelimit-Remaining", "14996"),
               H("X-Ratelimit-Reset", "1659645499"), H("X-Ratelimit-Resource", "core"), H("X-Ratelimit-Used", "4") }
        << epoch(1659643001) << 1 << u"github"_s << u"core"_s << QVariant(15000) << QVariant(14996) << QVariant(2498)
        << absent << false << QString();
    QTest::addRow("headers.md §4 GitHub: reset in the past reads as 0")
        << HttpHeaderList { H("x-ratelimit-limit", "5000"), H("x-ratelimit-remaining", "0"),
               H("x-ratelimit-reset", "1350085394"), H("x-ratelimit-used", "5000") }
        << epoch(1350085400) << 1 << u"github"_s << QString() << QVariant(5000) << QVariant(0) << QVariant(0)
        << absent << false << u"in the past"_s;
    QTest::addRow("headers.md §4 X: x-rate-limit-* with epoch reset")
        << HttpHeaderList { H("x-rate-limit-limit", "900"), H("x-rate-limit-remaining", "847"),
               H("x-rate-limit-reset", "1705420800") }
        << epoch(1705420200) << 1 << u"x"_s << QString() << QVariant(900) << QVariant(847) << QVariant(600) << absent
        << false << QString();
    QTest::addRow("headers.md §4 Discord: Reset-After preferred over fractional epoch Reset")
        << HttpHeaderList { H("X-RateLimit-Limit", "5"), H("X-RateLimit-Remaining", "0"),
               H("X-RateLimit-Reset", "1470173023.123"), H("X-RateLimit-Reset-After", "64.57"),
               H("X-RateLimit-Bucket", "abcd1234") }
        << epoch(1470172958) << 1 << u"discord"_s << u"abcd1234"_s << QVariant(5) << QVariant(0) << QVariant(64.57)
        << absent << false << QString();
    QTest::addRow("headers.md §4 Discord: fractional epoch Reset alone")
        << HttpHeaderList { H("X-RateLimit-Limit", "10"), H("X-RateLimit-Remaining", "9"),
               H("X-RateLimit-Reset", "1470173023.123"), H("X-RateLimit-Bucket", "b") }
        << epoch(1470173020) << 1 << u"discord"_s << u"b"_s << QVariant(10) << QVariant(9) << QVariant(3.123)
        << absent << false << QString();
    QTest::addRow("headers.md §4 GitLab: Reset is epoch, Observed is used")
        << HttpHeaderList { H("RateLimit-Limit", "60"), H("RateLimit-Name", "throttle_authenticated_web"),
               H("RateLimit-Observed", "67"), H("RateLimit-Remaining", "0"), H("RateLimit-Reset", "1609844400"),
               H("RateLimit-ResetTime", "Tue, 05 Jan 2021 11:00:00 GMT"), H("Retry-After", "30") }
        << epoch(1609844370) << 1 << u"gitlab"_s << u"throttle_authenticated_web"_s << QVariant(60) << QVariant(0)
        << QVariant(30) << absent << false << QString();
    QTest::addRow("headers.md §4 GitLab issue 199738: 61 s after Date")
        << HttpHeaderList { H("Date", "Thu, 30 Jan 2020 14:14:16 GMT"), H("RateLimit-Limit", "600"),
               H("RateLimit-Observed", "5"), H("RateLimit-Remaining", "595"), H("RateLimit-Reset", "1580393717"),
               H("RateLimit-ResetTime", "Thu, 30 Jan 2020 14:15:17 GMT") }
        << epoch(1580393656) << 1 << u"gitlab"_s << QString() << QVariant(600) << QVariant(595) << QVariant(61)
        << absent << false << QString();
    QTest::addRow("headers.md §4 GitLab: ResetTime stands in for a missing Reset")
        << HttpHeaderList { H("RateLimit-Limit", "600"), H("RateLimit-Remaining", "595"),
               H("RateLimit-ResetTime", "Thu, 30 Jan 2020 14:15:17 GMT") }
        << epoch(1580393656) << 1 << u"gitlab"_s << QString() << QVariant(600) << QVariant(595) << QVariant(61)
        << absent << false << QString();
    QTest::addRow("headers.md §4 Reddit: limit = used + remaining, reset in seconds")
        << HttpHeaderList { H("X-Ratelimit-Used", "100"), H("X-Ratelimit-Remaining", "22"),
               H("X-Ratelimit-Reset", "30") }
        << t0 << 1 << u"reddit"_s << QString() << QVariant(122) << QVariant(22) << QVariant(30) << absent << false
        << QString();
    QTest::addRow("headers.md §4 Shopify: 32/40 is used/bucket")
        << HttpHeaderList { H("X-Shopify-Shop-Api-Call-Limit", "32/40") } << t0 << 1 << u"shopify"_s << QString()
        << QVariant(40) << QVariant(8) << absent << absent << false << QString();
    QTest::addRow("headers.md §4 Shopify: 41/40 is malformed")
        << HttpHeaderList { H("X-Shopify-Shop-Api-Call-Limit", "41/40") } << t0 << 0 << QString() << QString()
        << absent << absent << absent << absent << false << u"shopify"_s;
    QTest::addRow("headers.md §4 OpenAI: requests and tokens, Go duration resets")
        << HttpHeaderList { H("x-ratelimit-limit-requests", "60"), H("x-ratelimit-limit-tokens", "150000"),
               H("x-ratelimit-remaining-requests", "59"), H("x-ratelimit-remaining-tokens", "149984"),
               H("x-ratelimit-reset-requests", "1s"), H("x-ratelimit-reset-tokens", "6m0s") }
        << t0 << 2 << u"openai"_s << u"requests"_s << QVariant(60) << QVariant(59) << QVariant(1) << absent << false
        << QString();
    QTest::addRow("headers.md §4 OpenAI: tokens nearly exhausted, 20ms reset")
        << HttpHeaderList { H("x-ratelimit-limit-requests", "60"), H("x-ratelimit-limit-tokens", "1000"),
               H("x-ratelimit-remaining-requests", "59"), H("x-ratelimit-remaining-tokens", "3"),
               H("x-ratelimit-reset-requests", "1s"), H("x-ratelimit-reset-tokens", "20ms") }
        << t0 << 2 << u"openai"_s << u"tokens"_s << QVariant(1000) << QVariant(3) << QVariant(0.02) << absent << false
        << QString();
    QTest::addRow("headers.md §4 Azure OpenAI: limit -1 is a sentinel, not a count")
        << HttpHeaderList { H("x-ratelimit-limit-tokens", "-1"), H("x-ratelimit-remaining-tokens", "500") } << t0 << 1
        << u"openai"_s << u"tokens"_s << absent << QVariant(500) << absent << absent << false << u"-1"_s;
    QTest::addRow("headers.md §2.3 appendix: x-ratelimit-*-minute variant")
        << HttpHeaderList { H("X-RateLimit-Limit-Minute", "60"), H("X-RateLimit-Remaining-Minute", "10") } << t0 << 1
        << u"x-ratelimit"_s << u"minute"_s << QVariant(60) << QVariant(10) << absent << QVariant(60) << false
        << QString();
    QTest::addRow("headers.md §4 Vimeo: HTTP-date reset")
        << HttpHeaderList { H("X-RateLimit-Limit", "100"), H("X-RateLimit-Remaining", "50"),
               H("X-RateLimit-Reset", "Tue, 15 Nov 1994 08:12:31 GMT") }
        << epoch(784887121) << 1 << u"x-ratelimit"_s << QString() << QVariant(100) << QVariant(50) << QVariant(30)
        << absent << false << u"HTTP-date"_s;
    QTest::addRow("issue 10 §5: Azure OpenAI -1 in both counts: no quota, the reset alone is not read")
        << HttpHeaderList { H("x-ratelimit-limit-tokens", "-1"), H("x-ratelimit-remaining-tokens", "-1"),
               H("x-ratelimit-reset-tokens", "0s") }
        << t0 << 0 << QString() << QString() << absent << absent << absent << absent << false << u"no count"_s;
    QTest::addRow("issue 10 §5: Tokens and no r in a draft-11 pair: neither field is half-read")
        << HttpHeaderList { H("RateLimit-Policy", "quota;q=100;w=1"), H("RateLimit", "quota;t=1") } << t0 << 0
        << QString() << QString() << absent << absent << absent << absent << false << u"RateLimit-Policy"_s;
    QTest::addRow("issue 10 §5: a malformed RateLimit makes its RateLimit-Policy unused")
        << HttpHeaderList { H("RateLimit-Policy", "\"quota\";q=100;w=60"), H("RateLimit", "\"quota\";t=1") } << t0 << 0
        << QString() << QString() << absent << absent << absent << absent << false << u"not used"_s;
    QTest::addRow("draft-11 §3.1: Token identifiers in RateLimit are malformed")
        << HttpHeaderList { H("RateLimit", "quota;r=5;t=10") } << t0 << 0 << QString() << QString() << absent
        << absent << absent << absent << false << u"must be Strings"_s;
    QTest::addRow("draft-11 §3.1: a Token RateLimit-Policy beside a String RateLimit is ignored whole")
        << HttpHeaderList { H("RateLimit-Policy", "quota;q=100;w=60"), H("RateLimit", "\"quota\";r=5;t=10") } << t0 << 1
        << u"ietf-draft-11"_s << u"quota"_s << absent << QVariant(5) << QVariant(10) << absent << false
        << u"must be Strings"_s;
    QTest::addRow("headers.md §4 X-RateLimit-Remaining not a number is ignored, not half-read")
        << HttpHeaderList { H("X-RateLimit-Limit", "100"), H("X-RateLimit-Remaining", "50abc") } << t0 << 1
        << u"x-ratelimit"_s << QString() << QVariant(100) << absent << absent << absent << false
        << u"not a non-negative integer"_s;
    QTest::addRow("headers.md §2.1 draft §7.3: Age makes rate-limit fields ignored")
        << HttpHeaderList { H("Age", "30"), H("RateLimit", "\"default\";r=50;t=30") } << t0 << 0 << QString()
        << QString() << absent << absent << absent << absent << false << u"Age"_s;
    QTest::addRow("headers.md §2.1 draft §7.3: Age 0 is not from a cache")
        << HttpHeaderList { H("Age", "0"), H("RateLimit", "\"default\";r=50;t=30") } << t0 << 1 << u"ietf-draft-11"_s
        << u"default"_s << absent << QVariant(50) << QVariant(30) << absent << false << QString();
    QTest::addRow("no rate-limit fields")
        << HttpHeaderList { H("Content-Type", "text/plain"), H("Retry-After", "5") } << t0 << 0 << QString()
        << QString() << absent << absent << absent << absent << false << QString();
}

void TestRateLimit::mostRestrictive()
{
    QFETCH(HttpHeaderList, headers);
    QFETCH(QDateTime, now);
    QFETCH(int, count);
    QFETCH(QString, dialect);
    QFETCH(QString, policy);
    QFETCH(QVariant, limit);
    QFETCH(QVariant, remaining);
    QFETCH(QVariant, reset);
    QFETCH(QVariant, window);
    QFETCH(bool, guessed);
    QFETCH(QString, warning);

    const RateLimitParse parse = parseRateLimits(headers, now);
    QCOMPARE(parse.snapshots.size(), count);
    if (warning.isEmpty()) {
        QVERIFY2(parse.warnings.isEmpty(), qPrintable(parse.warnings.join(u" | "_s)));
    } else {
        QVERIFY2(std::any_of(parse.warnings.cbegin(), parse.warnings.cend(),
                     [&](const QString& w) { return w.contains(warning); }),
            qPrintable(u"no warning mentions \""_s + warning + u"\": "_s + parse.warnings.join(u" | "_s)));
    }
    const RateLimitSnapshot* best = parse.mostRestrictive();
    if (dialect.isEmpty()) {
        QVERIFY(!best);
        return;
    }
    QVERIFY(best);
    QCOMPARE(best->dialect, dialect);
    QCOMPARE(best->policy, policy);
    compareOptional(best->limit, limit, "limit");
    compareOptional(best->remaining, remaining, "remaining");
    compareOptional(best->resetSeconds, reset, "reset");
    compareOptional(best->windowSeconds, window, "window");
    QCOMPARE(best->resetGuessed, guessed);
    QVERIFY(!best->fields.isEmpty());
}

void TestRateLimit::goDuration_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QVariant>("seconds");
    QTest::addRow("headers.md §4 OpenAI docs: 1s") << QByteArray("1s") << QVariant(1.0);
    QTest::addRow("headers.md §4 OpenAI docs: 6m0s") << QByteArray("6m0s") << QVariant(360.0);
    QTest::addRow("headers.md §4 OpenAI observed: 12ms") << QByteArray("12ms") << QVariant(0.012);
    QTest::addRow("headers.md §4 OpenAI observed: 9ms") << QByteArray("9ms") << QVariant(0.009);
    QTest::addRow("Go: 1h2m3.5s") << QByteArray("1h2m3.5s") << QVariant(3723.5);
    QTest::addRow("Go: 0") << QByteArray("0") << QVariant(0.0);
    QTest::addRow("Go: 250us") << QByteArray("250us") << QVariant(0.00025);
    QTest::addRow("Go: micro sign") << QByteArray("5\xc2\xb5s") << QVariant(0.000005);
    QTest::addRow("invalid: empty") << QByteArray("") << QVariant();
    QTest::addRow("invalid: negative") << QByteArray("-1s") << QVariant();
    QTest::addRow("invalid: no unit") << QByteArray("6m0") << QVariant();
    QTest::addRow("invalid: unknown unit") << QByteArray("1d") << QVariant();
    QTest::addRow("invalid: unit only") << QByteArray("s") << QVariant();
    QTest::addRow("invalid: dot without digits") << QByteArray("1.s") << QVariant();
}

void TestRateLimit::goDuration()
{
    QFETCH(QByteArray, text);
    QFETCH(QVariant, seconds);
    compareOptional(parseGoDuration(text), seconds, "duration");
}

void TestRateLimit::restrictiveOrder()
{
    auto make = [](std::optional<qint64> limit, std::optional<qint64> remaining, std::optional<double> reset) {
        RateLimitSnapshot s;
        s.limit = limit;
        s.remaining = remaining;
        s.resetSeconds = reset;
        return s;
    };
    // An exhausted quota beats any ratio; among exhausted ones the later reset blocks longer.
    QCOMPARE(mostRestrictiveIndex({ make(100, 1, 5), make(10, 0, 5), make(10, 0, 50) }), 2);
    // Lower ratio wins regardless of absolute numbers; equal ratios: sooner reset first.
    QCOMPARE(mostRestrictiveIndex({ make(1000, 100, 5), make(10, 5, 5) }), 0);
    QCOMPARE(mostRestrictiveIndex({ make(10, 5, 50), make(20, 10, 5) }), 1);
    // Known ratio before remaining-without-limit before nothing known.
    QCOMPARE(mostRestrictiveIndex({ make(std::nullopt, std::nullopt, 1), make(std::nullopt, 3, 1), make(10, 9, 1) }),
        2);
    QCOMPARE(mostRestrictiveIndex({}), std::nullopt);
}

void TestRateLimit::rawFieldsAreKept()
{
    const HttpHeaderList headers { H("Content-Type", "text/plain"), H("RateLimit", "\"a\";r=1"),
        H("RateLimit-Policy", "\"a\";q=2") };
    const RateLimitParse parse = parseRateLimits(headers, epoch(0));
    QCOMPARE(parse.snapshots.size(), 1);
    QCOMPARE(parse.snapshots.first().fields, headers.mid(1));
    QCOMPARE(parse.snapshots.first().quotaUnit, u"requests"_s);
}

QTEST_GUILESS_MAIN(TestRateLimit)
#include "tst_ratelimit.moc"
