// SPDX-License-Identifier: GPL-3.0-or-later
// The resilience4j targets.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"

QList<CodeTarget> javaTargets()
{
    return {};
}
