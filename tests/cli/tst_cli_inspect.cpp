// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab inspect` end to end: the real binary, a response head on stdin, stdout/stderr/exit status checked.
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run inspect(const QStringList& args, const QByteArray& input)
{
    QProcess process;
    process.start(QStringLiteral(RETRYLAB_BINARY), QStringList { u"inspect"_s } + args);
    Run run;
    if (!process.waitForStarted(10000))
        return run;
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(30000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

const QByteArray kGitHub = "X-Ratelimit-Limit: 15000\nX-Ratelimit-Remaining: 14996\nX-Ratelimit-Reset: 1659645499\n"
                           "X-Ratelimit-Resource: core\nX-Ratelimit-Used: 4\n";
const QByteArray kGitHubJson = R"({"status":null,"retry_after":null,)"
                               R"("rate_limit":{"limit":15000,"remaining":14996,"reset_seconds":2498,"policy":"core","dialect":"github"},)"
                               R"("rate_limits":[{"limit":15000,"remaining":14996,"reset_seconds":2498,"policy":"core","dialect":"github"}],)"
                               R"("warnings":[]})"
                               "\n";

} // namespace

class TestCliInspect : public QObject
{
    Q_OBJECT

private slots:
    void exactJson_data();
    void exactJson();
    void contains_data();
    void contains();
    void badArguments_data();
    void badArguments();
};

void TestCliInspect::exactJson_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArray>("expected");

    QTest::addRow("headers.md §2.1 B.2.3: 429 with Retry-After and an exhausted policy, CRLF")
        << QStringList { u"--json"_s }
        << QByteArray("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 20\r\nRateLimit-Policy: \"dynamic\";q=15;w=20\r\n"
                      "RateLimit: \"dynamic\";r=0;t=20\r\n\r\n{\"body\": 1}\r\n")
        << QByteArray(R"({"status":429,"retry_after":{"seconds":20,"source":"retry-after","raw":"20","conformant":true},)"
                      R"("rate_limit":{"limit":15,"remaining":0,"reset_seconds":20,"policy":"dynamic","dialect":"ietf-draft-11"},)"
                      R"("rate_limits":[{"limit":15,"remaining":0,"reset_seconds":20,"policy":"dynamic","dialect":"ietf-draft-11"}],)"
                      R"("warnings":[]})"
                      "\n");
    QTest::addRow("a head with no waiting fields: every value null, nothing guessed")
        << QStringList { u"--json"_s } << QByteArray("Content-Type: text/plain\n")
        << QByteArray(R"({"status":null,"retry_after":null,"rate_limit":null,"rate_limits":[],"warnings":[]})"
                      "\n");
    QTest::addRow("headers.md §1.4 go-retryablehttp: HTTP-date Retry-After 2 s after --now")
        << QStringList { u"--now"_s, u"Fri, 31 Dec 1999 23:59:57 GMT"_s, u"--json"_s }
        << QByteArray("HTTP/1.1 503 Service Unavailable\nRetry-After: Fri, 31 Dec 1999 23:59:59 GMT\n")
        << QByteArray(R"({"status":503,"retry_after":{"seconds":2,"source":"retry-after",)"
                      R"("raw":"Fri, 31 Dec 1999 23:59:59 GMT","conformant":true},)"
                      R"("rate_limit":null,"rate_limits":[],"warnings":[]})"
                      "\n");
    QTest::addRow("headers.md §4 GitHub: --now-epoch, LF, no status line")
        << QStringList { u"--json"_s, u"--now-epoch"_s, u"1659643001"_s } << kGitHub << kGitHubJson;
    QTest::addRow("headers.md §4 GitHub: --now-epoch=S form")
        << QStringList { u"--now-epoch=1659643001"_s, u"--json"_s } << kGitHub << kGitHubJson;
    QTest::addRow("headers.md §4 GitHub: the response Date is the default now")
        << QStringList { u"--json"_s } << QByteArray("Date: Thu, 04 Aug 2022 19:56:41 GMT\n" + kGitHub)
        << kGitHubJson;
    QTest::addRow("headers.md §3.3 express draft-8 five limiters: most restrictive first-class, all listed")
        << QStringList { u"--json"_s, u"--now-epoch"_s, u"0"_s }
        << QByteArray("ratelimit-policy: \"1-in-5sec\"; q=1; w=5, \"5-in-1min\"; q=5; w=60\n"
                      "ratelimit: \"1-in-5sec\"; r=0; t=5, \"5-in-1min\"; r=4; t=60\n\n")
        << QByteArray(R"({"status":null,"retry_after":null,)"
                      R"("rate_limit":{"limit":1,"remaining":0,"reset_seconds":5,"policy":"1-in-5sec","dialect":"ietf-draft-11"},)"
                      R"("rate_limits":[{"limit":1,"remaining":0,"reset_seconds":5,"policy":"1-in-5sec","dialect":"ietf-draft-11"},)"
                      R"({"limit":5,"remaining":4,"reset_seconds":60,"policy":"5-in-1min","dialect":"ietf-draft-11"}],)"
                      R"("warnings":[]})"
                      "\n");
    QTest::addRow("headers.md §4 Shopify: no reset stated, so null")
        << QStringList { u"--json"_s, u"--now-epoch"_s, u"0"_s }
        << QByteArray("HTTP/1.1 200 OK\nX-Shopify-Shop-Api-Call-Limit: 32/40\n")
        << QByteArray(R"({"status":200,"retry_after":null,)"
                      R"("rate_limit":{"limit":40,"remaining":8,"reset_seconds":null,"policy":null,"dialect":"shopify"},)"
                      R"("rate_limits":[{"limit":40,"remaining":8,"reset_seconds":null,"policy":null,"dialect":"shopify"}],)"
                      R"("warnings":[]})"
                      "\n");
}

