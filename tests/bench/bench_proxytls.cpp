// SPDX-License-Identifier: GPL-3.0-or-later
// bench_proxytls [--requests N] [--concurrency C] [--handshakes H] [--rounds R] [--retrylab PATH] (issue 31 §5):
// what the lab as a TLS-intercepting forward proxy costs. The origin is nginx serving TLS for api.test on
// loopback with a certificate made here (openssl req, EC P-256 like the lab's leaves). Three ways to it, with
// curl as the client (C curl processes, each sending its share of N GETs one after another on one kept
// connection):
//   direct   client → nginx TLS
//   peer     client → nginx TLS, proxy_pass https (verified, kept upstream connections) → nginx TLS
//   lab      client → CONNECT → `retrylab serve --proxy` TLS with a minted leaf → nginx TLS (--map, --upstream-ca)
// The lab runs as a child with RETRYLAB_DATA_DIR in a temporary folder; the client trusts its CA there.
// Prints throughput, the lab/peer ratio (goal ≥ 0.5), the p50 time per request without the handshakes (curl's
// time_total − time_appconnect) and what the lab adds to it beyond direct (goal ≤ 1 ms), the CPU per request of
// the proxy, the origin and the curl clients (with fewer cores than processes the ratios are shares of CPU), the
// p50 with one client alone (no queueing behind the others), and full TLS handshakes per second (H GETs, each on
// a new connection: Connection: close, no session reuse) with the lab's leaf cache warm. R interleaved rounds;
// each way's best round is reported, as the machine may be shared.
#include "benchprocess.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include <sys/resource.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

using BenchProcess::cpuMicros;
using BenchProcess::freePort;
using BenchProcess::startNginx;
using BenchProcess::waitForPort;

namespace {

// The CPU time the children this process has waited for (the curl clients) have used, in microseconds.
double childrenCpuMicros()
{
    rusage usage {};
    ::getrusage(RUSAGE_CHILDREN, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// How a client reaches api.test one way: the URL and the curl options (name resolution or proxy, trust).
struct Route
{
    const char* name;
    QString url;
    QStringList curlOptions;
    QProcess* proxy; // nullptr straight to the origin
    QProcess* origin;
};

struct Figures
{
    double perSecond = 0;
    double p50Ms = 0; // per request, handshakes taken out
    double p99Ms = 0;
    double handshakeP50Ms = 0; // time_appconnect − time_connect of the new connections (CONNECT included)
    int newConnections = 0;
    int failed = 0;
    double proxyCpuMicros = 0; // per request
    double originCpuMicros = 0;
    double clientCpuMicros = 0; // the curl processes'
};

double percentile(std::vector<double>& values, int pct)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, values.size() * size_t(pct) / 100)];
}

