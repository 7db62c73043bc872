// SPDX-License-Identifier: GPL-3.0-or-later
// Retry-After and the other delay-hint fields (core/http/retryafter.h). Every row cites its source:
// "headers.md" is /work/shared/reference/headers.md (§0 decisions, §1 RFC 9110 text, §1.3 algorithm,
// §1.4 library test tables); "retry-systems.md" is /work/shared/reference/retry-systems.md.
#include "http/retryafter.h"

#include <QTest>
#include <QTimeZone>

#include <limits>
#include <random>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

namespace {
QDateTime utc(qint64 secs) { return QDateTime::fromSecsSinceEpoch(secs, QTimeZone::utc()); }
const QDateTime urllib3Now = utc(1559559600); // 2019-06-03 11:00:00 UTC, urllib3 test_retry.py
const QDateTime retryablehttpNow = utc(946684797); // Fri, 31 Dec 1999 23:59:57 GMT, go-retryablehttp client_test.go
const QDateTime openaiNow = utc(1696004797); // Fri, 29 Sep 2023 16:26:37 GMT, openai-python tests/test_client.py
constexpr qint64 kInvalid = std::numeric_limits<qint64>::min(); // marks an expected invalid value in the tables
}

class TestRetryAfter : public QObject
{
    Q_OBJECT

private slots:
    void parsesValue_data();
    void parsesValue();
    void readsHeaderList_data();
    void readsHeaderList();
    void readsHintHeaders_data();
    void readsHintHeaders();
    void absentFieldsGiveNothing();
    void survivesGarbage();
};

