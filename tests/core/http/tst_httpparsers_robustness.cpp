// SPDX-License-Identifier: GPL-3.0-or-later
// Every parser in core/http gets arbitrary bytes: random strings, strings from each grammar's alphabet and
// mutations of valid examples. The seed is fixed and the iterations bounded, so a failure reproduces; the
// assertions are the invariants each header documents, so "did not crash" is not the only check.
#include "http/httpdate.h"
#include "http/idempotencykey.h"
#include "http/ratelimitparser.h"
#include "http/ratelimitvalue.h"
#include "http/retryafter.h"
#include "http/structuredfield.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

constexpr int kIterations = 20000;
constexpr quint32 kSeed = 20261130;

const QList<QByteArray> kSeeds = {
    "\"default\";r=50;t=30",
    "\"burst\";q=100;w=60,\"daily\";q=1000;w=86400",
    "\"peruser\";q=65535;qu=\"content-bytes\";w=10;pk=:sdfjLJUOUH==:",
    "\"5-in-2hrs\"; r=4; t=7200",
    "\"api\";a=99;w=60;pk=:R0VUH2FsaWNl:",
    "limit=100, remaining=50, reset=5",
    "100, 100;w=10",
    "(\"a\" \"b\");q=1, (1 2.5 ?0), @1659578233, %\"f%c3%bc\", *tok/en:x",
    "a=(1 2), b=?1;x, c=:aGVsbG8=:, d=-12.345",
    "Sun, 06 Nov 1994 08:49:37 GMT",
    "Sunday, 06-Nov-94 08:49:37 GMT",
    "Sun Nov  6 08:49:37 1994",
    "120",
    "1470173023.123",
    "6m0s",
    "1h2m3.5ms",
    "32/40",
    "-1",
    "\"8e03978e-40d5-43e8-bc93-6894a57f9324\"",
    "KG5LxwFBepaKHyUD",
};

const QList<QByteArray> kFieldNames = { "RateLimit", "RateLimit-Policy", "RateLimit-Limit", "RateLimit-Remaining",
    "RateLimit-Reset", "RateLimit-Observed", "RateLimit-Name", "RateLimit-ResetTime", "X-RateLimit-Limit",
    "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Used", "X-RateLimit-Resource",
    "X-RateLimit-Reset-After", "X-RateLimit-Bucket", "x-ratelimit-limit-requests", "x-ratelimit-remaining-tokens",
    "x-ratelimit-reset-tokens", "X-RateLimit-Limit-Minute", "x-rate-limit-reset", "X-Shopify-Shop-Api-Call-Limit",
    "Retry-After", "retry-after-ms", "Age", "Date", "Idempotency-Key" };

const QStringList kDialects = { u"ietf-draft-11"_s, u"ietf-editors-copy"_s, u"ietf-draft-07"_s,
    u"ratelimit-legacy"_s, u"x-ratelimit"_s, u"github"_s, u"x"_s, u"discord"_s, u"reddit"_s, u"shopify"_s,
    u"openai"_s, u"gitlab"_s };

class InputGenerator
{
public:
    explicit InputGenerator(quint32 seed)
        : m_random(seed)
    {
    }

    QByteArray next()
    {
        switch (m_random.bounded(4)) {
        case 0:
            return randomBytes(0, 256);
        case 1:
            return fromAlphabet("\"();=,:*?@%-._/0123456789abcdefqrtwAZ \t\\!+#GMT");
        default:
            return mutate(kSeeds.at(m_random.bounded(int(kSeeds.size()))));
        }
    }
    const QByteArray& fieldName() { return kFieldNames.at(m_random.bounded(int(kFieldNames.size()))); }
    int bounded(int n) { return int(m_random.bounded(n)); }

private:
    QByteArray randomBytes(int min, int max)
    {
        QByteArray out(min + m_random.bounded(max - min + 1), Qt::Uninitialized);
        for (char& c : out)
            c = char(m_random.bounded(256));
        return out;
    }

    QByteArray fromAlphabet(QByteArrayView alphabet)
    {
        QByteArray out;
        const int length = m_random.bounded(48);
        for (int i = 0; i < length; ++i)
            out.append(alphabet.at(m_random.bounded(int(alphabet.size()))));
        return out;
    }

    QByteArray mutate(QByteArray text)
    {
        const int edits = 1 + m_random.bounded(4);
        for (int e = 0; e < edits; ++e) {
            const int at = text.isEmpty() ? 0 : m_random.bounded(int(text.size()));
            switch (m_random.bounded(6)) {
            case 0:
                if (!text.isEmpty())
                    text[at] = char(m_random.bounded(256));
                break;
            case 1:
                text.insert(at, char(m_random.bounded(256)));
                break;
            case 2:
                text.remove(at, 1 + m_random.bounded(3));
                break;
            case 3:
                text.insert(at, text.mid(at, m_random.bounded(8))); // duplicate a run
                break;
            case 4:
                text.insert(at, kSeeds.at(m_random.bounded(int(kSeeds.size())))); // splice
                break;
            default:
                text.truncate(at);
                break;
            }
        }
        return text;
    }

