// SPDX-License-Identifier: GPL-3.0-or-later
// The attempt store's rows: every row reads back what was put in it across the growing first chunks and
// the fixed 4 MiB ones, a reference to a row's hot part stays valid while more rows are appended, a cold
// part is kept only for an attempt with a cold fact and each such fact reads back, and a small store costs
// kilobytes (its first chunk once took 4 MiB, which made every small file read allocate megabytes).

#include "json/jsonpullreader.h"
#include "session/format/attemptjson.h"
#include "session/export/redaction.h"
#include "session/store/attemptstore.h"
#include "sessiontestdata.h"

#include <QBuffer>

#include <QTest>

Q_DECLARE_METATYPE(HttpHeaderList)

using namespace Qt::StringLiterals;

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

namespace {

// How many of the pool's texts are TEXT.
int copies(const AttemptStore& store, const QString& text)
{
    int n = 0;
    for (qsizetype id = 0; id < store.strings().count(); ++id)
        n += store.strings().view(quint32(id)) == QByteArrayView(text.toUtf8()) ? 1 : 0;
    return n;
}

void appendRun(AttemptStore& store, int runId)
{
    PackedAttempt p;
    p.runId = runId;
    store.append(p);
}

} // namespace

class TestAttemptStore : public QObject
{
    Q_OBJECT

private slots:
    void rowsReadBack_data();
    void rowsReadBack();
    void referencesSurviveAppends();
    void coldPartOnlyWhenNeeded_data();
    void coldPartOnlyWhenNeeded();
    void smallStoreIsSmall();
    void clearStartsOver();
    void headerBlocksAcrossArenaChunks();
    void poolFindsWhatWasInterned();
    void attemptIdSharedWithItsHeader();
    void sharedBlockSurvivesUniqueOnes();
    void nearDuplicateBlocksArePatches_data();
    void nearDuplicateBlocksArePatches();
    void storeAppendedToStore_data();
    void storeAppendedToStore();
};

void TestAttemptStore::rowsReadBack_data()
{
    QTest::addColumn<int>("rows");
    // Across the first chunk's end (64), the doubling ones, and several 4 MiB chunks (about 16 000 a chunk).
    for (int rows : { 0, 1, 63, 64, 65, 191, 192, 193, 4095, 40000, 150000 })
        QTest::addRow("%d", rows) << rows;
}

void TestAttemptStore::rowsReadBack()
{
    QFETCH(int, rows);
    AttemptStore store;
    store.reserve(rows);
    // Every fifth attempt has a cold fact (a Retry-After), so hot and cold rows interleave.
    for (int i = 0; i < rows; ++i) {
        PackedAttempt p;
        p.runId = i;
        p.bytesDown = qint64(i) * 3;
        if (i % 5 == 0)
            p.retryAfterMs = qint64(i) * 1000;
        QCOMPARE(store.append(p), qsizetype(i));
    }
    QCOMPARE(store.size(), qsizetype(rows));
    QCOMPARE(store.coldCount(), qsizetype((rows + 4) / 5));
    for (int i = 0; i < rows; ++i) {
        const PackedAttempt p = store.packed(i);
        const qint64 retryAfter = i % 5 == 0 ? qint64(i) * 1000 : PackedAttempt::kUnset;
        if (p.runId != i || p.bytesDown != qint64(i) * 3 || p.retryAfterMs != retryAfter || store.hot(i).runId != i)
            QFAIL(qPrintable(QStringLiteral("row %1 reads back run %2, Retry-After %3").arg(i).arg(p.runId).arg(p.retryAfterMs)));
    }
}

void TestAttemptStore::referencesSurviveAppends()
{
    AttemptStore store;
    std::vector<const PackedAttemptHot*> seen;
    for (int i = 0; i < 100000; ++i) {
        appendRun(store, i);
        if (i % 997 == 0)
            seen.push_back(&store.hot(i));
    }
    for (size_t k = 0; k < seen.size(); ++k) {
        const int row = int(k) * 997;
        QCOMPARE(&store.hot(row), seen[k]);
        QCOMPARE(seen[k]->runId, row);
    }
}

