// SPDX-License-Identifier: GPL-3.0-or-later
#include "http/structuredfield.h"

#include "http/structuredfieldparser.h"

namespace {

QByteArray joinLines(const QList<QByteArray>& lines)
{
    QByteArray joined;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            joined += ", ";
        joined += lines.at(i);
    }
    return joined;
}

} // namespace

std::optional<SfItem> parseSfItem(QByteArrayView field, QString* error)
{
    return StructuredFieldParser(field).parseItemField(error);
}

std::optional<SfList> parseSfList(QByteArrayView field, QString* error)
{
    return StructuredFieldParser(field).parseListField(error);
}

std::optional<SfDictionary> parseSfDictionary(QByteArrayView field, QString* error)
{
    return StructuredFieldParser(field).parseDictionaryField(error);
}

std::optional<SfItem> parseSfItem(const QList<QByteArray>& fieldLines, QString* error)
{
    return parseSfItem(QByteArrayView(joinLines(fieldLines)), error);
}

std::optional<SfList> parseSfList(const QList<QByteArray>& fieldLines, QString* error)
{
    return parseSfList(QByteArrayView(joinLines(fieldLines)), error);
}

std::optional<SfDictionary> parseSfDictionary(const QList<QByteArray>& fieldLines, QString* error)
{
    return parseSfDictionary(QByteArrayView(joinLines(fieldLines)), error);
}

std::optional<qint64> sfInteger(const SfParameters& params, QByteArrayView key)
{
    const SfBareItem* value = params.find(key);
    if (value && std::holds_alternative<qint64>(*value))
        return std::get<qint64>(*value);
    return std::nullopt;
}

std::optional<QString> sfString(const SfParameters& params, QByteArrayView key)
{
    const SfBareItem* value = params.find(key);
    if (value && std::holds_alternative<QString>(*value))
        return std::get<QString>(*value);
    return std::nullopt;
}

std::optional<QByteArray> sfByteSequence(const SfParameters& params, QByteArrayView key)
{
    const SfBareItem* value = params.find(key);
    if (value && std::holds_alternative<SfByteSequence>(*value))
        return std::get<SfByteSequence>(*value).value;
    return std::nullopt;
}
