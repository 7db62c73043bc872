// SPDX-License-Identifier: GPL-3.0-or-later
#include "session/format/attemptjson.h"

#include "session/format/attemptjsonwriter.h"

namespace AttemptJson {

void write(QByteArray& out, const AttemptStore& store, const PackedAttempt& attempt, const Redactor& redactor,
    const QDateTime& wallOriginUtc)
{
    JsonSink sink(out);
    AttemptJsonWriter(store, redactor, wallOriginUtc).write(sink, attempt);
}

} // namespace AttemptJson
