// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QUrl>

// The one rule for a URL that requests are sent to (run --url, replay --base-url, the window's URL field,
// a run the controller starts): an absolute http or https URL with a host and, when a port is given, a
// port from 1 to 65535. Port 0 parses as a URL but no connection can be made to it.
class TargetUrl
{
public:
    struct Parsed
    {
        QUrl url; // set only when there is no problem
        QString problem; // one sentence quoting the text; empty when the URL can be a target
        bool ok() const { return problem.isEmpty(); }
    };

    // Reads TEXT as a user typed it (surrounding spaces ignored, strict parsing, no guessing): text that is
    // a host and path without a scheme ("127.0.0.1:18080/charge") is refused with the http:// form suggested.
    static Parsed parse(const QString& text);
    // Why URL cannot be a request target; empty when it can.
    static QString problem(const QUrl& url);
};
