// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The limits a scenario may set on the fault lab (resources/docs/scenario-format.md, "limits"): each one
// given replaces the server's own setting (FaultServerOptions) while the scenario plays. A request that
// breaks one is answered by the lab itself — 414, 431, 413 or 408 — and a connection past the cap gets a
// 503; each is reported as a Rejected lab event with its reason.

#include <QtGlobal>

#include <chrono>
#include <optional>

struct FaultServerLimits
{
    std::optional<qsizetype> requestLineBytes; // → 414
    std::optional<qsizetype> headerBytes; // all header lines together → 431
    std::optional<int> headerCount; // → 431
    std::optional<qsizetype> bodyBytes; // Content-Length or de-chunked size → 413
    std::optional<qint64> forwardBodyBytes; // a body streamed to the upstream (0: no limit) → 413
    std::optional<std::chrono::milliseconds> idleTimeout; // keep-alive connection with nothing sent: closed
    std::optional<std::chrono::milliseconds> headerTimeout; // first byte to the end of the head → 408
    std::optional<std::chrono::milliseconds> requestTimeout; // first byte to the end of the body → 408
    std::optional<int> maxConnections; // open at once; more are answered 503 and closed

    friend bool operator==(const FaultServerLimits&, const FaultServerLimits&) = default;
};
