// SPDX-License-Identifier: GPL-3.0-or-later
// HTTP-date reading and writing (core/http/httpdate.h). Every row cites where its input comes from:
// "headers.md" is /work/shared/reference/headers.md (§1.2 grammar and examples, §1.3 algorithm,
// §1.4 library test tables).
#include "http/httpdate.h"

#include <QTest>
#include <QTimeZone>

using namespace Qt::StringLiterals;

namespace {
QDateTime utc(qint64 secs) { return QDateTime::fromSecsSinceEpoch(secs, QTimeZone::utc()); }
// The fixed "now" of the two-digit-year rows: 2026-08-22 12:00:00 UTC (a year 76 date is 2076 up to
// 2076-08-22 12:00:00 and 1976 after it).
QDateTime fixedNow() { return QDateTime(QDate(2026, 8, 22), QTime(12, 0), QTimeZone::utc()); }
}

class TestHttpDate : public QObject
{
    Q_OBJECT

private slots:
    void parsesValidDates_data();
    void parsesValidDates();
    void twoDigitYearIsRelativeToNow_data();
    void twoDigitYearIsRelativeToNow();
    void rejectsInvalidDates_data();
    void rejectsInvalidDates();
    void twoDigitYearNeedsNow();
    void formatsImfFixdate();
    void formatRoundTrips();
    void formatRoundTripsEarlyYears();
    void formNames();
};

void TestHttpDate::parsesValidDates_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<qint64>("epoch");
    QTest::addColumn<HttpDateForm>("form");
    QTest::addColumn<bool>("conformant");

    constexpr qint64 rfcExample = 784111777; // 1994-11-06T08:49:37Z, headers.md §1.2
    // headers.md §1.2: the RFC 9110 §5.6.7 examples, all the same instant.
    QTest::addRow("rfc9110 example: IMF-fixdate") << "Sun, 06 Nov 1994 08:49:37 GMT"_ba << rfcExample << HttpDateForm::ImfFixdate << true;
    QTest::addRow("rfc9110 example: RFC 850") << "Sunday, 06-Nov-94 08:49:37 GMT"_ba << rfcExample << HttpDateForm::Rfc850 << true;
    QTest::addRow("rfc9110 example: asctime") << "Sun Nov  6 08:49:37 1994"_ba << rfcExample << HttpDateForm::Asctime << true;
    // headers.md §1.2 grammar: date3 = month SP ( 2DIGIT / ( SP 1DIGIT )), so "Nov 06" is conformant too.
    QTest::addRow("rfc9110 grammar: asctime two-digit day") << "Sun Nov 06 08:49:37 1994"_ba << rfcExample << HttpDateForm::Asctime << true;
    // headers.md §1.4 urllib3 test_retry.py (now 2019-06-03 11:00 UTC; the dates are 11:30:12).
    QTest::addRow("urllib3: IMF-fixdate") << "Mon, 03 Jun 2019 11:30:12 GMT"_ba << qint64(1559561412) << HttpDateForm::ImfFixdate << true;
    QTest::addRow("urllib3: RFC 850") << "Monday, 03-Jun-19 11:30:12 GMT"_ba << qint64(1559561412) << HttpDateForm::Rfc850 << true;
    QTest::addRow("urllib3: asctime") << "Mon Jun  3 11:30:12 2019"_ba << qint64(1559561412) << HttpDateForm::Asctime << true;
    QTest::addRow("urllib3 lenient: UTC and one-digit day") << "Mon, 3 Jun 2019 12:00:00 UTC"_ba << qint64(1559563200) << HttpDateForm::ImfFixdate << false;
    // headers.md §1.4 go-retryablehttp and mre/rate-limits.
    QTest::addRow("go-retryablehttp: end of 1999") << "Fri, 31 Dec 1999 23:59:59 GMT"_ba << qint64(946684799) << HttpDateForm::ImfFixdate << true;
    // headers.md §1.4 curl lib517.c.
    QTest::addRow("curl lib517: leap second is the next second") << "Wed, 31 Dec 2008 23:59:60 GMT"_ba << qint64(1230768000) << HttpDateForm::ImfFixdate << true;
    QTest::addRow("curl lib517: short weekday in RFC 850, 1977") << "Mon, 18-Apr-77 22:50:13 GMT"_ba << qint64(230251813) << HttpDateForm::Rfc850 << false;
    // headers.md §1.4 dotnet RetryConditionHeaderValueTest: trailing whitespace is not part of the value.
    QTest::addRow("dotnet: trailing spaces trimmed") << "Sun, 06 Nov 1994 08:49:37 GMT     "_ba << rfcExample << HttpDateForm::ImfFixdate << true;
    QTest::addRow("rfc9110 5.5: leading tab trimmed") << "\tSun, 06 Nov 1994 08:49:37 GMT"_ba << rfcExample << HttpDateForm::ImfFixdate << true;
    // headers.md §1.3 step 6: lenient readings, accepted but non-conformant.
    // headers.md §1.2 grammar: year = 4DIGIT, so years 0001–0999 are written with leading zeros and are
    // conformant in both forms that carry the year in full (issue 14: the expected text was not padded).
    QTest::addRow("rfc9110 grammar: year 0997 in an IMF-fixdate") << "Mon, 06 Nov 0997 08:09:03 GMT"_ba << qint64(-30678105057) << HttpDateForm::ImfFixdate << true;
    QTest::addRow("rfc9110 grammar: year 0997 in asctime") << "Mon Nov  6 08:09:03 0997"_ba << qint64(-30678105057) << HttpDateForm::Asctime << true;
    QTest::addRow("rfc9110 grammar: year 0001") << "Mon, 01 Jan 0001 00:00:00 GMT"_ba << qint64(-62135596800) << HttpDateForm::ImfFixdate << true;
    QTest::addRow("lenient: wrong weekday (pyfisch rejects)") << "Sun, 07 Nov 1994 08:48:37 GMT"_ba << qint64(784198117) << HttpDateForm::ImfFixdate << false;
    QTest::addRow("lenient: no weekday") << "06 Nov 1994 08:49:37 GMT"_ba << rfcExample << HttpDateForm::ImfFixdate << false;
    QTest::addRow("lenient: lower case (RFC 9111 4.2)") << "sun, 06 nov 1994 08:49:37 gmt"_ba << rfcExample << HttpDateForm::ImfFixdate << false;
    QTest::addRow("lenient: double space") << "Sun,  06 Nov 1994 08:49:37 GMT"_ba << rfcExample << HttpDateForm::ImfFixdate << false;
    QTest::addRow("lenient: asctime single space before 1-digit day") << "Sun Nov 6 08:49:37 1994"_ba << rfcExample << HttpDateForm::Asctime << false;
    QTest::addRow("lenient: numeric zone +0100") << "Sun, 06 Nov 1994 09:49:37 +0100"_ba << rfcExample << HttpDateForm::ImfFixdate << false;
    QTest::addRow("lenient: RFC 850 with four-digit year") << "Sunday, 06-Nov-1994 08:49:37 GMT"_ba << rfcExample << HttpDateForm::Rfc850 << false;
    QTest::addRow("lenient: full weekday in IMF-fixdate") << "Sunday, 06 Nov 1994 08:49:37 GMT"_ba << rfcExample << HttpDateForm::ImfFixdate << false;
}

