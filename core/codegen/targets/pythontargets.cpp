// SPDX-License-Identifier: GPL-3.0-or-later
// The urllib3, tenacity targets.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"

QList<CodeTarget> pythonTargets()
{
    return {};
}
