// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's HTTP request parser fed incrementally: the input (after two bytes that choose a split point)
// is fed whole, in two parts split there, and — when small — one byte at a time. All three must read the
// same requests and fail, if they fail, with the same status: a request's meaning never depends on how
// TCP happened to cut it. Each is also parsed pausing at every head and streaming the body (what the lab does
// for a forwarded request): the streamed slices must concatenate to the body the whole parse collected, with
// the same requests and the same failure.
#include "fuzzsupport.h"
#include "lab/httprequestparser.h"

#include <QList>

#include <utility>

namespace {

QByteArray describe(const LabRequest& r, const QByteArray& body)
{
    QByteArray out = r.method + ' ' + r.target + " 1." + QByteArray::number(r.minorVersion)
        + (r.keepAlive ? " keep" : " close") + (r.chunked ? " chunked\n" : "\n");
    for (const auto& [name, value] : r.headers)
        out += name + ": " + value + '\n';
    return out + "body " + QByteArray::number(body.size()) + ':' + body + '\n';
}

// Everything the parser made of CHUNKS fed in order: one line per request, then the failure if any.
// STREAMED: pause at each head and stream its body (the same limit for both ways of taking it).
QByteArray parse(const QList<QByteArrayView>& chunks, bool streamed = false)
{
    HttpParserLimits limits;
    limits.maxBodyBytes = 64 * 1024;
    limits.maxStreamedBodyBytes = limits.maxBodyBytes;
    HttpRequestParser parser(limits);
    parser.setPauseAtHead(streamed);
    QByteArray buffer;
    QByteArray out;
    QByteArray body; // the streamed slices of the request in progress
    int requests = 0;
    for (const QByteArrayView chunk : chunks) {
        buffer.append(chunk.data(), chunk.size());
        for (;;) {
            const HttpRequestParser::State state = parser.feed(buffer);
            const QByteArray slice = parser.takeBodyChunk();
            Fuzz::check(streamed || slice.isEmpty(), "body slices without streaming");
            body += slice;
            if (state == HttpRequestParser::State::HeadComplete) {
                Fuzz::check(streamed, "paused at a head without being asked");
                parser.streamBody();
                continue;
            }
            if (state == HttpRequestParser::State::Failed)
                return out + "failed " + QByteArray::number(parser.errorStatus()) + '\n';
            if (state == HttpRequestParser::State::NeedMore)
                break;
            Fuzz::check(parser.bodyBytesRead() == (streamed ? body.size() : parser.partial().body.size()),
                "bodyBytesRead() is not the body's size");
            const LabRequest request = parser.takeRequest();
            Fuzz::check(!streamed || request.body.isEmpty(), "a streamed body was also collected");
            out += describe(request, streamed ? std::exchange(body, {}) : request.body);
            if (++requests >= 200)
                return out;
        }
    }
    return out + (parser.inProgress() ? "incomplete\n" : "idle\n");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    const size_t choice = size_t(data[0]) << 8 | data[1];
    const QByteArrayView input(reinterpret_cast<const char*>(data + 2), qsizetype(size - 2));
    const qsizetype split = input.isEmpty() ? 0 : qsizetype(choice % size_t(input.size() + 1));
    const QByteArray whole = parse({ input });
    const QByteArray two = parse({ input.first(split), input.sliced(split) });
    Fuzz::check(whole == two, "whole and split parses differ", "whole:\n" + whole + "\nsplit:\n" + two);
    const QByteArray streamed = parse({ input.first(split), input.sliced(split) }, true);
    Fuzz::check(whole == streamed, "collected and streamed bodies differ", "whole:\n" + whole + "\nstreamed:\n" + streamed);
    if (input.size() <= 4096) {
        QList<QByteArrayView> bytes;
        for (qsizetype i = 0; i < input.size(); ++i)
            bytes << input.sliced(i, 1);
        const QByteArray single = parse(bytes);
        Fuzz::check(whole == single, "whole and byte-by-byte parses differ", "whole:\n" + whole + "\nbytes:\n" + single);
        const QByteArray singleStreamed = parse(bytes, true);
        Fuzz::check(whole == singleStreamed, "collected and byte-by-byte streamed bodies differ",
            "whole:\n" + whole + "\nstreamed bytes:\n" + singleStreamed);
    }
    return 0;
}