void TestHttpDate::parsesValidDates()
{
    QFETCH(QByteArray, text);
    QFETCH(qint64, epoch);
    QFETCH(HttpDateForm, form);
    QFETCH(bool, conformant);

    const HttpDate date = parseHttpDate(text, fixedNow());
    QVERIFY2(date.isValid(), qPrintable(date.error));
    QVERIFY(date.error.isEmpty());
    QCOMPARE(date.dateTime, utc(epoch));
    QCOMPARE(date.dateTime.timeSpec(), Qt::UTC);
    QCOMPARE(date.form, form);
    QCOMPARE(date.conformant, conformant);
    // A lenient reading always says why; a conformant one has nothing to say.
    QCOMPARE(date.warnings.isEmpty(), conformant);
}

void TestHttpDate::twoDigitYearIsRelativeToNow_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QDateTime>("now");
    QTest::addColumn<int>("year");

    // headers.md §0.2 and §1.2: "more than 50 years in the future" → the most recent past year with the
    // same last two digits. Now = 2026-08-22 12:00:00 UTC, so the limit is 2076-08-22 12:00:00.
    const QDateTime now = fixedNow();
    QTest::addRow("rfc9110: 94 → 1994 (2094 is > 50 years ahead)") << "Sunday, 06-Nov-94 08:49:37 GMT"_ba << now << 1994;
    QTest::addRow("rfc9110: 30 → 2030 (future within 50 years)") << "Tuesday, 01-Jan-30 00:00:00 GMT"_ba << now << 2030;
    QTest::addRow("rfc9110: 00 → 2000") << "Saturday, 01-Jan-00 00:00:00 GMT"_ba << now << 2000;
    QTest::addRow("rfc9110: Jan 76 → 2076 (49.6 years ahead)") << "Wednesday, 01-Jan-76 00:00:00 GMT"_ba << now << 2076;
    QTest::addRow("rfc9110: Dec 76 → 1976 (50.3 years ahead)") << "Wednesday, 01-Dec-76 00:00:00 GMT"_ba << now << 1976;
    QTest::addRow("rfc9110 boundary: 1 s before now+50y → 2076") << "Saturday, 22-Aug-76 11:59:59 GMT"_ba << now << 2076;
    QTest::addRow("rfc9110 boundary: 1 s after now+50y → 1976") << "Sunday, 22-Aug-76 12:00:01 GMT"_ba << now << 1976;
    // Qt's private fromHttpDate would say 1930 and httpdate (pivot 70) 2030: both differ here (headers.md §0.2).
    QTest::addRow("rfc9110: 30 seen from 1990 → 2030 (40 years ahead)") << "Tuesday, 01-Jan-30 00:00:00 GMT"_ba
                                                                        << QDateTime(QDate(1990, 1, 1), QTime(0, 0), QTimeZone::utc()) << 2030;
    // urllib3 test_retry.py RFC 850 row, seen from its own mocked clock.
    QTest::addRow("urllib3: 19 seen from 2019 → 2019") << "Monday, 03-Jun-19 11:30:12 GMT"_ba
                                                      << QDateTime(QDate(2019, 6, 3), QTime(11, 0), QTimeZone::utc()) << 2019;
}

