// SPDX-License-Identifier: GPL-3.0-or-later
// The fleet's locustfile and session (issue 32) without Locust processes: every preset's locustfile is valid
// Python; a logical request under it makes the policy's attempts with the policy's waits, one key and numbered
// attempt headers (run in Python 3 with a scripted urllib3 stand-in); and the session groups attempts exactly,
// counting a run whose numbering has a gap or a changed key as broken.
#include "fleet/fleetattempt.h"
#include "fleet/fleetsession.h"
#include "fleet/locustfile.h"
#include "policy/presetcatalog.h"
#include "session/session.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString kPython = u"/usr/bin/python3"_s; // Debian's: the one with python3-locust and urllib3

// Imports the locustfile and runs one logical request against an http object that answers STATUS every
// time and a gevent.sleep that only notes the wait; prints the recorded attempts and the headers sent.
const char* const kHarness = R"PY(
import importlib.util, json, sys, time, types
import urllib3
spec = importlib.util.spec_from_file_location("fleet_locustfile", sys.argv[1])
lf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lf)
status = int(sys.argv[2])
class Answer:
    def __init__(self):
        self.status, self.data = status, b"{}"
        self.headers = urllib3.response.HTTPHeaderDict({"Content-Type": "application/json"})
class Http:
    def __init__(self):
        self.sent = []
    def request(self, method, url, headers=None, **kwargs):
        self.sent.append(dict(headers))
        return Answer()
fired, slept = [], []
class Request:
    @staticmethod
    def fire(**kwargs):
        fired.append(kwargs["context"]["retrylab"])
environment = types.SimpleNamespace(events=types.SimpleNamespace(request=Request))
lf._state["end"] = time.monotonic() + 3600
lf.gevent.sleep = slept.append
http = Http()
lf._logical_request(environment, http, 1)
print(json.dumps({"attempts": fired, "slept": slept, "sent": http.sent}))
)PY";

FleetAttempt attempt(const QString& logical, int n, const QString& key, double start)
{
    FleetAttempt a;
    a.logical = logical;
    a.attempt = n;
    a.key = key;
    a.method = u"GET"_s;
    a.url = u"http://127.0.0.1:1/x"_s;
    a.startS = start;
    a.endS = start + 0.01;
    a.status = n == 1 ? 503 : 200;
    a.decision = n == 1 ? u"retry"_s : u"success"_s;
    return a;
}

} // namespace

class TestFleetLocustfile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void everyPresetIsPython();
    void logicalRequest_data();
    void logicalRequest();
    void groupsExactly();

private:
    QTemporaryDir m_dir;
};

void TestFleetLocustfile::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (!QFile::exists(kPython))
        QSKIP("no /usr/bin/python3");
}

void TestFleetLocustfile::everyPresetIsPython()
{
    QStringList files;
    LocustFileOptions o;
    o.url = u"http://127.0.0.1:1/x"_s;
    for (const QString& name : PresetCatalog::names()) {
        const PolicyParseResult preset = PresetCatalog::load(name);
        QVERIFY2(preset.ok(), qPrintable(name));
        const QString path = m_dir.filePath(u"lf_%1.py"_s.arg(QString(name).replace(u'-', u'_').replace(u'.', u'_')));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(LocustFile::write(*preset.policy, o).toUtf8());
        files << path;
    }
    QProcess p;
    p.start(kPython, QStringList { u"-m"_s, u"py_compile"_s } + files);
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
}

void TestFleetLocustfile::logicalRequest_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("status");
    QTest::addColumn<QList<double>>("waits"); // the waits the policy draws, in seconds; -1: any within [0, 1]
    QTest::addColumn<QStringList>("decisions");
    // curl-7.88: 503 retried, 1 s doubling, no jitter, 8 attempts (--retry 7).
    QTest::addRow("curl-7.88: 503 eight times, 1 s doubling")
        << u"curl-7.88"_s << 503 << QList<double> { 1, 2, 4, 8, 16, 32, 64 }
        << QStringList { u"retry"_s, u"retry"_s, u"retry"_s, u"retry"_s, u"retry"_s, u"retry"_s, u"retry"_s,
               u"stop"_s };
    // openai-node: 3 attempts, min(0.5 s·2^(n−1), 8 s)·U(0.75, 1).
    QTest::addRow("openai-node: 503 three times")
        << u"openai-node"_s << 503 << QList<double> { -1, -1 } << QStringList { u"retry"_s, u"retry"_s, u"stop"_s };
    QTest::addRow("openai-node: 200 once")
        << u"openai-node"_s << 200 << QList<double> {} << QStringList { u"success"_s };
}

