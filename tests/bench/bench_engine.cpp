// SPDX-License-Identifier: GPL-3.0-or-later
// bench_engine [N] [CONCURRENCY]: (a) N successful requests through RetryEngine vs a bare
// QNetworkAccessManager at the same concurrency against the fault lab, as a time ratio (target ≤ 1.10);
// (b) wait fidelity: |actual − scheduled| of 1000 TimerScheduler waits, p50/p99 ms (target p99 ≤ 2 ms).
#include "engine/clock.h"
#include "engine/retryengine.h"
#include "engine/timerscheduler.h"
#include "lab/faultserver.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QRandomGenerator>

#include <algorithm>
#include <cstdio>

namespace {

// Qt warnings printed while the engine runs: each costs a write to stderr per request (the benchmark's
// guard against, e.g., "QIODevice::seek (QIODevice): Cannot call seek on a sequential device").
int g_warnings = 0;
QtMessageHandler g_previous = nullptr;

void countWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg)
        ++g_warnings;
    if (g_previous)
        g_previous(type, context, message);
}

double bareNam(const QUrl& url, int n, int concurrency)
{
    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QElapsedTimer t;
    t.start();
    int started = 0;
    int done = 0;
    QEventLoop loop;
    std::function<void()> next = [&] {
        if (started >= n)
            return;
        ++started;
        QNetworkReply* r = nam.get(QNetworkRequest(url));
        QObject::connect(r, &QNetworkReply::finished, &loop, [&, r] {
            r->readAll();
            r->deleteLater();
            if (++done == n)
                loop.quit();
            else
                next();
        });
    };
    for (int i = 0; i < concurrency; ++i)
        next();
    loop.exec();
    return double(t.nsecsElapsed()) / 1e6;
}

double engineRuns(const QUrl& url, int n, int concurrency)
{
    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    RetryEngine engine(clock, scheduler);
    engine.setConcurrencyLimit(concurrency);
    RequestSpec spec;
    spec.url = url;
    RetryPolicy policy;
    QEventLoop loop;
    QObject::connect(&engine, &RetryEngine::idle, &loop, &QEventLoop::quit, Qt::QueuedConnection);
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < n; ++i)
        engine.submit(spec, policy);
    loop.exec();
    return double(t.nsecsElapsed()) / 1e6;
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.at(size_t(p * double(v.size() - 1) + 0.5));
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int n = argc > 1 ? std::max(1, atoi(argv[1])) : 2000;
    const int concurrency = argc > 2 ? std::max(1, atoi(argv[2])) : 6;
    FaultServer lab;
    if (!lab.start()) {
        std::fprintf(stderr, "lab did not start\n");
        return 1;
    }
    QUrl url = lab.url();
    url.setPath(QStringLiteral("/bench"));
    bareNam(url, 200, concurrency); // warm-up
    engineRuns(url, 200, concurrency);
    double bare = 0;
    double eng = 0;
    for (int round = 0; round < 3; ++round) { // interleaved, best of 3 each
        const double b = bareNam(url, n, concurrency);
        const double e = engineRuns(url, n, concurrency);
        bare = round ? std::min(bare, b) : b;
        eng = round ? std::min(eng, e) : e;
    }
    std::printf("(a) overhead: %d requests, concurrency %d: bare QNAM %.1f ms, engine %.1f ms, ratio %.3f\n", n,
        concurrency, bare, eng, eng / bare);
    g_previous = qInstallMessageHandler(countWarnings);
    engineRuns(url, 100, concurrency);
    qInstallMessageHandler(g_previous);
    std::printf("    Qt warnings during 100 engine requests: %d\n", g_warnings);

    ElapsedClock clock;
    TimerScheduler scheduler(clock);
    std::vector<double> lateness;
    QEventLoop loop;
    int toSchedule = 1000; // exactly 1000 waits, ten in flight at a time
    std::function<void()> schedule = [&] {
        if (toSchedule == 0)
            return;
        --toSchedule;
        const MonoTime due = clock.now() + std::chrono::microseconds(QRandomGenerator::global()->bounded(1000, 20000));
        scheduler.scheduleAt(due, [&, due] {
            lateness.push_back(std::abs(toMs(clock.now() - due)));
            if (lateness.size() == 1000)
                loop.quit();
            else
                schedule();
        });
    };
    for (int i = 0; i < 10; ++i)
        schedule();
    loop.exec();
    std::printf("(b) wait fidelity: %zu waits of 1-20 ms: |actual - scheduled| p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
        lateness.size(), percentile(lateness, 0.5), percentile(lateness, 0.99),
        *std::max_element(lateness.begin(), lateness.end()));
    return 0;
}
