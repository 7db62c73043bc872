// SPDX-License-Identifier: GPL-3.0-or-later
// The Polly 8, Microsoft.Extensions.Http.Resilience targets.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"

QList<CodeTarget> dotnetTargets()
{
    return {};
}
