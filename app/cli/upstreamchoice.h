// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "lab/faultscenario.h"
#include "lab/upstreamtarget.h"

#include <QString>

#include <optional>

class CliArgs;

// The upstream a command was given (`--upstream URL [--upstream-ca FILE | --upstream-insecure]
// [--upstream-timeout S] [--upstream-max-body BYTES] [--forwarded-headers]`), and the scenario that forwards everything (pure
// observation).
namespace UpstreamChoice {

// Declares the five options on CLI.
void declare(CliArgs& cli);
// nullopt without --upstream (and the other four then refused); *error set to one line when wrong.
std::optional<UpstreamTarget> read(CliArgs& cli, QString* error);
// One route for every method and path, one step: forward, forever.
FaultScenario forwardEverything();

} // namespace UpstreamChoice
