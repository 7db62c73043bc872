// SPDX-License-Identifier: GPL-3.0-or-later
// The one instant an answer's resets are measured from (rateLimitInstant: its Date, else when it was
// received) and the parse read against it (parseAnswerRateLimits), which every export, inspect and the
// chart use. Rows cite the examples of headers.md (the project's reference on rate-limit dialects).
#include "http/ratelimitparser.h"

#include <QTest>

using namespace Qt::StringLiterals;

namespace {

using H = QPair<QByteArray, QByteArray>;

QDateTime utc(const char* iso)
{
    return QDateTime::fromString(QString::fromLatin1(iso), Qt::ISODateWithMs).toUTC();
}

const QVariant absent;

} // namespace

class TestRateLimitInstant : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void instant_data();
    void instant();
    void answer_data();
    void answer();
};

void TestRateLimitInstant::instant_data()
{
    QTest::addColumn<QByteArray>("date");
    QTest::addColumn<QDateTime>("received");
    QTest::addColumn<QDateTime>("expected");

    const QDateTime received = utc("2022-08-04T19:56:43.250Z");
    QTest::addRow("headers.md §4 GitHub: the answer's Date, the server's clock, before the receive time")
        << "Thu, 04 Aug 2022 19:56:41 GMT"_ba << received << utc("2022-08-04T19:56:41Z");
    QTest::addRow("headers.md §1.3 step 5: no Date, the moment the answer was received")
        << QByteArray() << received << received;
    QTest::addRow("headers.md §1.1: a Date that is not an HTTP-date is ignored")
        << "yesterday"_ba << received << received;
    QTest::addRow("headers.md §1.2: an RFC 850 Date's two-digit year is read against the receive time")
        << "Sunday, 06-Nov-94 08:49:37 GMT"_ba << utc("1994-11-06T08:49:40Z") << utc("1994-11-06T08:49:37Z");
    QTest::addRow("headers.md §1.2: an IMF-fixdate Date needs no receive time")
        << "Sun, 06 Nov 1994 08:49:37 GMT"_ba << QDateTime() << utc("1994-11-06T08:49:37Z");
    QTest::addRow("headers.md §1.2: an RFC 850 Date without a receive time gives no instant")
        << "Sunday, 06-Nov-94 08:49:37 GMT"_ba << QDateTime() << QDateTime();
    QTest::addRow("neither a Date nor a receive time: no instant") << QByteArray() << QDateTime() << QDateTime();
}

void TestRateLimitInstant::instant()
{
    QFETCH(QByteArray, date);
    QFETCH(QDateTime, received);
    QFETCH(QDateTime, expected);
    const QDateTime instant = rateLimitInstant(date, received);
    QCOMPARE(instant.isValid(), expected.isValid());
    if (expected.isValid())
        QCOMPARE(instant.toMSecsSinceEpoch(), expected.toMSecsSinceEpoch());
}