namespace {

// Each cold fact alone, and how to see it read back.
struct ColdFact
{
    const char* name;
    void (*set)(PackedAttempt&);
    bool (*check)(const PackedAttempt&);
};

const ColdFact kColdFacts[] = {
    { "server asked for", [](PackedAttempt& p) { p.serverAskedForMs = 0; }, [](const PackedAttempt& p) { return p.serverAskedForMs == 0; } },
    { "retry after", [](PackedAttempt& p) { p.retryAfterMs = -1; }, [](const PackedAttempt& p) { return p.retryAfterMs == -1; } },
    { "host reset in", [](PackedAttempt& p) { p.hostResetInMs = 7; }, [](const PackedAttempt& p) { return p.hostResetInMs == 7; } },
    { "throttle wait", [](PackedAttempt& p) { p.throttleWaitMs = 250; }, [](const PackedAttempt& p) { return p.throttleWaitMs == 250; } },
    { "client wait", [](PackedAttempt& p) { p.clientWaitNs = 0; }, [](const PackedAttempt& p) { return p.clientWaitNs == 0; } },
    { "asked for", [](PackedAttempt& p) { p.askedForMs = 2000; }, [](const PackedAttempt& p) { return p.askedForMs == 2000; } },
    { "exchange", [](PackedAttempt& p) { p.exchange = 1LL << 40; }, [](const PackedAttempt& p) { return p.exchange == 1LL << 40; } },
    { "throttling tokens 0", [](PackedAttempt& p) { p.throttlingTokens = 0.0; }, [](const PackedAttempt& p) { return p.throttlingTokens == 0.0; } },
    { "throttling tokens -0", [](PackedAttempt& p) { p.throttlingTokens = -0.0; },
        [](const PackedAttempt& p) { return p.throttlingTokens == 0.0 && std::signbit(p.throttlingTokens); } },
    { "qt error code", [](PackedAttempt& p) { p.qtErrorCode = 99; }, [](const PackedAttempt& p) { return p.qtErrorCode == 99; } },
    { "qt error", [](PackedAttempt& p) { p.qtError = 3; }, [](const PackedAttempt& p) { return p.qtError == 3; } },
    { "hint header", [](PackedAttempt& p) { p.hintHeader = 4; }, [](const PackedAttempt& p) { return p.hintHeader == 4; } },
    { "redirect", [](PackedAttempt& p) { p.redirectTarget = 5; }, [](const PackedAttempt& p) { return p.redirectTarget == 5; } },
    { "retry after raw", [](PackedAttempt& p) { p.retryAfterRaw = 6; }, [](const PackedAttempt& p) { return p.retryAfterRaw == 6; } },
    { "retry after source", [](PackedAttempt& p) { p.retryAfterSource = 7; }, [](const PackedAttempt& p) { return p.retryAfterSource == 7; } },
    { "asked by", [](PackedAttempt& p) { p.askedBy = 8; }, [](const PackedAttempt& p) { return p.askedBy == 8; } },
};

} // namespace

void TestAttemptStore::coldPartOnlyWhenNeeded_data()
{
    // Each cold fact alone gives the attempt a cold part, and reads back; the hot fields beside it too.
    QTest::addColumn<int>("fact");
    for (int i = 0; i < int(std::size(kColdFacts)); ++i)
        QTest::newRow(kColdFacts[i].name) << i;
}

