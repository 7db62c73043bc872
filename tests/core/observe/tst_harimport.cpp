// SPDX-License-Identifier: GPL-3.0-or-later
// HAR 1.2 files read as a client's exchanges (core/observe/harimport.h), then inferred: a DevTools-shaped
// file (HTTP/2 pseudo-headers, Chrome's _error, a data: entry, entries out of time order), and refusals
// that name the line and the field (HAR 1.2 spec: log.version, log.entries, entry.startedDateTime,
// request.method/url/headers, response.status/headers are required).
#include "observe/harimport.h"
#include "observe/retryinference.h"

#include <QBuffer>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

HarImport readText(const QByteArray& text)
{
    QBuffer buffer;
    buffer.setData(text);
    buffer.open(QIODevice::ReadOnly);
    return HarImport::read(buffer);
}

// A minimal valid HAR around ENTRY (one entries item), the entry starting on line 3.
QByteArray withEntry(const QByteArray& entry)
{
    return "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"t\", \"version\": \"1\"},\n\"entries\": [\n" + entry + "\n]}}";
}

// JSON written with ' for ", to keep the rows readable (and raw strings out of moc's way).
QByteArray q(const char* text)
{
    return QByteArray(text).replace('\'', '"');
}

const QByteArray kRequest = q("'request': {'method': 'GET', 'url': 'http://h.example/x', 'headers': []}");
const QByteArray kResponse = q("'response': {'status': 200, 'headers': [], 'content': {'size': 0}}");
const QByteArray kStarted = q("'startedDateTime': '2026-03-02T09:15:00.000Z'");

} // namespace

