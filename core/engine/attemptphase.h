// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMetaType>
#include <QString>

// How far an attempt got, in order. Errors are classified by the furthest phase reached.
enum class AttemptPhase {
    Scheduled, // a wait ended or the run began: the attempt is due
    Started, // handed to QNetworkAccessManager
    Connecting, // a new TCP connection is being opened
    TlsDone, // the TLS handshake completed
    RequestSent, // the request (headers and body) was handed to the socket
    HeadersReceived, // status line and headers parsed
    FirstByte, // the first response body byte arrived
    Finished,
};

QString attemptPhaseName(AttemptPhase phase); // "scheduled", "started", "connecting", "tls-done", …

// Why the engine aborted an attempt (recorded before abort(), which finishes the reply synchronously).
enum class AbortReason {
    None,
    ConnectTimeout, // the engine's connect timer
    AttemptTimeout, // the engine's per-attempt total timer
    Deadline, // the run's overall deadline
    Cancelled, // the user cancelled
    HedgeLost, // a copy of a hedged request still in flight when another copy's answer won (issue 28 §2)
};

QString abortReasonName(AbortReason reason); // "", "connect-timeout", "attempt-timeout", "deadline", "cancelled", "hedge-lost"

Q_DECLARE_METATYPE(AttemptPhase)
