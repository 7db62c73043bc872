// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A small, strict reader of the YAML configuration files use (Envoy routes, Spring Boot's application.yaml):
// block mappings and sequences by indentation, "- " items (also "- key: value" maps), plain, single- and
// double-quoted scalars, one-line flow sequences [a, b] and flow maps {a: 1}, comments and a leading "---".
// Anything else YAML has (anchors, aliases, tags, block scalars, complex keys, several documents) is refused
// with a problem naming its line and column, never guessed at. Qt has no YAML reader and none may be added.
//
// Scalars follow YAML 1.2's core schema: null, ~ and an empty value are null; true/false are booleans;
// decimal integers and floats are numbers; everything else, and every quoted scalar, is a string.

#include <QByteArray>
#include <QJsonValue>
#include <QString>

struct YamlDocument
{
    QJsonValue value; // the document's root (null for an empty document)
    QString problem; // empty when the text was read; else "line 3, column 5: …"
    bool ok() const { return problem.isEmpty(); }
};

namespace YamlReader {
inline constexpr qsizetype kMaxBytes = 1024 * 1024; // a configuration file, not a data set
inline constexpr int kMaxDepth = 64; // nesting of mappings, sequences and flow collections
inline constexpr int kMaxNodes = 100000;

YamlDocument parse(const QByteArray& text);
} // namespace YamlReader
