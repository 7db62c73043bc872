// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab observe --proxy` with clients nobody here wrote, unchanged (issue 31 §4): Debian's curl (--retry),
// python3-requests with urllib3's Retry, and Node 20 running the openai and @aws-sdk/client-s3 SDKs at their
// default endpoints. Each talks to its usual https:// name; --map sends the proxy's upstream connection to a
// local TLS upstream (Python's http.server with a certificate openssl made for those names), whose
// certificate the lab checks (--upstream-ca). The scenario layers two 503s with Retry-After on the real
// answers; the retries are inferred and the waits measured as through the reverse proxy; the upstream's own
// count equals the attempts observed. A client given a wrong CA fails and is reported; a command that sends
// nothing through the proxy is told so (resilience-fleets.md §4b).
#include "observeclient.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct ProxyRun
{
    int exit = -1;
    QList<QJsonObject> attempts;
    QJsonObject summary;
    QByteArray err;
};

} // namespace

class TestClientProxy : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void curlRetry();
    void requestsWithUrllib3Retry();
    void nodeSdks_data();
    void nodeSdks();
    void wrongCaFailsAndIsReported();
    void noRequestThroughTheProxyIsSaid();

private:
    ProxyRun observe(const QStringList& command, const QStringList& extra = {}, const QByteArray& scenario = {});
    int upstreamRequests();
    void checkTwoRetriesAfterRetryAfter(const ProxyRun& run, const QString& url);

    QTemporaryDir m_dir;
    QProcess m_upstream;
    quint16 m_upstreamPort = 0;
    QByteArray m_upstreamOut;
    QString m_cert;
};

void TestClientProxy::initTestCase()
{
    for (const QString& tool : { u"curl"_s, u"openssl"_s, u"node"_s }) {
        if (QStandardPaths::findExecutable(tool).isEmpty())
            QFAIL(qPrintable(tool + u" is required (packaging/install-deps.sh installs it)"_s));
    }
    QVERIFY(m_dir.isValid());
    m_cert = m_dir.filePath(u"upstream.crt"_s);
    const QString key = m_dir.filePath(u"upstream.key"_s);
    QProcess openssl;
    openssl.start(u"openssl"_s, { u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:P-256"_s,
                                    u"-nodes"_s, u"-keyout"_s, key, u"-out"_s, m_cert, u"-days"_s, u"2"_s, u"-subj"_s,
                                    u"/CN=api.test"_s, u"-addext"_s,
                                    u"subjectAltName=DNS:api.test,DNS:api.openai.com,DNS:s3.us-east-1.amazonaws.com"_s });
    QVERIFY(openssl.waitForFinished(20000));
    QCOMPARE(openssl.exitCode(), 0);
    // The upstream: Python's http.server in TLS, answering JSON, printing one REQ line per request.
    QFile script(m_dir.filePath(u"upstream.py"_s));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(R"py(import http.server, json, ssl, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_GET(self):
        print("REQ", self.command, self.headers.get("Host"), self.path, flush=True)
        body = json.dumps({"id": "gpt-retrylab", "object": "model", "created": 0, "owned_by": "retrylab", "path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
c = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
c.load_cert_chain(sys.argv[1], sys.argv[2])
s.socket = c.wrap_socket(s.socket, server_side=True)
print("PORT", s.server_port, flush=True)
s.serve_forever()
)py");
    script.close();
    m_upstream.start(u"/usr/bin/python3"_s, { script.fileName(), m_cert, key });
    QVERIFY(m_upstream.waitForStarted(5000));
    QVERIFY(QTest::qWaitFor([&] { return m_upstream.canReadLine(); }, 10000));
    const QByteArray line = m_upstream.readLine().trimmed();
    QVERIFY2(line.startsWith("PORT "), line.constData());
    m_upstreamPort = quint16(line.mid(5).toUInt());
    qputenv("RETRYLAB_DATA_DIR", m_dir.filePath(u"data"_s).toUtf8()); // the CA is made here, not in the user's folder
}

void TestClientProxy::cleanupTestCase()
{
    m_upstream.kill();
    m_upstream.waitForFinished(3000);
}

int TestClientProxy::upstreamRequests()
{
    m_upstreamOut += m_upstream.readAllStandardOutput();
    return int(m_upstreamOut.count("REQ "));
}

ProxyRun TestClientProxy::observe(const QStringList& command, const QStringList& extra, const QByteArray& scenario)
{
    const QString scenarioPath = m_dir.filePath(u"layered-503.json"_s);
    QFile file(scenarioPath);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(scenario.isEmpty() ? QByteArray(R"({"format":1,"name":"layered-503",
            "description":"two 503s with Retry-After: 1 layered on the real answers, then the real answers",
            "routes":[{"name":"api","host":"*","path":"/**","steps":[
              {"kind":"forward","status":503,"retry_after":1,"repeat":2},
              {"kind":"forward","repeat":"forever"}]}]})")
                                      : scenario);
        file.close();
    }
    const QString port = QString::number(m_upstreamPort);
    QStringList args { u"observe"_s, u"--proxy"_s, u"--json"_s, u"--scenario"_s, scenarioPath, u"--upstream-ca"_s, m_cert,
        u"--map"_s, u"api.test=127.0.0.1:"_s + port, u"--map"_s, u"api.openai.com=127.0.0.1:"_s + port, u"--map"_s,
        u"s3.us-east-1.amazonaws.com=127.0.0.1:"_s + port };
    args << extra << u"--"_s << command;
    QProcess p;
    p.start(QStringLiteral(RETRYLAB_BINARY), args);
    ProxyRun run;
    if (!p.waitForFinished(90000)) {
        p.kill();
        p.waitForFinished(2000);
        return run;
    }
    run.exit = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    run.err = p.readAllStandardError();
    for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.contains(u"summary"_s))
            run.summary = o;
        else if (!o.isEmpty())
            run.attempts << o;
    }
    return run;
}