    QRandomGenerator m_random;
};

bool finiteNonNegative(double v) { return std::isfinite(v) && v >= 0; }

// The documented ranges of RFC 9651 values, recursively.
bool sane(const SfBareItem& bare)
{
    constexpr qint64 maxInteger = 999'999'999'999'999;
    if (const auto* i = std::get_if<qint64>(&bare))
        return *i >= -maxInteger && *i <= maxInteger;
    if (const auto* d = std::get_if<double>(&bare))
        return std::isfinite(*d) && std::abs(*d) < 1e12;
    if (const auto* s = std::get_if<QString>(&bare))
        return std::all_of(s->cbegin(), s->cend(), [](QChar c) { return c.unicode() >= 0x20 && c.unicode() <= 0x7e; });
    if (const auto* t = std::get_if<SfToken>(&bare))
        return !t->value.isEmpty();
    if (const auto* date = std::get_if<SfDate>(&bare))
        return date->seconds >= -maxInteger && date->seconds <= maxInteger;
    return true;
}

bool sane(const SfParameters& params)
{
    for (qsizetype i = 0; i < params.entries.size(); ++i) {
        const auto& [key, value] = params.entries.at(i);
        if (key.isEmpty() || !sane(value))
            return false;
        for (qsizetype j = 0; j < i; ++j) {
            if (params.entries.at(j).first == key)
                return false; // keys are unique
        }
    }
    return true;
}

bool sane(const SfItem& item) { return sane(item.value) && sane(item.params); }

bool sane(const SfListMember& member)
{
    if (const auto* item = std::get_if<SfItem>(&member))
        return sane(*item);
    const auto& inner = std::get<SfInnerList>(member);
    return sane(inner.params) && std::all_of(inner.items.cbegin(), inner.items.cend(), [](const SfItem& i) { return sane(i); });
}

} // namespace

class TestHttpParsersRobustness : public QObject
{
    Q_OBJECT

private slots:
    void structuredFields();
    void rateLimits();
    void rateLimitValues();
    void retryAfterAndDates();
    void idempotencyKeys();
};

void TestHttpParsersRobustness::structuredFields()
{
    InputGenerator gen(kSeed);
    int parsed = 0;
    for (int i = 0; i < kIterations; ++i) {
        const QByteArray input = gen.next();
        const QByteArray other = gen.next();
        const std::optional<SfItem> item = parseSfItem(input);
        const std::optional<SfList> list = parseSfList(input);
        const std::optional<SfDictionary> dict = parseSfDictionary(input);
        parsed += int(item.has_value()) + int(list.has_value()) + int(dict.has_value());
        if (item) {
            QVERIFY2(sane(*item), input.toPercentEncoding().constData());
            // An Item is a one-member List.
            QVERIFY2(list && list->size() == 1 && std::get<SfItem>(list->first()) == *item,
                input.toPercentEncoding().constData());
        }
        if (list) {
            for (const SfListMember& member : *list)
                QVERIFY2(sane(member), input.toPercentEncoding().constData());
        }
        if (dict) {
            QVERIFY2(std::all_of(dict->entries.cbegin(), dict->entries.cend(),
                         [](const auto& entry) { return !entry.first.isEmpty() && sane(entry.second); }),
                input.toPercentEncoding().constData());
        }
        // Several field lines mean the same as one joined with ", ".
        QCOMPARE(parseSfList(QList<QByteArray> { input, other }), parseSfList(QByteArray(input + ", " + other)));
        QCOMPARE(parseSfDictionary(QList<QByteArray> { input, other }),
            parseSfDictionary(QByteArray(input + ", " + other)));
    }
    QVERIFY2(parsed > kIterations / 20, "the generator should reach the parsers' success paths too");
}