void TestRetryAfter::parsesValue_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QDateTime>("now");
    QTest::addColumn<qint64>("delayMs"); // kInvalid: ignored
    QTest::addColumn<bool>("conformant");
    QTest::addColumn<QString>("form");
    QTest::addColumn<bool>("saturated");

    const QString ds = u"delay-seconds"_s;
    // headers.md §1: RFC 9110 §10.2.3 example.
    QTest::addRow("rfc9110 example: 120 → 2 min") << "120"_ba << openaiNow << qint64(120000) << true << ds << false;
    // headers.md §1.4 urllib3 test_retry.py.
    QTest::addRow("urllib3: 0") << "0"_ba << urllib3Now << qint64(0) << true << ds << false;
    QTest::addRow("urllib3: 1000") << "1000"_ba << urllib3Now << qint64(1000000) << true << ds << false;
    QTest::addRow("urllib3: tab 42 space (trimmed, RFC 9110 5.5)") << "\t42 "_ba << urllib3Now << qint64(42000) << true << ds << false;
    QTest::addRow("urllib3: -1 invalid") << "-1"_ba << urllib3Now << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("urllib3: +1 invalid") << "+1"_ba << urllib3Now << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("urllib3: superscript two invalid") << "\xb2"_ba << urllib3Now << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("urllib3: IMF-fixdate +30:12") << "Mon, 03 Jun 2019 11:30:12 GMT"_ba << urllib3Now << qint64(1812000) << true << u"imf-fixdate"_s << false;
    QTest::addRow("urllib3: RFC 850 +30:12") << "Monday, 03-Jun-19 11:30:12 GMT"_ba << urllib3Now << qint64(1812000) << true << u"rfc850"_s << false;
    QTest::addRow("urllib3: asctime +30:12") << "Mon Jun  3 11:30:12 2019"_ba << urllib3Now << qint64(1812000) << true << u"asctime"_s << false;
    QTest::addRow("urllib3: UTC, one-digit day → 3600 s, non-conformant") << "Mon, 3 Jun 2019 12:00:00 UTC"_ba << urllib3Now << qint64(3600000) << false << u"imf-fixdate"_s << false;
    QTest::addRow("urllib3: UTC at now → no sleep, non-conformant") << "Mon, 3 Jun 2019 11:00:00 UTC"_ba << urllib3Now << qint64(0) << false << u"imf-fixdate"_s << false;
    // headers.md §0.1 and §1.3 step 6: fractions are non-conformant but interpretable (urllib3 and .NET
    // reject "1.0"/"1.5"; openai-python and Shopify accept them).
    QTest::addRow("urllib3/dotnet 1.0: fraction, flagged") << "1.0"_ba << urllib3Now << qint64(1000) << false << u"fraction"_s << false;
    QTest::addRow("dotnet 1.5: fraction, flagged") << "1.5"_ba << urllib3Now << qint64(1500) << false << u"fraction"_s << false;
    QTest::addRow("Shopify 0.5: fraction, flagged") << "0.5"_ba << urllib3Now << qint64(500) << false << u"fraction"_s << false;
    QTest::addRow("Shopify 2.0: fraction, flagged") << "2.0"_ba << urllib3Now << qint64(2000) << false << u"fraction"_s << false;
    QTest::addRow("fraction below 1 ms is dropped") << "0.0009"_ba << urllib3Now << qint64(0) << false << u"fraction"_s << false;
    QTest::addRow("Shopify foobar: invalid") << "foobar"_ba << urllib3Now << kInvalid << false << u"invalid"_s << false;
    // headers.md §1.4 go-retryablehttp client_test.go (now Fri, 31 Dec 1999 23:59:57 GMT).
    QTest::addRow("go-retryablehttp: 2") << "2"_ba << retryablehttpNow << qint64(2000) << true << ds << false;
    QTest::addRow("go-retryablehttp: date +2 s") << "Fri, 31 Dec 1999 23:59:59 GMT"_ba << retryablehttpNow << qint64(2000) << true << u"imf-fixdate"_s << false;
    QTest::addRow("go-retryablehttp: past date → 0") << "Fri, 31 Dec 1999 23:59:00 GMT"_ba << retryablehttpNow << qint64(0) << true << u"imf-fixdate"_s << false;
    QTest::addRow("go-retryablehttp: empty") << ""_ba << retryablehttpNow << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("go-retryablehttp: -2") << "-2"_ba << retryablehttpNow << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("go-retryablehttp: day 32") << "Fri, 32 Dec 1999 23:59:59 GMT"_ba << retryablehttpNow << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("go-retryablehttp: badbadbad") << "badbadbad"_ba << retryablehttpNow << kInvalid << false << u"invalid"_s << false;
    // headers.md §1.4 openai-python tests/test_client.py (now Fri, 29 Sep 2023 16:26:37 GMT); the 60 s
    // window is openai's policy, not the header's meaning, so 61 reads as 61.
    QTest::addRow("openai: 20") << "20"_ba << openaiNow << qint64(20000) << true << ds << false;
    QTest::addRow("openai: 61") << "61"_ba << openaiNow << qint64(61000) << true << ds << false;
    QTest::addRow("openai: -10 invalid") << "-10"_ba << openaiNow << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("openai: date +20 s") << "Fri, 29 Sep 2023 16:26:57 GMT"_ba << openaiNow << qint64(20000) << true << u"imf-fixdate"_s << false;
    QTest::addRow("openai: date = now → 0") << "Fri, 29 Sep 2023 16:26:37 GMT"_ba << openaiNow << qint64(0) << true << u"imf-fixdate"_s << false;
    QTest::addRow("openai: date -10 s → 0") << "Fri, 29 Sep 2023 16:26:27 GMT"_ba << openaiNow << qint64(0) << true << u"imf-fixdate"_s << false;
    QTest::addRow("openai: date +60 s") << "Fri, 29 Sep 2023 16:27:37 GMT"_ba << openaiNow << qint64(60000) << true << u"imf-fixdate"_s << false;
    QTest::addRow("openai: 35 nines saturate") << "99999999999999999999999999999999999"_ba << openaiNow << qint64(kMaxHintDelay.count()) << true << ds << true;
    QTest::addRow("openai: Zun invalid") << "Zun, 29 Sep 2023 16:26:27 GMT"_ba << openaiNow << kInvalid << false << u"invalid"_s << false;
    // headers.md §1.4 dotnet RetryConditionHeaderValueTest.cs (.NET also rejects > Int32.MaxValue; we saturate
    // only above kMaxHintDelay, headers.md §1.3 step 2 allows either).
    QTest::addRow("dotnet: spaced 1234567890") << " 1234567890 "_ba << openaiNow << qint64(1234567890000) << true << ds << false;
    QTest::addRow("dotnet: 001 → 1") << "001"_ba << openaiNow << qint64(1000) << true << ds << false;
    QTest::addRow("dotnet: 9999999999 (317 years) saturates") << "9999999999"_ba << openaiNow << qint64(kMaxHintDelay.count()) << true << ds << true;
    QTest::addRow("dotnet: 3000000000 (95 years, > Int32) read") << "3000000000"_ba << openaiNow << qint64(3000000000000) << true << ds << false;
    QTest::addRow("dotnet: 30 digits saturate") << "123456789012345678901234567890"_ba << openaiNow << qint64(kMaxHintDelay.count()) << true << ds << true;
    QTest::addRow("dotnet: 5123, invalid") << "5123,"_ba << openaiNow << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("dotnet: 123 , invalid") << "123 ,"_ba << openaiNow << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("dotnet: past date with trailing spaces") << "Sun, 06 Nov 1994 08:49:37 GMT     "_ba << openaiNow << qint64(0) << true << u"imf-fixdate"_s << false;
    QTest::addRow("dotnet: quoted junk invalid") << "Sun, 06 Nov 1994 08:49:37 GMT \"x\""_ba << openaiNow << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("dotnet: W/ prefix invalid") << "W/Wed 09 Nov 1994 08:49:37 GMT"_ba << openaiNow << kInvalid << false << u"invalid"_s << false;
    // headers.md §1.1: "2, 3" (two field lines combined) is not a valid singleton value.
    QTest::addRow("rfc9110 5.5: combined 2, 3 invalid") << "2, 3"_ba << openaiNow << kInvalid << false << u"invalid"_s << false;
    QTest::addRow("rfc9110 5.5: NUL invalid") << "1\0"_ba << openaiNow << kInvalid << false << u"invalid"_s << false;
    // A far-future date saturates like a huge number.
    QTest::addRow("far date saturates") << "Fri, 31 Dec 9999 23:59:59 GMT"_ba << openaiNow << qint64(kMaxHintDelay.count()) << true << u"imf-fixdate"_s << true;
}

