// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessions/requestdifference.h"

#include "replay/replayscenario.h"
#include "session/session.h"

#include <QCoreApplication>
#include <QCryptographicHash>

using namespace Qt::StringLiterals;

namespace {

struct Sent
{
    QString line; // "POST /v1/x?q=1"
    QByteArray body;
    friend bool operator==(const Sent&, const Sent&) = default;
};

Sent sentBy(const Session& s, qsizetype runIndex)
{
    const SessionRun& run = s.runs.at(runIndex);
    if (run.request < 0 || run.request >= s.requests.size())
        return {};
    const RequestSpec& r = s.requests.at(run.request);
    QString target = r.url.path(QUrl::FullyEncoded);
    if (r.url.hasQuery())
        target += u'?' + r.url.query(QUrl::FullyEncoded);
    return { r.method.toUpper() + u' ' + (target.isEmpty() ? u"/"_s : target), r.body };
}

} // namespace

namespace RequestDifference {

QString describe(const Session& a, const Session& b, qsizetype pairs)
{
    const auto tr = [](const char* text, int n = -1) { return QCoreApplication::translate("RequestDifference", text, nullptr, n); };
    qsizetype differing = 0;
    QString first;
    for (qsizetype i = 0; i < pairs && i < a.runs.size() && i < b.runs.size(); ++i) {
        Sent sa = sentBy(a, i);
        Sent sb = sentBy(b, i);
        // An offline what-if replay sends run N's request to the private lab's /replay/run-N: the same request.
        const QString method = sa.line.section(u' ', 0, 0);
        if (sb.line == method + u' ' + ReplayScenario::pathFor(a.runs.at(i).runId))
            sb.line = sa.line;
        else if (sa.line == sb.line.section(u' ', 0, 0) + u' ' + ReplayScenario::pathFor(b.runs.at(i).runId))
            sa.line = sb.line;
        if (sa == sb)
            continue;
        if (differing++ == 0) {
            first = sa.line == sb.line
                ? tr("run %1 of A and run %2 of B send %3 with different bodies").arg(a.runs.at(i).runId).arg(b.runs.at(i).runId).arg(sa.line)
                : tr("run %1 of A sends %2, run %3 of B sends %4").arg(a.runs.at(i).runId).arg(sa.line).arg(b.runs.at(i).runId).arg(sb.line);
        }
    }
    if (differing == 0)
        return {};
    return tr("A and B are different requests: %1 (%n of the pairs differ), so the figures below compare different "
              "things.", int(differing)).arg(first);
}

} // namespace RequestDifference
