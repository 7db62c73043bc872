// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A plain HTTP/1.1 client on QTcpSocket for tests whose lab runs on the test's own thread: COUNT GETs of
// PATH, one connection each (Connection: close), one after the other, driven by signals (nothing blocks the
// event loop the lab needs; the caller runs one, as QSignalSpy::wait does). Each answer is kept raw; a reset or close before any byte is status 0.

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpSocket>

#include <functional>
#include <memory>

namespace labclient {

struct Answer
{
    int status = 0; // 0: no status line (reset, closed)
    QByteArray raw;
    QByteArray head;
    QByteArray body;

    QByteArray header(const QByteArray& name) const
    {
        const QList<QByteArray> lines = head.split('\n');
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().toLower() == name.toLower())
                return line.mid(colon + 1).trimmed();
        }
        return {};
    }
};

class SequentialGets : public QObject
{
public:
    SequentialGets(quint16 port, const QByteArray& path, int count)
        : m_port(port)
        , m_path(path)
        , m_count(count)
    {
    }

    // ONDONE is called once the last answer is in.
    void start(std::function<void()> onDone)
    {
        m_onDone = std::move(onDone);
        next();
    }
    bool done() const { return m_answers.size() >= m_count; }
    const QList<Answer>& answers() const { return m_answers; }

private:
    void next()
    {
        if (done()) {
            if (m_onDone)
                m_onDone();
            return;
        }
        auto* socket = new QTcpSocket(this);
        auto raw = std::make_shared<QByteArray>();
        auto finished = std::make_shared<bool>(false);
        const auto finish = [this, socket, raw, finished] {
            if (*finished)
                return;
            *finished = true;
            raw->append(socket->readAll());
            Answer a;
            a.raw = *raw;
            const qsizetype end = raw->indexOf("\r\n\r\n");
            a.head = end < 0 ? *raw : raw->left(end);
            a.body = end < 0 ? QByteArray() : raw->mid(end + 4);
            if (raw->startsWith("HTTP/1.1 ") && raw->size() >= 12)
                a.status = raw->mid(9, 3).toInt();
            m_answers << a;
            socket->deleteLater();
            next();
        };
        connect(socket, &QTcpSocket::connected, socket, [this, socket] {
            socket->write("GET " + m_path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        });
        connect(socket, &QTcpSocket::readyRead, socket, [socket, raw] { raw->append(socket->readAll()); });
        connect(socket, &QTcpSocket::disconnected, this, finish);
        connect(socket, &QTcpSocket::errorOccurred, this, finish);
        socket->connectToHost(QStringLiteral("127.0.0.1"), m_port);
    }

    quint16 m_port;
    QByteArray m_path;
    int m_count;
    QList<Answer> m_answers;
    std::function<void()> m_onDone;
};

} // namespace labclient
