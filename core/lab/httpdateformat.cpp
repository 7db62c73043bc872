// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab/httpdateformat.h"

#include <QDateTime>
#include <QLocale>

using namespace Qt::StringLiterals;

QByteArray HttpDateFormat::format(const QDateTime& when, Form form)
{
    const QDateTime utc = when.toUTC();
    const QLocale c = QLocale::c();
    switch (form) {
    case Form::ImfFixdate: // Sun, 06 Nov 1994 08:49:37 GMT
        return c.toString(utc, u"ddd, dd MMM yyyy HH:mm:ss 'GMT'"_s).toLatin1();
    case Form::Rfc850: // Sunday, 06-Nov-94 08:49:37 GMT
        return c.toString(utc, u"dddd, dd-MMM-yy HH:mm:ss 'GMT'"_s).toLatin1();
    case Form::Asctime: { // Sun Nov  6 08:49:37 1994
        const QString day = QString::number(utc.date().day()).rightJustified(2, u' ');
        return (c.toString(utc, u"ddd MMM "_s) + day + c.toString(utc, u" HH:mm:ss yyyy"_s)).toLatin1();
    }
    }
    return {};
}
