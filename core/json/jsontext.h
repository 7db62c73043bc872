// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Fast JSON text emission for large sessions: appends to a sink without building QJsonObjects.

#include "json/jsonsink.h"

#include <QByteArrayView>
#include <QString>

namespace JsonText {
void string(JsonSink& out, QByteArrayView utf8); // quoted and escaped
inline void string(JsonSink& out, const QString& s) { string(out, QByteArrayView(s.toUtf8())); }
void key(JsonSink& out, QByteArrayView name, bool& first); // ,"name":
void integer(JsonSink& out, qint64 v);
void unsignedInteger(JsonSink& out, quint64 v);
void millisFromNs(JsonSink& out, qint64 ns); // exact: "12.345678" (ns precision, trailing zeros cut)
void number(JsonSink& out, double v);
// Parses what millisFromNs wrote (any JSON number) back to ns; false when not a number.
// Refused (false) when the value does not fit qint64 nanoseconds (beyond ±292 years), never wrapped.
bool nsFromMillisText(QByteArrayView text, qint64* ns);
// The same for a number already read as a double (QJsonValue): rounded to the nanosecond.
bool nsFromMillis(double ms, qint64* ns);
}