void TestFleetLocustfile::logicalRequest()
{
    QFETCH(QString, preset);
    QFETCH(int, status);
    QFETCH(QList<double>, waits);
    QFETCH(QStringList, decisions);
    const PolicyParseResult p = PresetCatalog::load(preset);
    QVERIFY(p.ok());
    LocustFileOptions o;
    o.url = u"http://127.0.0.1:1/x"_s;
    const QString path = m_dir.filePath(u"run_%1.py"_s.arg(QString(preset).replace(u'-', u'_').replace(u'.', u'_')));
    const QString harness = m_dir.filePath(u"harness.py"_s);
    for (const auto& [file, text] :
        { std::pair { path, LocustFile::write(*p.policy, o) }, std::pair { harness, QString::fromUtf8(kHarness) } }) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.toUtf8());
    }
    QProcess py;
    py.start(kPython, { harness, path, QString::number(status) });
    QVERIFY(py.waitForFinished(30000));
    QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
    const QJsonObject out = QJsonDocument::fromJson(py.readAllStandardOutput().trimmed().split('\n').last()).object();
    const QJsonArray attempts = out.value(u"attempts"_s).toArray();
    const QJsonArray slept = out.value(u"slept"_s).toArray();
    const QJsonArray sent = out.value(u"sent"_s).toArray();
    QCOMPARE(attempts.size(), decisions.size());
    QCOMPARE(sent.size(), decisions.size());
    QCOMPARE(slept.size(), waits.size());
    const QString key = attempts.first().toObject().value(u"key"_s).toString();
    const QString logical = attempts.first().toObject().value(u"logical"_s).toString();
    for (qsizetype i = 0; i < attempts.size(); ++i) {
        const QJsonObject a = attempts.at(i).toObject();
        QCOMPARE(a.value(u"attempt"_s).toInt(), int(i + 1));
        QCOMPARE(a.value(u"decision"_s).toString(), decisions.at(i));
        QCOMPARE(a.value(u"key"_s).toString(), key);
        const QJsonObject headers = sent.at(i).toObject();
        QCOMPARE(headers.value(u"X-Retrylab-Attempt"_s).toString(), u"%1;attempt=%2"_s.arg(logical).arg(i + 1));
        QCOMPARE(headers.value(p.policy->idempotency.header).toString(), key);
        if (i > 0) // the wait recorded before it is the one slept after the previous one
            QCOMPARE(a.value(u"wait"_s).toDouble(), slept.at(i - 1).toDouble());
    }
    for (qsizetype i = 0; i < waits.size(); ++i) {
        const double w = slept.at(i).toDouble();
        if (waits.at(i) < 0)
            QVERIFY2(w >= 0.375 * (1 << i) - 1e-9 && w <= 0.5 * (1 << i) + 1e-9, qPrintable(QString::number(w)));
        else
            QCOMPARE(w, waits.at(i));
    }
}

void TestFleetLocustfile::groupsExactly()
{
    RetryPolicy policy;
    QList<FleetAttempt> attempts { attempt(u"b"_s, 2, u"kb"_s, 10.5), attempt(u"a"_s, 1, u"ka"_s, 10.0),
        attempt(u"b"_s, 1, u"kb"_s, 10.2), attempt(u"a"_s, 2, u"ka"_s, 11.0), attempt(u"c"_s, 1, u"kc"_s, 12.0),
        attempt(u"c"_s, 3, u"kc"_s, 13.0), attempt(u"d"_s, 1, u"kd"_s, 14.0), attempt(u"d"_s, 2, u"other"_s, 15.0) };
    FleetGrouping g;
    const Session s = FleetSession::build(attempts, policy, u"test"_s, &g);
    QCOMPARE(g.runs, 4);
    QCOMPARE(g.attempts, 8);
    QCOMPARE(g.broken, 2); // c skips attempt 2; d changes its key
    QCOMPARE(s.attemptCount(), 8);
    const RunRecord first = s.runRecord(0); // "a" began first
    QCOMPARE(first.attempts.size(), 2);
    QCOMPARE(first.attempts.at(0).attemptId, u"a;attempt=1"_s);
    QCOMPARE(first.attempts.at(1).attemptId, u"a;attempt=2"_s);
    QCOMPARE(first.outcome, FinalKind::Success);
    QVERIFY(first.attempts.at(1).observed && first.attempts.at(1).observed->clientWait);
    QCOMPARE(
        std::chrono::duration_cast<Millis>(*first.attempts.at(1).observed->clientWait).count(), 990); // 11.0 − 10.01
    QCOMPARE(s.runRecord(1).attempts.first().attemptId, u"b;attempt=1"_s);
}

QTEST_GUILESS_MAIN(TestFleetLocustfile)
#include "tst_fleet_locustfile.moc"
