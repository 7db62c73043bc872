// SPDX-License-Identifier: GPL-3.0-or-later
// `retrylab inspect`: what a response head says about waiting — Retry-After and every rate-limit dialect.
#include "cli/clicommand.h"

#include "http/httpdate.h"
#include "http/httpfield.h"
#include "http/ratelimitparser.h"
#include "http/retryafter.h"
#include "session/ratelimit/ratelimitjson.h"

#include <QCoreApplication>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace {

QString tr(const char* text) { return QCoreApplication::translate("inspect", text); }

struct ResponseHead
{
    std::optional<int> status;
    HttpHeaderList headers;
    QStringList warnings;
};

// An optional status line, then field lines; a blank line or the end of input ends the head.
ResponseHead readResponseHead(const QByteArray& input)
{
    ResponseHead head;
    const QList<QByteArray> lines = input.split('\n');
    bool first = true;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QByteArray line = lines.at(i);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty()) {
            if (first && i + 1 < lines.size())
                continue; // leading blank lines before the head
            break;
        }
        const bool statusLine = first && line.startsWith("HTTP/");
        first = false;
        if (statusLine) {
            const QList<QByteArray> parts = line.split(' ');
            bool ok = false;
            const int code = parts.size() >= 2 && parts.at(1).size() == 3 ? parts.at(1).toInt(&ok) : 0;
            if (ok && code >= 100 && code <= 999)
                head.status = code;
            else
                head.warnings << tr("status line \"%1\" has no three-digit status code")
                                     .arg(QString::fromLatin1(line.left(80)));
            continue;
        }
        if ((line.startsWith(' ') || line.startsWith('\t')) && !head.headers.isEmpty()) {
            // obs-fold (RFC 9112 §5.2): replaced by SP, and worth a warning.
            head.headers.last().second += ' ' + line.trimmed();
            head.warnings << tr("line %1: obsolete line folding joined to the previous field").arg(i + 1);
            continue;
        }
        const qsizetype colon = line.indexOf(':');
        const QByteArray name = colon > 0 ? line.left(colon) : QByteArray();
        const bool validName = !name.isEmpty() && !name.contains(' ') && !name.contains('\t');
        if (!validName) {
            head.warnings << tr("line %1 ignored: not \"Name: value\"").arg(i + 1);
            continue;
        }
        head.headers.append({ name, line.mid(colon + 1).trimmed() });
    }
    return head;
}

// JSON scalars and arrays through QJsonDocument; objects are written by hand to keep the documented order.
QString jsonText(const QJsonValue& value)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

QString jsonObject(const QList<QPair<QString, QString>>& members)
{
    QString out = u"{"_s;
    for (qsizetype i = 0; i < members.size(); ++i) {
        if (i > 0)
            out += u","_s;
        out += jsonText(members.at(i).first) + u":"_s + members.at(i).second;
    }
    return out + u"}"_s;
}

