// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Assigns an error class by the phase an attempt reached, not by Qt's error code alone
// (Qt 6.4 reports one RemoteHostClosedError for a close at any point: it means `tls` before the
// handshake, `connection-lost` after the request was sent, `protocol` once headers arrived).

#include "engine/attemptphase.h"
#include "policy/errorclass.h"

#include <QNetworkReply>

#include <optional>

struct ClassifierInput
{
    QNetworkReply::NetworkError code = QNetworkReply::NoError;
    AttemptPhase reached = AttemptPhase::Started;
    AbortReason abort = AbortReason::None;
    std::optional<int> status; // the answer's status, when its head arrived
    bool tls = false; // https
    // True when Qt signals the request going out (a non-empty body: requestSent). For an empty body over
    // plain HTTP Qt emits nothing between "connecting" and the answer, so "not sent" cannot be proven.
    bool sendObservable = true;
};

// The code Qt gives a complete answer with STATUS (NoError below 400): an answer, not a transport failure.
QNetworkReply::NetworkError qtErrorForStatus(int status);

// nullopt: no error (an HTTP answer, whatever its status), or a user cancel.
std::optional<ErrorClass> classifyError(const ClassifierInput& input);
