// SPDX-License-Identifier: GPL-3.0-or-later
// bench_throughput [--requests N] [--concurrency C[,C…]] [--clients LIST] [--retrylab PATH]: N GETs at each concurrency C
// against nginx on loopback (started here with a throw-away config; the fault lab in a separate
// `retrylab serve` process when nginx is missing), by four clients measured in the same run:
//   curl      curl --parallel --parallel-max C (Debian's curl), the peer the goal is stated against
//   retrylab  `retrylab run --repeat N --concurrency C --quiet`, the whole command line
//   engine    RetryEngine in this process
//   bare      bare QNetworkAccessManager in this process, C managers with one request each in flight
//             (what the engine's wire slots do; one manager alone queues beyond 6 per host)
//   honest    the same, each request sent the engine's way (AttemptTransport::honestRequest and a
//             NonRewindableBody, which stop Qt's silent re-sends): engine/honest is the engine's own cost,
//             honest/bare the cost of an honest transport
//   bare-1    one QNetworkAccessManager with C requests outstanding (Qt's 6-connection queue)
// Prints seconds (best of --runs) and the ratios retrylab/curl (goal ≤ 2) and engine/bare (goal ≤ 1.05).
#include "benchprocess.h"
#include "engine/attempttransport.h"
#include "engine/clock.h"
#include "engine/nonrewindablebody.h"
#include "engine/retryengine.h"
#include "engine/timerscheduler.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

using BenchProcess::freePort;
using BenchProcess::waitForPort;

namespace {

struct Server
{
    QTemporaryDir dir;
    QProcess process;
    QUrl url;
    QString name;

    bool startNginx()
    {
        const QString nginx = BenchProcess::findNginx();
        if (nginx.isEmpty())
            return false;
        const quint16 port = freePort();
        if (!BenchProcess::startNginx(process, nginx, dir, QStringLiteral("nginx"),
                QStringLiteral("server { listen 127.0.0.1:%1; location / { return 200 \"ok\\n\"; } }").arg(port))
            || !waitForPort(port))
            return false;
        url = QUrl(QStringLiteral("http://127.0.0.1:%1/x").arg(port));
        name = QStringLiteral("nginx");
        return true;
    }

    bool startLab(const QString& retrylab)
    {
        const quint16 port = freePort();
        process.start(retrylab, { QStringLiteral("serve"), QStringLiteral("--port"), QString::number(port) });
        if (!process.waitForStarted(5000) || !waitForPort(port))
            return false;
        url = QUrl(QStringLiteral("http://127.0.0.1:%1/x").arg(port));
        name = QStringLiteral("retrylab serve");
        return true;
    }

    ~Server()
    {
        process.terminate();
        if (!process.waitForFinished(3000))
            process.kill();
    }
};

double wallOf(const QString& program, const QStringList& args)
{
    QProcess p;
    p.setStandardOutputFile(QProcess::nullDevice());
    p.setStandardErrorFile(QProcess::nullDevice());
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return -1;
    return double(t.nsecsElapsed()) / 1e9;
}

double curlTime(const QTemporaryDir& dir, const QUrl& url, int n, int concurrency)
{
    QFile config(dir.filePath(QStringLiteral("curl-%1.txt").arg(n)));
    if (!config.exists()) {
        if (!config.open(QIODevice::WriteOnly))
            return -1;
        const QByteArray line = "url = \"" + url.toEncoded() + "\"\noutput = \"/dev/null\"\n";
        for (int i = 0; i < n; ++i)
            config.write(line);
        config.close();
    }
    return wallOf(QStringLiteral("curl"), { QStringLiteral("--silent"), QStringLiteral("--parallel"),
                                              QStringLiteral("--parallel-max"), QString::number(concurrency),
                                              QStringLiteral("--config"), config.fileName() });
}

double retrylabTime(const QString& retrylab, const QUrl& url, int n, int concurrency)
{
    return wallOf(retrylab, { QStringLiteral("run"), QStringLiteral("--policy"), QStringLiteral("slen"),
                                QStringLiteral("--url"), url.toString(), QStringLiteral("--repeat"), QString::number(n),
                                QStringLiteral("--concurrency"), QString::number(concurrency), QStringLiteral("--quiet") });
}

double engineTime(const QUrl& url, int n, int concurrency)
{
    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    RetryEngine engine(clock, scheduler);
    engine.setConcurrencyLimit(concurrency);
    RetryPolicy policy;
    policy.limits.maxAttempts = 1;
    RequestSpec spec;
    spec.url = url;
    QEventLoop loop;
    QObject::connect(&engine, &RetryEngine::idle, &loop, &QEventLoop::quit);
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < n; ++i)
        engine.submit(spec, policy);
    loop.exec();
    return double(t.nsecsElapsed()) / 1e9;
}

std::unique_ptr<QNetworkAccessManager> makeNam()
{
    auto nam = std::make_unique<QNetworkAccessManager>();
    nam->setProxy(QNetworkProxy::NoProxy);
    nam->setAutoDeleteReplies(true);
    return nam;
}

