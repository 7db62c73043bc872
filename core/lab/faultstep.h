// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/httpfield.h"
#include "lab/latencyramp.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

#include <chrono>
#include <optional>

// How a Retry-After (or retry-after-ms) value is written.
enum class RetryAfterForm { None, Seconds, ImfFixdate, Rfc850, Asctime, Milliseconds };

// How a server that is down fails a request: the port closed (connection refused; a request on a
// connection opened before gets an RST), an answer with a status, or an RST.
enum class OutageMode { Refuse, Status, Reset };

// One thing a route can do with a request. Which fields matter depends on `kind`; the scenario format
// (resources/docs/scenario-format.md) documents each.
struct FaultStep
{
    enum class Kind { Respond, Late, Close, Reset, Truncate, Garbage, Hang, Refuse, RateLimit, Forward, Outage };

    Kind kind = Kind::Respond;
    int repeat = 1; // sequence/loop modes: play this step N times in a row (-1: forever)
    int weight = 1; // random mode
    QString note; // free text shown in logs ("payment 3: settled, answered late")

    // respond / late / truncate / rate-limit / outage (status mode): the answer.
    int status = 200;
    HttpHeaderList headers;
    QByteArray body; // template text ({{key}}, {{n}}…)
    QJsonValue json; // template JSON; when set, the body is its rendering and Content-Type is JSON
    RetryAfterForm retryAfterForm = RetryAfterForm::None;
    std::chrono::milliseconds retryAfter { 0 };

    std::chrono::milliseconds delay { 0 }; // before the status line (late: before the answer)
    // Instead of `delay`: a delay that moves along a ramp as the step plays (FaultServer works out each
    // play's delay and hands the playback the step with `delay` set to it).
    std::optional<LatencyRamp> latencyRamp;
    qsizetype dribbleBytes = 0; // > 0: body in pieces of this size…
    std::chrono::milliseconds dribbleInterval { 0 }; // …one every interval

    std::optional<bool> applied; // explicit: was the operation applied? default depends on kind and status
    qsizetype truncateAfter = -1; // truncate: body bytes sent before the cut (-1: half)
    bool truncateWithReset = false; // truncate: RST instead of FIN after the partial body
    QByteArray garbage; // garbage: the bytes (default: a line that is not HTTP)
    std::chrono::milliseconds duration { 0 }; // refuse: how long the port stays closed; hang: 0 = forever;
                                              // outage: how long the whole server is down
    OutageMode outageMode = OutageMode::Status; // outage: how every request fails while it lasts

    // forward: the upstream's answer is relayed with `headers` replacing its fields, `retry_after`,
    // `delay`/`dribble` as for respond, and these:
    std::optional<int> statusOverride; // the status the client gets instead of the upstream's
    bool answerLost = false; // "applied upstream, answer lost": close (or reset) instead of relaying

    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString& name);
    // The default for `applied` when the scenario does not say.
    bool appliesByDefault() const;
    // Whether this step writes an HTTP answer at all (even a partial one).
    bool writesAnswer() const;
};