// C curl processes, REQUESTS GETs in all; with FRESH each on a new connection, without session reuse.
Figures measure(const Route& route, int requests, int concurrency, bool fresh, const QTemporaryDir& dir)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& name : { u"http_proxy"_s, u"https_proxy"_s, u"HTTPS_PROXY"_s, u"ALL_PROXY"_s, u"all_proxy"_s,
             u"NO_PROXY"_s, u"no_proxy"_s, u"CURL_HOME"_s })
        env.remove(name);
    std::vector<std::unique_ptr<QProcess>> clients;
    const double proxyBefore = route.proxy ? cpuMicros(route.proxy->processId()) : 0;
    const double originBefore = cpuMicros(route.origin->processId());
    const double clientBefore = childrenCpuMicros();
    QElapsedTimer wall;
    wall.start();
    for (int i = 0; i < concurrency; ++i) {
        const int share = requests / concurrency + (i < requests % concurrency ? 1 : 0);
        if (share == 0)
            continue;
        QStringList args { u"-q"_s, u"-sS"_s, u"--http1.1"_s, u"-w"_s,
            u"%{http_code} %{time_connect} %{time_appconnect} %{time_total}\\n"_s };
        args << route.curlOptions;
        if (fresh)
            args << u"--no-sessionid"_s << u"-H"_s << u"Connection: close"_s;
        for (int k = 0; k < share; ++k)
            args << u"-o"_s << u"/dev/null"_s << route.url;
        auto client = std::make_unique<QProcess>();
        client->setProcessEnvironment(env);
        client->setStandardOutputFile(dir.filePath(u"curl-%1.out"_s.arg(clients.size())));
        client->setStandardErrorFile(dir.filePath(u"curl-%1.err"_s.arg(clients.size())));
        client->start(u"curl"_s, args);
        clients.push_back(std::move(client));
    }
    for (auto& client : clients)
        client->waitForFinished(300000);
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    Figures f;
    f.proxyCpuMicros = route.proxy ? (cpuMicros(route.proxy->processId()) - proxyBefore) / requests : 0;
    f.originCpuMicros = (cpuMicros(route.origin->processId()) - originBefore) / requests;
    f.clientCpuMicros = (childrenCpuMicros() - clientBefore) / requests;
    std::vector<double> perRequest;
    std::vector<double> handshakes;
    int done = 0;
    for (size_t i = 0; i < clients.size(); ++i) {
        QFile out(dir.filePath(u"curl-%1.out"_s.arg(i)));
        if (!out.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray& line : out.readAll().split('\n')) {
            const QList<QByteArray> v = line.split(' ');
            if (v.size() != 4)
                continue;
            ++done;
            if (v.at(0) != "200" && f.failed++ == 0)
                std::fprintf(stderr, "bench_proxytls: %s: a GET answered %s (curl's 000: no answer)\n", route.name,
                    v.at(0).constData());
            const double connect = v.at(1).toDouble() * 1000;
            const double appConnect = v.at(2).toDouble() * 1000;
            const double total = v.at(3).toDouble() * 1000;
            perRequest.push_back(total - appConnect);
            if (appConnect > 0) {
                ++f.newConnections;
                handshakes.push_back(appConnect - connect);
            }
        }
    }
    if (done < requests)
        std::fprintf(stderr, "bench_proxytls: %s: %d GETs have no timing line (curl stopped)\n", route.name, requests - done);
    f.failed += requests - done;
    for (size_t i = 0; f.failed > 0 && i < clients.size(); ++i) {
        QFile errors(dir.filePath(u"curl-%1.err"_s.arg(i)));
        if (errors.open(QIODevice::ReadOnly) && errors.size() > 0) {
            std::fprintf(stderr, "bench_proxytls: %s: curl said: %s", route.name, errors.readLine().constData());
            break;
        }
    }
    f.perSecond = double(done - f.failed) / seconds;
    f.p50Ms = percentile(perRequest, 50);
    f.p99Ms = percentile(perRequest, 99);
    f.handshakeP50Ms = percentile(handshakes, 50);
    return f;
}

// `retrylab serve --proxy` on PORT, api.test mapped to the origin at ORIGIN_PORT (checked against CERT); its data
// folder (and so its CA) DIR/data, its standard error DIR/lab-PORT.err.
bool startLab(QProcess& lab, const QString& retrylab, const QTemporaryDir& dir, quint16 port, quint16 originPort, const QString& cert)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"RETRYLAB_DATA_DIR"_s, dir.filePath(u"data"_s));
    lab.setProcessEnvironment(env);
    lab.setStandardOutputFile(QProcess::nullDevice());
    lab.setStandardErrorFile(dir.filePath(u"lab-%1.err"_s.arg(port)));
    lab.start(retrylab,
        { u"serve"_s, u"--proxy"_s, u"--port"_s, QString::number(port), u"--map"_s, u"api.test=127.0.0.1:%1"_s.arg(originPort),
            u"--upstream-ca"_s, cert });
    return lab.waitForStarted(5000) && waitForPort(port);
}