template <typename T>
QJsonValue orNull(const std::optional<T>& value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

// A quota as every export writes it (the session format's rate_limit and its policies).
QString rateLimitJson(const RateLimitSnapshot& s)
{
    QByteArray out;
    {
        JsonSink sink(out);
        RateLimitJson::writeQuota(sink, s);
    }
    return QString::fromUtf8(out);
}

std::optional<double> retryAfterSeconds(const RetryAfterValue& value)
{
    if (!value.delay)
        return std::nullopt;
    return double(value.delay->count()) / 1000.0;
}

QString report(const ResponseHead& head, const std::optional<RetryAfterValue>& retryAfter,
    const RateLimitParse& limits, const QStringList& warnings)
{
    QString retryJson = u"null"_s;
    if (retryAfter) {
        retryJson = jsonObject({ { u"seconds"_s, jsonText(orNull(retryAfterSeconds(*retryAfter))) },
            { u"source"_s, jsonText(retryAfter->source) }, { u"raw"_s, jsonText(QString::fromLatin1(retryAfter->raw)) },
            { u"conformant"_s, jsonText(retryAfter->conformant) } });
    }
    const RateLimitSnapshot* best = limits.mostRestrictive();
    QString all = u"["_s;
    for (qsizetype i = 0; i < limits.snapshots.size(); ++i)
        all += (i > 0 ? u","_s : QString()) + rateLimitJson(limits.snapshots.at(i));
    all += u"]"_s;
    return jsonObject({ { u"status"_s, jsonText(head.status ? QJsonValue(*head.status) : QJsonValue(QJsonValue::Null)) },
        { u"retry_after"_s, retryJson }, { u"rate_limit"_s, best ? rateLimitJson(*best) : u"null"_s },
        { u"rate_limits"_s, all }, { u"warnings"_s, jsonText(QJsonArray::fromStringList(warnings)) } });
}

QString number(const std::optional<qint64>& value) { return value ? QString::number(*value) : tr("unknown"); }

QString seconds(const std::optional<double>& value)
{
    return value ? tr("%1 s").arg(QString::number(*value, 'g', 12)) : tr("unknown");
}

QString describe(const RateLimitSnapshot& s)
{
    QString text = tr("%1 of %2 remaining, reset in %3").arg(number(s.remaining), number(s.limit), seconds(s.resetSeconds));
    if (s.resetGuessed)
        text += tr(" (unit guessed)");
    if (s.windowSeconds)
        text += tr(", window %1 s").arg(*s.windowSeconds);
    if (!s.policy.isEmpty())
        text += tr(", policy \"%1\"").arg(s.policy);
    return text + u" ["_s + s.dialect + u"]"_s;
}

QString summary(const ResponseHead& head, const std::optional<RetryAfterValue>& retryAfter,
    const RateLimitParse& limits, const QStringList& warnings)
{
    QString out;
    out += tr("Status:       %1\n").arg(head.status ? QString::number(*head.status) : tr("(no status line)"));
    if (!retryAfter) {
        out += tr("Retry-After:  none\n");
    } else {
        out += tr("Retry-After:  %1 from %2 \"%3\"%4\n")
                   .arg(seconds(retryAfterSeconds(*retryAfter)), retryAfter->source,
                       QString::fromLatin1(retryAfter->raw),
                       retryAfter->conformant ? QString() : tr(" (non-conformant)"));
    }
    const RateLimitSnapshot* best = limits.mostRestrictive();
    out += tr("Rate limit:   %1\n").arg(best ? describe(*best) : tr("none"));
    if (limits.snapshots.size() > 1) {
        out += tr("All limits:\n");
        for (const RateLimitSnapshot& s : limits.snapshots)
            out += u"  - "_s + describe(s) + u"\n"_s;
    }
    if (!warnings.isEmpty()) {
        out += tr("Warnings:\n");
        for (const QString& w : warnings)
            out += u"  - "_s + w + u"\n"_s;
    }
    return out;
}

// Why INPUT is not a response head to report on: nothing at all, binary data (a control character, which
// RFC 9110 §5.5 forbids in a field, before the head ends), or no status line and not one field.
QString inputProblem(const QByteArray& input, const ResponseHead& head)
{
    if (input.trimmed().isEmpty())
        return tr("no input: pipe a response head into it, e.g. printf 'HTTP/1.1 429 x\\nRetry-After: 2\\n' | retrylab inspect");
    bool content = false; // the head ends at the first blank line after its first line, as read above
    qsizetype lineLength = 0;
    for (qsizetype i = 0; i < input.size(); ++i) {
        const auto c = static_cast<unsigned char>(input.at(i));
        if (c == '\n') {
            if (lineLength == 0 && content)
                break;
            content = content || lineLength > 0;
            lineLength = 0;
            continue;
        }
        if (c != '\r')
            ++lineLength;
        if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
            return tr("the input is not a response head: byte 0x%1 at offset %2 (binary data?)")
                .arg(c, 2, 16, QLatin1Char('0'))
                .arg(i);
    }
    if (!head.status && head.headers.isEmpty())
        return tr("the input is not a response head: no status line and no \"Name: value\" field");
    return {};
}

struct InspectOptions
{
    std::optional<QDateTime> now;
    bool json = false;
};

// Returns an error message, or an empty string when ARGS are valid.
QString readOptions(const QStringList& args, InspectOptions& options)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        QString arg = args.at(i);
        QString value;
        bool hasInlineValue = false;
        if (arg.startsWith(u"--"_s) && arg.contains(QLatin1Char('='))) {
            value = arg.mid(arg.indexOf(QLatin1Char('=')) + 1);
            arg = arg.left(arg.indexOf(QLatin1Char('=')));
            hasInlineValue = true;
        }
        if (arg == u"--json"_s && !hasInlineValue) {
            options.json = true;
            continue;
        }
        if (arg != u"--now"_s && arg != u"--now-epoch"_s)
            return tr("unknown argument '%1'").arg(args.at(i));
        if (options.now)
            return tr("give --now or --now-epoch once");
        if (!hasInlineValue) {
            if (i + 1 >= args.size())
                return tr("%1 needs a value").arg(arg);
            value = args.at(++i);
        }
        if (arg == u"--now"_s) {
            const HttpDate date = parseHttpDate(value.toLatin1(), QDateTime::currentDateTimeUtc());
            if (!date.isValid())
                return tr("--now '%1' is not an HTTP-date (%2)").arg(value, date.error);
            options.now = date.dateTime;
        } else {
            bool ok = false;
            const double epoch = value.toDouble(&ok);
            if (!ok || !std::isfinite(epoch) || epoch < 0 || epoch > 253402300799.0)
                return tr("--now-epoch '%1' is not Unix seconds between 0 and 253402300799").arg(value);
            options.now = QDateTime::fromMSecsSinceEpoch(qint64(std::llround(epoch * 1000.0)), Qt::UTC);
        }
    }
    return {};
}

