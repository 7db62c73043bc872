// SPDX-License-Identifier: GPL-3.0-or-later
// Bad input to every command of the real binary: exit 2, the exact message on one line of stderr,
// nothing on stdout, and nothing sent (a listening socket in the test sees no connection). The rows
// marked "issue 15" / "issue 10" are the defects those issues list; the others were found by trying
// every option of every command with a bad value.
#include <QDir>
#include <QProcess>
#include <QRandomGenerator>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

// How the process sees the screen: none (DISPLAY and QT_QPA_PLATFORM unset), an X display nobody serves,
// a platform Qt does not have, or the offscreen platform (a display that works).
enum class Screen { None, DeadDisplay, UnknownPlatform, Offscreen };

struct Case
{
    Screen screen = Screen::None;
    QStringList args;
    QString message; // the whole of stderr without its newline; "…" stands for any text
    QByteArray input; // stdin
};

// True when TEXT is PATTERN with each "…" replaced by some text (possibly empty).
bool matchesPattern(const QString& text, const QString& pattern)
{
    const QStringList parts = pattern.split(u'…');
    if (parts.size() == 1)
        return text == pattern;
    if (!text.startsWith(parts.first()))
        return false;
    qsizetype at = parts.first().size();
    for (qsizetype i = 1; i + 1 < parts.size(); ++i) {
        const qsizetype found = text.indexOf(parts.at(i), at);
        if (found < 0)
            return false;
        at = found + parts.at(i).size();
    }
    return text.size() - at >= parts.last().size() && text.endsWith(parts.last());
}

} // namespace

Q_DECLARE_METATYPE(Case)

class TestCliBadInput : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void patternMatcher();
    void refused_data();
    void refused();
    void helpEverywhere_data();
    void helpEverywhere();

private:
    struct Result
    {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
    };
    Result run(const Case& c) const;
    QString substituted(QString text) const;

    QTemporaryDir m_dir;
    QTcpServer m_sink; // the target of every --url / --base-url below; it must never see a connection
    QString m_session;
};

TestCliBadInput::Result TestCliBadInput::run(const Case& c) const
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"DISPLAY"_s);
    env.remove(u"WAYLAND_DISPLAY"_s);
    env.remove(u"QT_QPA_PLATFORM"_s);
    env.insert(u"XDG_DATA_HOME"_s, m_dir.filePath(u"xdg"_s)); // recover's journal registry, this test's own
    env.insert(u"RETRYLAB_DATA_DIR"_s, m_dir.filePath(u"data"_s)); // the CA `ca` and `serve --proxy` use, this test's own
    if (c.screen == Screen::DeadDisplay)
        env.insert(u"DISPLAY"_s, u":97"_s);
    else if (c.screen == Screen::UnknownPlatform)
        env.insert(u"QT_QPA_PLATFORM"_s, u"nosuch"_s);
    else if (c.screen == Screen::Offscreen)
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    process.setProcessEnvironment(env);
    process.setWorkingDirectory(m_dir.path());
    QStringList args;
    for (const QString& a : c.args)
        args << substituted(a);
    process.start(QStringLiteral(RETRYLAB_BINARY), args);
    if (!process.waitForStarted())
        return {};
    process.write(c.input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return { process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1, process.readAllStandardOutput(),
        process.readAllStandardError() };
}

QString TestCliBadInput::substituted(QString text) const
{
    return text.replace(u"%DIR%"_s, m_dir.path())
        .replace(u"%SESSION%"_s, m_session)
        .replace(u"%PORT%"_s, QString::number(m_sink.serverPort()));
}

void TestCliBadInput::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(m_sink.listen(QHostAddress::LocalHost, 0));
    QVERIFY(QDir(m_dir.path()).mkpath(u"xdg"_s));
    // A real session to point export and replay at, and damaged copies of it.
    m_session = m_dir.filePath(u"s.json"_s);
    const Result made = run({ Screen::None,
        { u"run"_s, u"--policy"_s, u"paymongo"_s, u"--scenario"_s, u"seed-004-pix"_s, u"--repeat"_s, u"2"_s, u"--quiet"_s,
            u"--session"_s, m_session },
        {}, {} });
    QVERIFY2(made.exitCode == 0, made.err.constData());
    QFile session(m_session);
    QVERIFY(session.open(QIODevice::ReadOnly));
    const QByteArray bytes = session.readAll();
    const auto write = [this](const QString& name, const QByteArray& content) {
        QFile f(m_dir.filePath(name));
        return f.open(QIODevice::WriteOnly) && f.write(content) == content.size();
    };
    QVERIFY(write(u"truncated.json"_s, bytes.left(bytes.size() / 2)));
    QByteArray garbage(4096, Qt::Uninitialized);
    QRandomGenerator random(15);
    for (char& c : garbage)
        c = char(random.bounded(256));
    QVERIFY(write(u"garbage.bin"_s, garbage));
    QVERIFY(write(u"empty-policy.json"_s, "{}"));
    QVERIFY(write(u"no-version.json"_s, R"({"format":"retrylab-policy","name":"x"})"));
    QVERIFY(write(u"bad-scenario.json"_s, R"({"format":1,"routes":[{"path":"x"}]})"));
    QVERIFY(write(u"bad-outage.json"_s,
        R"({"format":1,"name":"o","routes":[{"path":"/","steps":[{"kind":"outage","duration_ms":-1},
        {"kind":"respond","latency_ramp":{"to_ms":100,"over":5}}]}]})"));
    QVERIFY(write(u"head.txt"_s, "Retry-After: 2\n"));
    const Result ca = run({ Screen::None, { u"ca"_s, u"create"_s, u"--dir"_s, m_dir.filePath(u"ca"_s) }, {}, {} });
    QVERIFY2(ca.exitCode == 0, ca.err.constData());
    const auto suite = [](const QByteArray& caseKeys) -> QByteArray {
        return R"({"format":"retrylab-suite","version":1,"name":"b","cases":[{"name":"a",)" + caseKeys
            + R"(,"steps":[{"kind":"respond"}]}]})";
    };
    QVERIFY(write(u"zero-calls.json"_s, suite(R"("calls":0,"interval_ms":50)")));
    QVERIFY(write(u"interval-only.json"_s, suite(R"("interval_ms":50)")));
    QVERIFY(write(u"slow-calls.json"_s, suite(R"("calls":300,"interval_ms":50,"timeout_ms":10000)")));
    QVERIFY(write(u"bad-suite-outage.json"_s, suite(R"("calls":3,"interval_ms":50,"outages":[{"from_ms":0,"duration_ms":10,"mode":"down"}])")));
}

void TestCliBadInput::patternMatcher()
{
    QVERIFY(matchesPattern(u"abc"_s, u"abc"_s));
    QVERIFY(!matchesPattern(u"abcd"_s, u"abc"_s));
    QVERIFY(matchesPattern(u"a (x, y) b"_s, u"a (…) b"_s));
    QVERIFY(matchesPattern(u"a b"_s, u"a …b"_s));
    QVERIFY(!matchesPattern(u"a b"_s, u"a …c"_s));
    QVERIFY(matchesPattern(u"one two three"_s, u"one…two…three"_s));
    QVERIFY(!matchesPattern(u"one three two"_s, u"one…two…three"_s));
    QVERIFY(!matchesPattern(u"ab"_s, u"ab…ab"_s)); // the parts may not overlap
}

