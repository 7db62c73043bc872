// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/httpfield.h"

QList<QByteArray> headerValues(const HttpHeaderList& headers, QByteArrayView name)
{
    QList<QByteArray> values;
    for (const auto& [key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            values << value;
    }
    return values;
}

QByteArray combinedHeader(const HttpHeaderList& headers, QByteArrayView name)
{
    const QList<QByteArray> values = headerValues(headers, name);
    if (values.isEmpty())
        return {};
    QByteArray joined = values.first().isNull() ? QByteArray("") : values.first();
    for (qsizetype i = 1; i < values.size(); ++i)
        joined += ", " + values.at(i);
    return joined;
}

bool hasHeader(const HttpHeaderList& headers, QByteArrayView name)
{
    for (const auto& entry : headers) {
        if (entry.first.compare(name, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}