int runInspect(const QStringList& args, CliIo& io)
{
    if (args.contains(u"--help"_s) || args.contains(u"-h"_s)) {
        io.out << inspectCommand().usage;
        return CliExit::Ok;
    }
    InspectOptions options;
    const QString error = readOptions(args, options);
    if (!error.isEmpty()) {
        io.err << u"retrylab inspect: "_s << error << tr(" (see retrylab help inspect)\n");
        return CliExit::Usage;
    }
    // A head is a few kilobytes; reading stops at 1 MiB so /dev/zero or an endless pipe cannot hang it.
    // QIODevice::read(n) allocates n bytes before it knows how many arrive, so each read asks for at most
    // 16 KiB: asking for the whole 1 MiB cost two 1 MiB buffers per run for a head of a few hundred bytes.
    constexpr qint64 maxInput = qint64(1) << 20;
    constexpr qint64 readPiece = qint64(16) << 10;
    QByteArray input;
    while (input.size() <= maxInput) { // a pipe delivers its bytes in pieces; an empty read is the end
        const QByteArray piece = io.in.read(std::min(readPiece, maxInput + 1 - input.size()));
        if (piece.isEmpty())
            break;
        input += piece;
    }
    const ResponseHead head = readResponseHead(input);
    if (const QString problem = inputProblem(input, head); !problem.isEmpty()) {
        io.err << u"retrylab inspect: "_s << problem << u"\n"_s;
        return CliExit::Usage;
    }
    if (input.size() > maxInput && !input.left(maxInput).contains("\n\n") && !input.left(maxInput).contains("\r\n\r\n")) {
        io.err << u"retrylab inspect: "_s << tr("the head is longer than 1 MiB without ending (no blank line)") << u"\n"_s;
        return CliExit::Usage;
    }
    QStringList warnings = head.warnings;
    QDateTime now = options.now.value_or(QDateTime());
    if (!now.isValid()) {
        // Without --now, as for a recorded answer (rateLimitInstant): the response's own Date, else the
        // moment it was received, here this machine's clock.
        const QByteArray date = combinedHeader(head.headers, "Date");
        const QDateTime received = QDateTime::currentDateTimeUtc();
        now = rateLimitInstant(date, received);
        if (!date.isNull() && !parseHttpDate(date, received).isValid())
            warnings << tr("Date ignored: not an HTTP-date; measuring from the local clock");
    }
    const std::optional<RetryAfterValue> retryAfter = parseRetryAfter(head.headers, now);
    if (retryAfter)
        warnings << retryAfter->warnings;
    const RateLimitParse limits = parseRateLimits(head.headers, now);
    warnings << limits.warnings;
    if (options.json)
        io.out << report(head, retryAfter, limits, warnings) << '\n';
    else
        io.out << summary(head, retryAfter, limits, warnings);
    return CliExit::Ok;
}

} // namespace

