// SPDX-License-Identifier: GPL-3.0-or-later
// The proxy's reader of an upstream's answer (lab/upstreamresponsereader.h), fed as TCP may cut it: the
// input (after two bytes: a split point, and whether the request was HEAD) is fed whole, in two parts split
// there, and — when small — one byte at a time, then the connection ends. All three must read the same
// answer (status, headers, body, whether the connection may be reused) or fail the same way: what the
// proxy relays never depends on how the bytes arrived.
#include "fuzzsupport.h"
#include "lab/upstreamresponsereader.h"

#include <QList>

namespace {

QByteArray stateName(UpstreamResponseReader::State s)
{
    switch (s) {
    case UpstreamResponseReader::State::NeedMore: return "need-more";
    case UpstreamResponseReader::State::Complete: return "complete";
    case UpstreamResponseReader::State::Garbage: return "garbage";
    case UpstreamResponseReader::State::TooLarge: return "too-large";
    }
    return "?";
}

QByteArray read(const QList<QByteArrayView>& chunks, bool head)
{
    UpstreamResponseReader reader(64 * 1024, head);
    UpstreamResponseReader::State state = UpstreamResponseReader::State::NeedMore;
    QByteArray out;
    // Bytes the upstream sent after its answer was complete: the connection cannot carry another request
    // (inside the reader when they came in the same read, here when they came later).
    bool sentMore = false;
    for (qsizetype i = 0; i < chunks.size(); ++i) {
        state = reader.feed(chunks.at(i).toByteArray());
        if (state != UpstreamResponseReader::State::NeedMore) {
            for (qsizetype j = i + 1; j < chunks.size(); ++j)
                sentMore = sentMore || !chunks.at(j).isEmpty();
            break;
        }
    }
    if (state == UpstreamResponseReader::State::NeedMore)
        out += "eof ";
    if (state == UpstreamResponseReader::State::NeedMore)
        state = reader.finishAtEof();
    out += stateName(state) + '\n';
    if (state == UpstreamResponseReader::State::Garbage || state == UpstreamResponseReader::State::TooLarge)
        return out + reader.problem().toUtf8() + '\n';
    out += QByteArray::number(reader.status()) + (reader.connectionReusable() && !sentMore ? " reusable\n" : " not-reusable\n");
    for (const auto& [name, value] : reader.headers())
        out += name + ": " + value + '\n';
    Fuzz::check(reader.body().size() <= 64 * 1024, "the body passed its limit");
    Fuzz::check(reader.status() >= 200 && reader.status() <= 999, "a complete answer with an interim or no status");
    return out + "body " + QByteArray::number(reader.body().size()) + ':' + reader.body() + '\n';
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
    const bool head = data[0] & 1;
    const size_t choice = size_t(data[0] >> 1) << 8 | data[1];
    const QByteArrayView input(reinterpret_cast<const char*>(data + 2), qsizetype(size - 2));
    const qsizetype split = input.isEmpty() ? 0 : qsizetype(choice % size_t(input.size() + 1));
    const QByteArray whole = read({ input }, head);
    const QByteArray two = read({ input.first(split), input.sliced(split) }, head);
    Fuzz::check(whole == two, "whole and split reads differ", "whole:\n" + whole + "\nsplit:\n" + two);
    if (input.size() <= 4096) {
        QList<QByteArrayView> bytes;
        for (qsizetype i = 0; i < input.size(); ++i)
            bytes << input.sliced(i, 1);
        const QByteArray single = read(bytes, head);
        Fuzz::check(whole == single, "whole and byte-by-byte reads differ", "whole:\n" + whole + "\nbytes:\n" + single);
    }
    return 0;
}
