// SPDX-License-Identifier: GPL-3.0-or-later
// Reading a urllib3 `Retry(...)` call back into a policy (issue 30 §4).
#include "codegen/codeexport.h"

using namespace Qt::StringLiterals;

CodeImport importUrllib3Retry(const QByteArray& text)
{
    CodeImport out;
    if (!text.contains("Retry("))
        out.problems << u"No Retry(...) call found."_s;
    return out;
}
