// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration YAML reader (codegen/yamlreader.h) and the importers built on it: any bytes give a tree or
// one problem naming a line and column, never both; a tree read is written as one-line JSON (valid YAML flow)
// and reads back the same; the Envoy and resilience4j importers give a policy or problems, never a policy with
// problems.
#include "codegen/targets/proxytargets.h"
#include "codegen/targets/resilience4jimport.h"
#include "codegen/yamlreader.h"
#include "fuzzsupport.h"

#include <QJsonArray>
#include <QJsonDocument>

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    const YamlDocument doc = YamlReader::parse(input);
    Fuzz::check(doc.ok() || doc.problem.startsWith(QStringLiteral("line ")), "a problem without its line", doc.problem.toUtf8());
    Fuzz::check(doc.ok() || doc.value.isNull(), "a tree beside a problem");
    if (doc.ok()) {
        const QByteArray wrapped = QJsonDocument(QJsonArray { doc.value }).toJson(QJsonDocument::Compact);
        const QByteArray json = wrapped.mid(1, wrapped.size() - 2);
        const YamlDocument back = YamlReader::parse(json);
        const bool limit = back.problem.contains(QStringLiteral("nested deeper")) || back.problem.contains(QStringLiteral("more than"));
        if (!limit) {
            Fuzz::check(back.ok(), "a tree written as JSON does not read back", json + "\n" + back.problem.toUtf8());
            Fuzz::check(back.value == doc.value, "a tree changes through JSON", input + "\n->\n" + json);
        }
    }
    for (const CodeImport& in : { importEnvoy(input), importResilience4jYaml(input) }) {
        Fuzz::check(!in.policy || in.problems.isEmpty(), "a policy with problems");
        Fuzz::check(in.policy || !in.problems.isEmpty(), "neither a policy nor a problem");
    }
    return 0;
}