void TestHttpDate::twoDigitYearIsRelativeToNow()
{
    QFETCH(QByteArray, text);
    QFETCH(QDateTime, now);
    QFETCH(int, year);

    const HttpDate date = parseHttpDate(text, now);
    QVERIFY2(date.isValid(), qPrintable(date.error));
    QCOMPARE(date.form, HttpDateForm::Rfc850);
    QCOMPARE(date.dateTime.date().year(), year);
    QVERIFY2(date.conformant, qPrintable(date.warnings.join(u"; "_s))); // the weekdays match the resolved year
}

void TestHttpDate::rejectsInvalidDates_data()
{
    QTest::addColumn<QByteArray>("text");

    QTest::addRow("go header_test: empty") << ""_ba;
    QTest::addRow("go header_test: invalid") << "invalid"_ba;
    QTest::addRow("go header_test: ISO 8601") << "1994-11-06T08:49:37Z00:00"_ba;
    QTest::addRow("go-retryablehttp: day 32") << "Fri, 32 Dec 1999 23:59:59 GMT"_ba;
    QTest::addRow("go-retryablehttp: badbadbad") << "badbadbad"_ba;
    QTest::addRow("pyfisch: 08*00:00") << "Sun Nov 10 08*00:00 2000"_ba;
    QTest::addRow("pyfisch: 08+49:37") << "Sunday, 06-Nov-94 08+49:37 GMT"_ba;
    QTest::addRow("openai-python: Zun") << "Zun, 29 Sep 2023 16:26:27 GMT"_ba;
    QTest::addRow("dotnet: truncated") << "Wed, 09 Nov"_ba;
    QTest::addRow("dotnet: W/ prefix") << "W/Wed 09 Nov 1994 08:49:37 GMT"_ba;
    QTest::addRow("dotnet: trailing comma") << "Wed 09 Nov 1994 08:49:37 GMT,"_ba;
    QTest::addRow("dotnet: comma after value") << "Sun, 06 Nov 1994 08:49:37 GMT ,"_ba;
    QTest::addRow("dotnet: number before date") << "123 Sun, 06 Nov 1994 08:49:37 GMT"_ba;
    QTest::addRow("dotnet: quoted junk after") << "Sun, 06 Nov 1994 08:49:37 GMT \"x\""_ba;
    QTest::addRow("curl lib517: WillyWonka") << "WillyWonka  , 18-Apr-07 22:50:12 GMT"_ba;
    QTest::addRow("rfc9110 time-of-day: hour 24") << "Sun, 06 Nov 1994 24:00:00 GMT"_ba;
    QTest::addRow("rfc9110 time-of-day: minute 60") << "Sun, 06 Nov 1994 08:60:00 GMT"_ba;
    QTest::addRow("rfc9110 time-of-day: second 61") << "Sun, 06 Nov 1994 08:49:61 GMT"_ba;
    QTest::addRow("rfc9110: zone EST") << "Sun, 06 Nov 1994 08:49:37 EST"_ba;
    QTest::addRow("headers.md 1.3: 29 Feb 2021 is no date") << "Mon, 29 Feb 2021 00:00:00 GMT"_ba;
    QTest::addRow("rfc9110 5.5: CR LF inside") << "Sun, 06 Nov 1994 08:49:37 GMT\r\nX: y"_ba;
    QTest::addRow("rfc9110: asctime with two-digit year") << "Sun Nov  6 08:49:37 94"_ba;
    QTest::addRow("rfc9110: full month name") << "Sun, 06 November 1994 08:49:37 GMT"_ba;
    QTest::addRow("rfc9110: three-digit day") << "Sun, 006 Nov 1994 08:49:37 GMT"_ba;
}

