// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet/fleetlaunch.h"

#include <QHostAddress>
#include <QProcessEnvironment>
#include <QTcpServer>

using namespace Qt::StringLiterals;

FleetLaunch::FleetLaunch(QObject* parent)
    : QObject(parent)
{ }

FleetLaunch::~FleetLaunch()
{
    stop();
}

quint16 FleetLaunch::freePort(const QString& host)
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress(host), 0))
        return 0;
    return probe.serverPort();
}

QStringList FleetLaunch::workerArguments(const QString& locustfile, const QString& masterHost, quint16 port)
{
    return { u"-f"_s, locustfile, u"--worker"_s, u"--master-host"_s, masterHost, u"--master-port"_s,
        QString::number(port), u"--loglevel"_s, u"WARNING"_s };
}

bool FleetLaunch::start(const FleetLaunchOptions& options)
{
    m_options = options;
    m_port = options.port ? options.port : freePort(options.bindHost);
    if (m_port == 0) {
        m_error = u"no free port for the Locust master on %1"_s.arg(options.bindHost);
        return false;
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"RETRYLAB_FLEET_OUT"_s, options.recordPath);
    env.insert(u"RETRYLAB_FLEET_WORKERS"_s, QString::number(options.expectWorkers));
    env.insert(u"PYTHONUNBUFFERED"_s, u"1"_s);
    m_master = std::make_unique<QProcess>();
    m_master->setProcessEnvironment(env);
    m_master->setProcessChannelMode(QProcess::SeparateChannels);
    connect(m_master.get(), &QProcess::readyReadStandardError, this, [this] {
        m_masterLog += QString::fromUtf8(m_master->readAllStandardError());
        if (m_masterLog.size() > 20000)
            m_masterLog = m_masterLog.right(20000);
    });
    connect(m_master.get(), &QProcess::readyReadStandardOutput, this, [this] { m_master->readAllStandardOutput(); });
    connect(m_master.get(), &QProcess::finished, this, [this](int code) { onMasterFinished(code); });
    const qint64 limitS = std::max<qint64>(1, options.runLimit.count() / 1000);
    const qint64 waitS = std::max<qint64>(1, options.workerWait.count() / 1000);
    m_master->start(options.locust,
        { u"-f"_s, options.locustfile, u"--master"_s, u"--headless"_s, u"-u"_s, QString::number(options.users), u"-r"_s,
            QString::number(options.spawnRate), u"-t"_s, u"%1s"_s.arg(limitS), u"--expect-workers"_s,
            QString::number(options.expectWorkers), u"--expect-workers-max-wait"_s, QString::number(waitS),
            u"--master-bind-host"_s, options.bindHost, u"--master-bind-port"_s, QString::number(m_port),
            u"--only-summary"_s, u"--loglevel"_s, u"WARNING"_s, u"--stop-timeout"_s, u"0"_s });
    if (!m_master->waitForStarted(10000)) {
        m_error = u"the Locust master (%1) did not start: %2"_s.arg(options.locust, m_master->errorString());
        return false;
    }
    for (int i = 0; i < options.localWorkers; ++i)
        startWorker();
    return true;
}

void FleetLaunch::startWorker()
{
    auto worker = std::make_unique<QProcess>();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"PYTHONUNBUFFERED"_s, u"1"_s);
    worker->setProcessEnvironment(env);
    worker->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    worker->setStandardOutputFile(QProcess::nullDevice());
    const QString host
        = m_options.bindHost == u"0.0.0.0"_s || m_options.bindHost == u"*"_s ? u"127.0.0.1"_s : m_options.bindHost;
    worker->start(m_options.locust, workerArguments(m_options.locustfile, host, m_port));
    m_workers.push_back(std::move(worker));
}

void FleetLaunch::onMasterFinished(int exitCode)
{
    if (m_done)
        return;
    m_done = true;
    if (m_master)
        m_masterLog += QString::fromUtf8(m_master->readAllStandardError());
    // The master told its workers to quit; those that have not within a few seconds are stopped.
    for (const auto& w : m_workers) {
        if (w->state() != QProcess::NotRunning && !w->waitForFinished(5000)) {
            w->terminate();
            if (!w->waitForFinished(2000))
                w->kill();
        }
    }
    emit finished(exitCode);
}

void FleetLaunch::stop()
{
    for (const auto& w : m_workers) {
        if (w->state() != QProcess::NotRunning) {
            w->kill();
            w->waitForFinished(2000);
        }
    }
    if (m_master && m_master->state() != QProcess::NotRunning) {
        m_done = true;
        m_master->kill();
        m_master->waitForFinished(2000);
    }
}