void TestClientProxy::checkTwoRetriesAfterRetryAfter(const ProxyRun& run, const QString& url)
{
    QVERIFY2(run.exit == 0, run.err.constData());
    QCOMPARE(run.attempts.size(), 3);
    QStringList statuses;
    for (const QJsonObject& a : run.attempts) {
        QCOMPARE(a.value(u"run"_s).toInt(), run.attempts.first().value(u"run"_s).toInt()); // one logical request
        QCOMPARE(a.value(u"url"_s).toString(), url);
        statuses << QString::number(a.value(u"status"_s).toInt());
    }
    QCOMPARE(statuses.join(u' '), u"503 503 200"_s);
    for (int i = 1; i < 3; ++i) {
        const qint64 waited = qint64(run.attempts.at(i).value(u"client_wait_ms"_s).toDouble());
        QVERIFY2(waited >= 1000 - clienttest::kEarlyMs && waited <= 1000 + clienttest::kLateMs,
            qPrintable(u"attempt %1 waited %2 ms after Retry-After: 1"_s.arg(i + 1).arg(waited)));
    }
    const QJsonObject proxy = run.summary.value(u"proxy"_s).toObject();
    QVERIFY(proxy.value(u"environment"_s).toArray().contains(u"HTTPS_PROXY"_s));
    QVERIFY(!proxy.contains(u"problem"_s));
}

void TestClientProxy::curlRetry()
{
    const int before = upstreamRequests();
    const ProxyRun run = observe({ u"curl"_s, u"-sS"_s, u"--retry"_s, u"3"_s, u"https://api.test/v1/curl"_s });
    checkTwoRetriesAfterRetryAfter(run, u"https://api.test/v1/curl"_s);
    QTRY_COMPARE(upstreamRequests() - before, 3); // the faults were layered on real answers: all three went upstream
}

