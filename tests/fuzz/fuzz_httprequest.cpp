// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's HTTP request parser, the whole input at once: every pipelined request in it, until the parser
// completes none or fails. Never more than it was given, a failure always has a 4xx/5xx status and reason.
#include "fuzzsupport.h"
#include "lab/httprequestparser.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    QByteArray buffer = Fuzz::bytes(data, size);
    HttpParserLimits limits;
    limits.maxBodyBytes = 64 * 1024; // keep each run small; the limit itself is part of what is tested
    HttpRequestParser parser(limits);
    for (int requests = 0; requests < 1000; ++requests) {
        const qsizetype before = buffer.size();
        const HttpRequestParser::State state = parser.feed(buffer);
        Fuzz::check(buffer.size() <= before, "feed() grew the buffer");
        if (state == HttpRequestParser::State::Failed) {
            Fuzz::check(parser.errorStatus() >= 400 && parser.errorStatus() <= 599, "failure without a 4xx/5xx status");
            Fuzz::check(!parser.errorReason().isEmpty(), "failure without a reason");
            break;
        }
        if (state == HttpRequestParser::State::NeedMore)
            break;
        const LabRequest request = parser.takeRequest();
        Fuzz::check(!request.method.isEmpty(), "a complete request without a method");
    }
    return 0;
}