void TestRetryAfter::parsesValue()
{
    QFETCH(QByteArray, value);
    QFETCH(QDateTime, now);
    QFETCH(qint64, delayMs);
    QFETCH(bool, conformant);
    QFETCH(QString, form);
    QFETCH(bool, saturated);

    const RetryAfterValue v = parseHintValue(value, HintValueFormat::RetryAfter, now);
    QCOMPARE(v.source, u"retry-after"_s);
    QCOMPARE(v.raw, value);
    QCOMPARE(v.form, form);
    QCOMPARE(v.conformant, conformant);
    QCOMPARE(v.saturated, saturated);
    if (delayMs == kInvalid) {
        QVERIFY(!v.isValid());
        QVERIFY2(!v.warnings.isEmpty(), "an ignored value says why");
    } else {
        QVERIFY2(v.isValid(), qPrintable(v.warnings.join(u"; "_s)));
        QCOMPARE(v.delay->count(), delayMs);
        QVERIFY(v.delay->count() >= 0);
        // Lenient, saturated or past readings explain themselves; a plain conformant one says nothing.
        QCOMPARE(v.warnings.isEmpty(), conformant && !saturated);
    }
}

void TestRetryAfter::readsHeaderList_data()
{
    QTest::addColumn<HttpHeaderList>("headers");
    QTest::addColumn<QString>("source");
    QTest::addColumn<qint64>("delayMs");
    QTest::addColumn<bool>("conformant");

    using H = QPair<QByteArray, QByteArray>;
    // Field names are case-insensitive (RFC 9110 §5.1).
    QTest::addRow("rfc9110: Retry-After 120, any case") << HttpHeaderList { H("rEtRy-AfTeR", "120") } << u"retry-after"_s << qint64(120000) << true;
    // Decision (headers.md §1.1, retry-systems.md §3 pushback "Multiple values means no retry"): several
    // differing field lines make the singleton invalid, not first-wins as go-retryablehttp does.
    QTest::addRow("go-retryablehttp [2,3]: differing lines → invalid") << HttpHeaderList { H("Retry-After", "2"), H("Retry-After", "3") } << u"retry-after"_s << kInvalid << false;
    QTest::addRow("duplicated identical line: read, non-conformant") << HttpHeaderList { H("Retry-After", "5"), H("retry-after", " 5") } << u"retry-after"_s << qint64(5000) << false;
    // headers.md §1.4 openai-python: retry-after-ms (non-standard), read only when Retry-After is absent.
    QTest::addRow("openai: retry-after-ms alone") << HttpHeaderList { H("retry-after-ms", "1500") } << u"retry-after-ms"_s << qint64(1500) << true;
    QTest::addRow("openai: retry-after-ms fraction") << HttpHeaderList { H("Retry-After-Ms", "1500.7") } << u"retry-after-ms"_s << qint64(1500) << false;
    QTest::addRow("retry-after-ms negative: invalid") << HttpHeaderList { H("retry-after-ms", "-5") } << u"retry-after-ms"_s << kInvalid << false;
    QTest::addRow("Retry-After wins over retry-after-ms") << HttpHeaderList { H("retry-after-ms", "1500"), H("Retry-After", "2") } << u"retry-after"_s << qint64(2000) << true;
    QTest::addRow("invalid Retry-After still hides retry-after-ms") << HttpHeaderList { H("Retry-After", "soon"), H("retry-after-ms", "1500") } << u"retry-after"_s << kInvalid << false;
}

