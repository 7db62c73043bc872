// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

class QDateTime;

// Formats HTTP-dates the way servers emit them (RFC 9110 §5.6.7), including the two obsolete forms a
// recipient must still accept, so scenarios can send each of them.
class HttpDateFormat
{
public:
    enum class Form { ImfFixdate, Rfc850, Asctime };
    static QByteArray format(const QDateTime& utc, Form form);
};