void TestCliInspect::exactJson()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    QFETCH(QByteArray, expected);
    const Run run = inspect(args, input);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.out, expected);
    QVERIFY(QJsonDocument::fromJson(run.out).isObject());
    QCOMPARE(run.err, QByteArray());
}

void TestCliInspect::contains_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QByteArrayList>("fragments");

    QTest::addRow("headers.md §1.4 Shopify: fractional Retry-After is interpretable but non-conformant")
        << QStringList { u"--json"_s, u"--now-epoch"_s, u"0"_s } << QByteArray("HTTP/1.1 429 Too Many Requests\nRetry-After: 2.0\n")
        << QByteArrayList { R"("raw":"2.0")", R"("conformant":false)", R"("status":429)" };
    QTest::addRow("headers.md §1.4 openai-python: retry-after-ms when Retry-After is absent")
        << QStringList { u"--json"_s, u"--now-epoch"_s, u"0"_s } << QByteArray("retry-after-ms: 1500\n")
        << QByteArrayList { R"("seconds":1.5)", R"("source":"retry-after-ms")" };
    QTest::addRow("headers.md §2.1 draft §7.3: Age makes rate-limit fields ignored, with a warning")
        << QStringList { u"--json"_s, u"--now-epoch"_s, u"0"_s } << QByteArray("Age: 30\nRateLimit: \"default\";r=50;t=30\n")
        << QByteArrayList { R"("rate_limit":null)", R"("rate_limits":[])", "Age header" };
    QTest::addRow("headers.md §4 GitHub text summary")
        << QStringList { u"--now-epoch"_s, u"1659643001"_s } << QByteArray("HTTP/1.1 403 Forbidden\n" + kGitHub)
        << QByteArrayList { "Status:       403", "14996 of 15000 remaining, reset in 2498 s", "[github]",
               "Retry-After:  none" };
    QTest::addRow("a line that is not a field is reported, the rest still read")
        << QStringList { u"--json"_s, u"--now-epoch"_s, u"0"_s } << QByteArray("HTTP/1.1 429 x\nnot a field\nRetry-After: 5\n")
        << QByteArrayList { "line 2 ignored", R"("seconds":5)" };
    QTest::addRow("help")
        << QStringList { u"--help"_s } << QByteArray()
        << QByteArrayList { "Usage: retrylab inspect", "--now-epoch", "--json" };
}

void TestCliInspect::contains()
{
    QFETCH(QStringList, args);
    QFETCH(QByteArray, input);
    QFETCH(QByteArrayList, fragments);
    const Run run = inspect(args, input);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    for (const QByteArray& fragment : fragments)
        QVERIFY2(run.out.contains(fragment), qPrintable(QString::fromUtf8("missing " + fragment + " in " + run.out)));
}

void TestCliInspect::badArguments_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addRow("unknown option") << QStringList { u"--bogus"_s };
    QTest::addRow("positional argument") << QStringList { u"file.txt"_s };
    QTest::addRow("--now without value") << QStringList { u"--now"_s };
    QTest::addRow("--now not an HTTP-date") << QStringList { u"--now"_s, u"yesterday"_s };
    QTest::addRow("--now-epoch not a number") << QStringList { u"--now-epoch"_s, u"abc"_s };
    QTest::addRow("--now-epoch negative") << QStringList { u"--now-epoch"_s, u"-5"_s };
    QTest::addRow("--now and --now-epoch together")
        << QStringList { u"--now"_s, u"Sun, 06 Nov 1994 08:49:37 GMT"_s, u"--now-epoch"_s, u"1"_s };
    QTest::addRow("--json with a value") << QStringList { u"--json=yes"_s };
}

void TestCliInspect::badArguments()
{
    QFETCH(QStringList, args);
    const Run run = inspect(args, "Retry-After: 5\n");
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.startsWith("retrylab inspect: "));
    QCOMPARE(run.out, QByteArray());
}

QTEST_GUILESS_MAIN(TestCliInspect)
#include "tst_cli_inspect.moc"