void TestClientProxy::requestsWithUrllib3Retry()
{
    const int before = upstreamRequests();
    const ProxyRun run = observe({ u"/usr/bin/python3"_s, u"-c"_s, uR"py(import requests
from urllib3.util.retry import Retry
s = requests.Session()
s.mount("https://", requests.adapters.HTTPAdapter(max_retries=Retry(total=3, status_forcelist=[503], backoff_factor=0)))
r = s.get("https://api.test/v1/requests")
raise SystemExit(0 if r.status_code == 200 else 1))py"_s });
    checkTwoRetriesAfterRetryAfter(run, u"https://api.test/v1/requests"_s);
    QTRY_COMPARE(upstreamRequests() - before, 3);
}

void TestClientProxy::nodeSdks_data()
{
    QTest::addColumn<QString>("sdk");
    QTest::addColumn<QString>("url");
    QTest::addRow("openai") << u"openai"_s << u"https://api.openai.com/v1/models/gpt-retrylab"_s;
    QTest::addRow("aws-sdk s3") << u"s3"_s << u"https://s3.us-east-1.amazonaws.com/retrylab/case.json?x-id=GetObject"_s;
}

void TestClientProxy::nodeSdks()
{
    QFETCH(QString, sdk);
    QFETCH(QString, url);
    const QString script = QStringLiteral(RETRYLAB_NPM_CLIENTS "/proxied-sdk-client.mjs");
    QVERIFY2(QFile::exists(script), "the npm_clients fixture copies tests/clients/node there");
    const int before = upstreamRequests();
    const ProxyRun run = observe({ u"node"_s, script, sdk });
    QVERIFY2(run.exit == 0, run.err.constData());
    QCOMPARE(run.attempts.size(), 3);
    QCOMPARE(run.attempts.last().value(u"status"_s).toInt(), 200);
    QCOMPARE(run.attempts.first().value(u"url"_s).toString(), url);
    // The SDKs send their own attempt headers: grouped exactly, not by the fingerprint heuristic.
    for (const QJsonObject& a : run.attempts) {
        QCOMPARE(a.value(u"run"_s).toInt(), run.attempts.first().value(u"run"_s).toInt());
        QVERIFY2(!a.value(u"heuristic"_s).toBool(), qPrintable(a.value(u"rule"_s).toString()));
    }
    // Both honour Retry-After: 1 (openai: retry-after; the AWS SDK: at least its own backoff).
    for (int i = 1; i < 3; ++i)
        QVERIFY(run.attempts.at(i).value(u"client_wait_ms"_s).toDouble() >= 1000 - clienttest::kEarlyMs);
    QTRY_COMPARE(upstreamRequests() - before, 3);
}

void TestClientProxy::wrongCaFailsAndIsReported()
{
    // curl told to trust only the upstream's certificate refuses the leaf the lab minted.
    const ProxyRun run = observe({ u"curl"_s, u"-sS"_s, u"--cacert"_s, m_cert, u"https://api.test/v1/pinned"_s });
    QCOMPARE(run.exit, 60);
    QCOMPARE(run.attempts.size(), 0);
    const QJsonObject proxy = run.summary.value(u"proxy"_s).toObject();
    QVERIFY2(proxy.value(u"problem"_s).toString().contains(u"refused the Retrylab CA"_s),
        QJsonDocument(proxy).toJson().constData());
    const QJsonObject host = proxy.value(u"hosts"_s).toArray().first().toObject();
    QCOMPARE(host.value(u"failures"_s).toInt(), 1);
    QVERIFY(host.value(u"last_problem"_s).toString().contains(u"TLS handshake with the client failed"_s));
}

void TestClientProxy::noRequestThroughTheProxyIsSaid()
{
    const ProxyRun run = observe({ u"/bin/sh"_s, u"-c"_s, u"test -n \"$HTTPS_PROXY\" && test -s \"$SSL_CERT_FILE\""_s });
    QCOMPARE(run.exit, 0); // the variables were set and the bundle written
    const QJsonObject proxy = run.summary.value(u"proxy"_s).toObject();
    QVERIFY(proxy.value(u"problem"_s).toString().contains(u"made no request through the proxy"_s));
    const QJsonArray environment = proxy.value(u"environment"_s).toArray();
    for (const QString& name : { u"HTTP_PROXY"_s, u"https_proxy"_s, u"SSL_CERT_FILE"_s, u"CURL_CA_BUNDLE"_s,
             u"REQUESTS_CA_BUNDLE"_s, u"NODE_EXTRA_CA_CERTS"_s, u"AWS_CA_BUNDLE"_s, u"NODE_OPTIONS"_s })
        QVERIFY2(environment.contains(name), qPrintable(name));
}

QTEST_GUILESS_MAIN(TestClientProxy)
#include "tst_client_proxy.moc"
