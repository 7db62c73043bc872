// SPDX-License-Identifier: GPL-3.0-or-later
// The cenkalti/backoff, hashicorp/go-retryablehttp targets.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"

QList<CodeTarget> goTargets()
{
    return {};
}
