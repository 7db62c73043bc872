// SPDX-License-Identifier: GPL-3.0-or-later
// bench_proxy [--requests N] [--concurrency C] [--retrylab PATH] (issue 12 §5): what the lab as a reverse
// proxy costs. The upstream is nginx on loopback (started here with a throw-away config); the proxy is a
// separate `retrylab serve --upstream URL` process (pure observation: every request forwarded). The same
// client — C keep-alive connections in this process, each sending its next GET when the previous answer
// is complete — runs straight against nginx, then through the lab. Prints per-request latency p50/p99,
// throughput, the latency the proxy adds (goal ≤ 1 ms at p50), the throughput ratio (goal ≥ 0.5) and the CPU
// time nginx and the lab spend per request.
// The same GETs through nginx as a reverse proxy (proxy_pass, kept upstream connections) give a peer measured in
// the same run. Then uploads (--upload-mib M, default 512): one POST of M MiB straight to a sink in this process (plain
// sockets in a thread: it reads the Content-Length body and answers 200), then through the lab, which streams
// it; prints MiB/s both ways, their ratio and the lab's peak RSS (VmHWM).
#include "benchprocess.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using BenchProcess::cpuMicros;
using BenchProcess::freePort;
using BenchProcess::startNginx;
using BenchProcess::waitForPort;

namespace {

struct Figures
{
    double p50Ms = 0;
    double p99Ms = 0;
    double perSecond = 0;
    int failed = 0;
};

// C connections, REQUESTS GETs in all; per-request latency from write to the last byte of the answer.
Figures measure(quint16 port, int requests, int concurrency)
{
    struct Connection
    {
        QTcpSocket socket;
        QByteArray buffer;
        qint64 sentNs = 0;
    };
    std::vector<std::unique_ptr<Connection>> connections;
    std::vector<double> latencies;
    latencies.reserve(size_t(requests));
    int sent = 0;
    int finished = 0;
    int failed = 0;
    QElapsedTimer clock;
    const QByteArray request = "GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench_proxy\r\n\r\n";
    auto sendNext = [&](Connection& c) {
        if (sent >= requests)
            return;
        ++sent;
        c.sentNs = clock.nsecsElapsed();
        c.socket.write(request);
    };
    clock.start();
    for (int i = 0; i < concurrency; ++i) {
        auto c = std::make_unique<Connection>();
        Connection* raw = c.get();
        QObject::connect(&raw->socket, &QTcpSocket::readyRead, &raw->socket, [&, raw] {
            raw->buffer += raw->socket.readAll();
            for (;;) {
                const qsizetype end = raw->buffer.indexOf("\r\n\r\n");
                if (end < 0)
                    return;
                const qsizetype at = raw->buffer.indexOf("Content-Length: ");
                const qsizetype length = at >= 0 && at < end ? raw->buffer.mid(at + 16, raw->buffer.indexOf('\r', at) - at - 16).toLongLong() : 0;
                if (raw->buffer.size() < end + 4 + length)
                    return;
                failed += raw->buffer.startsWith("HTTP/1.1 200") ? 0 : 1;
                raw->buffer.remove(0, end + 4 + length);
                latencies.push_back(double(clock.nsecsElapsed() - raw->sentNs) / 1e6);
                ++finished;
                sendNext(*raw);
            }
        });
        QObject::connect(&raw->socket, &QTcpSocket::connected, &raw->socket, [&, raw] { sendNext(*raw); });
        raw->socket.connectToHost(QHostAddress::LocalHost, port);
        connections.push_back(std::move(c));
    }
    QElapsedTimer wall;
    wall.start();
    while (finished < requests && wall.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50); // a benchmark, not the app
    const double seconds = double(wall.nsecsElapsed()) / 1e9;
    std::sort(latencies.begin(), latencies.end());
    Figures f;
    if (!latencies.empty()) {
        f.p50Ms = latencies[latencies.size() / 2];
        f.p99Ms = latencies[std::min(latencies.size() - 1, latencies.size() * 99 / 100)];
    }
    f.perSecond = double(finished) / seconds;
    f.failed = failed + (requests - finished);
    return f;
}


// The upload sink: accepts on 127.0.0.1, reads each request's Content-Length body, answers 200; until STOP.
class UploadSink
{
public:
    quint16 start()
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        if (::bind(m_listen, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(m_listen, 16) != 0)
            return 0;
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&address), &length);
        m_thread = std::thread([this] { serve(); });
        return ntohs(address.sin_port);
    }
    ~UploadSink()
    {
        ::shutdown(m_listen, SHUT_RDWR);
        ::close(m_listen);
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    void serve()
    {
        for (;;) {
            const int fd = ::accept(m_listen, nullptr, nullptr);
            if (fd < 0)
                return;
            std::thread([fd] { answer(fd); }).detach();
        }
    }
    static void answer(int fd)
    {
        std::vector<char> buffer(1 << 20);
        QByteArray head;
        for (;;) { // one request after another on the connection
            qint64 left = -1;
            while (left < 0) {
                const qsizetype end = head.indexOf("\r\n\r\n");
                if (end >= 0) {
                    const qsizetype at = head.toLower().indexOf("content-length:");
                    left = at < 0 ? 0 : head.mid(at + 15, head.indexOf('\r', at) - at - 15).trimmed().toLongLong();
                    left -= head.size() - end - 4;
                    head.clear();
                    break;
                }
                const ssize_t n = ::read(fd, buffer.data(), buffer.size());
                if (n <= 0) {
                    ::close(fd);
                    return;
                }
                head.append(buffer.data(), n);
            }
            while (left > 0) {
                const ssize_t n = ::read(fd, buffer.data(), size_t(std::min<qint64>(left, qint64(buffer.size()))));
                if (n <= 0) {
                    ::close(fd);
                    return;
                }
                left -= n;
            }
            static const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
            if (::write(fd, ok, sizeof ok - 1) < 0) {
                ::close(fd);
                return;
            }
        }
    }
    int m_listen = -1;
    std::thread m_thread;
};

