// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading a urllib3 `Retry(...)` call back into a policy (issue 30 §4): the keyword arguments as written,
// literals only, mapped onto the urllib3 preset's model of Retry (resources/presets/urllib3.json, after
// retry-systems.md §4a) with Retry's own defaults (backoff_factor 0, total 10).

#include "codegen/codeexport.h"

#include <QByteArray>

// The first `Retry(`, `urllib3.Retry(` or `urllib3.util.retry.Retry(` call in TEXT (comments and
// assignments around it are fine). Arguments it cannot read or a policy cannot hold are listed in `lost`
// with the argument's name as path; input that holds no such call, or is too large or nested too deeply,
// gives `problems`.
CodeImport importUrllib3Retry(const QByteArray& text);
