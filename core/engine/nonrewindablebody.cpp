// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/nonrewindablebody.h"

#include <algorithm>
#include <cstring>

NonRewindableBody::NonRewindableBody(QByteArray data, QObject* parent)
    : QIODevice(parent)
    , m_data(std::move(data))
{
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
}

qint64 NonRewindableBody::bytesAvailable() const
{
    return (m_data.size() - m_read) + QIODevice::bytesAvailable();
}

bool NonRewindableBody::atEnd() const
{
    return m_read >= m_data.size() && QIODevice::bytesAvailable() == 0;
}

qint64 NonRewindableBody::readData(char* data, qint64 maxSize)
{
    const qint64 n = std::min<qint64>(maxSize, m_data.size() - m_read);
    if (n <= 0)
        return m_read >= m_data.size() ? -1 : 0;
    std::memcpy(data, m_data.constData() + m_read, size_t(n));
    m_read += n;
    return n;
}

qint64 NonRewindableBody::writeData(const char*, qint64)
{
    return -1;
}