void TestRetryAfter::readsHeaderList()
{
    QFETCH(HttpHeaderList, headers);
    QFETCH(QString, source);
    QFETCH(qint64, delayMs);
    QFETCH(bool, conformant);

    const std::optional<RetryAfterValue> v = parseRetryAfter(headers, openaiNow);
    QVERIFY(v.has_value());
    QCOMPARE(v->source, source);
    QCOMPARE(v->conformant, conformant);
    if (delayMs == kInvalid) {
        QVERIFY(!v->isValid());
        QVERIFY(!v->warnings.isEmpty());
    } else {
        QVERIFY2(v->isValid(), qPrintable(v->warnings.join(u"; "_s)));
        QCOMPARE(v->delay->count(), delayMs);
    }
}

void TestRetryAfter::readsHintHeaders_data()
{
    QTest::addColumn<HttpHeaderList>("headers");
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<HintValueFormat>("format");
    QTest::addColumn<qint64>("delayMs");
    QTest::addColumn<QString>("form");

    using H = QPair<QByteArray, QByteArray>;
    const auto ms = HintValueFormat::Milliseconds;
    const auto s = HintValueFormat::Seconds;
    // retry-systems.md §2c: x-amz-retry-after is integer milliseconds; negatives are ignored by the
    // policy, so the reader keeps the sign.
    QTest::addRow("aws 2026: x-amz-retry-after 1500 ms") << HttpHeaderList { H("x-amz-retry-after", "1500") } << "X-Amz-Retry-After"_ba << ms << qint64(1500) << u"milliseconds"_s;
    QTest::addRow("aws 2026: x-amz-retry-after -1 keeps its sign") << HttpHeaderList { H("x-amz-retry-after", "-1") } << "x-amz-retry-after"_ba << ms << qint64(-1) << u"milliseconds"_s;
    // retry-systems.md §3: grpc-retry-pushback-ms; negative = don't retry; unparseable or several = no retry.
    QTest::addRow("grpc: pushback 250") << HttpHeaderList { H("grpc-retry-pushback-ms", "250") } << "grpc-retry-pushback-ms"_ba << ms << qint64(250) << u"milliseconds"_s;
    QTest::addRow("grpc: pushback -1 means stop") << HttpHeaderList { H("grpc-retry-pushback-ms", "-1") } << "grpc-retry-pushback-ms"_ba << ms << qint64(-1) << u"milliseconds"_s;
    QTest::addRow("grpc: pushback abc invalid") << HttpHeaderList { H("grpc-retry-pushback-ms", "abc") } << "grpc-retry-pushback-ms"_ba << ms << kInvalid << u"invalid"_s;
    QTest::addRow("grpc: two pushbacks invalid") << HttpHeaderList { H("grpc-retry-pushback-ms", "10"), H("grpc-retry-pushback-ms", "20") } << "grpc-retry-pushback-ms"_ba << ms << kInvalid << u"invalid"_s;
    QTest::addRow("milliseconds: no HTTP-date") << HttpHeaderList { H("x-amz-retry-after", "Fri, 31 Dec 1999 23:59:59 GMT") } << "x-amz-retry-after"_ba << ms << kInvalid << u"invalid"_s;
    QTest::addRow("milliseconds: 25 digits saturate") << HttpHeaderList { H("x-amz-retry-after", "9999999999999999999999999") } << "x-amz-retry-after"_ba << ms << qint64(kMaxHintDelay.count()) << u"milliseconds"_s;
    // retry-systems.md §6: Envoy SECONDS reset headers, integer delta seconds, no HTTP-date support.
    QTest::addRow("envoy SECONDS: 30") << HttpHeaderList { H("X-RateLimit-Reset-After", "30") } << "x-ratelimit-reset-after"_ba << s << qint64(30000) << u"seconds"_s;
    QTest::addRow("envoy SECONDS: no HTTP-date") << HttpHeaderList { H("X-RateLimit-Reset-After", "Fri, 31 Dec 1999 23:59:59 GMT") } << "x-ratelimit-reset-after"_ba << s << kInvalid << u"invalid"_s;
    QTest::addRow("seconds: -5 keeps its sign") << HttpHeaderList { H("x-reset", "-5") } << "x-reset"_ba << s << qint64(-5000) << u"seconds"_s;
    QTest::addRow("seconds: Discord-style fraction, flagged") << HttpHeaderList { H("x-ratelimit-reset-after", "1.25") } << "x-ratelimit-reset-after"_ba << s << qint64(1250) << u"fraction"_s;
    // The generic reader in RetryAfter format is parseRetryAfter without the retry-after-ms fallback.
    QTest::addRow("RetryAfter format on another name") << HttpHeaderList { H("x-retry-in", "Fri, 29 Sep 2023 16:26:57 GMT") } << "x-retry-in"_ba << HintValueFormat::RetryAfter << qint64(20000) << u"imf-fixdate"_s;
}

