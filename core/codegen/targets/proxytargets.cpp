// SPDX-License-Identifier: GPL-3.0-or-later
// The Envoy, gRPC service config targets.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"

QList<CodeTarget> proxyTargets()
{
    return {};
}
