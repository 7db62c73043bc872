// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab inspect`'s input: any bytes on stdin give a report (exit 0) or a one-line refusal (exit 2: empty,
// binary, or no head), the same for text and --json; a JSON report is one valid JSON object.
#include "cli/clicommand.h"
#include "fuzzsupport.h"
#include "support/manualscheduler.h"

#include <QBuffer>
#include <QJsonDocument>
#include <QJsonObject>

namespace {
int inspect(const QByteArray& input, const QStringList& args, QString* out)
{
    QByteArray bytes = input;
    QBuffer in(&bytes);
    in.open(QIODevice::ReadOnly);
    QString err;
    QTextStream outStream(out);
    QTextStream errStream(&err);
    ManualClock clock; // inspect reads no time from it (--now-epoch), but every command is handed one
    ManualScheduler scheduler(clock);
    CliIo io { outStream, errStream, in, clock, scheduler };
    const int status = inspectCommand().run(args, io);
    outStream.flush();
    return status;
}
}

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    Fuzz::initApplication();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = Fuzz::bytes(data, size);
    const QStringList now { QStringLiteral("--now-epoch"), QStringLiteral("1787400000") };
    QString text;
    const int status = inspect(input, now, &text);
    Fuzz::check(status == CliExit::Ok || status == CliExit::Usage, "inspect exited neither 0 nor 2");
    QString json;
    Fuzz::check(inspect(input, now + QStringList { QStringLiteral("--json") }, &json) == status,
        "inspect --json and inspect disagree on the exit status");
    if (status != CliExit::Ok)
        return 0;
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &error);
    Fuzz::check(error.error == QJsonParseError::NoError && doc.isObject(), "inspect --json printed no JSON object", json.toUtf8());
    return 0;
}