void TestRetryAfter::readsHintHeaders()
{
    QFETCH(HttpHeaderList, headers);
    QFETCH(QByteArray, name);
    QFETCH(HintValueFormat, format);
    QFETCH(qint64, delayMs);
    QFETCH(QString, form);

    const std::optional<RetryAfterValue> v = parseHintHeader(headers, name, format, openaiNow);
    QVERIFY(v.has_value());
    QCOMPARE(v->source, QString::fromLatin1(name.toLower()));
    QCOMPARE(v->form, form);
    if (delayMs == kInvalid) {
        QVERIFY(!v->isValid());
        QVERIFY(!v->warnings.isEmpty());
    } else {
        QVERIFY2(v->isValid(), qPrintable(v->warnings.join(u"; "_s)));
        QCOMPARE(v->delay->count(), delayMs);
    }
}

void TestRetryAfter::absentFieldsGiveNothing()
{
    using H = QPair<QByteArray, QByteArray>;
    const HttpHeaderList headers { H("Content-Type", "text/plain"), H("Retry-After-Later", "5") };
    QVERIFY(!parseRetryAfter(headers, openaiNow).has_value());
    QVERIFY(!parseRetryAfter({}, openaiNow).has_value());
    QVERIFY(!parseHintHeader(headers, "grpc-retry-pushback-ms", HintValueFormat::Milliseconds, openaiNow).has_value());
}

void TestRetryAfter::survivesGarbage()
{
    // Fixed-seed random strings from the characters HTTP-dates and numbers are made of, plus a few bad
    // bytes (run under the dev-asan preset this is a small fuzz). Invariants, not exact values.
    static const QByteArray alphabet = "0123456789 :,-.+\tGMTUCSunMonNovDecJanday\"\x00\x7f\xff"_ba;
    std::mt19937 gen(9110);
    std::uniform_int_distribution<int> length(0, 40);
    std::uniform_int_distribution<qsizetype> pick(0, alphabet.size() - 1);
    for (int i = 0; i < 20000; ++i) {
        QByteArray value;
        for (int n = length(gen); n > 0; --n)
            value += alphabet.at(pick(gen));
        for (HintValueFormat format : { HintValueFormat::RetryAfter, HintValueFormat::Milliseconds, HintValueFormat::Seconds }) {
            const RetryAfterValue v = parseHintValue(value, format, openaiNow);
            if (v.isValid()) {
                QVERIFY(v.delay->count() <= kMaxHintDelay.count());
                QVERIFY(v.delay->count() >= -kMaxHintDelay.count());
                if (format == HintValueFormat::RetryAfter)
                    QVERIFY2(v.delay->count() >= 0, value.toHex().constData());
            } else {
                QVERIFY2(!v.warnings.isEmpty() && !v.conformant, value.toHex().constData());
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestRetryAfter)
#include "tst_retryafter.moc"
