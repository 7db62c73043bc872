// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a pasted `curl …` command line sends, read as curl 7.88.1 (Debian 12) reads it: the method, URL,
// headers and body curl would put on the wire, the redirect, HTTP version and timeout choices, and the
// --retry family (which can fill the `curl` preset). Every option of the command gets a note saying what
// it became or why it is not applied; an option curl does not have, a quote left open or something that
// cannot be one Retrylab request (multipart -F, --next, -K) is an error. Checked against the real curl in
// tests/core/http/tst_curlrequest.
//
// Not to be confused with CurlCommand (core/session/export/curlcommand.h), which writes a recorded attempt as a
// curl command line: this reads one.

#include "http/httpfield.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

// curl's --retry family, as written (seconds turned into milliseconds).
struct CurlRetryOptions
{
    std::optional<int> retries; // --retry N: retries after the first attempt
    std::optional<std::chrono::milliseconds> delay; // --retry-delay S: a fixed wait; 0 keeps curl's doubling
    std::optional<std::chrono::milliseconds> maxTime; // --retry-max-time S: 0 is unlimited
    bool allErrors = false; // --retry-all-errors
    bool connectionRefused = false; // --retry-connrefused
    bool any() const { return retries || delay || maxTime || allErrors || connectionRefused; }
};

struct CurlOptionNote
{
    QString option; // as written: "--compressed", "-k", "-sSL" is three notes ("-s", "-S", "-L")
    bool applied = false;
    QString text; // what it became, or why it is not applied
};

struct CurlRequest
{
    QString method = QStringLiteral("GET");
    QString url; // with -G data and --url-query applied, the scheme added when missing, credentials moved out
    // The headers curl sends because of the command: -H lines, and what -u, -A, -e, -b, -r, --compressed,
    // --json and -d imply. curl's own Host, User-Agent, Accept, Content-Length and Expect are not here.
    HttpHeaderList headers;
    // Lower-case names the command removes from curl's own headers with -H 'Name:' (accept, user-agent…).
    QList<QByteArray> removedHeaders;
    QByteArray body;
    bool hasBody = false;
    bool followRedirects = false; // -L
    std::optional<bool> http2; // --http2: true, --http1.1: false
    std::optional<std::chrono::milliseconds> maxTime; // -m: the longest one transfer (attempt) may take
    std::optional<std::chrono::milliseconds> connectTimeout;
    CurlRetryOptions retry;
    QList<CurlOptionNote> notes; // one per option, in the command's order
    QString error; // empty when the command was read

    bool ok() const { return error.isEmpty() && !url.isEmpty(); }
    QList<CurlOptionNote> notApplied() const;
};

class CurlRequestParser
{
public:
    // Reads COMMAND_LINE (a leading "curl" and "$ " prompt are optional). @FILE arguments (-d @body.json,
    // --data-binary @x, -T file, -H @headers.txt) are read relative to BASE_DIR (empty: the current one).
    static CurlRequest parse(const QString& commandLine, const QString& baseDir = QString());
};
