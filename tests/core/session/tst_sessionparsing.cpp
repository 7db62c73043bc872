// SPDX-License-Identifier: GPL-3.0-or-later
// The session reader's and writer's own JSON paths (issue 5: they no longer go through QJsonDocument):
// strings with escapes and non-ASCII text, tokens split across read chunks, integers at the int64 edges,
// exact millisecond times, attempt fields in any order, "_" fields skipped and unknown ones refused,
// truncated files refused with line and field, run facts read and written as SessionJson reads and writes
// them, and the compact store's sharing (attempt ids, repeated header values and blocks).
#include "session/format/attemptjson.h"
#include "json/filereadahead.h"
#include "json/jsonpullreader.h"
#include "json/jsontext.h"
#include "session/format/sessionfile.h"
#include "session/format/sessionjson.h"
#include "sessiontestdata.h"

#include <QBuffer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace Qt::StringLiterals;

namespace {

// Chunk sizes the reader is driven with: tokens split everywhere, and the usual case.
const QList<qsizetype> kChunks { 1, 3, 7, 64, 1 << 20 };

QByteArray attemptText(const AttemptStore& store, const PackedAttempt& p)
{
    QByteArray out;
    AttemptJson::write(out, store, p, Redactor::none(), QDateTime());
    return out;
}

QByteArray written(const Session& s)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!SessionFile::write(s, buffer, {}, nullptr))
        qFatal("write failed");
    return buffer.data();
}

std::unique_ptr<Session> readText(QByteArray text, QString* error)
{
    QBuffer buffer(&text);
    buffer.open(QIODevice::ReadOnly);
    return SessionFile::read(buffer, text.size(), {}, error);
}

} // namespace

