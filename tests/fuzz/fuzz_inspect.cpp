// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab inspect`'s input: any bytes on stdin give a report (text and --json) and exit 0; the JSON
// report is one valid JSON object.
#include "cli/clicommand.h"
#include "fuzzsupport.h"

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
    CliIo io { outStream, errStream, in };
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
    Fuzz::check(inspect(input, now, &text) == CliExit::Ok, "inspect did not exit 0");
    QString json;
    Fuzz::check(inspect(input, now + QStringList { QStringLiteral("--json") }, &json) == CliExit::Ok, "inspect --json did not exit 0");
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(json.toUtf8(), &error);
    Fuzz::check(error.error == QJsonParseError::NoError && doc.isObject(), "inspect --json printed no JSON object", json.toUtf8());
    return 0;
}
