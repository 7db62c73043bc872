// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "http/structuredfield.h"

#include <QByteArrayView>
#include <QString>

#include <optional>

// The RFC 9651 §4.2 parsing algorithms over one field value. Each method is one algorithm of the RFC, in
// the same order and with the same failure points. The cursor only moves forward and every loop consumes
// at least one byte or stops, so any input terminates in linear time. Use the parseSf* functions of
// structuredfield.h; this class is their implementation.
class StructuredFieldParser
{
public:
    explicit StructuredFieldParser(QByteArrayView input);

    // The whole value as one top-level type; leading and trailing SP are ignored. ERROR, when given, gets
    // the reason and byte offset of a failure.
    std::optional<SfItem> parseItemField(QString* error);
    std::optional<SfList> parseListField(QString* error);
    std::optional<SfDictionary> parseDictionaryField(QString* error);

private:
    template <typename Result, typename Body>
    std::optional<Result> whole(Body body, QString* error);
    template <typename T>
    std::optional<T> fail(const char* reason);

    bool atEnd() const;
    char peek() const;
    void skipSp();
    void skipOws();

    std::optional<SfList> list();
    std::optional<SfDictionary> dictionary();
    std::optional<SfItem> item();
    std::optional<SfListMember> itemOrInnerList();
    std::optional<SfInnerList> innerList();
    std::optional<SfParameters> parameters();
    std::optional<QByteArray> key();
    std::optional<SfBareItem> bareItem();
    std::optional<SfBareItem> number();
    std::optional<SfBareItem> string();
    std::optional<SfBareItem> token();
    std::optional<SfBareItem> byteSequence();
    std::optional<SfBareItem> boolean();
    std::optional<SfBareItem> date();
    std::optional<SfBareItem> displayString();

    QByteArrayView m_in;
    qsizetype m_pos = 0;
    QString m_error;
};