void TestHttpDate::rejectsInvalidDates()
{
    QFETCH(QByteArray, text);
    const HttpDate date = parseHttpDate(text, fixedNow());
    QVERIFY2(!date.isValid(), qPrintable(date.dateTime.toString(Qt::ISODate)));
    QCOMPARE(date.form, HttpDateForm::Invalid);
    QVERIFY(!date.conformant);
    QVERIFY(!date.error.isEmpty());
}

void TestHttpDate::twoDigitYearNeedsNow()
{
    // Without a reference time an RFC 850 year cannot be read; the other forms need none.
    QVERIFY(!parseHttpDate("Sunday, 06-Nov-94 08:49:37 GMT", QDateTime()).isValid());
    QVERIFY(parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT", QDateTime()).isValid());
    QVERIFY(parseHttpDate("Sun Nov  6 08:49:37 1994", QDateTime()).isValid());
}

void TestHttpDate::formatsImfFixdate()
{
    // headers.md §1.2: senders MUST generate IMF-fixdate.
    QCOMPARE(formatHttpDate(utc(784111777)), "Sun, 06 Nov 1994 08:49:37 GMT"_ba);
    // Converted to UTC first; milliseconds dropped.
    const QDateTime plusTwo(QDate(1994, 11, 6), QTime(10, 49, 37, 999), QTimeZone(2 * 3600));
    QCOMPARE(formatHttpDate(plusTwo), "Sun, 06 Nov 1994 08:49:37 GMT"_ba);
    QCOMPARE(formatHttpDate(utc(946684799)), "Fri, 31 Dec 1999 23:59:59 GMT"_ba);
    QCOMPARE(formatHttpDate(QDateTime()), QByteArray());
}

void TestHttpDate::formatRoundTrips()
{
    // Every day of 2024 (a leap year) at a varying time: format, parse, same instant, conformant.
    QDateTime t(QDate(2024, 1, 1), QTime(0, 0, 1), QTimeZone::utc());
    for (int i = 0; i < 366; ++i, t = t.addSecs(86400 + 3599)) {
        const QByteArray text = formatHttpDate(t);
        const HttpDate back = parseHttpDate(text, fixedNow());
        QVERIFY2(back.conformant, text.constData());
        QCOMPARE(back.dateTime, t);
    }
}

void TestHttpDate::formatRoundTripsEarlyYears()
{
    // formatHttpDate pads the year to four digits; what it writes for years 1–999 reads back conformant.
    for (const int year : { 1, 9, 10, 99, 100, 997, 999, 1000 }) {
        const QDateTime t(QDate(year, 11, 6), QTime(8, 9, 3), QTimeZone::utc());
        const QByteArray text = formatHttpDate(t);
        QCOMPARE(text.mid(12, 4), QByteArray::number(year).rightJustified(4, '0'));
        const HttpDate back = parseHttpDate(text, fixedNow());
        QVERIFY2(back.conformant, qPrintable(QString::fromLatin1(text) + u": "_s + back.warnings.join(u"; "_s)));
        QCOMPARE(back.dateTime, t);
    }
}

void TestHttpDate::formNames()
{
    QCOMPARE(httpDateFormName(HttpDateForm::ImfFixdate), u"imf-fixdate"_s);
    QCOMPARE(httpDateFormName(HttpDateForm::Rfc850), u"rfc850"_s);
    QCOMPARE(httpDateFormName(HttpDateForm::Asctime), u"asctime"_s);
    QCOMPARE(httpDateFormName(HttpDateForm::Invalid), u"invalid"_s);
}

QTEST_GUILESS_MAIN(TestHttpDate)
#include "tst_httpdate.moc"
