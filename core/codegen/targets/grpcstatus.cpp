// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/grpcstatus.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace GrpcStatus {

namespace {
const QStringList& names()
{
    static const QStringList n { u"OK"_s, u"CANCELLED"_s, u"UNKNOWN"_s, u"INVALID_ARGUMENT"_s, u"DEADLINE_EXCEEDED"_s,
        u"NOT_FOUND"_s, u"ALREADY_EXISTS"_s, u"PERMISSION_DENIED"_s, u"RESOURCE_EXHAUSTED"_s, u"FAILED_PRECONDITION"_s,
        u"ABORTED"_s, u"OUT_OF_RANGE"_s, u"UNIMPLEMENTED"_s, u"INTERNAL"_s, u"UNAVAILABLE"_s, u"DATA_LOSS"_s,
        u"UNAUTHENTICATED"_s };
    return n;
}
} // namespace

QString name(int code)
{
    return names().value(code);
}

std::optional<int> fromName(const QString& text)
{
    const qsizetype i = names().indexOf(text.toUpper());
    return i < 0 ? std::nullopt : std::optional<int>(int(i));
}

int fromHttp(int status)
{
    switch (status) {
    case 400: case 431: return 13; // INTERNAL
    case 401: return 16; // UNAUTHENTICATED
    case 403: return 7; // PERMISSION_DENIED
    case 404: return 12; // UNIMPLEMENTED
    case 429: case 502: case 503: case 504: return 14; // UNAVAILABLE
    default: return 2; // UNKNOWN
    }
}

int fromError(ErrorClass error)
{
    switch (error) {
    case ErrorClass::ResponseTimeout: return 4;
    case ErrorClass::Protocol: return 13;
    default: return 14;
    }
}

} // namespace GrpcStatus
