// SPDX-License-Identifier: GPL-3.0-or-later
// Herd experiment files (resources/docs/herd.md): any bytes give an experiment or problems, never both; an
// experiment read is written and read back unchanged, and it validates (what the simulator is handed).
#include "fuzzsupport.h"
#include "sim/herdexperimentjson.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    const HerdExperimentParse result = herdExperimentFromBytes(input);
    Fuzz::check(result.ok() == result.problems.isEmpty(), "an experiment with problems, or no experiment and no problem");
    for (const PolicyProblem& p : result.problems)
        Fuzz::check(!p.message.isEmpty(), "a problem without a message", p.path.toUtf8());
    if (result.ok()) {
        Fuzz::check(validate(*result.experiment).isEmpty(), "an experiment read that does not validate");
        const QByteArray written = herdExperimentToBytes(*result.experiment);
        const HerdExperimentParse back = herdExperimentFromBytes(written);
        Fuzz::check(back.ok(), "an experiment written does not read back", written);
        Fuzz::check(*back.experiment == *result.experiment, "an experiment changes through JSON", input + "\n->\n" + written);
    }
    return 0;
}
