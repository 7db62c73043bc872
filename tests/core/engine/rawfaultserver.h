// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A tiny scripted HTTP/1.1 server on 127.0.0.1 for transport tests: it counts every request it receives
// (complete header block, body read by Content-Length) and answers each as the current behaviour says.

#include <QByteArray>
#include <QList>
#include <QTcpServer>
#include <QHash>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

class RawFaultServer : public QObject
{
    Q_OBJECT
public:
    enum class Behaviour {
        Ok, // 200 "ok", keep-alive
        DropAfterRead, // read the request, close without answering
        Truncate, // headers say 100 body bytes, 10 are sent, then close
        Garbage, // bytes that are not HTTP, then close
        GarbageHeader, // a valid status line, then a Content-Length that is not a number
        Hang, // read the request, never answer
        SlowHeaders, // answer 200 after `delayMs`
    };

    explicit RawFaultServer(QObject* parent = nullptr)
        : QObject(parent)
    {
        connect(&m_server, &QTcpServer::newConnection, this, &RawFaultServer::accept);
        m_server.listen(QHostAddress::LocalHost, 0);
    }

    quint16 port() const { return m_server.serverPort(); }
    QByteArray url(const QByteArray& path = "/") const
    {
        return "http://127.0.0.1:" + QByteArray::number(port()) + path;
    }
    void setBehaviour(Behaviour b) { m_behaviour = b; }
    // Behaviours for the next requests, in order; after them `behaviour` applies.
    void queue(QList<Behaviour> list) { m_queue = std::move(list); }
    void setDelayMs(int ms) { m_delayMs = ms; }

    int requests = 0;
    int connections = 0;
    QList<QByteArray> heads; // every request's header block
    QList<QByteArray> bodies;

    QByteArray header(int i, const QByteArray& name) const
    {
        for (const QByteArray& line : heads.at(i).split('\n')) {
            const int colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().compare(name, Qt::CaseInsensitive) == 0)
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }

private:
    void accept()
    {
        while (QTcpSocket* s = m_server.nextPendingConnection()) {
            ++connections;
            s->setParent(this);
            connect(s, &QTcpSocket::readyRead, this, [this, s] { onData(s); });
            connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
        }
    }

    void onData(QTcpSocket* s)
    {
        QByteArray& buf = m_buffers[s];
        buf += s->readAll();
        for (;;) {
            const int end = buf.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QByteArray head = buf.left(end);
            qsizetype length = 0;
            for (const QByteArray& line : head.split('\n')) {
                if (line.toLower().startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
            }
            if (buf.size() < end + 4 + length)
                return;
            const QByteArray body = buf.mid(end + 4, length);
            buf.remove(0, end + 4 + length);
            ++requests;
            heads.append(head);
            bodies.append(body);
            answer(s);
            if (s->state() != QAbstractSocket::ConnectedState)
                return;
        }
    }

    void answer(QTcpSocket* s)
    {
        const Behaviour b = m_queue.isEmpty() ? m_behaviour : m_queue.takeFirst();
        switch (b) {
        case Behaviour::Ok:
            s->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok");
            break;
        case Behaviour::DropAfterRead:
            m_buffers.remove(s);
            s->disconnectFromHost();
            break;
        case Behaviour::Truncate:
            s->write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789");
            s->flush();
            m_buffers.remove(s);
            s->disconnectFromHost();
            break;
        case Behaviour::Garbage:
            s->write("XYZZY this is not HTTP\r\n\r\n");
            s->flush();
            m_buffers.remove(s);
            s->disconnectFromHost();
            break;
        case Behaviour::GarbageHeader:
            s->write("HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nhello");
            s->flush();
            m_buffers.remove(s);
            s->disconnectFromHost();
            break;
        case Behaviour::Hang:
            break;
        case Behaviour::SlowHeaders: {
            QPointer<QTcpSocket> guard(s);
            QTimer::singleShot(m_delayMs, this, [guard] {
                if (guard)
                    guard->write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            });
            break;
        }
        }
    }

    QTcpServer m_server;
    Behaviour m_behaviour = Behaviour::Ok;
    QList<Behaviour> m_queue;
    int m_delayMs = 0;
    QHash<QTcpSocket*, QByteArray> m_buffers;
};
