// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QIODevice>

#include <algorithm>

namespace SocketSlice {

// What the socket has already buffered, up to LIMIT bytes. QIODevice::read(n) allocates n bytes before it
// knows how many it will get, and keeps that capacity: a 150-byte answer read with read(128 KiB) cost a
// 128 KiB allocation per read (malloc_consolidate in every exchange's profile). Asking for what is there
// allocates what is there (or hands over Qt's own chunk when it is exactly that size).
inline QByteArray take(QIODevice& device, qint64 limit)
{
    const qint64 available = device.bytesAvailable();
    if (available <= 0)
        return {};
    return device.read(std::min(available, limit));
}

} // namespace SocketSlice