CliCommand inspectCommand()
{
    CliCommand command;
    command.name = u"inspect"_s;
    command.summary = tr("read a response head on stdin; print its Retry-After and rate limits");
    command.usage = tr(
        "Usage: retrylab inspect [--now 'HTTP-date' | --now-epoch SECONDS] [--json]\n"
        "\n"
        "Reads one HTTP response head from standard input: an optional status line\n"
        "(HTTP/1.1 429 Too Many Requests), then \"Name: value\" lines, ended by a blank\n"
        "line or the end of input. CRLF and LF line ends are both accepted. Prints what\n"
        "the head says about waiting:\n"
        "  - Retry-After (RFC 9110 §10.2.3), or retry-after-ms when Retry-After is absent;\n"
        "  - every rate-limit quota, in every dialect: IETF RateLimit/RateLimit-Policy\n"
        "    (drafts -07 to -11 and the editor's copy), RateLimit-Limit/-Remaining/-Reset,\n"
        "    X-RateLimit-*, GitHub, X, Discord, Reddit, Shopify, OpenAI and GitLab;\n"
        "  - the most restrictive quota (exhausted first, then the lowest remaining/limit);\n"
        "  - warnings: non-conformant values, guessed units, fields ignored as malformed,\n"
        "    and rate-limit fields ignored because of an Age header.\n"
        "Values the head does not state are shown as unknown (null), never guessed.\n"
        "\n"
        "Options:\n"
        "  --now 'HTTP-date'     measure delays from this instant, e.g.\n"
        "                        --now 'Sun, 06 Nov 1994 08:49:37 GMT'\n"
        "  --now-epoch SECONDS   the same as Unix seconds (fractions allowed)\n"
        "                        Without either, the response's Date field is used, and\n"
        "                        without a valid Date, this machine's clock.\n"
        "  --json                print one JSON object instead of a text summary:\n"
        "    {\"status\": 429 | null,\n"
        "     \"retry_after\": {\"seconds\": 20 | null, \"source\": \"retry-after\" | \"retry-after-ms\",\n"
        "                     \"raw\": \"20\", \"conformant\": true} | null,\n"
        "     \"rate_limit\": {\"limit\": 100 | null, \"remaining\": 0 | null,\n"
        "                    \"reset_seconds\": 20 | null, \"policy\": \"name\" | null,\n"
        "                    \"dialect\": \"ietf-draft-11\"} | null,\n"
        "     \"rate_limits\": [ the same object for every quota found ],\n"
        "     \"warnings\": [\"…\"]}\n"
        "  -h, --help            show this help\n"
        "\n"
        "Dialect names: ietf-draft-11 (-08…-11 List syntax), ietf-editors-copy, ietf-draft-07,\n"
        "ratelimit-legacy, x-ratelimit, github, x, discord, reddit, shopify, openai, gitlab.\n"
        "\n"
        "Example:\n"
        "  printf 'HTTP/1.1 429 Too Many Requests\\r\\nRetry-After: 20\\r\\n\\r\\n' | retrylab inspect --json\n"
        "\n"
        "Exit status: 0 the head was read (even with warnings), 2 bad arguments, or input that is empty,\n"
        "binary, or has neither a status line nor a field.\n");
    command.run = runInspect;
    return command;
}
