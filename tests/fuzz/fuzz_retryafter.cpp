// SPDX-License-Identifier: GPL-3.0-or-later
// Retry-After and HTTP-date: the input's lines as Retry-After / retry-after-ms field lines, each line as a
// hint value in every format and as an HTTP-date. A valid date formatted again (IMF-fixdate) reads back
// as the same instant and conformant; a delay is never negative for Retry-After and never past the cap.
#include "fuzzsupport.h"
#include "http/httpdate.h"
#include "http/retryafter.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    const QDateTime now = Fuzz::fixedNow();
    HttpHeaderList headers;
    for (const QByteArray& line : input.split('\n')) {
        headers.append({ line.size() % 3 == 0 ? "retry-after-ms" : "Retry-After", line });
        const HttpDate date = parseHttpDate(line, now);
        Fuzz::check(date.isValid() == date.error.isEmpty(), "date: valid with an error, or invalid without");
        if (date.isValid()) {
            const QByteArray again = formatHttpDate(date.dateTime);
            if (!again.isEmpty()) {
                const HttpDate back = parseHttpDate(again, now);
                Fuzz::check(back.isValid() && back.conformant && back.dateTime == date.dateTime,
                    "formatHttpDate output does not read back", line + " -> " + again);
            }
        }
        for (const HintValueFormat format : { HintValueFormat::RetryAfter, HintValueFormat::Milliseconds, HintValueFormat::Seconds }) {
            const RetryAfterValue v = parseHintValue(line, format, now);
            if (v.delay) {
                Fuzz::check(v.delay->count() <= kMaxHintDelay.count() && v.delay->count() >= -kMaxHintDelay.count(),
                    "delay past the cap", line);
                if (format == HintValueFormat::RetryAfter)
                    Fuzz::check(v.delay->count() >= 0, "negative Retry-After delay", line);
            }
        }
    }
    const std::optional<RetryAfterValue> value = parseRetryAfter(headers, now);
    if (value && value->delay)
        Fuzz::check(value->delay->count() <= kMaxHintDelay.count(), "delay past the cap");
    return 0;
}