// What the labs said on standard error, if anything.
void printLabErrors(const QTemporaryDir& dir)
{
    const QStringList names = QDir(dir.path()).entryList({ u"lab-*.err"_s }, QDir::Files);
    for (const QString& name : names) {
        QFile errors(dir.filePath(name));
        if (errors.open(QIODevice::ReadOnly) && errors.size() > 0)
            std::fprintf(stderr, "bench_proxytls: retrylab serve --proxy said:\n%s\n", errors.readAll().right(2000).constData());
    }
}

// A self-signed certificate for api.test (EC P-256, as the lab's leaves), DIR/api-cert.pem and DIR/api-key.pem.
bool makeCertificate(const QTemporaryDir& dir)
{
    QProcess openssl;
    openssl.setProcessChannelMode(QProcess::MergedChannels);
    openssl.start(u"openssl"_s,
        { u"req"_s, u"-x509"_s, u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:prime256v1"_s, u"-nodes"_s,
            u"-keyout"_s, dir.filePath(u"api-key.pem"_s), u"-out"_s, dir.filePath(u"api-cert.pem"_s), u"-days"_s, u"2"_s,
            u"-subj"_s, u"/CN=api.test"_s, u"-addext"_s, u"subjectAltName=DNS:api.test"_s });
    return openssl.waitForFinished(30000) && openssl.exitStatus() == QProcess::NormalExit && openssl.exitCode() == 0;
}

void printFigures(const char* name, const Figures& f)
{
    std::printf("  %-7s %6.0f req/s  per request p50 %6.3f ms  p99 %6.3f ms  CPU us/req: proxy %5.0f origin %4.0f curl %5.0f"
                "  connections %d  failed %d\n",
        name, f.perSecond, f.p50Ms, f.p99Ms, f.proxyCpuMicros, f.originCpuMicros, f.clientCpuMicros, f.newConnections,
        f.failed);
}

void printHandshakes(const char* name, const Figures& f, int handshakes)
{
    std::printf("  %-7s %6.0f handshakes/s  p50 %6.3f ms  CPU us/handshake: proxy %5.0f origin %4.0f curl %5.0f"
                "  new connections %d of %d  failed %d\n",
        name, f.perSecond, f.handshakeP50Ms, f.proxyCpuMicros, f.originCpuMicros, f.clientCpuMicros, f.newConnections,
        handshakes, f.failed);
}

