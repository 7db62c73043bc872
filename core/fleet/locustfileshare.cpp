// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet/locustfileshare.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 kMostBytes = 8 * 1024 * 1024;

QString tr(const char* text)
{
    return QCoreApplication::translate("fleet", text);
}

QString hostInUrl(const QString& host)
{
    return host.contains(u':') ? u"["_s + host + u"]"_s : host;
}

} // namespace

LocustfileShare::LocustfileShare() = default;

LocustfileShare::~LocustfileShare()
{
    stop();
}

bool LocustfileShare::start(const QString& locustfile, const QString& host)
{
    stop();
    const QString python = QStandardPaths::findExecutable(u"python3"_s);
    if (python.isEmpty()) {
        m_error = tr("python3 is not on PATH to serve the locustfile");
        return false;
    }
    QFile source(locustfile);
    if (!source.open(QIODevice::ReadOnly)) {
        m_error = tr("cannot read %1: %2").arg(locustfile, source.errorString());
        return false;
    }
    const QByteArray text = source.readAll();
    QFile copy(m_dir.filePath(QString::fromLatin1(kFileName)));
    if (!m_dir.isValid() || !copy.open(QIODevice::WriteOnly) || copy.write(text) != text.size() || !copy.flush()) {
        m_error = tr("cannot copy the locustfile to serve it: %1").arg(copy.errorString());
        return false;
    }
    copy.close();
    m_sha256 = QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex());
    {
        QTcpServer probe;
        if (!probe.listen(QHostAddress(host), 0)) {
            m_error = tr("no free port on %1 to serve the locustfile: %2").arg(host, probe.errorString());
            return false;
        }
        m_port = probe.serverPort();
    }
    m_server = std::make_unique<QProcess>();
    m_server->setProcessChannelMode(QProcess::MergedChannels);
    m_server->setStandardOutputFile(QProcess::nullDevice()); // one log line a fetch: not wanted
    m_server->start(python,
        { u"-m"_s, u"http.server"_s, QString::number(m_port), u"--bind"_s, host, u"--directory"_s, m_dir.path() });
    if (!m_server->waitForStarted(10000)) {
        m_error = tr("python3 -m http.server did not start: %1").arg(m_server->errorString());
        stop();
        return false;
    }
    // Ready once it accepts a connection (it may also have failed: the port taken in the meantime).
    const QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        if (m_server->state() != QProcess::Running) {
            m_error = tr("python3 -m http.server could not listen on %1:%2").arg(host).arg(m_port);
            stop();
            return false;
        }
        QTcpSocket s;
        s.connectToHost(QHostAddress(host), m_port);
        if (s.waitForConnected(200))
            return true;
        QThread::msleep(50);
    }
    m_error = tr("python3 -m http.server did not listen on %1:%2 within 10 s").arg(host).arg(m_port);
    stop();
    return false;
}

void LocustfileShare::stop()
{
    if (m_server) {
        m_server->terminate();
        if (!m_server->waitForFinished(3000)) {
            m_server->kill();
            m_server->waitForFinished(3000);
        }
        m_server.reset();
    }
}

bool LocustfileShare::isSha256(const QString& text)
{
    static const QRegularExpression hex(u"^[0-9A-Fa-f]{64}$"_s);
    return hex.match(text).hasMatch();
}

std::optional<QByteArray> LocustfileShare::fetch(
    const QString& host, quint16 port, const QString& sha256, int timeoutMs, QString* error)
{
    const QUrl url(u"http://%1:%2/%3"_s.arg(hostInUrl(host)).arg(port).arg(QString::fromLatin1(kFileName)));
    const auto fail = [&](const QString& why) {
        if (error)
            *error = tr("the locustfile from %1: %2").arg(url.toString(), why);
        return std::nullopt;
    };
    if (!url.isValid() || url.host().isEmpty())
        return fail(tr("not a valid address"));
    QNetworkAccessManager manager;
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    QNetworkReply* reply = manager.get(request);
    QEventLoop loop;
    bool tooBig = false;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(reply, &QNetworkReply::downloadProgress, &loop, [&](qint64 received, qint64) {
        if (received > kMostBytes) {
            tooBig = true;
            reply->abort();
        }
    });
    QTimer timeout;
    timeout.setSingleShot(true);
    bool timedOut = false;
    QObject::connect(&timeout, &QTimer::timeout, &loop, [&] {
        timedOut = true;
        reply->abort();
    });
    timeout.start(timeoutMs);
    if (reply->isRunning())
        loop.exec();
    // The reply is the manager's child: it goes with it.
    if (tooBig)
        return fail(tr("larger than 8 MiB: not a locustfile"));
    if (timedOut)
        return fail(tr("no answer within %1 s").arg(timeoutMs / 1000.0));
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() != QNetworkReply::NoError && status == 0)
        return fail(reply->errorString());
    if (status != 200)
        return fail(tr("the master answered %1, not 200").arg(status));
    const QByteArray text = reply->readAll();
    const QString got = QString::fromLatin1(QCryptographicHash::hash(text, QCryptographicHash::Sha256).toHex());
    if (got.compare(sha256, Qt::CaseInsensitive) != 0)
        return fail(tr("its SHA-256 is %1, not the %2 the master printed: refused (it is Python this worker would run)")
                        .arg(got, sha256.toLower()));
    return text;
}