void TestAttemptStore::coldPartOnlyWhenNeeded()
{
    QFETCH(int, fact);
    const ColdFact& f = kColdFacts[fact];
    AttemptStore store;
    for (int i = 0; i < 1000; ++i)
        appendRun(store, i);
    QCOMPARE(store.coldCount(), 0); // nothing cold: hot parts only
    PackedAttempt quota; // a run under a retry quota (the AWS presets) has it on every attempt: kept hot
    quota.quotaTokens = 495;
    quota.quotaCost = 5;
    quota.status = 500;
    quota.delayMs = 120;
    QCOMPARE(store.append(quota), 1000);
    QCOMPARE(store.coldCount(), 0);
    QCOMPARE(store.packed(1000).quotaTokens, 495);
    QCOMPARE(store.packed(1000).quotaCost, 5);
    PackedAttempt p;
    p.runId = 77;
    p.status = 503;
    p.at[PackedAttempt::Finished] = 123456789;
    f.set(p);
    QCOMPARE(store.append(p), 1001);
    QCOMPARE(store.coldCount(), 1);
    appendRun(store, 1002);
    QCOMPARE(store.coldCount(), 1);
    const PackedAttempt back = store.packed(1001);
    QVERIFY(f.check(back));
    QCOMPARE(back.runId, 77);
    QCOMPARE(back.status, 503);
    QCOMPARE(back.at[PackedAttempt::Finished], 123456789);
    // The neighbours have the cold defaults, not this attempt's facts.
    for (const qsizetype row : { 1000, 1002 }) {
        const PackedAttempt n = store.packed(row);
        QVERIFY(n.isDefault());
        QVERIFY(std::isnan(n.throttlingTokens));
    }
}

void TestAttemptStore::smallStoreIsSmall()
{
    AttemptStore store;
    for (int i = 0; i < 3; ++i)
        appendRun(store, i);
    QVERIFY2(store.memoryBytes() < 64 * 1024, qPrintable(QString::number(store.memoryBytes())));
}

void TestAttemptStore::clearStartsOver()
{
    AttemptStore store;
    for (int i = 0; i < 500; ++i)
        appendRun(store, i);
    store.clear();
    QCOMPARE(store.size(), 0);
    for (int i = 0; i < 70; ++i)
        appendRun(store, 1000 + i);
    QCOMPARE(store.packed(69).runId, 1069);
    QCOMPARE(store.packed(0).runId, 1000);
}

void TestAttemptStore::headerBlocksAcrossArenaChunks()
{
    // The header arena grows in chunks of 4 096 ids: blocks that straddle a chunk's end read back whole,
    // and a block equal to a recent one is shared (the same offset), not stored again.
    AttemptStore store;
    std::vector<quint32> offsets;
    for (int i = 0; i < 3000; ++i) {
        HttpHeaderList headers;
        for (int h = 0; h <= i % 4; ++h)
            headers.append({ QByteArray("X-H") + QByteArray::number(h), QByteArray::number(i) });
        offsets.push_back(store.addHeaders(headers));
    }
    for (int i = 0; i < 3000; ++i) {
        const quint32 offset = offsets[size_t(i)];
        if (store.headerCount(offset) != i % 4 + 1)
            QFAIL(qPrintable(u"block %1 has %2 headers"_s.arg(i).arg(store.headerCount(offset))));
        for (int h = 0; h <= i % 4; ++h) {
            if (store.headerName(offset, h) != QByteArray(QByteArray("X-H") + QByteArray::number(h))
                || store.headerValue(offset, h) != QByteArray::number(i))
                QFAIL(qPrintable(u"block %1, header %2 reads back wrong"_s.arg(i).arg(h)));
        }
    }
    const HttpHeaderList same { { "Content-Type", "application/json" } };
    const quint32 first = store.addHeaders(same);
    QCOMPARE(store.addHeaders(same), first);
    AttemptStore copy = store; // a session copied keeps its headers
    QCOMPARE(copy.headerValue(offsets[2999], 0), QByteArrayView("2999"));
}

