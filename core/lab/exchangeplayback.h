// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultstep.h"
#include "lab/labresponse.h"

#include <QObject>
#include <QPointer>

class LabConnection;
class QTimer;

// Plays one step on one connection, on the wire: waits, writes the status line and headers, dribbles
// or truncates the body, or closes (FIN), resets (RST), writes garbage or never answers. It outlives the
// connection (a late answer is "sent" even when the client has gone) and reports when it is done.
class ExchangePlayback : public QObject
{
    Q_OBJECT
public:
    ExchangePlayback(LabConnection* connection, FaultStep step, LabResponse response, bool keepAlive,
        QObject* parent = nullptr);

    void start();
    const FaultStep& step() const { return m_step; }
    const LabResponse& response() const { return m_response; }
    // What went on the wire: the head's fields (empty until written) and the body bytes written.
    const HttpHeaderList& writtenFields() const { return m_writtenFields; }
    qint64 bodyBytesWritten() const { return m_bodyBytes; }
    bool closedConnection() const { return m_closed; } // the step closed or reset the connection

signals:
    void responseStarted(ExchangePlayback* playback);
    // ANSWERED: the complete answer was written to a connection that was still open.
    void finished(ExchangePlayback* playback, bool answered);

private:
    void afterDelay();
    void writeHead();
    void dribbleNext();
    void finish(bool answered, bool keepAlive);
    void writeBody(const QByteArray& bytes);

    QPointer<LabConnection> m_connection;
    FaultStep m_step;
    LabResponse m_response;
    bool m_keepAlive;
    QTimer* m_dribbleTimer = nullptr;
    qsizetype m_sent = 0;
    bool m_done = false;
    bool m_closed = false;
    HttpHeaderList m_writtenFields;
    qint64 m_bodyBytes = 0;
};