void TestRateLimitInstant::answer_data()
{
    QTest::addColumn<HttpHeaderList>("fields");
    QTest::addColumn<QByteArray>("date");
    QTest::addColumn<QDateTime>("received");
    QTest::addColumn<QString>("dialect"); // of the most restrictive quota; empty: none
    QTest::addColumn<QVariant>("reset");
    QTest::addColumn<bool>("dependsOnNow");
    QTest::addColumn<QString>("warning"); // a warning that must be given; empty: none expected

    const HttpHeaderList github { H("X-Ratelimit-Limit", "15000"), H("X-Ratelimit-Remaining", "14996"),
        H("X-Ratelimit-Reset", "1659645499"), H("X-Ratelimit-Resource", "core"), H("X-Ratelimit-Used", "4") };
    QTest::addRow("headers.md §4 GitHub doc example: 2498 s from the Date, not from the later receive time")
        << github << "Thu, 04 Aug 2022 19:56:41 GMT"_ba << utc("2022-08-04T19:56:44Z") << u"github"_s
        << QVariant(2498.0) << true << QString();
    QTest::addRow("headers.md §4 GitHub without a Date: from the receive time")
        << github << QByteArray() << utc("2022-08-04T19:56:44Z") << u"github"_s << QVariant(2495.0) << true
        << QString();
    QTest::addRow("headers.md §4 GitHub, neither Date nor receive time: the epoch reset is unknown, said so")
        << github << QByteArray() << QDateTime() << u"github"_s << absent << true << u"not known"_s;
    QTest::addRow("headers.md §3.4 express-rate-limit legacy: X-RateLimit-Reset 61 s after Date")
        << HttpHeaderList { H("X-RateLimit-Limit", "2"), H("X-RateLimit-Remaining", "1"),
               H("X-RateLimit-Reset", "1796012161") }
        << "Mon, 30 Nov 2026 04:15:00 GMT"_ba << utc("2026-11-30T04:15:00.400Z") << u"x-ratelimit"_s << QVariant(61.0)
        << true << u"magnitude heuristic"_s;
    QTest::addRow("headers.md §4 GitLab issue 199738: epoch Reset 61 s after Date")
        << HttpHeaderList { H("RateLimit-Limit", "600"), H("RateLimit-Observed", "5"), H("RateLimit-Remaining", "595"),
               H("RateLimit-Reset", "1580393717") }
        << "Thu, 30 Jan 2020 14:14:16 GMT"_ba << utc("2020-01-30T14:14:20Z") << u"gitlab"_s << QVariant(61.0) << true
        << QString();
    QTest::addRow("headers.md §4 GitLab: ResetTime, an HTTP-date, is measured from the Date too")
        << HttpHeaderList { H("RateLimit-Limit", "600"), H("RateLimit-Observed", "5"), H("RateLimit-Remaining", "595"),
               H("RateLimit-ResetTime", "Thu, 30 Jan 2020 14:15:17 GMT") }
        << "Thu, 30 Jan 2020 14:14:16 GMT"_ba << utc("2020-01-30T14:14:20Z") << u"gitlab"_s << QVariant(61.0) << true
        << QString();
    QTest::addRow("headers.md §4 GitLab: ResetTime without any instant is left unknown")
        << HttpHeaderList { H("RateLimit-Limit", "600"), H("RateLimit-Remaining", "595"),
               H("RateLimit-ResetTime", "Thu, 30 Jan 2020 14:15:17 GMT") }
        << QByteArray() << QDateTime() << u"gitlab"_s << absent << true << u"RateLimit-ResetTime ignored"_s;
    QTest::addRow("headers.md §4 Vimeo: an HTTP-date X-RateLimit-Reset is a point in time")
        << HttpHeaderList { H("X-RateLimit-Limit", "100"), H("X-RateLimit-Remaining", "1"),
               H("X-RateLimit-Reset", "Tue, 15 Nov 1994 08:12:31 GMT") }
        << "Tue, 15 Nov 1994 08:12:01 GMT"_ba << utc("1994-11-15T08:12:02Z") << u"x-ratelimit"_s << QVariant(30.0)
        << true << u"read as an HTTP-date"_s;
    QTest::addRow("headers.md §3.3 express-rate-limit draft-8: t is relative, no instant needed")
        << HttpHeaderList { H("RateLimit-Policy", "\"5-in-2hrs\"; q=5; w=7200; pk=:MmMyNmI0NmI2OGZm:"),
               H("RateLimit", "\"5-in-2hrs\"; r=4; t=7200") }
        << QByteArray() << QDateTime() << u"ietf-draft-11"_s << QVariant(7200.0) << false << QString();
    QTest::addRow("headers.md §3.3 express-rate-limit draft-7: reset is relative")
        << HttpHeaderList { H("RateLimit-Policy", "5;w=60"), H("RateLimit", "limit=5, remaining=4, reset=60") }
        << "Mon, 30 Nov 2026 04:15:00 GMT"_ba << utc("2026-11-30T04:15:00Z") << u"ietf-draft-07"_s << QVariant(60.0)
        << false << QString();
    QTest::addRow("headers.md §3.3 express-rate-limit draft-6: RateLimit-Reset is delay-seconds")
        << HttpHeaderList { H("RateLimit-Policy", "5;w=60"), H("RateLimit-Limit", "5"), H("RateLimit-Remaining", "4"),
               H("RateLimit-Reset", "60") }
        << QByteArray() << QDateTime() << u"ratelimit-legacy"_s << QVariant(60.0) << false << QString();
    QTest::addRow("headers.md §4 Discord: Reset-After is relative and read before the epoch Reset") << HttpHeaderList {
        H("X-RateLimit-Limit", "10"), H("X-RateLimit-Remaining", "0"), H("X-RateLimit-Reset", "1470173023.123"),
        H("X-RateLimit-Reset-After", "64.57"), H("X-RateLimit-Bucket", "abcd1234")
    } << QByteArray() << QDateTime() << u"discord"_s << QVariant(64.57) << false << QString();
    QTest::addRow("headers.md §4 OpenAI: Go durations are relative")
        << HttpHeaderList { H("x-ratelimit-limit-requests", "60"), H("x-ratelimit-remaining-requests", "59"),
               H("x-ratelimit-reset-requests", "1s") }
        << QByteArray() << QDateTime() << u"openai"_s << QVariant(1.0) << false << QString();
    QTest::addRow("headers.md §2.1 draft §7.3: an Age among the fields makes them ignored")
        << HttpHeaderList { H("RateLimit", "\"default\";r=50;t=30"), H("Age", "5") } << QByteArray() << QDateTime()
        << QString() << absent << false << u"Age header"_s;
}

