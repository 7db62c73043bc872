// SPDX-License-Identifier: GPL-3.0-or-later
// RunController, observing a client as its proxy (issue 31 §3): a second lab, a forward proxy that decrypts
// with the Retrylab CA, started for the observation and stopped with it. Its scenario is the built-in lab's
// when that one forwards (faults layered on the real answers), else every request goes on as it is.
#include "run/runcontroller.h"

#include "intercept/interceptauthority.h"
#include "lab/faultserver.h"
#include "lab/proxyclientenvironment.h"
#include "lab/scenariocatalog.h"

#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QUrl>

using namespace Qt::StringLiterals;

bool RunController::startProxyLab()
{
    QString error;
    const QString caDir = InterceptAuthority::defaultDirectory();
    const std::shared_ptr<InterceptAuthority> authority = InterceptAuthority::open(caDir, true, &error);
    if (!authority) {
        fail(tr("The Retrylab CA in %1 cannot be used: %2").arg(caDir, error));
        return false;
    }
    FaultServerOptions options;
    options.proxy.enabled = true;
    options.proxy.authority = authority;
    options.proxy.passThrough = m_proxyPassThrough;
    m_proxy = new FaultServer(this);
    const FaultScenario& current = m_lab->scenario();
    m_proxy->loadScenario(current.hasForwardSteps() ? current : ScenarioCatalog::forwardEverything());
    if (!m_proxy->start(options)) {
        fail(tr("The proxy could not start: %1").arg(m_proxy->errorString()));
        stopProxyLab();
        return false;
    }
    // The files the shell lines name live in the user's data folder, so a pasted terminal keeps working.
    const QString clientDir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + u"/proxy-client"_s;
    const ProxyClientEnvironment environment = ProxyClientEnvironment::prepare(
        clientDir, m_proxy->url(), *authority, {}, QProcessEnvironment::systemEnvironment(), &error);
    if (environment.isEmpty()) {
        fail(tr("The proxy's client files cannot be written: %1").arg(error));
        stopProxyLab();
        return false;
    }
    m_proxyShell = environment.shellLines();
    m_proxyFingerprint = authority->fingerprintSha256();
    m_proxyCaPath = authority->certificatePath();
    emit proxyChanged();
    return true;
}

void RunController::stopProxyLab()
{
    if (!m_proxy)
        return;
    m_proxy->stop();
    m_proxy->deleteLater();
    m_proxy = nullptr;
    m_proxyShell.clear();
    m_proxyFingerprint.clear();
    m_proxyCaPath.clear();
    emit proxyChanged();
}

void RunController::setProxyHostIntercepted(const QString& host, bool intercepted)
{
    m_proxyPassThrough.removeAll(host);
    if (!intercepted)
        m_proxyPassThrough << host;
    if (m_proxy)
        m_proxy->setProxyPassThrough(m_proxyPassThrough);
}
