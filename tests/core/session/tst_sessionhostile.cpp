// SPDX-License-Identifier: GPL-3.0-or-later
// Session files from anyone (issue 14 §0, §4): nesting far past any real file, times that do not fit a
// nanosecond clock, a real session cut at every byte and with single bits flipped. Each is refused with
// the line, the column and the JSON path, or opens whole — never a crash (the pull reader used to recurse
// without limit), never a wrapped, garbage time, never part of a file presented as all of it.
#include "json/jsonpullreader.h"
#include "json/jsontext.h"
#include "session/format/sessionfile.h"

#include <QBuffer>
#include <QFile>
#include <QTest>

#include <limits>

using namespace Qt::StringLiterals;

namespace {

std::unique_ptr<Session> readText(QByteArray text, QString* error)
{
    QBuffer buffer(&text);
    buffer.open(QIODevice::ReadOnly);
    return SessionFile::read(buffer, text.size(), {}, error);
}

QByteArray nested(char open, char close, int depth)
{
    return QByteArray(depth, open) + QByteArray(depth, close);
}

QByteArray sessionWith(const QByteArray& members)
{
    return R"({"format":"retrylab-session","version":1,)" + members + "}";
}

} // namespace

class TestSessionHostile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The issue's reproducers (a 200 KB meta, a 2 MB ignored field) and their neighbours: every place
    // the reader takes a whole value (readValue) or skips one (skipValue).
    void deepNestingRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("path");
        QTest::addRow("issue 14: meta holding arrays 100 000 deep")
            << sessionWith(R"("meta":{"notes":)" + nested('[', ']', 100000) + "}") << u"$.meta"_s;
        QTest::addRow("issue 14: an ignored '_x' field 1 000 000 deep")
            << sessionWith(R"("_x":)" + nested('[', ']', 1000000)) << u"$._x"_s;
        QTest::addRow("objects, not arrays") << sessionWith(R"("_x":)" + QByteArray(100000, '{').replace("{", "{\"a\":"))
                                            << u"$._x"_s;
        QTest::addRow("scenario") << sessionWith(R"("scenario":{"a":)" + nested('[', ']', 5000) + "}") << u"$.scenario"_s;
        QTest::addRow("a policy") << sessionWith(R"("policies":[)" + nested('[', ']', 5000) + "]") << u"$.policies[0]"_s;
        QTest::addRow("a run's '_' field")
            << sessionWith(R"("runs":[{"run":1,"_n":)" + nested('[', ']', 5000) + "}]") << u"$.runs[0]._n"_s;
        QTest::addRow("an attempt's '_' field")
            << sessionWith(R"("runs":[{"run":1,"attempts":[{"_n":)" + nested('[', ']', 5000) + "}]}]")
            << u"$.runs[0].attempts[0]"_s;
    }
    void deepNestingRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, path);
        QString error;
        QVERIFY(!readText(text, &error));
        QVERIFY2(error.contains(u"nested deeper than %1 levels"_s.arg(JsonPullReader::kMaxDepth)), qPrintable(error.left(300)));
        QVERIFY2(error.contains(u"line 1, column "_s), qPrintable(error.left(300)));
        QVERIFY2(error.contains(u"(at "_s + path), qPrintable(error.left(300)));
    }

    // Nesting up to the limit is data like any other: a '_' field that deep is skipped, the file opens.
    void nestingAtTheLimitReads()
    {
        // The document object is level 1, so the field may open kMaxDepth - 1 more.
        const int depth = JsonPullReader::kMaxDepth - 1;
        QString error;
        QVERIFY2(readText(sessionWith(R"("_x":)" + nested('[', ']', depth)), &error), qPrintable(error));
        QVERIFY(!readText(sessionWith(R"("_x":)" + nested('[', ']', depth + 1)), &error));
    }

    // JsonText::nsFromMillisText: milliseconds as written by millisFromNs, and anything past qint64 ns.
    void millisText_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("ns");
        constexpr qint64 max = std::numeric_limits<qint64>::max();
        constexpr qint64 min = std::numeric_limits<qint64>::min();
        QTest::addRow("int64 max as written") << "9223372036854.775807"_ba << true << max;
        QTest::addRow("int64 min") << "-9223372036854.775808"_ba << true << min;
        QTest::addRow("one past int64 max") << "9223372036854.775808"_ba << false << qint64(0);
        QTest::addRow("one past int64 min") << "-9223372036854.775809"_ba << false << qint64(0);
        QTest::addRow("issue 14: start_ms 10000000000000") << "10000000000000"_ba << false << qint64(0);
        QTest::addRow("issue 14: twenty digits") << "12345678901234567890"_ba << false << qint64(0);
        QTest::addRow("forty digits and a fraction") << "1234567890123456789012345678901234567890.5"_ba << false << qint64(0);
        QTest::addRow("exponent past the range") << "1e13"_ba << false << qint64(0);
        QTest::addRow("exponent past double") << "1e999"_ba << false << qint64(0);
        QTest::addRow("negative exponent past the range") << "-1e300"_ba << false << qint64(0);
        QTest::addRow("exponent in range") << "1.5e3"_ba << true << qint64(1500000000);
        QTest::addRow("seven decimals cut to six") << "1.0000019"_ba << true << qint64(1000001);
    }
    void millisText()
    {
        QFETCH(QByteArray, text);
        QFETCH(bool, ok);
        QFETCH(qint64, ns);
        qint64 got = 42;
        QCOMPARE(JsonText::nsFromMillisText(text, &got), ok);
        if (ok)
            QCOMPARE(got, ns);
    }

    // The same values in a file: refused, naming the field, not read as a wrapped time.
    void outOfRangeTimesRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("path");
        QTest::addRow("an attempt's start_ms")
            << sessionWith(R"("runs":[{"run":1,"attempts":[{"index":1,"start_ms":10000000000000}]}])")
            << u"$.runs[0].attempts[0].start_ms"_s;
        QTest::addRow("a run's start_ms (fixed slot)") << sessionWith(R"("runs":[{"run":1,"start_ms":1e300,"attempts":[]}])")
                                                      << u"$.runs[0].start_ms"_s;
        QTest::addRow("a run's end_ms (general path)")
            << sessionWith(R"("runs":[{"run":1,"_n":1,"end_ms":-1e19,"attempts":[]}])") << u"$.runs[0].end_ms"_s;
    }
    void outOfRangeTimesRefused()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, path);
        QString error;
        QVERIFY(!readText(text, &error));
        QVERIFY2(error.contains(u"(at "_s + path), qPrintable(error));
    }

    // §4: a small real session (tests/data/sessions/small-real.json: `retrylab run --policy curl --url`
    // against `retrylab serve --scenario seed-001-slen`, one run of four attempts) cut at every byte offset. Reading is all or nothing (the reader
    // hands a session over only when the whole file was read), so every cut but the whole is refused,
    // naming where the text stopped.
    void truncatedAtEveryByte()
    {
        const QByteArray whole = realSession();
        const qsizetype end = whole.trimmed().size(); // cutting only trailing whitespace leaves it whole
        QString error;
        for (qsizetype cut = 0; cut < end; ++cut) {
            const std::unique_ptr<Session> s = readText(whole.left(cut), &error);
            if (s)
                QFAIL(qPrintable(u"a file cut at byte %1 of %2 opened as if whole"_s.arg(cut).arg(whole.size())));
            if (!error.contains(u"line "_s) || !error.contains(u", column "_s) || !error.contains(u"(at $"_s))
                QFAIL(qPrintable(u"cut at %1: the refusal does not say where: %2"_s.arg(cut).arg(error)));
        }
        QVERIFY(readText(whole.left(end), &error));
    }

    // §4: one bit flipped at every offset of the same session (which bit cycles through all eight along
    // the file). Each copy either opens with every run and attempt of the original (the flip hit a value:
    // a letter of a URL, a digit) or is refused naming line and path.
    void bitFlips()
    {
        const QByteArray whole = realSession();
        QString error;
        const std::unique_ptr<Session> original = readText(whole, &error);
        QVERIFY2(original, qPrintable(error));
        int opened = 0;
        int refused = 0;
        for (qsizetype at = 0; at < whole.size(); ++at) {
            for (int bit = int(at * 5 % 8), n = 0; n < 1; ++n) {
                QByteArray damaged = whole;
                damaged[at] = char(uchar(damaged.at(at)) ^ (1u << bit));
                const std::unique_ptr<Session> s = readText(damaged, &error);
                if (s) {
                    ++opened;
                    if (s->runs.size() != original->runs.size() || s->attemptCount() != original->attemptCount())
                        QFAIL(qPrintable(u"bit %1 of byte %2 flipped: opened with %3 runs / %4 attempts instead of %5 / %6"_s
                                             .arg(bit).arg(at).arg(s->runs.size()).arg(s->attemptCount())
                                             .arg(original->runs.size()).arg(original->attemptCount())));
                } else {
                    ++refused;
                    if (!error.contains(u"(at $"_s) || !error.contains(u"line "_s))
                        QFAIL(qPrintable(u"bit %1 of byte %2: the refusal does not say where: %3"_s.arg(bit).arg(at).arg(error)));
                }
            }
        }
        qInfo("single bit flips: %d opened whole, %d refused with line and path", opened, refused);
        QVERIFY(opened > 0 && refused > 0);
    }

private:
    static QByteArray realSession()
    {
        QFile file(QStringLiteral(RETRYLAB_TEST_DATA "/sessions/small-real.json"));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("missing test data");
        return file.readAll();
    }
};

QTEST_GUILESS_MAIN(TestSessionHostile)
#include "tst_sessionhostile.moc"
