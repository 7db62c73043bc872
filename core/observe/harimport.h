// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A HAR 1.2 file (saved by browser developer tools, Charles, mitmproxy, HTTP Toolkit) read as the exchanges
// a client made, for the same inference as the lab's live traffic (retryinference.h).
//
// Per entry: arrival = startedDateTime (when the client began the attempt), the request sent after the
// blocked, dns, connect and send timings, the answer's head after `wait` and its end after `receive`
// (or at startedDateTime + time). Request headers as recorded (HTTP/2 pseudo-headers such as :authority
// are left out; the URL keeps the authority), the body from postData.text, the answer's status, headers and
// content size. Status 0 is an attempt without an answer; Chrome's `_error` tells a reset, a closed
// connection or a timeout apart (net::ERR_CONNECTION_RESET, …_CLOSED, …_TIMED_OUT). Entries whose URL is
// not http(s) (data:, ws:, blob:) are not HTTP exchanges and are skipped, and counted.
//
// Bad input is refused with the line and the JSON path of the first problem:
// "line 41: $.log.entries[3].request.url: \"/v1/x\" is not an absolute http(s) URL".

#include "lab/labexchange.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QUrl>

class QIODevice;

struct HarImport
{
    QList<LabExchange> exchanges; // in file order; times in ms since wallOrigin
    QHash<quint64, QUrl> urls; // by LabExchange::requestId: each entry's URL as recorded
    QDateTime wallOrigin; // the earliest startedDateTime
    QString creator; // log.creator: "Firefox 128.0", "mitmproxy 10.1"
    int skipped = 0; // entries that are not HTTP(S)
    QString problem; // empty when the file was read

    bool ok() const { return problem.isEmpty(); }

    static HarImport read(QIODevice& device);
    static HarImport readFile(const QString& path);
};
