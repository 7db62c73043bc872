// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/dotnettargets.h"

QList<CodeTarget> mehrTargets()
{
    return {};
}
