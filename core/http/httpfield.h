// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

// A response or request header block as received: names as sent, duplicates kept, in order.
using HttpHeaderList = QList<QPair<QByteArray, QByteArray>>;

// Every value of the field NAME (case-insensitive), in order.
QList<QByteArray> headerValues(const HttpHeaderList& headers, QByteArrayView name);
// The values of NAME joined with ", " as RFC 9110 §5.3 allows; empty optional-like (isNull) when absent.
QByteArray combinedHeader(const HttpHeaderList& headers, QByteArrayView name);
bool hasHeader(const HttpHeaderList& headers, QByteArrayView name);