// MANAGERS managers; each keeps PER requests outstanding until N have been sent (HONEST: as the engine sends).
double bareTime(const QUrl& url, int n, int managers, int per, bool honest = false)
{
    std::vector<std::unique_ptr<QNetworkAccessManager>> nams;
    for (int i = 0; i < managers; ++i)
        nams.push_back(makeNam());
    int started = 0;
    int done = 0;
    QEventLoop loop;
    std::function<void(QNetworkAccessManager*)> next = [&](QNetworkAccessManager* nam) {
        if (started >= n)
            return;
        ++started;
        QNetworkReply* r = nullptr;
        if (honest) {
            auto* body = new NonRewindableBody(QByteArray(), nullptr);
            r = nam->sendCustomRequest(AttemptTransport::honestRequest(url, {}, 0, {}), "GET", body);
            body->setParent(r);
        } else {
            r = nam->get(QNetworkRequest(url));
        }
        QObject::connect(r, &QNetworkReply::finished, &loop, [&, r, nam] {
            r->readAll();
            if (++done == n)
                loop.quit();
            else
                next(nam);
        });
    };
    QElapsedTimer t;
    t.start();
    for (auto& nam : nams)
        for (int i = 0; i < per; ++i)
            next(nam.get());
    loop.exec();
    return double(t.nsecsElapsed()) / 1e9;
}

double best(int runs, const std::function<double()>& f)
{
    double b = -1;
    for (int i = 0; i < runs; ++i) {
        const double v = f();
        if (v >= 0 && (b < 0 || v < b))
            b = v;
    }
    return b;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("requests"), QStringLiteral("GETs per client and concurrency."), QStringLiteral("N"), QStringLiteral("5000") });
    parser.addOption({ QStringLiteral("concurrency"), QStringLiteral("Comma-separated."), QStringLiteral("C"), QStringLiteral("1,6,20,50") });
    parser.addOption({ QStringLiteral("runs"), QStringLiteral("Best of this many runs."), QStringLiteral("R"), QStringLiteral("3") });
    parser.addOption({ QStringLiteral("clients"), QStringLiteral("Which clients (comma-separated; for profiling one)."),
        QStringLiteral("LIST"), QStringLiteral("curl,retrylab,engine,honest,bare,bare-1") });
    parser.addOption({ QStringLiteral("retrylab"), QStringLiteral("The retrylab binary."), QStringLiteral("PATH"),
        QCoreApplication::applicationDirPath() + QStringLiteral("/../../app/retrylab") });
    parser.process(app);
    const int n = parser.value(QStringLiteral("requests")).toInt();
    const int runs = std::max(1, parser.value(QStringLiteral("runs")).toInt());
    const QString retrylab = QDir::cleanPath(parser.value(QStringLiteral("retrylab")));
    const QStringList clients = parser.value(QStringLiteral("clients")).split(u',');
    const auto measured = [&](const char* client, const std::function<double()>& f) {
        return clients.contains(QLatin1String(client)) ? best(runs, f) : -1.0;
    };

    Server server;
    if (!server.startNginx() && !server.startLab(retrylab)) {
        std::fprintf(stderr, "bench_throughput: could not start nginx or %s serve\n", qPrintable(retrylab));
        return 2;
    }
    std::printf("server: %s at %s; %d GETs per cell, best of %d\n", qPrintable(server.name),
        qPrintable(server.url.toString()), n, runs);
    std::printf("%5s %9s %9s %9s %9s %9s %9s   %13s %13s %12s %12s\n", "conc", "curl s", "retrylab", "engine",
        "honest", "bare", "bare-1", "retrylab/curl", "engine/honest", "honest/bare", "bare-1/bare");
    for (const QString& c : parser.value(QStringLiteral("concurrency")).split(u',')) {
        const int conc = c.toInt();
        if (conc < 1)
            continue;
        const double curl = measured("curl", [&] { return curlTime(server.dir, server.url, n, conc); });
        const double cli = measured("retrylab", [&] { return retrylabTime(retrylab, server.url, n, conc); });
        const double engine = measured("engine", [&] { return engineTime(server.url, n, conc); });
        const double honest = measured("honest", [&] { return bareTime(server.url, n, conc, 1, true); });
        const double bare = measured("bare", [&] { return bareTime(server.url, n, conc, 1); });
        const double bare1 = measured("bare-1", [&] { return bareTime(server.url, n, 1, conc); });
        const auto ratio = [](double a, double b) { return a > 0 && b > 0 ? a / b : -1.0; };
        std::printf("%5d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f   %13.2f %13.2f %12.2f %12.2f\n", conc, curl, cli, engine,
            honest, bare, bare1, ratio(cli, curl), ratio(engine, honest), ratio(honest, bare), ratio(bare1, bare));
        std::fflush(stdout);
    }
    return 0;
}
