// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Fast JSON text emission for large sessions: appends to a QByteArray without building QJsonObjects.

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace JsonText {
void string(QByteArray& out, QByteArrayView utf8); // quoted and escaped
inline void string(QByteArray& out, const QString& s) { string(out, QByteArrayView(s.toUtf8())); }
void key(QByteArray& out, const char* name, bool& first); // ,"name":
void integer(QByteArray& out, qint64 v);
void millisFromNs(QByteArray& out, qint64 ns); // exact: "12.345678" (ns precision, trailing zeros cut)
void number(QByteArray& out, double v);
// Parses what millisFromNs wrote (any JSON number) back to ns; false when not a number.
bool nsFromMillisText(QByteArrayView text, qint64* ns);
}
