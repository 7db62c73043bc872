// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The `curl` preset with a pasted command's retry options and timeouts filled in (as curl's
// tool_operate.c reads them):
// --retry N → N retries; --retry-delay S → a constant S wait (0 keeps the 1 s doubling);
// --retry-max-time S → a deadline of S (checked before each wait: curl also lets a backoff wait cross it);
// --retry-connrefused → refused connections retried; --retry-all-errors → every transport error retried;
// -m → the attempt timeout; --connect-timeout → the connect timeout.

#include "policy/retrypolicy.h"

#include <QStringList>

#include <optional>

struct CurlRequest;

namespace CurlPreset {
// Whether the command has anything for the preset.
bool hasKnobs(const CurlRequest& request);

struct Result
{
    std::optional<RetryPolicy> policy; // unset with `problem` when the preset did not load
    QStringList changes; // one line per knob set: "max attempts 4 (--retry 3)"
    QString problem;
};
Result fromCommand(const CurlRequest& request);
}