// Of the rounds of one way, the one with the highest throughput.
Figures best(const std::vector<Figures>& rounds)
{
    return *std::max_element(rounds.begin(), rounds.end(), [](const Figures& a, const Figures& b) { return a.perSecond < b.perSecond; });
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ u"requests"_s, u"GETs per measurement"_s, u"N"_s, u"2000"_s });
    parser.addOption({ u"concurrency"_s, u"curl processes at once"_s, u"C"_s, u"20"_s });
    parser.addOption({ u"handshakes"_s, u"GETs on new connections per handshake measurement"_s, u"H"_s, u"500"_s });
    parser.addOption({ u"rounds"_s, u"interleaved rounds; the best of each way is reported"_s, u"R"_s, u"3"_s });
    parser.addOption({ u"retrylab"_s, u"the retrylab binary"_s, u"PATH"_s,
        QCoreApplication::applicationDirPath() + u"/../../app/retrylab"_s });
    parser.process(app);
    const int requests = std::max(1, parser.value(u"requests"_s).toInt());
    const int concurrency = std::max(1, parser.value(u"concurrency"_s).toInt());
    const int handshakeCount = std::max(1, parser.value(u"handshakes"_s).toInt());
    const int rounds = std::max(1, parser.value(u"rounds"_s).toInt());

    const QString nginx = BenchProcess::findNginx();
    if (nginx.isEmpty() || QStandardPaths::findExecutable(u"curl"_s).isEmpty()) {
        std::fprintf(stderr, "bench_proxytls: nginx and curl are needed (apt-get install nginx-light curl)\n");
        return 2;
    }
    QTemporaryDir dir;
    if (!makeCertificate(dir)) {
        std::fprintf(stderr, "bench_proxytls: openssl req could not make the api.test certificate\n");
        return 1;
    }
    const QString cert = dir.filePath(u"api-cert.pem"_s);
    const quint16 originPort = freePort();
    const quint16 peerPort = freePort();
    const quint16 labPort = freePort();
    QProcess origin;
    QProcess peer;
    QProcess lab;
    const QString tls = u"ssl_certificate %1/api-cert.pem; ssl_certificate_key %1/api-key.pem;"_s.arg(dir.path());
    const bool nginxStarted
        = startNginx(origin, nginx, dir, u"origin"_s,
              u"server { listen 127.0.0.1:%1 ssl; server_name api.test; location / { return 200 \"ok\\n\"; } }"_s.arg(originPort), tls)
        && startNginx(peer, nginx, dir, u"peer"_s,
            u"upstream origin { server 127.0.0.1:%1; keepalive 64; }\n"
            "  server { listen 127.0.0.1:%2 ssl; server_name api.test; location / { proxy_pass https://origin;\n"
            "    proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_set_header Host api.test;\n"
            "    proxy_ssl_server_name on; proxy_ssl_name api.test; proxy_ssl_verify on;\n"
            "    proxy_ssl_trusted_certificate %3; proxy_ssl_session_reuse on; } }"_s.arg(originPort)
                .arg(peerPort)
                .arg(cert),
            tls);
    const QString retrylab = parser.value(u"retrylab"_s);
    if (!nginxStarted || !waitForPort(originPort) || !waitForPort(peerPort)
        || !startLab(lab, retrylab, dir, labPort, originPort, cert)) {
        std::fprintf(stderr, "bench_proxytls: could not start nginx or retrylab serve --proxy\n");
        return 1;
    }
    const QString labCa = dir.filePath(u"data/ca/ca-cert.pem"_s);
    const Route direct { "direct", u"https://api.test:%1/x"_s.arg(originPort),
        { u"--resolve"_s, u"api.test:%1:127.0.0.1"_s.arg(originPort), u"--cacert"_s, cert }, nullptr, &origin };
    const Route viaPeer { "peer", u"https://api.test:%1/x"_s.arg(peerPort),
        { u"--resolve"_s, u"api.test:%1:127.0.0.1"_s.arg(peerPort), u"--cacert"_s, cert }, &peer, &origin };
    const Route viaLab { "lab", u"https://api.test/x"_s,
        { u"-x"_s, u"http://127.0.0.1:%1"_s.arg(labPort), u"--cacert"_s, labCa }, &lab, &origin };
    const std::vector<const Route*> routes { &direct, &viaPeer, &viaLab };

    // Warm up: the lab mints api.test's leaf and both proxies open their upstream connections.
    for (const Route* route : routes) {
        const Figures warm = measure(*route, std::min(requests, 400), concurrency, false, dir);
        if (warm.failed > 0) {
            std::fprintf(stderr, "bench_proxytls: %s: %d of the warm-up GETs failed\n", route->name, warm.failed);
            return 1;
        }
    }
    std::vector<std::vector<Figures>> kept(routes.size());
    std::vector<std::vector<Figures>> alone(routes.size());
    std::vector<std::vector<Figures>> fresh(routes.size());
    const int aloneRequests = std::min(requests, 300);
    for (int r = 0; r < rounds; ++r) {
        for (size_t i = 0; i < routes.size(); ++i)
            kept[i].push_back(measure(*routes[i], requests, concurrency, false, dir));
        for (size_t i = 0; i < routes.size(); ++i)
            alone[i].push_back(measure(*routes[i], aloneRequests, 1, false, dir));
        for (size_t i = 0; i < 2; ++i)
            fresh[i].push_back(measure(*routes[i], handshakeCount, concurrency, true, dir));
        // The lab's handshakes against a lab of their own, its leaf minted first, so that no round depends on
        // how many tunnels the earlier ones opened (a lab keeps its intercepted tunnels' objects until it stops,
        // and refuses new connections past 1000).
        QProcess handshakeLab;
        const quint16 port = freePort();
        if (!startLab(handshakeLab, retrylab, dir, port, originPort, cert)) {
            std::fprintf(stderr, "bench_proxytls: could not start retrylab serve --proxy\n");
            return 1;
        }
        const Route viaNewLab { "lab", viaLab.url, { u"-x"_s, u"http://127.0.0.1:%1"_s.arg(port), u"--cacert"_s, labCa },
            &handshakeLab, &origin };
        measure(viaNewLab, concurrency, concurrency, false, dir);
        fresh[2].push_back(measure(viaNewLab, handshakeCount, concurrency, true, dir));
        handshakeLab.terminate();
        handshakeLab.waitForFinished(5000);
    }
    const Figures a = best(kept[0]);
    const Figures b = best(kept[1]);
    const Figures c = best(kept[2]);
    std::printf("bench_proxytls: %d GETs, concurrency %d (curl processes, one kept connection each), best of %d rounds;\n"
                "  origin nginx TLS, peer nginx TLS proxy_pass https, lab retrylab serve --proxy (CONNECT, minted leaf)\n",
        requests, concurrency, rounds);
    printFigures("direct", a);
    printFigures("peer", b);
    printFigures("lab", c);
    std::printf("  throughput lab/peer %.2f (goal >= 0.5), lab/direct %.2f, peer/direct %.2f\n", c.perSecond / b.perSecond,
        c.perSecond / a.perSecond, b.perSecond / a.perSecond);
    std::printf("  added p50 per request beyond direct (handshakes out): lab %.3f ms (goal <= 1), peer %.3f ms\n",
        c.p50Ms - a.p50Ms, b.p50Ms - a.p50Ms);
    std::printf("  added p99 per request beyond direct: lab %.3f ms, peer %.3f ms\n", c.p99Ms - a.p99Ms, b.p99Ms - a.p99Ms);
    // One client alone: the time the proxy adds without the queueing behind C clients on few cores.
    const Figures a1 = best(alone[0]);
    const Figures b1 = best(alone[1]);
    const Figures c1 = best(alone[2]);
    std::printf("  concurrency 1 (%d GETs on one connection): p50 direct %.3f ms, peer %.3f ms, lab %.3f ms;"
                " added p50 lab %.3f ms (goal <= 1), peer %.3f ms\n",
        aloneRequests, a1.p50Ms, b1.p50Ms, c1.p50Ms, c1.p50Ms - a1.p50Ms, b1.p50Ms - a1.p50Ms);
    std::printf("bench_proxytls: %d GETs each on a new connection (full TLS handshake, no session reuse), concurrency %d,"
                " lab leaf cache warm\n",
        handshakeCount, concurrency);
    const Figures ha = best(fresh[0]);
    const Figures hb = best(fresh[1]);
    const Figures hc = best(fresh[2]);
    printHandshakes("direct", ha, handshakeCount);
    printHandshakes("peer", hb, handshakeCount);
    printHandshakes("lab", hc, handshakeCount);
    std::printf("  handshakes/s lab/peer %.2f, lab/direct %.2f; %d cores\n", hc.perSecond / hb.perSecond,
        hc.perSecond / ha.perSecond, QThread::idealThreadCount());
    if (lab.state() != QProcess::Running)
        std::fprintf(stderr, "bench_proxytls: retrylab serve --proxy stopped (exit %d) during the run\n", lab.exitCode());
    printLabErrors(dir);
    for (QProcess* p : { &lab, &peer, &origin }) {
        p->terminate();
        p->waitForFinished(5000);
    }
    int failed = 0;
    for (const std::vector<std::vector<Figures>>* way : { &kept, &alone, &fresh }) {
        for (size_t i = 0; i < way->size(); ++i) {
            for (const Figures& f : way->at(i)) {
                if (f.failed > 0)
                    std::fprintf(stderr, "bench_proxytls: %s: %d GETs failed in a round\n", routes[i]->name, f.failed);
                failed += f.failed;
            }
        }
    }
    return failed == 0 ? 0 : 1;
}
