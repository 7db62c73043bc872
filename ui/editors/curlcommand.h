// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/httpfield.h"

#include <QByteArray>
#include <QString>

// What a pasted `curl …` command asks for: method, URL, headers and body. Options that do not change
// the request (-s, -v, -L, --compressed…) are skipped; anything unreadable is reported in `error`.
struct CurlCommand
{
    QString method; // empty: GET, or POST when a body is given
    QString url;
    HttpHeaderList headers;
    QByteArray body;
    bool hasBody = false;
    QString error;

    bool ok() const { return error.isEmpty() && !url.isEmpty(); }
    // Splits TEXT like a POSIX shell would ('…', "…", backslashes, line continuations) and reads it.
    static CurlCommand parse(const QString& text);
};
