// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// gRPC status codes (grpc/grpc doc/statuscodes.md) and how an HTTP answer without grpc-status, or a transport
// failure, becomes one (doc/http-grpc-status-mapping.md): what the gRPC target writes and reads.

#include "policy/errorclass.h"

#include <QString>

#include <optional>

namespace GrpcStatus {
QString name(int code); // 14 → "UNAVAILABLE"; empty when not a code (0–16)
std::optional<int> fromName(const QString& name); // case-insensitive
// The code a client reports for an HTTP status that came without grpc-status: 429, 502, 503, 504 → 14 …
int fromHttp(int status);
// The code of a failed attempt: connection failures → UNAVAILABLE (14), response timeout → DEADLINE_EXCEEDED (4),
// a malformed answer → INTERNAL (13).
int fromError(ErrorClass error);
} // namespace GrpcStatus