void TestCliBadInput::refused_data()
{
    QTest::addColumn<Case>("c");
    const auto row = [](const char* name, Screen screen, const QStringList& args, const QString& message,
                         const QByteArray& input = {}) { QTest::addRow("%s", name) << Case { screen, args, message, input }; };
    const Screen none = Screen::None;
    const QString noDisplay = u"retrylab: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are not set): run it "
                              "with QT_QPA_PLATFORM=offscreen for a window without a screen, or use a headless command "
                              "(retrylab --help)"_s;
    const QString presets = u"\"nosuch\" is neither a preset (…aws-adaptive, …) nor a readable file"_s;

#ifdef RETRYLAB_WITH_GUI
    // The window's arguments, read before any GUI object exists.
    row("issue 15: --bogus without a display", none, { u"--bogus"_s }, u"retrylab: unknown option --bogus (see retrylab --help)"_s);
    row("issue 15: --bogus with a display", Screen::Offscreen, { u"--bogus"_s }, u"retrylab: unknown option --bogus (see retrylab --help)"_s);
    row("issue 15: no arguments without a display", none, {}, noDisplay);
    row("issue 15: --open without a display", none, { u"--open"_s, u"x"_s }, noDisplay);
    row("issue 15: a display nobody serves (Qt's abort is one line)", Screen::DeadDisplay, {},
        u"retrylab: cannot open the window (Qt: …): set DISPLAY to a running display, run it with QT_QPA_PLATFORM=offscreen "
        "for a window without a screen, or use a headless command (retrylab --help)"_s);
    row("a platform Qt does not have", Screen::UnknownPlatform, { u"--demo-autorun"_s },
        u"retrylab: cannot open the window (Qt: …\"nosuch\"…): …QT_QPA_PLATFORM=offscreen…"_s);
    row("--open a file that does not exist", Screen::Offscreen, { u"--open"_s, u"%DIR%/missing.json"_s },
        u"retrylab: cannot open \"%DIR%/missing.json\": no such file"_s);
    row("--open a folder", Screen::Offscreen, { u"--open=%DIR%"_s }, u"retrylab: cannot open \"%DIR%\": not a file"_s);
    row("--open without its file", Screen::Offscreen, { u"--open"_s }, u"retrylab: --open needs a file (see retrylab --help)"_s);
    row("--open twice", Screen::Offscreen, { u"--open"_s, u"%SESSION%"_s, u"--open"_s, u"%SESSION%"_s },
        u"retrylab: --open given more than once (see retrylab --help)"_s);
    row("two files to open", Screen::Offscreen, { u"%SESSION%"_s, u"%SESSION%"_s },
        u"retrylab: one file at a time: %SESSION%, %SESSION% (see retrylab --help)"_s);
    row("--screenshot into a file", Screen::Offscreen, { u"--screenshot"_s, u"%SESSION%"_s },
        u"retrylab: --screenshot \"%SESSION%\": not a folder"_s);
    row("--demo-autorun with a value", Screen::Offscreen, { u"--demo-autorun=yes"_s },
        u"retrylab: --demo-autorun takes no value (see retrylab --help)"_s);
    row("a Qt option without its value", Screen::Offscreen, { u"-style"_s }, u"retrylab: -style needs a value (see retrylab --help)"_s);
    row("a single-dash option Qt does not have", Screen::Offscreen, { u"-x"_s }, u"retrylab: unknown option -x (see retrylab --help)"_s);
    row("a window option, then a word", none, { u"--demo-autorun"_s, u"run"_s }, noDisplay);
#endif

    row("an unknown command", none, { u"nosuch"_s }, u"retrylab: unknown command 'nosuch' (see retrylab --help)"_s);
    row("help for an unknown command", none, { u"help"_s, u"nosuch"_s }, u"retrylab: no such command 'nosuch' (see retrylab --help)"_s);
    row("issue 15: help with a stray argument", none, { u"help"_s, u"run"_s, u"extra"_s },
        u"retrylab: help run takes no further arguments, not \"extra\""_s);
    row("issue 15: --version with a stray argument", none, { u"--version"_s, u"extra"_s },
        u"retrylab: --version takes no further arguments, not \"extra\""_s);
    row("--help with a stray argument", none, { u"--help"_s, u"a"_s, u"b"_s }, u"retrylab: --help takes no further arguments, not \"a b\""_s);

    // policy
    row("policy without an action", none, { u"policy"_s },
        u"retrylab policy: give an action: list, show, validate, explain, table, export, import or targets (see retrylab help policy)"_s);
    row("policy: an unknown action", none, { u"policy"_s, u"frob"_s },
        u"retrylab policy: unknown action \"frob\" (list, show, validate, explain, table, export, import, targets)"_s);
    row("policy targets with an argument", none, { u"policy"_s, u"targets"_s, u"x"_s }, u"retrylab policy targets: takes no arguments"_s);
    row("policy list with an argument", none, { u"policy"_s, u"list"_s, u"x"_s }, u"retrylab policy list: takes no arguments"_s);
    row("policy show: an unknown preset", none, { u"policy"_s, u"show"_s, u"nosuch"_s }, u"retrylab policy show: "_s + presets);
    row("policy show: two names", none, { u"policy"_s, u"show"_s, u"slen"_s, u"curl"_s },
        u"retrylab policy show: give one preset name or file, not \"slen curl\""_s);
    row("policy show: an unknown option", none, { u"policy"_s, u"show"_s, u"slen"_s, u"--yaml"_s },
        u"retrylab policy show: unknown option --yaml"_s);
    row("issue 15: policy validate {} (the schema requires format and version; every problem listed)", none,
        { u"policy"_s, u"validate"_s, u"empty-policy.json"_s },
        u"empty-policy.json: 2 problem(s)\n  format: is required: \"retrylab-policy\"\n  version: is required: 1, or 2 for a policy with a pipeline"_s);
    row("policy validate: no version", none, { u"policy"_s, u"validate"_s, u"no-version.json"_s },
        u"retrylab policy validate: policy \"no-version.json\": version: is required: 1, or 2 for a policy with a pipeline"_s);
    row("policy validate: a missing file", none, { u"policy"_s, u"validate"_s, u"%DIR%/missing.json"_s },
        u"retrylab policy validate: cannot read %DIR%/missing.json: No such file or directory"_s);
    row("policy validate: binary garbage", none, { u"policy"_s, u"validate"_s, u"garbage.bin"_s },
        u"retrylab policy validate: policy \"garbage.bin\": not valid JSON at line …"_s);
    row("policy validate: two files", none, { u"policy"_s, u"validate"_s, u"a"_s, u"b"_s },
        u"retrylab policy validate: give one policy file"_s);
    row("issue 15: policy explain --method 'G ET' (RFC 9110 §9.1: a method is a token)", none,
        { u"policy"_s, u"explain"_s, u"slen"_s, u"--method"_s, u"G ET"_s, u"--status"_s, u"503"_s },
        u"retrylab policy explain: --method \"G ET\" is not an HTTP method (RFC 9110: a token, no spaces or separators)"_s);
    row("policy explain: a header name with a space (RFC 9110 §5.1)", none,
        { u"policy"_s, u"explain"_s, u"slen"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"429"_s, u"--header"_s, u"Retry After: 2"_s },
        u"retrylab policy explain: --header must look like 'Name: value', not \"Retry After: 2\""_s);
    row("policy explain: a status below 100", none,
        { u"policy"_s, u"explain"_s, u"slen"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"99"_s },
        u"retrylab policy explain: --status must be a whole number from 100 to 599, not \"99\""_s);
    row("policy explain: --elapsed-ms negative", none,
        { u"policy"_s, u"explain"_s, u"slen"_s, u"--method"_s, u"GET"_s, u"--error"_s, u"dns"_s, u"--elapsed-ms"_s, u"-5"_s },
        u"retrylab policy explain: --elapsed-ms must be a whole number from 0 to …, not \"-5\""_s);
    row("policy explain: an unknown preset", none,
        { u"policy"_s, u"explain"_s, u"nosuch"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"503"_s },
        u"retrylab policy explain: "_s + presets);
    row("policy table: no policy", none, { u"policy"_s, u"table"_s }, u"retrylab policy table: give one preset name or policy file"_s);

    // --set PATH=VALUE (issue 27 §4), on every command that takes a policy: checked as a policy file is,
    // every problem with its field path.
    const QStringList curlTo { u"run"_s, u"--policy"_s, u"curl-7.88"_s, u"--url"_s, u"http://127.0.0.1:%PORT%/x"_s };
    const QString notAPath = u"is not a field path: keys joined by dots, [N] for an element of an array (e.g. "
                             "limits.max_retries, rules[2].action)"_s;
    row("--set: a key the policy format does not have (policy show)", none,
        { u"policy"_s, u"show"_s, u"curl-7.88"_s, u"--set"_s, u"limits.max_retry=3"_s },
        u"retrylab policy show: policy \"curl-7.88\" with --set limits.max_retry=3: limits.max_retry: is not a known field"_s);
    row("--set: every problem at once, each with its path (policy show)", none,
        { u"policy"_s, u"show"_s, u"curl-7.88"_s, u"--set"_s, u"rules[9].action=stop"_s, u"--set"_s, u"limits.max_retry=3"_s },
        u"curl-7.88 with --set rules[9].action=stop --set limits.max_retry=3: 2 problem(s)\n"
        "  rules[9]: is out of range: rules has 5 element(s), [0] to [4]\n  limits.max_retry: is not a known field"_s);
    row("--set: a key under a number (policy explain)", none,
        { u"policy"_s, u"explain"_s, u"curl-7.88"_s, u"--method"_s, u"GET"_s, u"--status"_s, u"503"_s, u"--set"_s,
            u"limits.max_retries.x=1"_s },
        u"retrylab policy explain: policy \"curl-7.88\" with --set limits.max_retries.x=1: limits.max_retries: is a number, "
        "not an object: it has no field \"x\""_s);
    row("--set: not a path (policy table)", none, { u"policy"_s, u"table"_s, u"curl-7.88"_s, u"--set"_s, u"[0]=1"_s },
        u"retrylab policy table: --set \"[0]\" "_s + notAPath);
    row("--set on an unknown preset (policy table)", none, { u"policy"_s, u"table"_s, u"nosuch"_s, u"--set"_s, u"a=1"_s },
        u"retrylab policy table: "_s + presets);
    row("--set: text for a number (run, nothing sent)", none, curlTo + QStringList { u"--set"_s, u"limits.max_retries=three"_s },
        u"retrylab run: policy \"curl-7.88\" with --set limits.max_retries=three: limits.max_retries: must be a number, not a string"_s);
    row("--set: no = (run)", none, curlTo + QStringList { u"--set"_s, u"limits.max_retries"_s },
        u"retrylab run: --set \"limits.max_retries\" is not PATH=VALUE (e.g. limits.max_retries=3)"_s);
    row("--set without its value (run)", none, curlTo + QStringList { u"--set"_s }, u"retrylab run: --set needs a value"_s);
    row("--set: validate() refuses the value (run)", none, curlTo + QStringList { u"--set"_s, u"backoff.base_ms=-5"_s },
        u"retrylab run: policy \"curl-7.88\" with --set backoff.base_ms=-5: backoff.base_ms: must not be negative (it is -5 ms)"_s);
    row("--set with --list-routes (run)", none,
        { u"run"_s, u"--scenario"_s, u"flaky-api"_s, u"--list-routes"_s, u"--set"_s, u"limits.max_retries=3"_s },
        u"retrylab run: --list-routes takes only --scenario, not --set"_s);
    row("--set: an index out of range (conform)", none,
        { u"conform"_s, u"--policy"_s, u"curl-7.88"_s, u"--set"_s, u"rules[5].action=stop"_s, u"--suite"_s, u"standard"_s, u"--"_s,
            u"true"_s },
        u"retrylab conform: policy \"curl-7.88\" with --set rules[5].action=stop: rules[5]: is out of range: rules has 5 "
        "element(s), [0] to [4]"_s);
    row("--set: a word the enumeration does not have (replay)", none,
        { u"replay"_s, u"%SESSION%"_s, u"--policy"_s, u"slen"_s, u"--set"_s, u"backoff.kind=quadratic"_s },
        u"retrylab replay: policy \"slen\" with --set backoff.kind=quadratic: backoff.kind: must be one of none, constant, "
        "linear, exponential, decorrelated, decorrelated-v2"_s);
    row("--set without --policy (replay: the recorded policies are not changed)", none,
        { u"replay"_s, u"%SESSION%"_s, u"--set"_s, u"limits.max_retries=3"_s },
        u"retrylab replay: --set changes a field of the policy given with --policy: give --policy too"_s);

    // Issue 28: a pipeline the engine does not run yet (hedging under a connection limit: each copy needs a
    // connection of its own) is refused by name, never run without it.
    const QString pipelineRefused = u"policy \"ms-http-hedging\": the engine does not run hedging under a limit of "
                                    u"connections per host yet (it runs retries, circuit breakers, timeouts, limiters "
                                    u"outside the retry, and hedging without a retry)"_s;
    row("a pipeline the engine does not run (run)", none,
        { u"run"_s, u"--policy"_s, u"ms-http-hedging"_s, u"--set"_s, u"limits.connections_per_host=2"_s, u"--url"_s,
            u"http://127.0.0.1:%PORT%/x"_s },
        u"retrylab run: "_s + pipelineRefused);
    // conform judges a breaker, hedging and an attempt timeout (issue 28 §5), but refuses what it does not judge.
    row("a pipeline conform does not judge", none,
        { u"conform"_s, u"--policy"_s, u"ms-http-standard"_s, u"--suite"_s, u"breakers"_s, u"--"_s, u"true"_s },
        u"retrylab conform: policy \"ms-http-standard\": conform does not judge rate_limiter, total_timeout yet, only a "
        "pipeline's retry, circuit_breaker, hedging and attempt_timeout"_s);
    row("a suite case with calls: none", none,
        { u"conform"_s, u"--policy"_s, u"opossum-9"_s, u"--suite"_s, u"%DIR%/zero-calls.json"_s, u"--"_s, u"true"_s },
        u"retrylab conform: suite %DIR%/zero-calls.json: $.cases[0].calls: how many calls, a whole number from 1 to 100000"_s);
    row("a suite case with an interval but no calls", none,
        { u"conform"_s, u"--policy"_s, u"opossum-9"_s, u"--suite"_s, u"%DIR%/interval-only.json"_s, u"--"_s, u"true"_s },
        u"retrylab conform: suite %DIR%/interval-only.json: $.cases[0].interval_ms: goes with \"calls\": how many calls "
        "the command makes at this interval"_s);
    row("a suite case whose calls outlast its timeout", none,
        { u"conform"_s, u"--policy"_s, u"opossum-9"_s, u"--suite"_s, u"%DIR%/slow-calls.json"_s, u"--"_s, u"true"_s },
        u"retrylab conform: suite %DIR%/slow-calls.json: $.cases[0].calls: 300 calls 50 ms apart take 14950 ms, not less "
        "than the case's timeout (10000 ms): raise timeout_ms"_s);
    row("a suite case with a bad outage", none,
        { u"conform"_s, u"--policy"_s, u"opossum-9"_s, u"--suite"_s, u"%DIR%/bad-suite-outage.json"_s, u"--"_s, u"true"_s },
        u"retrylab conform: suite %DIR%/bad-suite-outage.json: $.cases[0].outages[0].mode: …"_s);
    row("a pipeline the engine does not run (replay)", none,
        { u"replay"_s, u"%SESSION%"_s, u"--policy"_s, u"ms-http-hedging"_s, u"--set"_s, u"limits.connections_per_host=2"_s },
        u"retrylab replay: "_s + pipelineRefused);

    row("--interval out of range", none,
        { u"run"_s, u"--policy"_s, u"curl"_s, u"--url"_s, u"http://127.0.0.1:%PORT%/x"_s, u"--interval"_s, u"0"_s },
        u"retrylab run: --interval must be a whole number from 1 to 3600000, not \"0\""_s);

    // inspect
    row("issue 15: inspect on empty input", none, { u"inspect"_s },
        u"retrylab inspect: no input: pipe a response head into it, e.g. printf 'HTTP/1.1 429 x\\nRetry-After: 2\\n' | retrylab inspect"_s);
    row("issue 15: inspect on binary input (a PNG file)", none, { u"inspect"_s },
        u"retrylab inspect: the input is not a response head: byte 0x1a at offset 6 (binary data?)"_s,
        QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    row("issue 15: inspect on text that is not a head", none, { u"inspect"_s, u"--json"_s },
        u"retrylab inspect: the input is not a response head: no status line and no \"Name: value\" field"_s, "hello world\n");
    row("inspect: a head that never ends", none, { u"inspect"_s },
        u"retrylab inspect: the head is longer than 1 MiB without ending (no blank line)"_s, QByteArray("X-A: b\n").repeated(160000));
    row("inspect: an unknown option", none, { u"inspect"_s, u"--bogus"_s },
        u"retrylab inspect: unknown argument '--bogus' (see retrylab help inspect)"_s, "Retry-After: 2\n");

    // serve
    row("issue 15: serve --scenario nosuch (one line, no stray \"$:\")", none, { u"serve"_s, u"--scenario"_s, u"nosuch"_s },
        u"retrylab serve: scenario \"nosuch\": no built-in scenario or file named 'nosuch' (built-in: flaky-api, …)"_s);
    row("serve: a scenario file with problems, all on one line", none, { u"serve"_s, u"--scenario"_s, u"bad-scenario.json"_s },
        u"retrylab serve: scenario \"bad-scenario.json\": $.name: is required; $.routes[0].path: …; $.routes[0].steps: …"_s);
    row("issue 28: serve --scenario with a bad outage duration and a ramp key misspelt", none,
        { u"serve"_s, u"--scenario"_s, u"bad-outage.json"_s },
        u"retrylab serve: scenario \"bad-outage.json\": "
        "$.routes[0].steps[0].duration_ms: must be an integer from 0 to 3600000; "
        "$.routes[0].steps[1].latency_ramp.over: unknown key; "
        "$.routes[0].steps[1].latency_ramp: give one of over_ms (time since the step first played) or over_requests (its plays)"_s);
    row("serve: a port above 65535", none, { u"serve"_s, u"--port"_s, u"70000"_s },
        u"retrylab serve: --port must be a whole number from 0 to 65535, not \"70000\""_s);
    row("serve: --bind a name", none, { u"serve"_s, u"--bind"_s, u"example.org"_s },
        u"retrylab serve: --bind needs an IP address, not 'example.org'"_s);
    row("serve: a stray argument", none, { u"serve"_s, u"extra"_s }, u"retrylab serve: unexpected argument \"extra\""_s);
    row("issue 12: serve --max-requests 0", none, { u"serve"_s, u"--max-requests"_s, u"0"_s },
        u"retrylab serve: --max-requests must be a whole number from 1 to 1000000000, not \"0\""_s);
    row("issue 12: serve --duration a word", none, { u"serve"_s, u"--duration"_s, u"soon"_s },
        u"retrylab serve: --duration must be a number of seconds above 0 (e.g. 0.5), not \"soon\""_s);
    row("issue 12: serve --upstream an ftp URL", none, { u"serve"_s, u"--upstream"_s, u"ftp://example.org"_s },
        u"retrylab serve: --upstream: the upstream must be http:// or https://, not ftp://"_s);
    row("issue 12: serve --upstream-ca alone", none, { u"serve"_s, u"--upstream-ca"_s, u"ca.pem"_s },
        u"retrylab serve: --upstream-ca needs --upstream URL"_s);
    row("serve: --list with another option", none, { u"serve"_s, u"--list"_s, u"--port"_s, u"1"_s },
        u"retrylab serve: --list takes no other option, not --port"_s);

    // run
    const QStringList slenTo { u"run"_s, u"--policy"_s, u"slen"_s, u"--url"_s, u"http://127.0.0.1:%PORT%/x"_s };
    const QStringList pix { u"run"_s, u"--policy"_s, u"pix"_s, u"--scenario"_s, u"seed-004-pix"_s };
    row("issue 15: run to port 0 is refused before anything is sent", none,
        { u"run"_s, u"--policy"_s, u"slen"_s, u"--url"_s, u"http://127.0.0.1:0/x"_s },
        u"retrylab run: --url \"http://127.0.0.1:0/x\": port 0 cannot be connected to; use a port from 1 to 65535"_s);
    row("issue 15: run to a URL without a scheme", none, { u"run"_s, u"--policy"_s, u"slen"_s, u"--url"_s, u"127.0.0.1:%PORT%/charge"_s },
        u"retrylab run: --url \"127.0.0.1:%PORT%/charge\" has no scheme: write http://127.0.0.1:%PORT%/charge (or https://127.0.0.1:%PORT%/charge)"_s);
    row("run: an ftp URL", none, { u"run"_s, u"--policy"_s, u"slen"_s, u"--url"_s, u"ftp://127.0.0.1:%PORT%/x"_s },
        u"retrylab run: --url \"ftp://127.0.0.1:%PORT%/x\": the scheme \"ftp\" is not supported; use http:// or https://"_s);
    row("issue 15: run --scenario --method that no route accepts", none, pix + QStringList { u"--method"_s, u"GET"_s },
        u"retrylab run: scenario \"seed-004-pix\" has no route for the method GET; its routes: POST /pix/payments (see --list-routes)"_s);
    row("run: --path that no route matches", none, pix + QStringList { u"--path"_s, u"/api/orders"_s },
        u"retrylab run: scenario \"seed-004-pix\" has no route for the path /api/orders; its routes: POST /pix/payments (see --list-routes)"_s);
    row("run: --path and --method that no one route takes", none,
        { u"run"_s, u"--policy"_s, u"slen"_s, u"--scenario"_s, u"seed-000-rate-limited"_s, u"--method"_s, u"POST"_s, u"--path"_s, u"/v1/payments/x"_s },
        u"retrylab run: scenario \"seed-000-rate-limited\" has no route for POST /v1/payments/x; its routes: GET /v1/payments/*, "
        "PUT|PATCH /v1/payments/*, POST /v1/payments, DELETE /v1/customers/* (see --list-routes)"_s);
    row("run: --path without a leading slash", none, pix + QStringList { u"--path"_s, u"pix/payments"_s },
        u"retrylab run: --path must be a path starting with '/' (and an optional ?query), not \"pix/payments\""_s);
    row("run: --path with --url", none, slenTo + QStringList { u"--path"_s, u"/y"_s },
        u"retrylab run: --path picks a route of --scenario; with --url, put the path in the URL"_s);
    row("run: --list-routes without --scenario", none, { u"run"_s, u"--list-routes"_s }, u"retrylab run: --list-routes needs --scenario"_s);
    row("run: --list-routes with a run option", none, { u"run"_s, u"--scenario"_s, u"flaky-api"_s, u"--list-routes"_s, u"--policy"_s, u"slen"_s },
        u"retrylab run: --list-routes takes only --scenario, not --policy"_s);
    row("issue 10: run --export into a missing folder, before anything is sent", none,
        slenTo + QStringList { u"--export"_s, u"%DIR%/missing/x.json"_s },
        u"retrylab run: --export: cannot write \"%DIR%/missing/x.json\": the folder \"%DIR%/missing\" does not exist"_s);
    row("run --session into a missing folder", none, slenTo + QStringList { u"--session"_s, u"%DIR%/missing/s.json"_s },
        u"retrylab run: --session: cannot write \"%DIR%/missing/s.json\": the folder \"%DIR%/missing\" does not exist"_s);
    row("run --ledger into a missing folder", none, pix + QStringList { u"--ledger"_s, u"%DIR%/missing/l.json"_s },
        u"retrylab run: --ledger: cannot write \"%DIR%/missing/l.json\": the folder \"%DIR%/missing\" does not exist"_s);
    row("run --export to a folder", none, slenTo + QStringList { u"--export"_s, u"%DIR%"_s },
        u"retrylab run: --export: cannot write \"%DIR%\": it is a folder"_s);
    row("run --ledger without --scenario", none, slenTo + QStringList { u"--ledger"_s, u"l.json"_s },
        u"retrylab run: --ledger needs --scenario: only the built-in lab keeps a ledger"_s);
    row("run: --export and --session naming one file", none,
        slenTo + QStringList { u"--export"_s, u"same.json"_s, u"--session"_s, u"same.json"_s },
        u"retrylab run: --session names a file another option writes too: \"same.json\""_s);
    row("run: --method with a space", none, slenTo + QStringList { u"--method"_s, u"G ET"_s },
        u"retrylab run: --method \"G ET\" is not an HTTP method (RFC 9110: a token, no spaces or separators)"_s);
    row("run: a header value with a line break (RFC 9110 §5.5)", none, slenTo + QStringList { u"--header"_s, u"X-A: 1\r\nX-B: 2"_s },
        u"retrylab run: --header \"X-A\": a field value cannot contain a line break or NUL (RFC 9110 §5.5)"_s);
    row("run: a header without a colon", none, slenTo + QStringList { u"--header"_s, u"Authorization Bearer x"_s },
        u"retrylab run: --header must look like 'Name: value', not \"Authorization Bearer x\""_s);
    row("run: --data from a missing file", none, slenTo + QStringList { u"--data"_s, u"@%DIR%/missing.json"_s },
        u"retrylab run: cannot read --data file \"%DIR%/missing.json\": No such file or directory"_s);
    row("run: --data @ without a file name", none, slenTo + QStringList { u"--data"_s, u"@"_s },
        u"retrylab run: --data @FILE needs a file name after the @"_s);
    row("run: an empty --url", none, { u"run"_s, u"--policy"_s, u"slen"_s, u"--url="_s },
        u"retrylab run: --url needs a URL, e.g. http://127.0.0.1:8080/path"_s);
    row("run: --data from a file that never ends", none, slenTo + QStringList { u"--data"_s, u"@/dev/zero"_s },
        u"retrylab run: --data file \"/dev/zero\" is larger than 64 MiB"_s);
    row("run: --repeat 0", none, slenTo + QStringList { u"--repeat"_s, u"0"_s },
        u"retrylab run: --repeat must be a whole number from 1 to 1000000, not \"0\""_s);
    row("run: --concurrency 0", none, slenTo + QStringList { u"--concurrency"_s, u"0"_s },
        u"retrylab run: --concurrency must be a whole number from 1 to 10000, not \"0\""_s);
    row("run: --connections-per-host 0", none, slenTo + QStringList { u"--connections-per-host"_s, u"0"_s },
        u"retrylab run: --connections-per-host must be a whole number from 1 to 100000, not \"0\""_s);
    row("run: --connections-per-host x", none, slenTo + QStringList { u"--connections-per-host"_s, u"x"_s },
        u"retrylab run: --connections-per-host must be a whole number from 1 to 100000, not \"x\""_s);
    row("run: a negative seed", none, slenTo + QStringList { u"--seed"_s, u"-1"_s },
        u"retrylab run: --seed must be a whole number from 0 to …, not \"-1\""_s);
    row("run: --timeout 0", none, slenTo + QStringList { u"--timeout"_s, u"0"_s },
        u"retrylab run: --timeout must be a number of seconds above 0 (e.g. 0.5), not \"0\""_s);
    row("run: --deadline nan", none, slenTo + QStringList { u"--deadline"_s, u"nan"_s },
        u"retrylab run: --deadline must be a number of seconds above 0 (e.g. 0.5), not \"nan\""_s);
    row("run: an empty idempotency key", none, slenTo + QStringList { u"--idempotency-key"_s, u" "_s },
        u"retrylab run: --idempotency-key needs a key, auto or none"_s);
    row("run: no --policy", none, { u"run"_s, u"--url"_s, u"http://127.0.0.1:%PORT%/"_s }, u"retrylab run: --policy is required"_s);
    row("run: an unknown preset", none, { u"run"_s, u"--policy"_s, u"nosuch"_s, u"--url"_s, u"http://127.0.0.1:%PORT%/"_s },
        u"retrylab run: "_s + presets);
    row("run: a policy file with problems, on one line", none,
        { u"run"_s, u"--policy"_s, u"empty-policy.json"_s, u"--url"_s, u"http://127.0.0.1:%PORT%/"_s },
        u"retrylab run: policy \"empty-policy.json\": format: is required: \"retrylab-policy\"; version: is required: 1, or 2 for a policy with a pipeline"_s);
    row("run: both --scenario and --url", none, slenTo + QStringList { u"--scenario"_s, u"flaky-api"_s },
        u"retrylab run: give exactly one of --scenario and --url"_s);
    row("run: an unknown scenario", none, { u"run"_s, u"--policy"_s, u"slen"_s, u"--scenario"_s, u"nosuch"_s },
        u"retrylab run: scenario \"nosuch\": no built-in scenario or file named 'nosuch' (built-in: …)"_s);
    row("run: an option given twice", none, slenTo + QStringList { u"--repeat"_s, u"1"_s, u"--repeat"_s, u"2"_s },
        u"retrylab run: --repeat given more than once"_s);
    row("run: a stray argument", none, slenTo + QStringList { u"extra"_s }, u"retrylab run: unexpected argument \"extra\""_s);
    row("run: an unknown option", none, slenTo + QStringList { u"--retries"_s, u"3"_s }, u"retrylab run: unknown option --retries"_s);

    // export
    row("issue 15: export --curl 1:-1", none, { u"export"_s, u"%SESSION%"_s, u"--curl"_s, u"1:-1"_s },
        u"retrylab export: --curl takes RUN:ATTEMPT, two numbers from 1 (e.g. 3:2), not \"1:-1\""_s);
    row("issue 15: export --curl with --format and -o", none,
        { u"export"_s, u"%SESSION%"_s, u"--format"_s, u"csv"_s, u"-o"_s, u"y.csv"_s, u"--curl"_s, u"1:1"_s },
        u"retrylab export: --curl prints one attempt as a command line; it cannot be combined with --format or -o"_s);
    row("export --curl: a run the session does not have", none, { u"export"_s, u"%SESSION%"_s, u"--curl"_s, u"9:1"_s },
        u"retrylab export: the session has no run 9 (it has 2 runs)"_s);
    row("export --curl: an attempt the run does not have", none, { u"export"_s, u"%SESSION%"_s, u"--curl"_s, u"1:5"_s },
        u"retrylab export: run 1 has no attempt 5 (it has 1 attempts)"_s);
    row("issue 15: export a truncated session", none, { u"export"_s, u"truncated.json"_s, u"--format"_s, u"har"_s, u"-o"_s, u"x.har"_s },
        u"retrylab export: truncated.json: …"_s);
    row("issue 15: export a file of random bytes", none, { u"export"_s, u"garbage.bin"_s, u"--curl"_s, u"1:1"_s },
        u"retrylab export: garbage.bin: …"_s);
    row("export a session that does not exist", none, { u"export"_s, u"%DIR%/missing.json"_s, u"--curl"_s, u"1:1"_s },
        u"retrylab export: cannot open %DIR%/missing.json: No such file or directory"_s);
    row("export -o into a missing folder, before reading", none,
        { u"export"_s, u"%SESSION%"_s, u"--format"_s, u"csv"_s, u"-o"_s, u"%DIR%/missing/y.csv"_s },
        u"retrylab export: -o: cannot write \"%DIR%/missing/y.csv\": the folder \"%DIR%/missing\" does not exist"_s);
    row("export: an unknown format", none, { u"export"_s, u"%SESSION%"_s, u"--format"_s, u"xml"_s, u"-o"_s, u"x"_s },
        u"retrylab export: --format must be json, csv or har"_s);
    row("export: no -o", none, { u"export"_s, u"%SESSION%"_s, u"--format"_s, u"har"_s }, u"retrylab export: -o FILE is required"_s);
    row("export: two sessions", none, { u"export"_s, u"a.json"_s, u"b.json"_s, u"--curl"_s, u"1:1"_s },
        u"retrylab export: give exactly one SESSION file"_s);

    // replay
    const QStringList live { u"replay"_s, u"%SESSION%"_s, u"--live"_s, u"--base-url"_s };
    row("issue 15: replay --base-url with a query", none, live + QStringList { u"http://127.0.0.1:%PORT%/with/path?q=1"_s },
        u"retrylab replay: --base-url \"http://127.0.0.1:%PORT%/with/path?q=1\" has a query, but each recorded request keeps "
        "its own: give a scheme, host, port and at most a path prefix"_s);
    row("replay --base-url with a fragment", none, live + QStringList { u"http://127.0.0.1:%PORT%/#top"_s },
        u"retrylab replay: --base-url \"http://127.0.0.1:%PORT%/#top\" has a fragment, which is never sent: leave it out"_s);
    row("replay --base-url with user info", none, live + QStringList { u"http://u:p@127.0.0.1:%PORT%/"_s },
        u"retrylab replay: --base-url \"http://u:p@127.0.0.1:%PORT%/\" has user info: send credentials as a header (Authorization) instead"_s);
    row("replay --base-url without a scheme", none, live + QStringList { u"127.0.0.1:%PORT%"_s },
        u"retrylab replay: --base-url \"127.0.0.1:%PORT%\" has no scheme: write http://127.0.0.1:%PORT% (or https://127.0.0.1:%PORT%)"_s);
    row("replay: an empty --base-url", none, live + QStringList { QString() },
        u"retrylab replay: --base-url needs a URL, e.g. http://staging.test/api"_s);
    row("replay --base-url without --live", none, { u"replay"_s, u"%SESSION%"_s, u"--base-url"_s, u"http://127.0.0.1:%PORT%/"_s },
        u"retrylab replay: --base-url needs --live"_s);
    row("issue 10: replay --export into a missing folder, before anything is sent", none,
        { u"replay"_s, u"%SESSION%"_s, u"--live"_s, u"--base-url"_s, u"http://127.0.0.1:%PORT%/"_s, u"--export"_s, u"%DIR%/missing/r.json"_s },
        u"retrylab replay: --export: cannot write \"%DIR%/missing/r.json\": the folder \"%DIR%/missing\" does not exist"_s);
    row("issue 15: replay a truncated session", none, { u"replay"_s, u"truncated.json"_s }, u"retrylab replay: truncated.json: …"_s);
    row("issue 15: replay a file of random bytes", none, { u"replay"_s, u"garbage.bin"_s }, u"retrylab replay: garbage.bin: …"_s);
    row("replay: --offline and --live", none, { u"replay"_s, u"%SESSION%"_s, u"--offline"_s, u"--live"_s },
        u"retrylab replay: give at most one of --offline and --live"_s);
    row("replay: an unknown preset", none, { u"replay"_s, u"%SESSION%"_s, u"--policy"_s, u"nosuch"_s }, u"retrylab replay: "_s + presets);
    row("replay: --concurrency 0", none, { u"replay"_s, u"%SESSION%"_s, u"--concurrency"_s, u"0"_s },
        u"retrylab replay: --concurrency must be a whole number from 1 to 10000, not \"0\""_s);
    row("replay: no session", none, { u"replay"_s }, u"retrylab replay: give exactly one SESSION file"_s);

    // recover
    row("issue 15: recover --dir a folder that does not exist", none, { u"recover"_s, u"--dir"_s, u"%DIR%/nowhere"_s },
        u"retrylab recover: --dir \"%DIR%/nowhere\": no such folder"_s);
    row("issue 15: recover a journal that does not exist", none, { u"recover"_s, u"%DIR%/nowhere.journal"_s },
        u"retrylab recover: \"%DIR%/nowhere.journal\": no such journal file"_s);
    row("recover -o into a missing folder", none, { u"recover"_s, u"-o"_s, u"%DIR%/missing/s.json"_s },
        u"retrylab recover: -o: cannot write \"%DIR%/missing/s.json\": the folder \"%DIR%/missing\" does not exist"_s);
    row("recover: an unknown option", none, { u"recover"_s, u"--all"_s }, u"retrylab recover: unknown option --all"_s);

    // ca (issue 31 §1)
    row("ca without an action", none, { u"ca"_s }, u"retrylab ca: give an action: show, create, export or remove (see retrylab help ca)"_s);
    row("ca: an unknown action", none, { u"ca"_s, u"delete"_s }, u"retrylab ca: unknown action \"delete\" (show, create, export, remove)"_s);
    row("ca show: an argument", none, { u"ca"_s, u"show"_s, u"%DIR%/ca"_s }, u"retrylab ca show: takes no arguments, not \"%DIR%/ca\""_s);
    row("ca show: an unknown option", none, { u"ca"_s, u"show"_s, u"--json"_s }, u"retrylab ca show: unknown option --json"_s);
    row("ca show --dir a file", none, { u"ca"_s, u"show"_s, u"--dir"_s, u"%SESSION%"_s },
        u"retrylab ca show: --dir \"%SESSION%\" is not a folder"_s);
    row("ca create --dir without a value", none, { u"ca"_s, u"create"_s, u"--dir"_s }, u"retrylab ca create: --dir needs a value"_s);
    row("ca create: an empty --dir", none, { u"ca"_s, u"create"_s, u"--dir="_s }, u"retrylab ca create: --dir needs a folder"_s);
    row("ca export --format xml", none, { u"ca"_s, u"export"_s, u"--dir"_s, u"%DIR%/ca"_s, u"--format"_s, u"xml"_s },
        u"retrylab ca export: --format must be pem or der, not \"xml\""_s);
    row("ca export DER to stdout", none, { u"ca"_s, u"export"_s, u"--dir"_s, u"%DIR%/ca"_s, u"--format"_s, u"der"_s },
        u"retrylab ca export: --format der is binary: give --out FILE"_s);
    row("ca export --out into a missing folder", none, { u"ca"_s, u"export"_s, u"--dir"_s, u"%DIR%/ca"_s, u"--out"_s, u"%DIR%/missing/ca.pem"_s },
        u"retrylab ca export: --out: cannot write \"%DIR%/missing/ca.pem\": the folder \"%DIR%/missing\" does not exist"_s);
    row("ca remove without --yes", none, { u"ca"_s, u"remove"_s, u"--dir"_s, u"%DIR%/ca"_s },
        u"retrylab ca remove: this deletes the CA in \"%DIR%/ca\" for good, and clients set up to trust it will refuse the next one: add --yes"_s);
    row("ca remove --yes=1", none, { u"ca"_s, u"remove"_s, u"--yes=1"_s }, u"retrylab ca remove: --yes takes no value"_s);

    // fleet (issue 32): refused before the lab listens or Locust starts
    const QString help = u" (see retrylab help fleet)"_s;
    const QStringList fleetRun { u"fleet"_s, u"--policy"_s, u"slen"_s, u"--url"_s, u"http://127.0.0.1:%PORT%/x"_s };
    const QStringList sized { u"--users"_s, u"5"_s, u"--spawn-rate"_s, u"5"_s, u"--duration"_s, u"1"_s };
    row("fleet without a policy", none, { u"fleet"_s, u"--url"_s, u"http://127.0.0.1:%PORT%/"_s },
        u"retrylab fleet: --policy NAME|FILE is required"_s + help);
    row("fleet: an unknown preset", none, { u"fleet"_s, u"--policy"_s, u"nosuch"_s }, u"retrylab fleet: "_s + presets + help);
    row("fleet without a target", none, QStringList { u"fleet"_s, u"--policy"_s, u"slen"_s } + sized,
        u"retrylab fleet: give exactly one target: --url URL or --scenario S"_s + help);
    row("fleet with --url and --scenario", none, fleetRun + QStringList { u"--scenario"_s, u"flaky-api"_s } + sized,
        u"retrylab fleet: give exactly one target: --url URL or --scenario S"_s + help);
    row("fleet --url ftp://", none, { u"fleet"_s, u"--policy"_s, u"slen"_s, u"--url"_s, u"ftp://x/y"_s },
        u"retrylab fleet: --url: not an http:// or https:// URL: ftp://x/y"_s + help);
    row("fleet: an unknown scenario", none, { u"fleet"_s, u"--policy"_s, u"slen"_s, u"--scenario"_s, u"nosuch"_s }, u"retrylab fleet: …nosuch…"_s);
    row("fleet without --users", none, fleetRun, u"retrylab fleet: --users is required"_s + help);
    row("fleet --users 0", none, fleetRun + QStringList { u"--users"_s, u"0"_s, u"--spawn-rate"_s, u"1"_s, u"--duration"_s, u"1"_s },
        u"retrylab fleet: --users must be a whole number from 1 to 100000, not \"0\""_s + help);
    row("fleet --spawn-rate -1", none, fleetRun + QStringList { u"--users"_s, u"5"_s, u"--spawn-rate"_s, u"-1"_s, u"--duration"_s, u"1"_s },
        u"retrylab fleet: --spawn-rate: a number above 0, not \"-1\""_s + help);
    row("fleet --duration x", none, fleetRun + QStringList { u"--users"_s, u"5"_s, u"--spawn-rate"_s, u"5"_s, u"--duration"_s, u"x"_s },
        u"retrylab fleet: --duration must be a number of seconds above 0 (e.g. 0.5), not \"x\""_s + help);
    row("fleet --arrival poisson", none, fleetRun + sized + QStringList { u"--arrival"_s, u"poisson"_s },
        u"retrylab fleet: --arrival: open:RATE or closed[:THINK], not \"poisson\""_s + help);
    row("fleet --arrival open:0", none, fleetRun + sized + QStringList { u"--arrival"_s, u"open:0"_s },
        u"retrylab fleet: --arrival open:RATE needs a rate above 0, not \"0\""_s + help);
    row("fleet --workers 0 without --master", none, fleetRun + sized + QStringList { u"--workers"_s, u"0"_s },
        u"retrylab fleet: --workers must be a whole number from 1 to 256, not \"0\""_s + help);
    row("fleet --master without --expect-workers", none, fleetRun + sized + QStringList { u"--master"_s },
        u"retrylab fleet: --master needs --expect-workers K"_s + help);
    row("fleet --expect-workers without --master", none, fleetRun + sized + QStringList { u"--expect-workers"_s, u"2"_s },
        u"retrylab fleet: --expect-workers goes with --master"_s + help);
    row("fleet --session into a missing folder", none, fleetRun + sized + QStringList { u"--session"_s, u"%DIR%/missing/s.json"_s },
        u"retrylab fleet: --session: cannot write \"%DIR%/missing/s.json\": the folder \"%DIR%/missing\" does not exist"_s + help);
    row("fleet --no-record with --session", none, fleetRun + sized + QStringList { u"--no-record"_s, u"--session"_s, u"%DIR%/s.json"_s },
        u"retrylab fleet: --session needs the attempts: not with --no-record"_s + help);
    row("fleet --upstream without --scenario", none, fleetRun + sized + QStringList { u"--upstream"_s, u"http://127.0.0.1:%PORT%/"_s },
        u"retrylab fleet: --upstream goes with --scenario (the lab forwards to it)"_s + help);
    row("fleet --lab-bind not an address", none, { u"fleet"_s, u"--policy"_s, u"slen"_s, u"--scenario"_s, u"flaky-api"_s, u"--lab-bind"_s, u"lo"_s },
        u"retrylab fleet: --lab-bind: not an IP address: lo"_s + help);
    row("fleet worker without --master-host", none, { u"fleet"_s, u"worker"_s, u"--locustfile"_s, u"%SESSION%"_s },
        u"retrylab fleet: worker needs --master-host H"_s + help);
    row("fleet worker: a locustfile that does not exist", none,
        { u"fleet"_s, u"worker"_s, u"--master-host"_s, u"127.0.0.1"_s, u"--locustfile"_s, u"%DIR%/missing.py"_s },
        u"retrylab fleet: --locustfile: no such file: %DIR%/missing.py"_s + help);
    const QStringList worker { u"fleet"_s, u"worker"_s, u"--master-host"_s, u"127.0.0.1"_s };
    const QString digest(64, u'a');
    row("fleet worker without a locustfile", none, worker,
        u"retrylab fleet: worker needs --fetch-port F --sha256 HEX or --locustfile FILE (the master prints them)"_s + help);
    row("fleet worker --fetch-port without --sha256", none, worker + QStringList { u"--fetch-port"_s, u"%PORT%"_s },
        u"retrylab fleet: --fetch-port and --sha256 go together: the file is checked before it runs"_s + help);
    row("fleet worker --sha256 without --fetch-port", none, worker + QStringList { u"--sha256"_s, digest },
        u"retrylab fleet: --fetch-port and --sha256 go together: the file is checked before it runs"_s + help);
    row("fleet worker --sha256 not a digest", none, worker + QStringList { u"--fetch-port"_s, u"%PORT%"_s, u"--sha256"_s, u"abc"_s },
        u"retrylab fleet: --sha256: 64 hexadecimal digits, not \"abc\""_s + help);
    row("fleet worker --fetch-port 0", none, worker + QStringList { u"--fetch-port"_s, u"0"_s, u"--sha256"_s, digest },
        u"retrylab fleet: --fetch-port must be a whole number from 1 to 65535, not \"0\""_s + help);
    row("fleet worker with --locustfile and --fetch-port", none,
        worker + QStringList { u"--locustfile"_s, u"%SESSION%"_s, u"--fetch-port"_s, u"%PORT%"_s, u"--sha256"_s, digest },
        u"retrylab fleet: worker takes --locustfile FILE or --fetch-port F --sha256 HEX, not both"_s + help);
    row("fleet: an unknown option", none, { u"fleet"_s, u"--fleet-size"_s, u"3"_s }, u"retrylab fleet: unknown option --fleet-size"_s + help);
}

void TestCliBadInput::refused()
{
    QFETCH(Case, c);
    if (c.screen == Screen::DeadDisplay && QFileInfo::exists(u"/tmp/.X11-unix/X97"_s))
        QSKIP("an X server runs at :97 here");
    const Result r = run(c);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(r.exitCode == 2, qPrintable(u"exit %1, stderr: %2"_s.arg(r.exitCode).arg(err)));
    QVERIFY2(err.endsWith(u'\n'), qPrintable(err));
    const QString message = substituted(c.message);
    QVERIFY2(matchesPattern(err.chopped(1), message), qPrintable(u"\n  got:      %1\n  expected: %2"_s.arg(err.chopped(1), message)));
    QVERIFY2(message.contains(u'\n') || !err.chopped(1).contains(u'\n'), "one line");
    QVERIFY2(r.out.isEmpty(), r.out.constData());
    QVERIFY2(!m_sink.waitForNewConnection(20), "nothing is sent on bad input");
}

void TestCliBadInput::helpEverywhere_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("first"); // the help's first line starts so
    QTest::addRow("issue 15: policy show --help") << QStringList { u"policy"_s, u"show"_s, u"--help"_s } << u"Usage:"_s;
    QTest::addRow("policy explain slen -h") << QStringList { u"policy"_s, u"explain"_s, u"slen"_s, u"-h"_s } << u"Usage:"_s;
    for (const char* command : { "run", "serve", "inspect", "export", "recover", "replay", "import", "observe", "ca", "fleet" }) {
        const QString name = QString::fromLatin1(command);
        QTest::addRow("%s --help", command) << QStringList { name, u"--help"_s } << u"Usage: retrylab "_s + name;
        QTest::addRow("help %s", command) << QStringList { u"help"_s, name } << u"Usage: retrylab "_s + name;
    }
    QTest::addRow("--help after other options") << QStringList { u"run"_s, u"--policy"_s, u"slen"_s, u"--help"_s } << u"Usage: retrylab run"_s;
    QTest::addRow("--help") << QStringList { u"--help"_s } << u"Retrylab "_s;
    QTest::addRow("--help among the window's options") << QStringList { u"--demo-autorun"_s, u"--help"_s } << u"Retrylab "_s;
}

void TestCliBadInput::helpEverywhere()
{
    QFETCH(QStringList, args);
    QFETCH(QString, first);
    const Result r = run({ Screen::None, args, {}, {} });
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(QString::fromUtf8(r.out).startsWith(first), r.out.left(200).constData());
    QVERIFY2(r.err.isEmpty(), r.err.constData());
}

QTEST_GUILESS_MAIN(TestCliBadInput)
#include "tst_cli_badinput.moc"
