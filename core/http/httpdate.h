// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// HTTP-date (RFC 9110 §5.6.7): reading all three forms and writing IMF-fixdate.
//
// Strict grammar first; a small set of lenient readings (UTC for GMT, a missing or wrong weekday, a
// one-digit day, case differences, extra spaces, a four-digit RFC 850 year) is accepted but reported:
// `conformant` is false and `warnings` says why. Anything else is invalid and `error` says why.

#include <QByteArray>
#include <QByteArrayView>
#include <QDateTime>
#include <QString>
#include <QStringList>

enum class HttpDateForm {
    Invalid,
    ImfFixdate, // Sun, 06 Nov 1994 08:49:37 GMT
    Rfc850, // Sunday, 06-Nov-94 08:49:37 GMT (obsolete; two-digit year read relative to "now")
    Asctime, // Sun Nov  6 08:49:37 1994 (obsolete; assumed UTC)
};

// The result of reading one HTTP-date.
struct HttpDate
{
    QDateTime dateTime; // UTC; invalid when the text is not an HTTP-date
    HttpDateForm form = HttpDateForm::Invalid;
    bool conformant = false; // exactly one of the three RFC 9110 forms, nothing lenient
    QStringList warnings; // each lenient reading, in English (shown by inspect and the UI)
    QString error; // why the text is not an HTTP-date; empty when valid

    bool isValid() const { return dateTime.isValid(); }
};

// Reads TEXT (leading/trailing SP and HTAB are ignored, as for any field value). NOW is the reference
// for the RFC 850 two-digit year: a year that would be more than 50 years after NOW is read as the most
// recent past year with the same last two digits (RFC 9110 §5.6.7). A leap second (:60) is accepted and
// read as the following second.
HttpDate parseHttpDate(QByteArrayView text, const QDateTime& now);

// "Sun, 06 Nov 1994 08:49:37 GMT" (IMF-fixdate, the only form a sender may generate). TIME is converted
// to UTC and its milliseconds are dropped. Empty for an invalid TIME or a year outside 0001–9999.
QByteArray formatHttpDate(const QDateTime& time);

// "imf-fixdate", "rfc850", "asctime" or "invalid": stable names used in JSON, CLI output and reasons.
QString httpDateFormName(HttpDateForm form);