void TestRateLimitInstant::answer()
{
    QFETCH(HttpHeaderList, fields);
    QFETCH(QByteArray, date);
    QFETCH(QDateTime, received);
    QFETCH(QString, dialect);
    QFETCH(QVariant, reset);
    QFETCH(bool, dependsOnNow);
    QFETCH(QString, warning);

    const RateLimitParse parse = parseAnswerRateLimits(fields, date, received);
    // The same as parseRateLimits against the instant: one rule, not a second reading.
    const RateLimitParse direct = parseRateLimits(fields, rateLimitInstant(date, received));
    QCOMPARE(parse.warnings, direct.warnings);
    QCOMPARE(parse.snapshots.size(), direct.snapshots.size());

    const RateLimitSnapshot* most = parse.mostRestrictive();
    QCOMPARE(most ? most->dialect : QString(), dialect);
    if (most) {
        QCOMPARE(most->resetSeconds.has_value(), reset.isValid());
        if (reset.isValid())
            QVERIFY2(
                qAbs(*most->resetSeconds - reset.toDouble()) < 1e-6, qPrintable(QString::number(*most->resetSeconds)));
    }
    QCOMPARE(parse.dependsOnNow, dependsOnNow);
    if (!warning.isEmpty())
        QVERIFY2(parse.warnings.join(u'\n').contains(warning), qPrintable(parse.warnings.join(u'\n')));
    else
        QVERIFY2(parse.warnings.isEmpty(), qPrintable(parse.warnings.join(u'\n')));

    // What a cache relies on: a parse that does not depend on "now" reads the same against any instant,
    // an unknown one included.
    if (!parse.dependsOnNow) {
        for (const QDateTime& other : { QDateTime(), utc("2001-09-09T01:46:40Z"), utc("2030-01-01T00:00:00.5Z") }) {
            const RateLimitParse again = parseRateLimits(fields, other);
            QCOMPARE(again.warnings, parse.warnings);
            QCOMPARE(again.snapshots.size(), parse.snapshots.size());
            for (qsizetype i = 0; i < parse.snapshots.size(); ++i)
                QCOMPARE(again.snapshots.at(i).resetSeconds, parse.snapshots.at(i).resetSeconds);
        }
    } else {
        const RateLimitParse later = parseAnswerRateLimits(fields, QByteArray(), utc("2031-01-01T00:00:00Z"));
        QVERIFY(later.dependsOnNow);
    }
}

QTEST_GUILESS_MAIN(TestRateLimitInstant)
#include "tst_ratelimitinstant.moc"