// One POST of MIB MiB to PORT (1 MiB writes), until its answer's head is in; MiB/s, or 0 when it failed.
double upload(quint16 port, qint64 mib)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return 0;
    }
    QElapsedTimer clock;
    clock.start();
    const QByteArray head = "POST /upload HTTP/1.1\r\nHost: bench\r\nContent-Length: " + QByteArray::number(mib << 20) + "\r\n\r\n";
    bool ok = ::write(fd, head.constData(), size_t(head.size())) == head.size();
    std::vector<char> piece(1 << 20, 'u');
    for (qint64 i = 0; ok && i < mib; ++i) {
        size_t done = 0;
        while (ok && done < piece.size()) {
            const ssize_t n = ::write(fd, piece.data() + done, piece.size() - done);
            ok = n > 0;
            done += size_t(std::max<ssize_t>(n, 0));
        }
    }
    char answer[256] = {};
    ok = ok && ::read(fd, answer, sizeof answer - 1) > 0 && std::strncmp(answer, "HTTP/1.1 200", 12) == 0;
    ::close(fd);
    return ok ? double(mib) / (double(std::max<qint64>(clock.elapsed(), 1)) / 1000.0) : 0;
}

long peakRssKiB(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    }
    return -1;
}

void printFigures(const char* name, const Figures& f)
{
    std::printf("  %-12s p50 %7.3f ms  p99 %7.3f ms  %9.0f req/s  failed %d\n", name, f.p50Ms, f.p99Ms, f.perSecond, f.failed);
}

} // namespace