class TestSessionParsing : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void strings_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QByteArray>("utf8");
        QTest::addRow("plain") << QByteArray(R"("Service Unavailable")") << QByteArray("Service Unavailable");
        QTest::addRow("empty") << QByteArray(R"("")") << QByteArray();
        QTest::addRow("RFC 8259 §7: the two-character escapes")
            << QByteArray("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t\"") << QByteArray("q\" b\\ s/ \b\f\n\r\t");
        QTest::addRow("RFC 8259 §7: \\u escapes, BMP") << QByteArray(R"("caf\u00e9 \u20AC")") << QByteArray("caf\xc3\xa9 \xe2\x82\xac");
        QTest::addRow("RFC 8259 §7: surrogate pair") << QByteArray(R"("\ud83d\ude00")") << QByteArray("\xf0\x9f\x98\x80");
        QTest::addRow("raw UTF-8 passes through") << QByteArray("\"caf\xc3\xa9 \xf0\x9f\x98\x80\"")
                                                 << QByteArray("caf\xc3\xa9 \xf0\x9f\x98\x80");
        QTest::addRow("escape at the end") << QByteArray(R"("abcdefghijklmnop\n")") << QByteArray("abcdefghijklmnop\n");
        QTest::addRow("longer than eight bytes, quote late")
            << QByteArray("\"0123456789abcdefghij\\\"klm\"") << QByteArray("0123456789abcdefghij\"klm");
    }
    void strings()
    {
        QFETCH(QByteArray, json);
        QFETCH(QByteArray, utf8);
        for (qsizetype chunk : kChunks) {
            // As a value, as a key, and into a caller's buffer.
            QByteArray doc = "[" + json + ",{" + json + ":1}," + json + "]";
            QBuffer buffer(&doc);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            QVERIFY(in.enterArray());
            QVERIFY(in.nextElement());
            QByteArrayView view;
            QVERIFY2(in.readUtf8View(&view), qPrintable(in.errorString()));
            QCOMPARE(view.toByteArray(), utf8);
            QVERIFY(in.nextElement());
            QVERIFY(in.enterObject());
            QVERIFY2(in.nextKeyView(&view), qPrintable(in.errorString()));
            QCOMPARE(view.toByteArray(), utf8);
            QCOMPARE(in.readInteger().value_or(0), 1);
            QVERIFY(!in.nextKeyView(&view));
            QVERIFY(in.nextElement());
            QByteArray into = "old contents";
            QVERIFY(in.readUtf8Into(into));
            QCOMPARE(into, utf8);
            QVERIFY(!in.nextElement());
            QVERIFY2(!in.hasError() && in.atEnd(), qPrintable(u"chunk %1: %2"_s.arg(chunk).arg(in.errorString())));
        }
    }

    // nextKeyIs takes a key only as a writer without whitespace puts it, and leaves anything else to
    // nextKeyView untouched: the object reads the same (keys, values, errors) either way, at every chunk size.
    void nextKeyIs_data()
    {
        QTest::addColumn<QByteArray>("object");
        QTest::addColumn<QList<QByteArray>>("guesses"); // the key tried before each member
        QTest::addColumn<QList<QByteArray>>("keys"); // what is read, either way
        QTest::addRow("as written") << QByteArray(R"({"run":1,"index":2})") << QList<QByteArray> { "run", "index" }
                                    << QList<QByteArray> { "run", "index" };
        QTest::addRow("another key") << QByteArray(R"({"run":1,"index":2})") << QList<QByteArray> { "index", "run" }
                                     << QList<QByteArray> { "run", "index" };
        QTest::addRow("a prefix of the key") << QByteArray(R"({"index":2})") << QList<QByteArray> { "ind" } << QList<QByteArray> { "index" };
        QTest::addRow("the key a prefix of the guess") << QByteArray(R"({"ind":2})") << QList<QByteArray> { "index" } << QList<QByteArray> { "ind" };
        QTest::addRow("whitespace") << QByteArray("{ \"run\" : 1 ,\n \"index\":2}") << QList<QByteArray> { "run", "index" }
                                    << QList<QByteArray> { "run", "index" };
        QTest::addRow("escaped key") << QByteArray(R"({"r\u0075n":1})") << QList<QByteArray> { "run" } << QList<QByteArray> { "run" };
        QTest::addRow("empty object") << QByteArray("{}") << QList<QByteArray> { "run" } << QList<QByteArray> {};
        QTest::addRow("no colon") << QByteArray(R"({"run" 1})") << QList<QByteArray> { "run" } << QList<QByteArray> {};
        QTest::addRow("no comma") << QByteArray(R"({"run":1 "index":2})") << QList<QByteArray> { "run", "index" }
                                  << QList<QByteArray> { "run" };
    }
    void nextKeyIs()
    {
        QFETCH(QByteArray, object);
        QFETCH(QList<QByteArray>, guesses);
        QFETCH(QList<QByteArray>, keys);
        // The general path alone, for the error it gives (if any).
        QString expectedError;
        {
            QBuffer buffer(&object);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer);
            in.enterObject();
            QByteArray key;
            while (in.nextKey(&key))
                in.skipValue();
            expectedError = in.errorString();
        }
        for (const qsizetype chunk : kChunks) {
            QBuffer buffer(&object);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            QVERIFY(in.enterObject());
            QList<QByteArray> read;
            for (qsizetype i = 0;; ++i) {
                const QByteArray guess = guesses.value(i);
                if (!guess.isEmpty() && in.nextKeyIs(guess)) {
                    read << guess;
                } else {
                    QByteArrayView key;
                    if (!in.nextKeyView(&key))
                        break;
                    read << key.toByteArray();
                }
                QVERIFY(in.readInteger().has_value() || in.hasError());
            }
            QCOMPARE(read, keys);
            QCOMPARE(in.errorString(), expectedError);
        }
    }

    // skipValue passes over a value (a session attempt's derived rate_limit object, a '_' field) without
    // building it, and still checks it as readValue does: the same error, or none, and the same next byte,
    // at every chunk size.
    void skipValueChecksAsReadValue_data()
    {
        QTest::addColumn<QByteArray>("value"); // followed by ,1] in the document read
        QTest::addRow("a rate_limit object")
            << QByteArray(R"({"limit":3,"remaining":0,"reset_seconds":59.5,"policy":"3-in-1min","dialect":"ietf-draft-11",)"
                          R"("policies":[{"limit":3,"remaining":0,"reset_seconds":59.5,"policy":null,"dialect":"x"}],)"
                          "\"warnings\":[\"a \\\"quoted\\\" \\u00e9 warning\"]}");
        QTest::addRow("null") << QByteArray("null");
        QTest::addRow("nested arrays and literals") << QByteArray(R"([[true,false,null],[],{},-1.5e3,"x"])");
        QTest::addRow("an escaped key") << QByteArray(R"({"r\u0075n":1})");
        QTest::addRow("a malformed number") << QByteArray(R"({"a":1.2.3})");
        QTest::addRow("a bad literal") << QByteArray(R"({"a":tru})");
        QTest::addRow("a bad escape") << QByteArray(R"({"a":"\q"})");
        QTest::addRow("a control character in a string") << QByteArray("{\"a\":\"x\ny\"}");
        QTest::addRow("a missing colon") << QByteArray(R"({"a" 1})");
        QTest::addRow("truncated") << QByteArray(R"({"a":[1,2)");
    }
    void skipValueChecksAsReadValue()
    {
        QFETCH(QByteArray, value);
        QByteArray doc = "[" + value + ",1]";
        const auto readTo = [&](qsizetype chunk, bool skip) {
            QBuffer buffer(&doc);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            in.enterArray();
            in.nextElement();
            if (skip)
                in.skipValue();
            else
                (void)in.readValue();
            const bool next = in.nextElement();
            const std::optional<qint64> one = next ? in.readInteger() : std::nullopt;
            return u"%1 %2 %3"_s.arg(in.errorString()).arg(next).arg(one.value_or(-1));
        };
        const QString expected = readTo(1 << 20, false);
        for (const qsizetype chunk : kChunks)
            QCOMPARE(readTo(chunk, true), expected);
    }

    // skipStructure() (a derived value ignored whole, as an attempt's rate_limit) checks only the value's
    // structure: where skipValue() accepts the value, it ends at the same byte with no error, at every chunk
    // size; a value whose brackets or strings do not close, or whose string holds a control character, is
    // refused; what is inside (a malformed number, a bad literal, a bad escape) is not read.
    void skipStructureEndsWhereSkipValueDoes_data()
    {
        QTest::addColumn<QByteArray>("value"); // followed by ,1] in the document read
        QTest::addColumn<bool>("refused");
        QTest::addRow("a rate_limit object")
            << QByteArray(R"({"limit":3,"remaining":0,"reset_seconds":59.5,"policy":"3-in-1min","dialect":"ietf-draft-11",)"
                          R"("policies":[{"limit":3,"remaining":0,"reset_seconds":59.5,"policy":null,"dialect":"x"}],)"
                          "\"warnings\":[\"a \\\"quoted\\\" ] } \\\\ \\u00e9 warning\"]}")
            << false;
        QTest::addRow("null") << QByteArray("null") << false;
        QTest::addRow("nested arrays and literals") << QByteArray("[[true,false,null],[],{},-1.5e3,\"x\"]") << false;
        QTest::addRow("brackets in strings") << QByteArray("{\"a\":\"}]{[\",\"b\":[\"]\"]}") << false;
        QTest::addRow("lines inside") << QByteArray("{\n\"a\":\n[1,\n2]\n}") << false;
        QTest::addRow("a control character in a string") << QByteArray("{\"a\":\"x\ty\"}") << true;
        QTest::addRow("truncated") << QByteArray("{\"a\":[1,2") << true;
        QTest::addRow("a string that never closes") << QByteArray("{\"a\":\"x}") << true;
    }
    void skipStructureEndsWhereSkipValueDoes()
    {
        QFETCH(QByteArray, value);
        QFETCH(bool, refused);
        QByteArray doc = "[" + value + ",1]";
        const auto readTo = [&](qsizetype chunk, bool structure) {
            QBuffer buffer(&doc);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            in.enterArray();
            in.nextElement();
            if (structure)
                in.skipStructure();
            else
                in.skipValue();
            const bool next = in.nextElement();
            const std::optional<qint64> one = next ? in.readInteger() : std::nullopt;
            return in.hasError() ? u"refused"_s : u"read on to %1 %2, line %3"_s.arg(next).arg(one.value_or(-1)).arg(in.line());
        };
        const QString skipped = readTo(1 << 20, false);
        QCOMPARE(skipped == u"refused"_s, refused);
        for (const qsizetype chunk : kChunks)
            QCOMPARE(readTo(chunk, true), skipped);
    }

    void badStrings_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        QTest::addRow("unknown escape") << QByteArray(R"(["a\x"])") << u"line 1, column 6: invalid escape"_s;
        QTest::addRow("lone high surrogate") << QByteArray(R"(["\ud83d!"])") << u"invalid escape"_s;
        QTest::addRow("bad hex digit") << QByteArray(R"(["\u00g9"])") << u"invalid escape"_s;
        QTest::addRow("raw newline") << QByteArray("[\"a\nb\"]") << u"control character"_s;
        QTest::addRow("truncated") << QByteArray("[\"abcdefghijklmnopqrstuvwxyz") << u"ends early (truncated?) inside a string"_s;
        QTest::addRow("truncated after a backslash") << QByteArray("[\"abc\\") << u"invalid escape"_s;
    }
    void badStrings()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        for (qsizetype chunk : kChunks) {
            QBuffer buffer(&json);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            QVERIFY(in.enterArray());
            QVERIFY(in.nextElement());
            QByteArrayView view;
            QVERIFY(!in.readUtf8View(&view));
            QVERIFY2(in.errorString().contains(message), qPrintable(in.errorString()));
        }
    }

    void integers_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("value");
        QTest::addRow("zero") << QByteArray("0") << true << qint64(0);
        QTest::addRow("minus zero") << QByteArray("-0") << true << qint64(0);
        QTest::addRow("leading zeros (accepted, as toLongLong does)") << QByteArray("007") << true << qint64(7);
        QTest::addRow("int64 max") << QByteArray("9223372036854775807") << true << std::numeric_limits<qint64>::max();
        QTest::addRow("int64 min") << QByteArray("-9223372036854775808") << true << std::numeric_limits<qint64>::min();
        QTest::addRow("int64 max + 1") << QByteArray("9223372036854775808") << false << qint64(0);
        QTest::addRow("int64 min - 1") << QByteArray("-9223372036854775809") << false << qint64(0);
        QTest::addRow("twenty digits") << QByteArray("12345678901234567890") << false << qint64(0);
        QTest::addRow("a fraction") << QByteArray("1.5") << false << qint64(0);
        QTest::addRow("an exponent") << QByteArray("1e3") << false << qint64(0);
        QTest::addRow("a lone minus") << QByteArray("-") << false << qint64(0);
        QTest::addRow("minus inside") << QByteArray("1-2") << false << qint64(0);
    }
    void integers()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        for (qsizetype chunk : kChunks) {
            QByteArray doc = "[" + json + "]";
            QBuffer buffer(&doc);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            QVERIFY(in.enterArray());
            QVERIFY(in.nextElement());
            const std::optional<qint64> v = in.readInteger();
            QCOMPARE(v.has_value(), ok);
            if (ok)
                QCOMPARE(*v, value);
            else
                QVERIFY2(in.errorString().contains(u"expected an integer, found \""_s + QString::fromLatin1(json) + u'"'),
                    qPrintable(in.errorString()));
        }
    }

    void millis_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<QByteArray>("text");
        QTest::addRow("zero") << qint64(0) << QByteArray("0");
        QTest::addRow("one nanosecond") << qint64(1) << QByteArray("0.000001");
        QTest::addRow("trailing zeros cut") << qint64(1500000) << QByteArray("1.5");
        QTest::addRow("whole milliseconds") << qint64(10000000000) << QByteArray("10000");
        QTest::addRow("negative") << qint64(-1500000) << QByteArray("-1.5");
        QTest::addRow("negative below one") << qint64(-500) << QByteArray("-0.0005");
        QTest::addRow("all six decimals") << qint64(14042123463) << QByteArray("14042.123463");
        QTest::addRow("int64 max") << std::numeric_limits<qint64>::max() << QByteArray("9223372036854.775807");
    }
    void millis()
    {
        QFETCH(qint64, ns);
        QFETCH(QByteArray, text);
        QByteArray out;
        {
            JsonSink sink(out);
            JsonText::millisFromNs(sink, ns);
        }
        QCOMPARE(out, text);
        qint64 back = 0;
        QVERIFY(JsonText::nsFromMillisText(QByteArrayView(text), &back));
        QCOMPARE(back, ns);
    }

    void integerText_data()
    {
        QTest::addColumn<qint64>("value");
        QTest::addRow("zero") << qint64(0);
        QTest::addRow("negative") << qint64(-42);
        QTest::addRow("int64 max") << std::numeric_limits<qint64>::max();
        QTest::addRow("int64 min") << std::numeric_limits<qint64>::min();
    }
    void integerText()
    {
        QFETCH(qint64, value);
        QByteArray out;
        {
            JsonSink sink(out);
            JsonText::integer(sink, value);
            sink.append(' ');
            JsonText::unsignedInteger(sink, std::numeric_limits<quint64>::max());
        }
        QCOMPARE(out, QByteArray::number(value) + ' ' + QByteArray::number(std::numeric_limits<quint64>::max()));
    }

    void stringsRoundTrip()
    {
        // Every control character, the characters JSON escapes, and non-ASCII text: written, read back.
        QByteArray text;
        for (int c = 0; c < 0x80; ++c)
            text += char(c);
        text += "caf\xc3\xa9 \xf0\x9f\x98\x80";
        QByteArray out;
        {
            JsonSink sink(out);
            sink.append('[');
            JsonText::string(sink, QByteArrayView(text));
            sink.append(']');
        }
        QCOMPARE(QJsonDocument::fromJson(out).array().at(0).toString(), QString::fromUtf8(text));
        for (qsizetype chunk : kChunks) {
            QBuffer buffer(&out);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            QVERIFY(in.enterArray() && in.nextElement());
            QByteArrayView view;
            QVERIFY2(in.readUtf8View(&view), qPrintable(in.errorString()));
            QCOMPARE(view.toByteArray(), text);
        }
    }

    void sinkGrows()
    {
        QByteArray out = "kept:";
        {
            JsonSink sink(out);
            for (int i = 0; i < 100000; ++i)
                sink.append("0123456789");
            QCOMPARE(sink.size(), 5 + 1000000);
        }
        QCOMPARE(out.size(), 5 + 1000000);
        QVERIFY(out.startsWith("kept:0123456789"));
        QVERIFY(out.endsWith("89"));
    }

    // Attempts read with tokens split at every byte read the same as with one chunk, and write back
    // to the same text.
    void attemptsAcrossChunks()
    {
        const Session s = SessionTestData::session(3, 3);
        QByteArray doc = "[";
        for (qsizetype i = 0; i < s.attemptCount(); ++i)
            doc += (i ? "," : "") + attemptText(s.attempts, s.attempts.packed(i));
        doc += "]";
        for (qsizetype chunk : kChunks) {
            QBuffer buffer(&doc);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            AttemptStore store;
            QVERIFY(in.enterArray());
            qsizetype n = 0;
            while (in.nextElement()) {
                QByteArray field;
                PackedAttempt p;
                QVERIFY2(AttemptJson::read(in, store, &p, &field), qPrintable(in.errorString()));
                QCOMPARE(attemptText(store, p), attemptText(s.attempts, s.attempts.packed(n)));
                ++n;
            }
            QVERIFY(!in.hasError());
            QCOMPARE(n, s.attemptCount());
        }
    }

    void attemptFields_data()
    {
        QTest::addColumn<QByteArray>("attempt");
        QTest::addColumn<QString>("error"); // empty: read
        const QByteArray base = R"("index":2,"decision":"retry","status":503,"start_ms":1.5)";
        QTest::addRow("fields in another order") << QByteArray("{\"start_ms\":1.5,\"status\":503,\"decision\":\"retry\",\"index\":2}") << QString();
        QTest::addRow("session-format.md: '_' fields are free") << "{\"_note\":{\"a\":[1,\"x\"]}," + base + ",\"_n\":1}" << QString();
        QTest::addRow("session-format.md: unknown fields are refused") << "{" + base + ",\"colour\":\"red\"}" << u"unknown field \"colour\""_s;
        QTest::addRow("a prefix of a known name is unknown") << "{" + base + ",\"stat\":1}" << u"unknown field \"stat\""_s;
        QTest::addRow("a known name with more is unknown") << "{" + base + ",\"statuses\":1}" << u"unknown field \"statuses\""_s;
        QTest::addRow("an escaped key is read as its text") << QByteArray("{\"ind\\u0065x\":2,\"decision\":\"stop\"}") << QString();
        QTest::addRow("unknown enumeration") << "{" + base + ",\"phase_reached\":\"sleeping\"}" << u"unknown phase \"sleeping\""_s;
        QTest::addRow("base64 excerpt, unpadded (Qt's lenient decoding kept)")
            << "{" + base + ",\"body_excerpt_base64\":\"YWJj\"}" << QString();
        QTest::addRow("budget field unknown") << "{" + base + ",\"budget\":{\"tokens\":1}}" << u"unknown field \"budget.tokens\""_s;
    }
    void attemptFields()
    {
        QFETCH(QByteArray, attempt);
        QFETCH(QString, error);
        for (qsizetype chunk : kChunks) {
            QBuffer buffer(&attempt);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer, chunk);
            AttemptStore store;
            PackedAttempt p;
            QByteArray field;
            const bool ok = AttemptJson::read(in, store, &p, &field);
            QCOMPARE(ok, error.isEmpty());
            if (!ok) {
                QVERIFY2(in.errorString().contains(error), qPrintable(in.errorString()));
                QVERIFY(!field.isEmpty());
            }
        }
    }

    void attemptFieldsInAnyOrderReadTheSame()
    {
        const QByteArray a = R"({"index":2,"status":503,"decision":"retry","start_ms":1.5,"body_excerpt_base64":"YWJj"})";
        const QByteArray b = R"({"body_excerpt_base64":"YWJj","start_ms":1.5,"decision":"retry","status":503,"index":2})";
        QByteArray texts[2];
        for (int i = 0; i < 2; ++i) {
            QByteArray doc = i ? b : a;
            QBuffer buffer(&doc);
            buffer.open(QIODevice::ReadOnly);
            JsonPullReader in(buffer);
            AttemptStore store;
            PackedAttempt p;
            QByteArray field;
            QVERIFY(AttemptJson::read(in, store, &p, &field));
            QCOMPARE(store.strings().view(p.bodyExcerpt).toByteArray(), QByteArray("abc"));
            texts[i] = attemptText(store, p);
        }
        QCOMPARE(texts[0], texts[1]);
    }

    // A session cut anywhere is refused, with the line and the JSON path of where it stopped.
    // A file read ahead on its own thread (what File > Open uses) hands over every byte once, in order, at
    // any chunk size and depth; the session read through it is the one read from memory, truncations are
    // refused the same, a reader that stops early does not hang, and an unreadable path says why.
    void readAhead_data()
    {
        QTest::addColumn<qsizetype>("chunk");
        QTest::addColumn<int>("ahead");
        QTest::addRow("1 byte, 1 ahead") << qsizetype(1) << 1;
        QTest::addRow("7 bytes, 2 ahead") << qsizetype(7) << 2;
        QTest::addRow("4 KiB, 4 ahead") << qsizetype(4096) << 4;
        QTest::addRow("1 MiB, 4 ahead") << qsizetype(1 << 20) << 4;
    }
    void readAhead()
    {
        QFETCH(qsizetype, chunk);
        QFETCH(int, ahead);
        Session s = SessionTestData::session(chunk < 64 ? 4 : 40, 3); // a syscall a chunk: small at a few bytes
        s.redaction.enabled = false;
        const QByteArray whole = written(s);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.json"_s);
        const auto writeFile = [&](const QByteArray& bytes) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QCOMPARE(f.write(bytes), bytes.size());
        };
        writeFile(whole);
        if (chunk >= 4096) { // every byte once, in order (at 1 byte a chunk that is 50 000 hand-overs)
            FileReadAhead file(path, chunk, ahead);
            QVERIFY(file.isOpen());
            QCOMPARE(file.size(), whole.size());
            QByteArray got;
            for (QByteArray c = file.nextChunk(); !c.isEmpty(); c = file.nextChunk(std::move(c))) { // handed back
                QVERIFY(c.size() <= chunk);
                got += c;
            }
            QCOMPARE(got, whole);
            QVERIFY(file.nextChunk().isEmpty()); // the end stays the end
            QVERIFY(file.errorString().isEmpty());
        }
        {
            FileReadAhead file(path, chunk, ahead);
            QString error;
            const std::unique_ptr<Session> read = SessionFile::read(file, file.size(), {}, &error);
            QVERIFY2(read, qPrintable(error));
            QCOMPARE(written(*read), whole);
        }
        {
            FileReadAhead file(path, chunk, ahead);
            QVERIFY(!file.nextChunk().isEmpty()); // one chunk taken, the thread reading ahead: destroyed so
        }
        writeFile(whole.left(whole.size() / 2));
        {
            FileReadAhead file(path, chunk, ahead);
            QString error;
            QVERIFY(!SessionFile::read(file, file.size(), {}, &error));
            QVERIFY2(error.contains(u"$.runs["_s), qPrintable(error));
        }
        FileReadAhead missing(dir.filePath(u"missing.json"_s), chunk, ahead);
        QVERIFY(!missing.isOpen());
        QVERIFY(!missing.errorString().isEmpty());
        QVERIFY(missing.nextChunk().isEmpty());
        QString error;
        SessionFile::Status status = SessionFile::Status::Ok;
        QVERIFY(!SessionFile::open(dir.path(), {}, &error, &status)); // a directory opens, and cannot be read
        QCOMPARE(status, SessionFile::Status::Failed);
        QVERIFY2(error.startsWith(u"cannot "_s) && error.contains(dir.path()), qPrintable(error));
    }

    // A large file's lab events are read on another thread while the runs are (SessionFile::open finds the
    // writer's last section from the end of the file). Whatever the file, open() gives what reading it
    // from memory in one pass gives: the same session, or the same refusal, or a cancel that does not hang.
    // A large file is read on two threads: the helper reads the lab events (last in the file) and the runs
    // from the file's middle on, and the main reader takes them only where its own parse meets them. Either
    // way the session, or the error, is the one read in order from memory.
    void labEventsReadAhead_data()
    {
        QTest::addColumn<QByteArray>("change"); // what is done to the written file
        QTest::addColumn<bool>("readAhead"); // whether the helper's events are the ones taken
        QTest::addColumn<bool>("runsAhead"); // whether the helper's runs are
        QTest::addRow("as written") << QByteArray() << true << true;
        QTest::addRow("a field after them") << QByteArray("field after") << false << false;
        QTest::addRow("written twice") << QByteArray("twice") << false << false;
        QTest::addRow("an unknown kind in them") << QByteArray("bad kind") << false << false;
        QTest::addRow("text after the document") << QByteArray("text after") << false << false;
        QTest::addRow("whitespace after the document") << QByteArray("whitespace after") << true << true;
        QTest::addRow("cut inside them") << QByteArray("cut") << false << false;
        QTest::addRow("no lab events") << QByteArray("no events") << true << true;
        // The second half's runs: read in order by the main reader, with the error it finds there.
        QTest::addRow("a run of the first half again") << QByteArray("run twice") << false << false;
        QTest::addRow("a bad attempt in the second half") << QByteArray("bad attempt") << false << false;
        QTest::addRow("a version 0 run in the second half") << QByteArray("no request_ref") << true << false;
        QTest::addRow("a field between the runs and the events") << QByteArray("field between") << true << false;
        // Rewritten by software nobody here wrote (Python's json module): no newline where this app's writer
        // puts one, so nothing is read ahead, and the session read is the same.
        QTest::addRow("rewritten by Python, indented") << QByteArray("python indent=1") << false << false;
        QTest::addRow("rewritten by Python, on one line") << QByteArray("python separators=(',',':')") << false << false;
    }
    void labEventsReadAhead()
    {
        QFETCH(QByteArray, change);
        QFETCH(bool, readAhead);
        QFETCH(bool, runsAhead);
        Session s = SessionTestData::session(1400, 3); // 4 200 attempts: a progress call in the runs
        s.redaction.enabled = false;
        // Six events for every third attempt: the lab section a third the size of the runs, as in a lab's
        // session (two events an attempt), so the helper reads some of the runs as well.
        for (qsizetype i = 0; i < s.attemptCount(); i += 3) {
            const AttemptRecord a = s.attempts.record(i);
            LabEvent e;
            e.atMs = 1000 + i;
            e.requestId = quint64(i + 1);
            e.method = "POST";
            e.path = u"/v1/runs"_s;
            e.attemptId = a.attemptId;
            e.idempotencyKey = u"k-%1"_s.arg(i % 7);
            for (const LabEvent::Kind kind : { LabEvent::Kind::ConnectionOpened, LabEvent::Kind::RequestReceived,
                     LabEvent::Kind::ResponseStarted, LabEvent::Kind::ResponseFinished, LabEvent::Kind::OperationApplied,
                     LabEvent::Kind::ConnectionDropped }) {
                e.kind = kind;
                e.status = kind == LabEvent::Kind::RequestReceived ? 0 : 503;
                s.labEvents.append(e);
            }
        }

        if (change == "no events")
            s.labEvents = {};
        QByteArray text = written(s);
        QVERIFY(text.size() > (1 << 20)); // large enough to be read ahead
        const qsizetype section = text.lastIndexOf("\n\"lab_events\":[");
        QVERIFY(section > 0);
        const qsizetype lastRun = text.lastIndexOf("]},\n{", section) + 4; // in the second half
        QVERIFY(lastRun > text.size() / 2);
        const QByteArray unchanged = text;
        if (change == "run twice")
            text.replace(text.indexOf("\"run\":1400,", lastRun), 11, "\"run\":7,   ");
        else if (change == "bad attempt")
            text.replace(text.indexOf("\"phase_reached\":\"finished\"", lastRun), 26, "\"phase_reached\":\"finishex\"");
        else if (change == "no request_ref")
            text.replace(text.indexOf("\"request_ref\":0,", lastRun), 16, "\"_no_ref\":0,   ");
        else if (change == "field between")
            text.insert(section - 1, ",\"_between\":1");
        else if (change == "field after")
            text.insert(text.lastIndexOf('}'), ",\"_note\":1");
        else if (change == "twice")
            text.insert(text.lastIndexOf(']') + 1, ',' + text.mid(section, text.lastIndexOf(']') + 1 - section));
        else if (change == "bad kind")
            text.replace(text.lastIndexOf("\"kind\":\"response-finished\""), 26, "\"kind\":\"response-finishes\"");
        else if (change == "text after")
            text.append("x");
        else if (change == "whitespace after")
            text.append(" \r\n\t\n");
        else if (change == "cut")
            text.truncate(text.size() - 100);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.json"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(text), text.size());
        f.close();
        if (change.startsWith("python ")) {
            const QString python = QStandardPaths::findExecutable(u"python3"_s);
            QVERIFY2(!python.isEmpty(), "python3 (Debian's python3-minimal) is needed");
            const QString script = u"import json, sys\np = sys.argv[1]\nd = json.load(open(p))\n"_s
                + u"json.dump(d, open(p, 'w'), %1)\n"_s.arg(QString::fromLatin1(change.mid(7)));
            QProcess py;
            py.start(python, { u"-c"_s, script, path });
            QVERIFY(py.waitForFinished(60000));
            QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
            QVERIFY(f.open(QIODevice::ReadOnly));
            text = f.readAll();
            f.close();
            QVERIFY(text.size() > (1 << 20));
            QVERIFY(!text.contains("\n\"lab_events\":["));
        }
        QCOMPARE(text == unchanged, change.isEmpty() || change == "no events");

        QString fromMemoryError;
        QString openError;
        QBuffer buffer(&text);
        buffer.open(QIODevice::ReadOnly);
        const std::unique_ptr<Session> fromMemory = SessionFile::read(buffer, text.size(), {}, &fromMemoryError);
        SessionFile::ReadReport report;
        const std::unique_ptr<Session> opened = SessionFile::open(path, {}, &openError, nullptr, &report);
        QCOMPARE(report.labEventsReadAhead, readAhead);
        QCOMPARE(report.runsReadAhead, runsAhead);
        if (change == "run twice") // the line and column of that run's end, as reading in order finds it
            QVERIFY2(fromMemoryError.contains(u"run 7 appears twice (at $.runs[1399].run)"_s), qPrintable(fromMemoryError));
        if (change == "bad attempt")
            QVERIFY2(fromMemoryError.contains(u"(at $.runs[1399].attempts[0].phase_reached)"_s), qPrintable(fromMemoryError));
        QCOMPARE(bool(opened), bool(fromMemory));
        if (fromMemory) {
            QCOMPARE(written(*opened), written(*fromMemory));
            QCOMPARE(opened->labEvents.size(), fromMemory->labEvents.size());
        } else {
            QCOMPARE(openError, path + u": "_s + fromMemoryError);
        }

        // Cancelled in the runs while the helper reads the events: refused as cancelled, and the helper stops.
        SessionFile::Status status = SessionFile::Status::Ok;
        QVERIFY(!SessionFile::open(path, [](qint64, qint64) { return false; }, nullptr, &status, &report));
        QCOMPARE(status, SessionFile::Status::Cancelled);
        QVERIFY(!report.labEventsReadAhead);
        QVERIFY(!report.runsReadAhead);
    }

    void truncatedFilesRefused_data()
    {
        QTest::addColumn<double>("fraction");
        QTest::addRow("in the header") << 0.01;
        QTest::addRow("a quarter in") << 0.25;
        QTest::addRow("half way") << 0.5;
        QTest::addRow("near the end") << 0.97;
    }
    void truncatedFilesRefused()
    {
        QFETCH(double, fraction);
        Session s = SessionTestData::session(20, 3);
        s.redaction.enabled = false;
        const QByteArray whole = written(s);
        const qsizetype cut = qsizetype(double(whole.size()) * fraction);
        QString error;
        QVERIFY(!readText(whole.left(cut), &error));
        QVERIFY2(error.contains(u"line "_s) && error.contains(u", column "_s) && error.contains(u"(at $"_s), qPrintable(error));
        if (fraction > 0.1 && fraction < 0.9) // inside the attempts: the message names them
            QVERIFY2(error.contains(u"$.runs["_s) && error.contains(u".attempts"_s), qPrintable(error));
    }

    // Run facts: the reader's fixed slots agree with SessionJson::runFactsFromJson, value for value and
    // refusal for refusal.
    void runFacts_data()
    {
        QTest::addColumn<QByteArray>("facts");
        const QByteArray usual = R"("end_ms":14042.123463,"method":"POST","outcome":"network","policy_ref":0,"reason":"r","request_ref":0,"run":1,"seed":"42","server_asked_for_ms":null,"start_ms":10000,"submitted_ms":10000,"total_wait_ms":1800,"url":"http://h/")";
        QTest::addRow("as written") << usual;
        QTest::addRow("unfinished: outcome and end null")
            << QByteArray(R"("run":2,"seed":"1","request_ref":0,"outcome":null,"end_ms":null,"start_ms":null)");
        QTest::addRow("seed as a number") << QByteArray(R"("run":3,"seed":42,"request_ref":0)");
        QTest::addRow("seed uint64 max") << QByteArray(R"("run":3,"seed":"18446744073709551615","request_ref":0)");
        QTest::addRow("seed not decimal") << QByteArray(R"("run":3,"seed":"4x2","request_ref":0)");
        QTest::addRow("run a fraction") << QByteArray(R"("run":1.5,"request_ref":0)");
        QTest::addRow("run missing") << QByteArray(R"("seed":"1","request_ref":0)");
        QTest::addRow("run a string") << QByteArray(R"("run":"1","request_ref":0)");
        QTest::addRow("submitted null") << QByteArray(R"("run":4,"submitted_ms":null,"request_ref":0)");
        QTest::addRow("asked-for a fraction") << QByteArray(R"("run":4,"server_asked_for_ms":1.5,"request_ref":0)");
        QTest::addRow("asked-for set") << QByteArray(R"("run":4,"server_asked_for_ms":2000,"request_ref":0)");
        QTest::addRow("unknown outcome") << QByteArray(R"("run":5,"outcome":"meh","request_ref":0)");
        QTest::addRow("outcome empty") << QByteArray(R"("run":5,"outcome":"","request_ref":0)");
        QTest::addRow("total wait a string") << QByteArray(R"("run":5,"total_wait_ms":"5","request_ref":0)");
        QTest::addRow("reason null") << QByteArray(R"("run":5,"reason":null,"request_ref":0)");
        QTest::addRow("negative and sub-ms times") << QByteArray(R"("run":6,"start_ms":-1.5,"end_ms":0.000001,"request_ref":0)");
        QTest::addRow("an exponent time") << QByteArray(R"("run":6,"start_ms":1.5e3,"request_ref":0)");
        QTest::addRow("a '_' field (the general path)") << "\"_note\":\"x\"," + usual;
        QTest::addRow("an unknown field") << "\"colour\":\"red\"," + usual;
        QTest::addRow("two unknown fields: the first in key order is named") << "\"zz\":1,\"aa\":2," + usual;
    }
    void runFacts()
    {
        QFETCH(QByteArray, facts);
        SessionRun expected;
        QString problem;
        const QJsonObject object = QJsonDocument::fromJson("{" + facts + "}").object();
        QVERIFY(!object.isEmpty());
        const bool ok = SessionJson::runFactsFromJson(object, &expected, &problem);
        QString error;
        const std::unique_ptr<Session> s
            = readText("{\"format\":\"retrylab-session\",\"version\":1,\"runs\":[{" + facts + ",\"attempts\":[]}]}", &error);
        QCOMPARE(bool(s), ok);
        if (!ok) {
            QVERIFY2(error.contains(problem.section(u':', 1).trimmed()), qPrintable(error + u" / "_s + problem));
            QVERIFY2(error.contains(u"$.runs[0]."_s + problem.section(u':', 0, 0)), qPrintable(error + u" / "_s + problem));
            return;
        }
        QCOMPARE(s->runs.size(), 1);
        const SessionRun& r = s->runs.first();
        QCOMPARE(r.runId, expected.runId);
        QCOMPARE(r.seed, expected.seed);
        QCOMPARE(r.policy, expected.policy);
        QCOMPARE(r.request, expected.request);
        QCOMPARE(r.outcome, expected.outcome);
        QCOMPARE(r.reason, expected.reason);
        QCOMPARE(r.serverAskedForMs, expected.serverAskedForMs);
        QCOMPARE(r.submittedNs, expected.submittedNs);
        QCOMPARE(r.startedNs, expected.startedNs);
        QCOMPARE(r.finishedNs, expected.finishedNs);
        QCOMPARE(r.totalWaitMs, expected.totalWaitMs);
    }

    // Lab events are read field by field into the store, as SessionJson::labEventFromJson reads them from
    // a QJsonObject: a value of another type or a number with a fraction reads as the default, unknown
    // fields are skipped, the last of a repeated field wins, an unknown kind is refused with its path.
    void labEvents_data()
    {
        QTest::addColumn<QByteArray>("event");
        const QByteArray usual = R"("applied":true,"at_ms":500004031,"attempt_id":"5000004","connection":50000,"detail":"d","idempotency_key":"k-1","kind":"operation-applied","method":"POST","path":"/v1/runs","request":200000,"route":"runs","status":201,"step":"respond")";
        QTest::addRow("as written") << usual;
        QTest::addRow("every kind name") << QByteArray(R"("kind":"upstream-failed","status":502)");
        QTest::addRow("fields missing") << QByteArray(R"("kind":"connection-opened")");
        QTest::addRow("texts of other types") << QByteArray(R"("kind":"request-received","path":1,"route":null,"step":true,"attempt_id":[1],"idempotency_key":{"a":1},"detail":2.5,"method":null)");
        QTest::addRow("numbers of other types") << QByteArray(R"("kind":"request-received","at_ms":"5","connection":null,"request":[2],"status":"201")");
        QTest::addRow("numbers with a fraction") << QByteArray(R"("kind":"request-received","at_ms":1.5,"status":201.5,"request":2.0)");
        QTest::addRow("an exponent") << QByteArray(R"("kind":"request-received","at_ms":1.5e3,"connection":2E2)");
        QTest::addRow("negative") << QByteArray(R"("kind":"request-received","at_ms":-40,"status":-1)");
        QTest::addRow("status beyond int") << QByteArray(R"("kind":"response-finished","status":4294967296)");
        QTest::addRow("ids beyond 32 bits") << QByteArray(R"("kind":"response-finished","connection":8589934592,"request":4294967297)");
        QTest::addRow("applied of another type") << QByteArray(R"("kind":"operation-applied","applied":"yes")");
        QTest::addRow("a field twice: the last") << QByteArray(R"("kind":"connection-opened","kind":"rejected","status":400,"status":413)");
        QTest::addRow("unknown fields skipped") << QByteArray(R"("colour":{"r":[1,2,{"x":null}]},"kind":"rejected","_note":"x")");
        QTest::addRow("escapes and non-ASCII texts") << QByteArray("\"kind\":\"request-received\",\"path\":\"/caf\\u00e9/\\\"q\\\"\",\"detail\":\"tab\\tand \\ud83d\\ude00\",\"attempt_id\":\"\\u0041\"");
        QTest::addRow("a method beyond Latin-1") << QByteArray("\"kind\":\"request-received\",\"method\":\"P\\u00d6ST\\u20ac\"");
        QTest::addRow("unknown kind") << QByteArray(R"("kind":"party","status":200)");
        QTest::addRow("kind missing") << QByteArray(R"("status":200)");
        QTest::addRow("kind not a string") << QByteArray(R"("kind":3)");
    }
    void labEvents()
    {
        QFETCH(QByteArray, event);
        LabEvent expected;
        QString problem;
        const QJsonObject object = QJsonDocument::fromJson("{" + event + "}").object();
        QVERIFY(!object.isEmpty());
        const bool ok = SessionJson::labEventFromJson(object, &expected, &problem);
        // Two events: the second one is the one checked, so a first one's texts do not leak into it.
        const QByteArray first = R"({"kind":"request-received","path":"/first","attempt_id":"a1","detail":"first","method":"GET","status":7})";
        QByteArray text = "{\"format\":\"retrylab-session\",\"version\":1,\"lab_events\":[" + first + ",{" + event + "}]}";
        QBuffer buffer(&text);
        buffer.open(QIODevice::ReadOnly);
        QString error;
        const std::unique_ptr<Session> s = SessionFile::read(buffer, text.size(), {}, &error);
        QCOMPARE(bool(s), ok);
        if (!ok) {
            QVERIFY2(error.contains(u"$.lab_events[1]."_s + problem.section(u':', 0, 0)), qPrintable(error + u" / "_s + problem));
            QVERIFY2(error.contains(problem.section(u':', 1).trimmed()), qPrintable(error + u" / "_s + problem));
            return;
        }
        QCOMPARE(s->labEvents.size(), 2);
        const LabEvent e = s->labEvents.at(1);
        QCOMPARE(e.kind, expected.kind);
        QCOMPARE(e.atMs, expected.atMs);
        QCOMPARE(e.connectionId, expected.connectionId);
        QCOMPARE(e.requestId, expected.requestId);
        QCOMPARE(e.method, expected.method);
        QCOMPARE(e.path, expected.path);
        QCOMPARE(e.route, expected.route);
        QCOMPARE(e.stepKind, expected.stepKind);
        QCOMPARE(e.status, expected.status);
        QCOMPARE(e.attemptId, expected.attemptId);
        QCOMPARE(e.idempotencyKey, expected.idempotencyKey);
        QCOMPARE(e.applied, expected.applied);
        QCOMPARE(e.detail, expected.detail);
    }

    void labEventsRefused_data()
    {
        QTest::addColumn<QByteArray>("events");
        QTest::addColumn<QString>("where");
        QTest::addRow("not an array") << QByteArray(R"({"kind":"rejected"})") << u"$.lab_events"_s;
        QTest::addRow("an element not an object") << QByteArray(R"([{"kind":"rejected"},7])") << u"$.lab_events[1].kind"_s;
        QTest::addRow("a malformed number") << QByteArray(R"([{"kind":"rejected","status":1-2}])") << u"$.lab_events[0]"_s;
        QTest::addRow("truncated inside an event") << QByteArray("[{\"kind\":\"rejected\",\"path\":\"/a") << u"$.lab_events[0]"_s;
    }
    void labEventsRefused()
    {
        QFETCH(QByteArray, events);
        QFETCH(QString, where);
        QString error;
        QVERIFY(!readText("{\"format\":\"retrylab-session\",\"version\":1,\"lab_events\":" + events + "}", &error));
        QVERIFY2(error.contains(where), qPrintable(error));
    }

    // The writer's run facts are what compact(SessionJson::runFactsToJson(…)) wrote before, byte for byte.
    void runFactsWrittenAsBefore()
    {
        Session s = SessionTestData::session(3, 1);
        s.redaction.enabled = false;
        s.runs[1].outcome = FinalKind::None; // unfinished
        s.runs[1].finishedNs = PackedAttempt::kUnset;
        s.runs[1].serverAskedForMs = 2500;
        s.runs[1].reason = u"quote \" backslash \\ newline \n tab \t caf\u00e9 \U0001F600"_s;
        s.runs[2].seed = std::numeric_limits<std::uint64_t>::max();
        s.runs[2].startedNs = -1500000;
        const QByteArray text = written(s);
        qsizetype from = text.indexOf("\"runs\":[");
        QVERIFY(from > 0);
        for (const SessionRun& run : std::as_const(s.runs)) {
            const RequestSpec& spec = s.requests.at(run.request);
            QByteArray expected = QJsonDocument(SessionJson::runFactsToJson(run, spec.method, spec.url.toString(QUrl::FullyEncoded)))
                                      .toJson(QJsonDocument::Compact);
            expected.chop(1);
            from = text.indexOf("{\"end_ms\"", from);
            QVERIFY(from > 0);
            const qsizetype end = text.indexOf(",\"attempts\":[", from);
            QCOMPARE(text.mid(from, end - from), expected);
            from = end;
        }
    }

    // Attempt ids are stored once each without the intern table; header values that keep changing stop
    // being interned, values that repeat are shared, and so are equal header blocks. Nothing read back changes.
    void storeSharing()
    {
        AttemptStore store;
        for (int i = 0; i < 1000; ++i) {
            AttemptRecord a = SessionTestData::attempt(i + 1, 1, true);
            store.append(a);
        }
        for (int i = 0; i < 1000; ++i) {
            const AttemptRecord a = store.record(i);
            QCOMPARE(a.attemptId, QString::number((i + 1) * 100 + 1));
            QCOMPARE(a.requestHeaders.at(3).value, QByteArray::number((i + 1) * 100 + 1));
            QCOMPARE(a.requestHeaders.at(1).value, QByteArray("Bearer sk_live_123456789"));
        }
        // Same response headers on every attempt: one block, shared.
        QCOMPARE(store.packed(0).responseHeaders, store.packed(999).responseHeaders);
        // Repeated values share one id; the attempt-id header's values stopped being interned.
        QCOMPARE(store.headerValueIdAt(store.packed(0).requestHeaders, 1), store.headerValueIdAt(store.packed(999).requestHeaders, 1));
        const quint32 id = store.strings().intern(QByteArrayView("99901"));
        QVERIFY(id != store.headerValueIdAt(store.packed(998).requestHeaders, 3)); // stored, not findable
        QCOMPARE(store.strings().view(store.headerValueIdAt(store.packed(998).requestHeaders, 3)), QByteArrayView("99901"));
    }
};

QTEST_GUILESS_MAIN(TestSessionParsing)
#include "tst_sessionparsing.moc"
