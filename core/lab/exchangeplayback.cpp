// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/exchangeplayback.h"

#include "lab/labconnection.h"

#include <QTcpSocket>
#include <QTimer>

ExchangePlayback::ExchangePlayback(LabConnection* connection, FaultStep step, LabResponse response, bool keepAlive,
    QObject* parent)
    : QObject(parent)
    , m_connection(connection)
    , m_step(std::move(step))
    , m_response(std::move(response))
    , m_keepAlive(keepAlive)
{
}

void ExchangePlayback::start()
{
    if (m_step.kind == FaultStep::Kind::Hang) {
        if (m_connection) {
            m_connection->abandon();
            connect(m_connection, &LabConnection::closed, this, [this] { finish(false, false); });
        }
        if (m_step.duration.count() > 0) {
            QTimer::singleShot(m_step.duration, Qt::PreciseTimer, this, [this] {
                m_closed = true;
                if (m_connection)
                    m_connection->closeGracefully();
                finish(false, false);
            });
        } else if (!m_connection || !m_connection->isOpen()) {
            finish(false, false);
        }
        return;
    }
    if (m_step.delay.count() > 0)
        QTimer::singleShot(m_step.delay, Qt::PreciseTimer, this, &ExchangePlayback::afterDelay);
    else
        afterDelay();
}

void ExchangePlayback::afterDelay()
{
    LabConnection* connection = m_connection;
    const bool open = connection && connection->isOpen();
    switch (m_step.kind) {
    case FaultStep::Kind::Respond:
    case FaultStep::Kind::Late:
    case FaultStep::Kind::RateLimit:
    case FaultStep::Kind::Forward: // relayed as FaultServer::relay built it
        if (!open) {
            finish(false, false);
            return;
        }
        writeHead();
        if (m_step.dribbleBytes > 0 && !m_response.content().isEmpty()) {
            m_dribbleTimer = new QTimer(this);
            m_dribbleTimer->setTimerType(Qt::PreciseTimer);
            m_dribbleTimer->setInterval(m_step.dribbleInterval);
            connect(m_dribbleTimer, &QTimer::timeout, this, &ExchangePlayback::dribbleNext);
            dribbleNext();
            if (!m_done)
                m_dribbleTimer->start();
            return;
        }
        writeBody(m_response.content());
        finish(true, m_keepAlive);
        return;
    case FaultStep::Kind::Truncate: {
        if (!open) {
            finish(false, false);
            return;
        }
        writeHead();
        const QByteArray content = m_response.content();
        const qsizetype keep
            = m_step.truncateAfter >= 0 ? std::min(m_step.truncateAfter, content.size() - 1) : content.size() / 2;
        writeBody(content.left(std::max<qsizetype>(0, keep)));
        m_closed = true;
        if (m_step.truncateWithReset) {
            // Let the partial body leave before the RST discards the send queue.
            if (QTcpSocket* socket = connection->socket())
                socket->flush();
            connection->resetConnection();
        } else {
            connection->closeGracefully();
        }
        finish(false, false);
        return;
    }
    case FaultStep::Kind::Close:
        m_closed = true;
        if (connection)
            connection->closeGracefully();
        finish(false, false);
        return;
    case FaultStep::Kind::Reset:
    case FaultStep::Kind::Refuse:
    case FaultStep::Kind::Outage: // never played as such: FaultServer::failInOutage plays a respond or a reset
        m_closed = true;
        if (connection)
            connection->resetConnection();
        finish(false, false);
        return;
    case FaultStep::Kind::Garbage:
        m_closed = true;
        if (open) {
            connection->write(m_step.garbage.isEmpty() ? QByteArray("\x16\x03\x01 this is not HTTP \xff\xfe\r\n\r\n")
                                                       : m_step.garbage);
            connection->closeGracefully();
        }
        finish(false, false);
        return;
    case FaultStep::Kind::Hang:
        return;
    }
}

void ExchangePlayback::writeHead()
{
    m_writtenFields = m_response.headFields(m_keepAlive);
    m_connection->write(LabResponse::serializeHead(m_response.status, m_writtenFields));
    emit responseStarted(this);
}

void ExchangePlayback::writeBody(const QByteArray& bytes)
{
    m_connection->write(bytes);
    m_bodyBytes += bytes.size();
}

void ExchangePlayback::dribbleNext()
{
    if (!m_connection || !m_connection->isOpen()) {
        finish(false, false);
        return;
    }
    const QByteArray content = m_response.content();
    const QByteArray piece = content.mid(m_sent, m_step.dribbleBytes);
    writeBody(piece);
    m_sent += piece.size();
    if (m_sent >= content.size())
        finish(true, m_keepAlive);
}

void ExchangePlayback::finish(bool answered, bool keepAlive)
{
    if (m_done)
        return;
    m_done = true;
    if (m_dribbleTimer)
        m_dribbleTimer->stop();
    if (answered && m_connection)
        m_connection->finishExchange(keepAlive);
    emit finished(this, answered);
}