void TestHttpParsersRobustness::rateLimits()
{
    InputGenerator gen(kSeed + 1);
    const QDateTime now = QDateTime::fromSecsSinceEpoch(1700000000, Qt::UTC);
    int found = 0;
    for (int i = 0; i < kIterations; ++i) {
        HttpHeaderList headers;
        const int count = 1 + gen.bounded(6);
        for (int f = 0; f < count; ++f)
            headers.append({ gen.fieldName(), gen.next() });
        const RateLimitParse parse = parseRateLimits(headers, now);
        found += int(parse.snapshots.size());
        QCOMPARE(parse.mostRestrictiveIndex.has_value(), !parse.snapshots.isEmpty());
        if (parse.mostRestrictiveIndex)
            QVERIFY(*parse.mostRestrictiveIndex >= 0 && *parse.mostRestrictiveIndex < parse.snapshots.size());
        QVERIFY(!parse.ignoredAsCached || parse.snapshots.isEmpty());
        for (const RateLimitSnapshot& s : parse.snapshots) {
            QVERIFY2(kDialects.contains(s.dialect), qPrintable(s.dialect));
            QVERIFY(!s.limit || *s.limit >= 0);
            QVERIFY(!s.remaining || *s.remaining >= 0);
            QVERIFY(!s.used || *s.used >= 0);
            QVERIFY(!s.windowSeconds || *s.windowSeconds > 0);
            QVERIFY(!s.resetSeconds || finiteNonNegative(*s.resetSeconds));
            if (const std::optional<double> ratio = s.remainingRatio())
                QVERIFY(finiteNonNegative(*ratio));
            QVERIFY(!s.fields.isEmpty());
            QVERIFY(!s.resetGuessed || !s.warnings.isEmpty()); // a guess is always reported
        }
    }
    QVERIFY2(found > 0, "the generator should produce readable rate-limit fields too");
}

void TestHttpParsersRobustness::rateLimitValues()
{
    InputGenerator gen(kSeed + 2);
    const QDateTime now = QDateTime::fromSecsSinceEpoch(1700000000, Qt::UTC);
    const ResetUnit units[] = { ResetUnit::DelaySeconds, ResetUnit::EpochSeconds, ResetUnit::Unstated };
    for (int i = 0; i < kIterations; ++i) {
        const QByteArray input = gen.next();
        if (const auto v = parseRateLimitInteger(input))
            QVERIFY(*v >= 0);
        if (const auto v = parseRateLimitDecimal(input))
            QVERIFY(finiteNonNegative(*v));
        if (const auto v = parseGoDuration(input))
            QVERIFY(finiteNonNegative(*v));
        const ResetReading reading = readRateLimitReset(input, units[gen.bounded(3)], now, u"field"_s);
        QVERIFY(!reading.seconds || finiteNonNegative(*reading.seconds));
        QVERIFY(reading.seconds || !reading.note.isEmpty()); // an unreadable value is always explained
    }
}

void TestHttpParsersRobustness::retryAfterAndDates()
{
    InputGenerator gen(kSeed + 3);
    const QDateTime now = QDateTime::fromSecsSinceEpoch(1700000000, Qt::UTC);
    const HintValueFormat formats[] = { HintValueFormat::RetryAfter, HintValueFormat::Milliseconds,
        HintValueFormat::Seconds };
    for (int i = 0; i < kIterations; ++i) {
        const QByteArray input = gen.next();
        const HttpDate date = parseHttpDate(input, now);
        QCOMPARE(date.error.isEmpty(), date.isValid());
        QVERIFY(!date.isValid() || date.form != HttpDateForm::Invalid);
        QVERIFY(!date.conformant || date.isValid());

        const HintValueFormat format = formats[gen.bounded(3)];
        const RetryAfterValue value = parseHintValue(input, format, now);
        if (value.delay) {
            QVERIFY(std::chrono::abs(*value.delay) <= kMaxHintDelay);
            if (format == HintValueFormat::RetryAfter)
                QVERIFY(*value.delay >= std::chrono::milliseconds(0)); // never negative
        } else {
            QVERIFY(!value.conformant);
        }

        const HttpHeaderList headers { { gen.fieldName(), input }, { gen.fieldName(), gen.next() } };
        if (const std::optional<RetryAfterValue> header = parseRetryAfter(headers, now))
            QVERIFY(!header->delay || *header->delay >= std::chrono::milliseconds(0));
        else
            QVERIFY(!hasHeader(headers, "Retry-After") && !hasHeader(headers, "retry-after-ms"));
    }
}

void TestHttpParsersRobustness::idempotencyKeys()
{
    InputGenerator gen(kSeed + 4);
    for (int i = 0; i < kIterations; ++i) {
        const QByteArray input = gen.next();
        const IdempotencyKey key = parseIdempotencyKey(input);
        if (!key.isValid()) {
            QVERIFY(key.key.isEmpty());
            QVERIFY(!key.conformant);
            continue;
        }
        QVERIFY(!key.key.isEmpty());
        if (key.quoted) {
            // A key read from an sf-string writes back to one that reads the same.
            QCOMPARE(parseIdempotencyKey(formatIdempotencyKey(key.key, IdempotencyKeyFormat::Quoted)).key, key.key);
        }
        const HttpHeaderList headers { { "Idempotency-Key", input } };
        QVERIFY(parseIdempotencyKeyHeader(headers).has_value());
    }
}

QTEST_GUILESS_MAIN(TestHttpParsersRobustness)
#include "tst_httpparsers_robustness.moc"