void TestAttemptStore::poolFindsWhatWasInterned()
{
    StringPool pool;
    QCOMPARE(pool.find("absent"), std::nullopt);
    QCOMPARE(pool.find({}), std::optional<quint32>(0)); // the empty string is id 0
    std::vector<quint32> ids;
    for (int i = 0; i < 5000; ++i) // past several growths of the table
        ids.push_back(pool.intern(QByteArrayView(QByteArray("id-" + QByteArray::number(i)))));
    for (int i = 0; i < 5000; ++i)
        QCOMPARE(pool.find(QByteArray("id-" + QByteArray::number(i))), std::optional<quint32>(ids[size_t(i)]));
    const quint32 added = pool.add("stored as is");
    QCOMPARE(pool.view(added), QByteArrayView("stored as is"));
    QCOMPARE(pool.find("stored as is"), std::nullopt); // add() is not for lookup
    QCOMPARE(pool.find("id-5000"), std::nullopt);
    // A QString is interned as its UTF-8, whichever way it is converted (short ASCII on the stack, others
    // through toUtf8()): the same id as its bytes, and it reads back equal.
    const QString texts[] = { u"id-42"_s, u"ключ-é"_s, QString(256, u'a'), QString(257, u'b'), u"a\u0000b"_s,
        QString(255, u'c') + u'é' };
    for (const QString& text : texts) {
        const quint32 id = pool.intern(text);
        QCOMPARE(pool.intern(QByteArrayView(text.toUtf8())), id);
        QCOMPARE(pool.string(id), text);
    }
    QCOMPARE(pool.intern(u"id-42"_s), ids[42]);
}

void TestAttemptStore::attemptIdSharedWithItsHeader()
{
    // The engine sends the attempt id in X-Retrylab-Attempt: the store keeps that text once, for the
    // attempt's id and the header's value, whether the attempt comes live or is read from a file; both read
    // back. An attempt whose header says something else keeps both texts.
    AttemptRecord a;
    a.runId = 1;
    a.attemptId = u"6f1f7c52-3c1e-4a8e-9d43-0e2b1d6c9a10;attempt=2"_s;
    a.requestHeaders = { { "Host", "127.0.0.1:8080", false }, { "X-Retrylab-Attempt", a.attemptId.toUtf8(), false },
        { "Content-Length", "0", false } };
    AttemptStore store;
    store.append(a);
    const PackedAttempt p = store.packed(0);
    QCOMPARE(store.headerValueIdAt(p.requestHeaders, 1), p.attemptId);
    QCOMPARE(copies(store, a.attemptId), 1);
    QCOMPARE(store.record(0).attemptId, a.attemptId);
    QCOMPARE(store.record(0).requestHeaders.at(1).value, a.attemptId.toUtf8());

    AttemptRecord other = a;
    other.requestHeaders[1].value = "something-else";
    store.append(other);
    const PackedAttempt q = store.packed(1);
    QVERIFY(store.headerValueIdAt(q.requestHeaders, 1) != q.attemptId);
    QCOMPARE(copies(store, a.attemptId), 2); // the first attempt's, and this one's own
    QCOMPARE(store.record(1).attemptId, a.attemptId);
    QCOMPARE(store.record(1).requestHeaders.at(1).value, QByteArray("something-else"));

    // Read back from the file form: the same sharing, the same texts.
    QByteArray json;
    AttemptJson::write(json, store, store.packed(0), Redactor::none(), QDateTime());
    QBuffer buffer(&json);
    QVERIFY(buffer.open(QIODevice::ReadOnly));
    JsonPullReader in(buffer);
    AttemptStore read;
    PackedAttempt r;
    QByteArray field;
    QVERIFY2(AttemptJson::read(in, read, &r, &field), qPrintable(in.errorString()));
    read.append(r);
    QCOMPARE(read.headerValueIdAt(r.requestHeaders, 1), r.attemptId);
    QCOMPARE(read.record(0).attemptId, a.attemptId);
    QCOMPARE(read.record(0).requestHeaders.at(1).value, a.attemptId.toUtf8());
    QCOMPARE(copies(read, a.attemptId), 1);
}

