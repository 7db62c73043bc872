// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Microsoft.Extensions.Http.Resilience targets (C# and appsettings.json), listed by dotnetTargets() after Polly.

#include "codegen/codeexport.h"

QList<CodeTarget> mehrTargets();
