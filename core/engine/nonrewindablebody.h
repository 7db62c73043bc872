// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QIODevice>

// A request body Qt can read exactly once. Sequential, so QNetworkAccessManager cannot seek it back: with
// DoNotBufferUploadDataAttribute and a Content-Length, every hidden re-send Qt 6.4 would make becomes
// ContentReSendError instead (Qt re-sends only a body it can reset), and the retry policy decides. Used for every request,
// empty bodies included.
class NonRewindableBody final : public QIODevice
{
    Q_OBJECT
public:
    explicit NonRewindableBody(QByteArray data, QObject* parent = nullptr);

    bool isSequential() const override { return true; }
    qint64 size() const override { return m_data.size(); }
    qint64 bytesAvailable() const override;
    bool atEnd() const override;
    bool reset() override { return false; }
    bool seek(qint64) override { return false; }

    qint64 bytesConsumed() const { return m_read; }

protected:
    qint64 readData(char* data, qint64 maxSize) override;
    qint64 writeData(const char* data, qint64 maxSize) override;

private:
    QByteArray m_data;
    qint64 m_read = 0;
};
