// SPDX-License-Identifier: GPL-3.0-or-later
// The Idempotency-Key parser: the input as one field value, and its lines as field lines. A valid key
// written again in its form (formatIdempotencyKey) reads back as the same key.
#include "fuzzsupport.h"
#include "http/idempotencykey.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    const IdempotencyKey key = parseIdempotencyKey(input);
    Fuzz::check(key.isValid() != key.key.isEmpty(), "valid without a key, or a key with an error", input);
    if (key.isValid()) {
        const IdempotencyKeyFormat format = key.quoted ? IdempotencyKeyFormat::Quoted : IdempotencyKeyFormat::Bare;
        const QByteArray written = formatIdempotencyKey(key.key, format);
        Fuzz::check(!written.isEmpty(), "a key read cannot be written in its own form", input);
        const IdempotencyKey back = parseIdempotencyKey(written);
        Fuzz::check(back.isValid() && back.key == key.key && back.quoted == key.quoted, "a key does not read back",
            input + " -> " + written);
    }
    HttpHeaderList headers;
    for (const QByteArray& line : input.split('\n'))
        headers.append({ "Idempotency-Key", line });
    const std::optional<IdempotencyKey> header = parseIdempotencyKeyHeader(headers);
    Fuzz::check(header.has_value(), "present field lines read as absent");
    if (headers.size() > 1)
        Fuzz::check(!header->isValid(), "several Idempotency-Key lines accepted");
    return 0;
}