// The GET figures: straight to nginx, through the lab, and through a peer proxy (nginx's proxy_pass with kept
// upstream connections) in front of the same nginx; the failed requests (-1: nginx is missing).
static int gets(const QCommandLineParser& parser, int requests, int concurrency)
{
    const QString nginx = BenchProcess::findNginx();
    if (nginx.isEmpty()) {
        std::fprintf(stderr, "bench_proxy: nginx is needed as the upstream (apt-get install nginx-light)\n");
        return -1;
    }
    QTemporaryDir dir;
    const quint16 upstreamPort = freePort();
    const quint16 peerPort = freePort();
    const quint16 labPort = freePort();
    QProcess upstream;
    QProcess peer;
    QProcess lab;
    const bool nginxStarted
        = startNginx(upstream, nginx, dir, QStringLiteral("origin"),
              QStringLiteral("server { listen 127.0.0.1:%1; location / { return 200 \"ok\\n\"; } }").arg(upstreamPort))
        && startNginx(peer, nginx, dir, QStringLiteral("peer"),
            QStringLiteral("upstream origin { server 127.0.0.1:%1; keepalive 64; }\n"
                           "  server { listen 127.0.0.1:%2; location / { proxy_pass http://origin;\n"
                           "    proxy_http_version 1.1; proxy_set_header Connection \"\"; } }")
                .arg(upstreamPort)
                .arg(peerPort));
    lab.setStandardOutputFile(QProcess::nullDevice());
    lab.start(parser.value(QStringLiteral("retrylab")),
        { QStringLiteral("serve"), QStringLiteral("--port"), QString::number(labPort), QStringLiteral("--upstream"),
            QStringLiteral("http://127.0.0.1:%1").arg(upstreamPort) });
    if (!nginxStarted || !waitForPort(upstreamPort) || !waitForPort(peerPort) || !lab.waitForStarted(5000) || !waitForPort(labPort)) {
        std::fprintf(stderr, "bench_proxy: could not start nginx or retrylab serve --upstream\n");
        return 1;
    }
    measure(upstreamPort, 500, concurrency); // warm up all three
    measure(peerPort, 500, concurrency);
    measure(labPort, 500, concurrency);
    const double originBefore = cpuMicros(upstream.processId());
    const Figures direct = measure(upstreamPort, requests, concurrency);
    const double originCpu = cpuMicros(upstream.processId()) - originBefore;
    const double labBefore = cpuMicros(lab.processId());
    const Figures proxied = measure(labPort, requests, concurrency);
    const double labCpu = cpuMicros(lab.processId()) - labBefore;
    const double peerBefore = cpuMicros(peer.processId());
    const Figures viaPeer = measure(peerPort, requests, concurrency);
    const double peerCpu = cpuMicros(peer.processId()) - peerBefore;
    std::printf("bench_proxy: %d GETs, concurrency %d, upstream nginx, proxy retrylab serve --upstream, peer nginx proxy_pass\n",
        requests, concurrency);
    printFigures("direct", direct);
    printFigures("proxied", proxied);
    printFigures("peer proxy", viaPeer);
    std::printf("  added latency: p50 %.3f ms (goal <= 1), p99 %.3f ms; throughput proxied/direct %.2f (goal >= 0.5)\n",
        proxied.p50Ms - direct.p50Ms, proxied.p99Ms - direct.p99Ms, proxied.perSecond / direct.perSecond);
    std::printf("  peer proxy:    p50 %.3f ms added, p99 %.3f ms; throughput peer/direct %.2f; retrylab/peer %.2f\n",
        viaPeer.p50Ms - direct.p50Ms, viaPeer.p99Ms - direct.p99Ms, viaPeer.perSecond / direct.perSecond,
        proxied.perSecond / viaPeer.perSecond);
    // With fewer cores than client + proxy + upstream the ratios are shares of CPU; the CPU each server spends
    // per request says what the proxy costs whatever the sharing was.
    std::printf("  CPU per request: origin nginx %.1f us, retrylab serve %.1f us, peer nginx proxy %.1f us; %d cores\n",
        originCpu / requests, labCpu / requests, peerCpu / requests, QThread::idealThreadCount());
    for (QProcess* p : { &lab, &peer, &upstream }) {
        p->terminate();
        p->waitForFinished(5000);
    }
    return direct.failed + proxied.failed + viaPeer.failed;
}

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("requests"), QStringLiteral("GETs per measurement"), QStringLiteral("N"), QStringLiteral("5000") });
    parser.addOption({ QStringLiteral("concurrency"), QStringLiteral("connections at once"), QStringLiteral("C"), QStringLiteral("20") });
    parser.addOption({ QStringLiteral("retrylab"), QStringLiteral("the retrylab binary"), QStringLiteral("PATH"),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../../app/retrylab") });
    parser.addOption({ QStringLiteral("upload-mib"), QStringLiteral("MiB per upload (0: none)"), QStringLiteral("M"), QStringLiteral("512") });
    parser.process(app);
    const int requests = std::max(1, parser.value(QStringLiteral("requests")).toInt());
    const int concurrency = std::max(1, parser.value(QStringLiteral("concurrency")).toInt());

    const int getsFailed = gets(parser, requests, concurrency);
    const qint64 uploadMib = std::max(0, parser.value(QStringLiteral("upload-mib")).toInt());
    bool uploadsOk = true;
    if (uploadMib > 0) {
        UploadSink sink;
        const quint16 sinkPort = sink.start();
        QProcess uploadLab; // a lab in front of the sink
        const quint16 uploadLabPort = freePort();
        uploadLab.setStandardOutputFile(QProcess::nullDevice());
        uploadLab.start(parser.value(QStringLiteral("retrylab")),
            { QStringLiteral("serve"), QStringLiteral("--port"), QString::number(uploadLabPort), QStringLiteral("--upstream"),
                QStringLiteral("http://127.0.0.1:%1").arg(sinkPort) });
        if (sinkPort == 0 || !uploadLab.waitForStarted(5000) || !waitForPort(uploadLabPort)) {
            std::fprintf(stderr, "bench_proxy: could not start the upload sink or its lab\n");
            return 1;
        }
        const long rssBefore = peakRssKiB(uploadLab.processId());
        const double straight = upload(sinkPort, uploadMib);
        const double through = upload(uploadLabPort, uploadMib);
        std::printf("  upload %lld MiB: direct %.0f MiB/s, proxied %.0f MiB/s (ratio %.2f); lab peak RSS %ld KiB (%ld before)\n",
            uploadMib, straight, through, straight > 0 ? through / straight : 0.0, peakRssKiB(uploadLab.processId()),
            rssBefore);
        uploadsOk = straight > 0 && through > 0;
        uploadLab.terminate();
        uploadLab.waitForFinished(5000);
    }
    if (getsFailed < 0)
        return 2; // nginx is missing: the uploads alone
    return getsFailed == 0 && uploadsOk ? 0 : 1;
}