void TestAttemptStore::sharedBlockSurvivesUniqueOnes()
{
    // Every answer of a batch often has the same headers (one block, shared) while every request has its
    // own (a unique attempt id): 20 000 unique request blocks between the answers do not push the shared
    // answer block out, so the arena holds it once. (With one recent block per hash slot, a request block
    // landing on the answer's slot evicted it and the next answer stored it again.)
    AttemptStore store;
    for (int i = 0; i < 20000; ++i) {
        AttemptRecord a;
        a.runId = i;
        a.attemptId = u"run-%1;attempt=1"_s.arg(i);
        a.requestHeaders = { { "Host", "example.test", false }, { "X-Retrylab-Attempt", a.attemptId.toUtf8(), false },
            { "Traceparent", QByteArray::number(i * 7919 % 10007), false } };
        a.responseHeaders = { { "Content-Type", "application/json" }, { "Connection", "keep-alive" } };
        store.append(a);
    }
    const quint32 shared = store.packed(0).responseHeaders;
    for (int i = 1; i < 20000; ++i) {
        if (store.packed(i).responseHeaders != shared)
            QFAIL(qPrintable(u"attempt %1's answer headers stored again, at %2 (first at %3)"_s.arg(i).arg(store.packed(i).responseHeaders).arg(shared)));
    }
    QCOMPARE(store.record(19999).responseHeaders, store.record(0).responseHeaders);
}

void TestAttemptStore::nearDuplicateBlocksArePatches_data()
{
    // After a whole block of nine headers, a block with the same names is stored as a patch when at most
    // three values differ (a request's attempt id and key, an answer's Date and RateLimit), and whole
    // otherwise. Whatever the form, every header reads back as given.
    QTest::addColumn<HttpHeaderList>("second");
    QTest::addColumn<bool>("patch");
    HttpHeaderList first;
    for (int i = 0; i < 9; ++i)
        first.append({ "Name-" + QByteArray::number(i), "value-" + QByteArray::number(i) });
    const auto changed = [&](std::initializer_list<int> at) {
        HttpHeaderList h = first;
        for (int i : at)
            h[i].second = "changed-" + QByteArray::number(i);
        return h;
    };
    QTest::newRow("one value") << changed({ 7 }) << true;
    QTest::newRow("three values, first and last") << changed({ 0, 4, 8 }) << true;
    QTest::newRow("four values") << changed({ 0, 1, 2, 3 }) << false;
    HttpHeaderList renamed = changed({ 1 });
    renamed[5].first = "Other-Name";
    QTest::newRow("a name differs") << renamed << false;
    QTest::newRow("one header fewer") << first.mid(1) << false;
    HttpHeaderList emptied = first;
    emptied[2].second.clear();
    QTest::newRow("a value emptied") << emptied << true;
}

void TestAttemptStore::nearDuplicateBlocksArePatches()
{
    QFETCH(HttpHeaderList, second);
    QFETCH(bool, patch);
    HttpHeaderList first;
    for (int i = 0; i < 9; ++i)
        first.append({ "Name-" + QByteArray::number(i), "value-" + QByteArray::number(i) });
    AttemptStore store;
    const quint32 a = store.addHeaders(first);
    const quint32 b = store.addHeaders(second);
    // The form shows in the arena words each block takes, up to the next block's offset: a whole block is
    // [count, (name id, value id)…], a patch [kPatch | count, base offset, changes, (index, value id)…].
    const quint32 next = store.addHeaders({ { "Next-Block", "whole" } });
    qsizetype changes = 0;
    for (qsizetype i = 0; i < std::min(first.size(), second.size()); ++i)
        changes += first.at(i).second != second.at(i).second;
    QCOMPARE(qsizetype(b - a), 1 + 2 * first.size());
    QCOMPARE(qsizetype(next - b), patch ? 3 + 2 * changes : 1 + 2 * second.size());
    QCOMPARE(store.headers(a), first);
    QCOMPARE(store.headers(b), second);
    for (int i = 0; i < second.size(); ++i) {
        QCOMPARE(store.headerName(b, i), QByteArrayView(second.at(i).first));
        QCOMPARE(store.headerValue(b, i), QByteArrayView(second.at(i).second));
    }
    // The same block again is the same offset, patch or whole (found among the recent blocks).
    QCOMPARE(store.addHeaders(second), b);
    QCOMPARE(store.addHeaders(first), a);
}

