// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `retrylab policy export|import|targets` (policycodecommand.cpp), dispatched by `retrylab policy`.

#include "cli/cliio.h"

#include <QStringList>

int exportPolicyCode(const QStringList& args, CliIo& io);
int importPolicyCode(const QStringList& args, CliIo& io);
int listCodeTargets(CliIo& io);