class TestHarImport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsDevToolsExport()
    {
        const HarImport har = HarImport::readFile(QStringLiteral(RETRYLAB_TEST_DATA) + u"/har/devtools-retries.har"_s);
        QVERIFY2(har.ok(), qPrintable(har.problem));
        QCOMPARE(har.creator, u"WebInspector 537.36"_s);
        QCOMPARE(har.skipped, 1); // the data: URL
        QCOMPARE(har.exchanges.size(), 4);
        QCOMPARE(har.wallOrigin, QDateTime(QDate(2026, 3, 2), QTime(9, 15, 0, 100), Qt::UTC));
        const LabExchange& first = har.exchanges.at(0);
        QCOMPARE(first.method, QByteArray("POST"));
        QCOMPARE(first.target, QByteArray("/v1/payments"));
        QCOMPARE(first.arrivedMs, 0);
        QCOMPARE(first.responseStartedMs, std::optional<qint64>(80)); // blocked 1.1 + send 0.4 + wait 78.3
        QCOMPARE(first.responseFinishedMs, std::optional<qint64>(81)); // time 81.2
        QCOMPARE(first.requestBodySize, 27);
        QCOMPARE(first.status, 503);
        for (const auto& [name, value] : first.requestHeaders)
            QVERIFY2(!name.startsWith(':'), name.constData()); // pseudo-headers are not fields
        QCOMPARE(har.urls.value(first.requestId), QUrl(u"https://api.example/v1/payments"_s));
        const LabExchange& reset = har.exchanges.at(1);
        QCOMPARE(reset.status, 0);
        QCOMPARE(reset.outcome, u"reset"_s);
        QCOMPARE(reset.clientGoneMs, std::optional<qint64>(90));
        QCOMPARE(reset.target, QByteArray("/v1/cart?id=991"));
        QCOMPARE(har.exchanges.at(2).requestOnConnection, 1); // connection 40802, its first request
        QCOMPARE(har.exchanges.at(3).requestOnConnection, 3); // connection 40771, its third HTTP request

        const QList<ObservedRun> runs = RetryInference::infer(har.exchanges);
        QCOMPARE(runs.size(), 2);
        const ObservedRun& payment = runs.at(0);
        QCOMPARE(payment.grouping.rule, u"idempotency-key"_s);
        QCOMPARE(payment.attempts.size(), 2);
        QCOMPARE(std::chrono::duration_cast<Millis>(*payment.attempts.at(1).clientWait).count(), 250); // 331 − 81
        QVERIFY(payment.attempts.at(1).askedBefore);
        QCOMPARE(payment.attempts.at(1).askedBefore->delay.count(), 2000);
        const ObservedRun& cart = runs.at(1);
        QCOMPARE(cart.grouping.rule, u"fingerprint"_s);
        QVERIFY(cart.grouping.heuristic);
        QCOMPARE(cart.attempts.size(), 2);
        QCOMPARE(std::chrono::duration_cast<Millis>(*cart.attempts.at(1).clientWait).count(), 500); // 590 − 90
    }

    void refuses_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); // a part of the one-line problem

        QTest::addRow("empty") << QByteArray() << u"empty"_s;
        QTest::addRow("not JSON") << QByteArray("GET / HTTP/1.1\r\n") << u"line 1"_s;
        QTest::addRow("a JSON array") << QByteArray("[]") << u"a HAR file is a JSON object"_s;
        QTest::addRow("no log") << QByteArray(q("{'version': '1.2'}")) << u"$.log: missing"_s;
        QTest::addRow("log not an object") << QByteArray(q("{'log': []}")) << u"$.log: must be an object"_s;
        QTest::addRow("version 1.3") << QByteArray("{\"log\": {\n\"version\": \"1.3\", \"entries\": []}}")
                                     << u"line 2: $.log.version: \"1.3\""_s;
        QTest::addRow("version missing") << QByteArray(q("{'log': {'entries': []}}")) << u"$.log.version: missing"_s;
        QTest::addRow("entries missing") << QByteArray(q("{'log': {'version': '1.2'}}")) << u"$.log.entries: missing"_s;
        QTest::addRow("entries not an array") << QByteArray(q("{'log': {'version': '1.2', 'entries': {}}}"))
                                              << u"$.log.entries: must be an array"_s;
        QTest::addRow("an entry not an object") << withEntry("42") << u"line 3: $.log.entries[0]: must be an object"_s;
        QTest::addRow("startedDateTime missing") << withEntry("{" + kRequest + ",\n" + kResponse + "}")
                                                 << u"$.log.entries[0].startedDateTime"_s;
        QTest::addRow("startedDateTime not a date") << withEntry(q("{'startedDateTime': 'yesterday', ") + kRequest + "," + kResponse + "}")
                                                    << u"$.log.entries[0].startedDateTime: must be an ISO 8601"_s;
        QTest::addRow("request missing") << withEntry("{" + kStarted + ",\n" + kResponse + "}") << u"$.log.entries[0].request: missing"_s;
        QTest::addRow("response missing") << withEntry("{" + kStarted + ",\n" + kRequest + "}") << u"$.log.entries[0].response: missing"_s;
        QTest::addRow("a relative URL, on its own line")
            << withEntry("{" + kStarted + ",\n\"request\": {\"method\": \"GET\",\n\"url\": \"/v1/x\", \"headers\": []},\n" + kResponse + "}")
            << u"line 5: $.log.entries[0].request.url: \"/v1/x\" is not an absolute URL"_s;
        QTest::addRow("method missing")
            << withEntry("{" + kStarted + q(", 'request': {'url': 'http://h.example/', 'headers': []}, ") + kResponse + "}")
            << u"$.log.entries[0].request.method"_s;
        QTest::addRow("request headers not an array")
            << withEntry("{" + kStarted + q(", 'request': {'method': 'GET', 'url': 'http://h.example/', 'headers': {}}, ") + kResponse + "}")
            << u"$.log.entries[0].request.headers: must be an array"_s;
        QTest::addRow("a header without a value")
            << withEntry("{" + kStarted + q(", 'request': {'method': 'GET', 'url': 'http://h.example/', 'headers': [{'name': 'a'}]}, ") + kResponse + "}")
            << u"$.log.entries[0].request.headers[0]"_s;
        QTest::addRow("status a string")
            << withEntry("{" + kStarted + "," + kRequest + q(", 'response': {'status': '200', 'headers': []}}"))
            << u"$.log.entries[0].response.status"_s;
        QTest::addRow("status 42") << withEntry("{" + kStarted + "," + kRequest + q(", 'response': {'status': 42, 'headers': []}}"))
                                   << u"$.log.entries[0].response.status"_s;
        QTest::addRow("timings not an object")
            << withEntry("{" + kStarted + "," + kRequest + "," + kResponse + q(", 'timings': 5}")) << u"$.log.entries[0].timings"_s;
        QTest::addRow("truncated") << withEntry("{" + kStarted + "," + kRequest).left(120) << u"line"_s;
        QTest::addRow("text after the document") << QByteArray(q("{'log': {'version': '1.2', 'entries': []}} x"))
                                                 << u"after the end"_s;
    }
    void refuses()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const HarImport har = readText(text);
        QVERIFY(!har.ok());
        QVERIFY2(har.problem.contains(expected), qPrintable(har.problem));
        QVERIFY2(!har.problem.contains(u'\n'), qPrintable(har.problem)); // one line
        QVERIFY(har.exchanges.isEmpty());
    }

    void acceptsTheMinimum()
    {
        const HarImport har = readText(withEntry("{" + kStarted + "," + kRequest + "," + kResponse + "}"));
        QVERIFY2(har.ok(), qPrintable(har.problem));
        QCOMPARE(har.exchanges.size(), 1);
        QCOMPARE(har.exchanges.first().target, QByteArray("/x"));
        QCOMPARE(har.creator, u"t 1"_s);
    }
};

QTEST_GUILESS_MAIN(TestHarImport)
#include "tst_harimport.moc"
