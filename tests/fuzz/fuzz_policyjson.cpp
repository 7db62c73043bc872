// SPDX-License-Identifier: GPL-3.0-or-later
// Policy JSON (resources/docs/policy-format.md): any bytes give a policy or problems, never both; a policy
// read is written and read back unchanged (policies round-trip through JSON losslessly).
#include "fuzzsupport.h"
#include "policy/policyjson.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    const PolicyParseResult result = policyFromJsonBytes(input);
    Fuzz::check(result.ok() == result.problems.isEmpty(), "a policy with problems, or no policy and no problem");
    for (const PolicyProblem& p : result.problems)
        Fuzz::check(!p.message.isEmpty(), "a problem without a message", p.path.toUtf8());
    if (result.ok()) {
        const QByteArray written = policyToJsonBytes(*result.policy);
        const PolicyParseResult back = policyFromJsonBytes(written);
        Fuzz::check(back.ok(), "a policy written does not read back", written);
        Fuzz::check(*back.policy == *result.policy, "a policy changes through JSON", input + "\n->\n" + written);
    }
    return 0;
}
