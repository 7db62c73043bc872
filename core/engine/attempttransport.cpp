// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/attempttransport.h"

#include "engine/clock.h"
#include "engine/errorclassifier.h"
#include "engine/nonrewindablebody.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslConfiguration>
#include <QTimer>

#include <algorithm>

AttemptTransport::AttemptTransport(QNetworkAccessManager& nam, const Clock& clock, QObject* parent)
    : Transport(parent)
    , m_nam(nam)
    , m_clock(clock)
{
}

AttemptTransport::~AttemptTransport()
{
    if (m_reply) {
        // Destroyed mid-flight (the engine is going away): no signal may escape.
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void AttemptTransport::reach(AttemptPhase phase)
{
    if (m_done)
        return;
    const MonoTime now = m_clock.now();
    switch (phase) {
    case AttemptPhase::Connecting:
        if (m_record.at.connecting)
            return;
        m_record.at.connecting = now;
        break;
    case AttemptPhase::TlsDone:
        if (m_record.at.tlsDone)
            return;
        m_record.at.tlsDone = now;
        break;
    case AttemptPhase::RequestSent:
        ++m_record.requestSentSignals;
        if (m_record.at.requestSent)
            return;
        m_record.at.requestSent = now;
        break;
    case AttemptPhase::HeadersReceived:
        if (m_record.at.headersReceived)
            return;
        m_record.at.headersReceived = now;
        break;
    case AttemptPhase::FirstByte:
        if (m_record.at.firstByte)
            return;
        m_record.at.firstByte = now;
        break;
    default:
        break;
    }
    if (int(phase) > int(m_record.phaseReached))
        m_record.phaseReached = phase;
    if (connectionProven() && m_connectTimer)
        m_connectTimer->stop();
    Q_EMIT phaseReached(phase, now);
}

bool AttemptTransport::connectionProven() const
{
    return int(m_record.phaseReached) >= int(AttemptPhase::TlsDone) || (m_body && m_body->bytesConsumed() > 0);
}

QNetworkRequest AttemptTransport::honestRequest(
    const QUrl& url, const QList<SentHeader>& headers, qint64 bodySize, const AttemptLimits& limits)
{
    QNetworkRequest request(url);
    for (const SentHeader& h : headers)
        request.setRawHeader(h.name, h.value);
    request.setHeader(QNetworkRequest::ContentLengthHeader, bodySize);
    request.setAttribute(QNetworkRequest::DoNotBufferUploadDataAttribute, true);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, limits.http2Allowed);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    request.setTransferTimeout(0); // the engine keeps its own timers
    if (url.scheme() == QLatin1String("https")) {
        QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
        if (!limits.extraCaCertificates.isEmpty())
            ssl.addCaCertificates(limits.extraCaCertificates);
        if (!limits.http2Allowed)
            ssl.setAllowedNextProtocols({ QSslConfiguration::NextProtocolHttp1_1 });
        request.setSslConfiguration(ssl);
    }
    return request;
}

void AttemptTransport::start(AttemptRecord record, QByteArray body, AttemptLimits limits)
{
    m_record = std::move(record);
    m_limits = std::move(limits);
    m_record.at.started = m_clock.now();
    m_record.phaseReached = AttemptPhase::Started;
    Q_EMIT phaseReached(AttemptPhase::Started, *m_record.at.started);

    const QNetworkRequest request = honestRequest(m_record.url, m_record.requestHeaders, body.size(), m_limits);
    m_body = new NonRewindableBody(std::move(body), this);
    m_reply = m_nam.sendCustomRequest(request, m_record.method.toLatin1(), m_body);
    QNetworkReply* reply = m_reply;
    connect(reply, &QNetworkReply::socketStartedConnecting, this, [this] {
        m_sawConnecting = true;
        reach(AttemptPhase::Connecting);
    });
    connect(reply, &QNetworkReply::requestSent, this, [this] { reach(AttemptPhase::RequestSent); });
    if (m_record.bodySize > 0) { // an empty body reports no upload progress (bytesUp comes from the device)
        connect(reply, &QNetworkReply::uploadProgress, this, [this](qint64 sent, qint64) {
            if (sent > 0 && !m_done)
                m_record.bytesUp = std::max(m_record.bytesUp, sent);
        });
    }
    connect(reply, &QNetworkReply::metaDataChanged, this, &AttemptTransport::onMetaData);
    connect(reply, &QNetworkReply::readyRead, this, &AttemptTransport::onReadyRead);
    if (m_record.url.scheme() == QLatin1String("https")) { // connections a plain-HTTP attempt never needs
        connect(reply, &QNetworkReply::encrypted, this, [this] { reach(AttemptPhase::TlsDone); });
        connect(reply, &QNetworkReply::sslErrors, this, [this](const QList<QSslError>& errors) {
            if (m_done)
                return;
            for (const QSslError& e : errors)
                m_record.qtError += (m_record.qtError.isEmpty() ? QString() : QStringLiteral("; ")) + e.errorString();
        });
    }
    connect(reply, &QNetworkReply::finished, this, &AttemptTransport::onFinished);

    // Own precise timers: Qt's transferTimeout measures inactivity only, and restarts at every byte.
    std::optional<MonoTime> totalDue;
    if (m_limits.attemptTimeout)
        totalDue = *m_record.at.started + *m_limits.attemptTimeout;
    if (m_limits.deadline && (!totalDue || *m_limits.deadline < *totalDue)) {
        totalDue = *m_limits.deadline;
        m_totalReason = AbortReason::Deadline;
    }
    if (totalDue) {
        m_totalTimer = new QTimer(this);
        m_totalTimer->setSingleShot(true);
        m_totalTimer->setTimerType(Qt::PreciseTimer);
        const auto left = std::max(MonoTime(0), *totalDue - m_clock.now());
        m_totalTimer->setInterval(std::chrono::ceil<std::chrono::milliseconds>(left));
        connect(m_totalTimer, &QTimer::timeout, this, [this] { abort(m_totalReason); });
        m_totalTimer->start();
    }
    if (m_limits.connectTimeout) {
        m_connectTimer = new QTimer(this);
        m_connectTimer->setSingleShot(true);
        m_connectTimer->setTimerType(Qt::PreciseTimer);
        m_connectTimer->setInterval(*m_limits.connectTimeout);
        connect(m_connectTimer, &QTimer::timeout, this, &AttemptTransport::onConnectTimer);
        m_connectTimer->start();
    }
}

void AttemptTransport::onConnectTimer()
{
    if (m_done || connectionProven() || int(m_record.phaseReached) >= int(AttemptPhase::RequestSent))
        return;
    const bool tls = m_record.url.scheme() == QLatin1String("https");
    // Only when "not connected yet" is observable: a TLS handshake, or a body whose sending Qt reports.
    // An empty body over plain HTTP gives no signal once connected, so there the total timeout rules.
    if (!tls && m_record.bodySize == 0)
        return;
    abort(AbortReason::ConnectTimeout);
}

void AttemptTransport::abort(AbortReason reason)
{
    if (m_done || !m_reply)
        return;
    m_abort = reason; // before abort(): finished() fires inside it
    m_reply->abort();
}

void AttemptTransport::onMetaData()
{
    if (!m_reply)
        return;
    const QVariant status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (!status.isValid())
        return;
    reach(AttemptPhase::HeadersReceived);
}

void AttemptTransport::onReadyRead()
{
    if (!m_reply)
        return;
    const QByteArray chunk = m_reply->readAll();
    if (chunk.isEmpty())
        return;
    if (!m_record.at.headersReceived)
        onMetaData();
    reach(AttemptPhase::FirstByte);
    m_record.bytesDown += chunk.size();
    const qsizetype room = m_limits.bodyExcerptCap - m_record.bodyExcerpt.size();
    if (room >= chunk.size()) {
        m_record.bodyExcerpt += chunk;
    } else {
        if (room > 0)
            m_record.bodyExcerpt += chunk.left(room);
        m_record.bodyExcerptTruncated = true;
    }
}

void AttemptTransport::onFinished()
{
    if (m_done || !m_reply)
        return;
    m_done = true;
    if (m_totalTimer)
        m_totalTimer->stop();
    if (m_connectTimer)
        m_connectTimer->stop();
    QNetworkReply* reply = m_reply;
    if (m_abort == AbortReason::None)
        onReadyRead();
    m_record.at.finished = m_clock.now();

    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    if (status.isValid() && int(m_record.phaseReached) >= int(AttemptPhase::HeadersReceived)) {
        m_record.status = status.toInt();
        m_record.reasonPhrase = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        for (const auto& [name, value] : reply->rawHeaderPairs()) {
            // Qt joins repeated Set-Cookie fields with '\n' (other repeats with ", ", not reversible).
            if (name.compare("set-cookie", Qt::CaseInsensitive) == 0) {
                for (const QByteArray& v : value.split('\n'))
                    m_record.responseHeaders.append({ name, v });
            } else {
                m_record.responseHeaders.append({ name, value });
            }
        }
        if (*m_record.status >= 300 && *m_record.status < 400) {
            const QByteArray location = combinedHeader(m_record.responseHeaders, "location");
            if (!location.isEmpty())
                m_record.redirectTarget = m_record.url.resolved(QUrl::fromEncoded(location));
        }
    }
    m_record.http2Used = reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool();
    m_record.connectionReused = !m_sawConnecting && int(m_record.phaseReached) >= int(AttemptPhase::RequestSent);
    m_record.bytesUp = std::max(m_record.bytesUp, m_body ? m_body->bytesConsumed() : 0);
    m_record.abortReason = m_abort;
    m_record.qtErrorCode = int(reply->error());
    ClassifierInput in;
    in.code = reply->error();
    in.reached = m_record.phaseReached;
    in.abort = m_abort;
    in.status = m_record.status;
    in.tls = m_record.url.scheme() == QLatin1String("https");
    in.sendObservable = m_record.bodySize > 0;
    m_record.error = classifyError(in);
    if (m_record.error || m_abort == AbortReason::Cancelled || m_abort == AbortReason::HedgeLost) {
        const QString text = reply->errorString();
        m_record.qtError = m_record.qtError.isEmpty() ? text : text + QStringLiteral(" (") + m_record.qtError + u')';
    } else {
        // An answer: Qt's words for it ("Error transferring … server replied: Too Many Requests") describe the
        // status, not a failure. The code stays in qtErrorCode.
        m_record.qtError.clear();
    }

    // No disconnect (a string-based lookup per attempt): every slot above ignores a finished attempt.
    reply->deleteLater();
    m_reply.clear();
    Q_EMIT phaseReached(AttemptPhase::Finished, *m_record.at.finished);
    Q_EMIT finished(m_record);
}
