// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// curl's URL-encoding of --data-urlencode and --url-query values (curl 7.88, src/tool_getparam.c): the
// unreserved characters A–Z a–z 0–9 - . _ ~ stay, a space becomes '+', every other byte %XX (upper case).

#include <QByteArray>
#include <QString>

#include <functional>

namespace CurlEncoding {
QByteArray formEncode(QByteArrayView bytes);

// One --data-urlencode argument: "content", "=content", "name=content", "@file" or "name@file" (the file's
// bytes encoded). READ_FILE returns a file's bytes or sets *ERROR. Empty with *ERROR set on failure.
using FileReader = std::function<QByteArray(const QString& path, QString* error)>;
QByteArray dataUrlencode(const QString& argument, const FileReader& readFile, QString* error);
}
