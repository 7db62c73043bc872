// SPDX-License-Identifier: GPL-3.0-or-later
// Structured Fields (RFC 9651): the input as an Item, a List and a Dictionary, on one line and split into
// field lines at '\n' (joined with ", " by the parser, §4.2). A field that parses on one line parses the
// same when its members are sent on separate lines.
#include "fuzzsupport.h"
#include "http/structuredfield.h"

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    QString error;
    const std::optional<SfItem> item = parseSfItem(QByteArrayView(input), &error);
    Fuzz::check(item.has_value() == error.isEmpty(), "item: a failure without a reason, or a reason with a result");
    error.clear();
    const std::optional<SfList> list = parseSfList(QByteArrayView(input), &error);
    Fuzz::check(list.has_value() == error.isEmpty(), "list: a failure without a reason, or a reason with a result");
    const std::optional<SfDictionary> dict = parseSfDictionary(QByteArrayView(input));
    if (dict) {
        // Keys are unique and findable (the index and the entries agree).
        for (const auto& [key, value] : dict->entries)
            Fuzz::check(dict->find(key) == &value, "dictionary key not found at its own entry", key);
    }

    const QList<QByteArray> lines = input.split('\n');
    const std::optional<SfList> listLines = parseSfList(lines);
    const std::optional<SfDictionary> dictLines = parseSfDictionary(lines);
    if (!input.contains('\n')) {
        Fuzz::check(listLines == list, "one field line read differently from the field");
        Fuzz::check(dictLines == dict, "one field line read differently from the field");
    }
    return 0;
}
