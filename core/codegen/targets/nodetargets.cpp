// SPDX-License-Identifier: GPL-3.0-or-later
// The got, ky, axios-retry, cockatiel targets.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"

QList<CodeTarget> nodeTargets()
{
    return {};
}