void TestAttemptStore::storeAppendedToStore_data()
{
    // Opening a large file reads its second half into a store of its own and appends that store to the
    // first: every row must read back as if both halves had been read into one store.
    QTest::addColumn<int>("first");
    QTest::addColumn<int>("second");
    QTest::addRow("both empty") << 0 << 0;
    QTest::addRow("into an empty store") << 0 << 300;
    QTest::addRow("an empty store") << 300 << 0;
    QTest::addRow("across 4 MiB chunks") << 20000 << 20000;
}

void TestAttemptStore::storeAppendedToStore()
{
    QFETCH(int, first);
    QFETCH(int, second);
    // Rows with every kind of fact: answers and resets (a cold part), unique attempt ids, header blocks
    // whole and patched, and some texts only the second store has.
    const auto fill = [](AttemptStore& store, int runFrom, int rows, bool own) {
        for (int i = 0; i < rows; ++i) {
            AttemptRecord a = SessionTestData::attempt(runFrom + i / 4, i % 4 + 1, i % 4 == 3, i);
            if (own && i % 7 == 0) {
                a.reasonPhrase = u"Only Here %1"_s.arg(i % 3);
                a.responseHeaders.append({ "X-Second", QByteArray::number(i) });
            }
            if (i % 11 == 0) { // a client's attempt the lab saw: facts, no decision
                a.decision.reset();
                ObservedAttemptFacts o;
                o.clientWait = MonoTime(i);
                o.askedFor = Millis(1000);
                o.askedBy = u"retry-after"_s;
                a.observed = o;
            }
            store.append(a);
        }
    };
    // Texts only the first store has, first: the same text has another id in each store.
    const auto shifted = [](AttemptStore& store) {
        for (int i = 0; i < 5; ++i)
            store.strings().intern(QByteArrayView(QByteArray("first only " + QByteArray::number(i))));
    };
    AttemptStore one;
    shifted(one);
    fill(one, 1, first, false);
    fill(one, 1000000, second, true);
    AttemptStore head;
    shifted(head);
    fill(head, 1, first, false);
    AttemptStore tail;
    fill(tail, 1000000, second, true);
    head.append(std::move(tail));
    QCOMPARE(tail.size(), 0); // let go of
    QCOMPARE(head.size(), one.size());
    QCOMPARE(head.coldCount(), one.coldCount());
    for (qsizetype row = 0; row < one.size(); ++row) {
        QByteArray expected;
        QByteArray actual;
        AttemptJson::write(expected, one, one.packed(row), Redactor::none(), QDateTime());
        AttemptJson::write(actual, head, head.packed(row), Redactor::none(), QDateTime());
        if (actual != expected)
            QFAIL(qPrintable(u"row %1:\n%2\ninstead of\n%3"_s.arg(row).arg(QString::fromUtf8(actual), QString::fromUtf8(expected))));
    }
    // Interned texts stay one text each: a text both stores held is found under the id it had here, a
    // text only the second held is found too, and nothing is interned again.
    if (first && second) {
        const qsizetype texts = head.strings().count();
        const quint32 post = head.strings().intern(QByteArrayView("POST"));
        QCOMPARE(head.strings().count(), texts);
        QCOMPARE(head.packed(0).method, post);
        QCOMPARE(head.packed(first).method, post);
        QVERIFY(head.strings().find("Only Here 0"));
        QCOMPARE(head.strings().count(), texts);
    }
}

QTEST_GUILESS_MAIN(TestAttemptStore)
#include "tst_attemptstore.moc"
