// SPDX-License-Identifier: GPL-3.0-or-later
// Structured Field parsing time against input size (issue 14 §0): a Dictionary and a Parameters list of
// N distinct keys, and `inspect`'s whole rate-limit parse of a head with N RateLimit/RateLimit-Policy
// members. Linear parsing shows as a constant µs per member across sizes; the ratio column is the time
// per member at that size over the time per member at the smallest size (about 1 when linear, growing
// with N when quadratic).
//   bench_structuredfield [--max-kb 300]
#include "http/ratelimitparser.h"
#include "http/structuredfield.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <functional>

using namespace Qt::StringLiterals;

namespace {

QByteArray dictionary(int members)
{
    QByteArray out;
    for (int i = 0; i < members; ++i)
        out += (i ? ", k" : "k") + QByteArray::number(i) + "=" + QByteArray::number(i);
    return out;
}

QByteArray parameters(int members)
{
    QByteArray out = "item";
    for (int i = 0; i < members; ++i)
        out += ";p" + QByteArray::number(i) + "=" + QByteArray::number(i);
    return out;
}

HttpHeaderList rateLimitHead(int members)
{
    QByteArray limit;
    QByteArray policy;
    for (int i = 0; i < members; ++i) {
        limit += (i ? ", \"p" : "\"p") + QByteArray::number(i) + "\";r=" + QByteArray::number(i) + ";t=5";
        policy += (i ? ", \"p" : "\"p") + QByteArray::number(i) + "\";q=100;w=60";
    }
    return { { "RateLimit", limit }, { "RateLimit-Policy", policy } };
}

// The best of a few runs (the machine is shared), in ms.
double bestMs(const std::function<bool()>& run)
{
    double best = 1e300;
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer t;
        t.start();
        if (!run())
            qFatal("parse failed");
        best = std::min(best, double(t.nsecsElapsed()) / 1e6);
    }
    return best;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const qsizetype at = args.indexOf(u"--max-kb"_s);
    const int maxKb = at >= 0 && at + 1 < args.size() ? args.at(at + 1).toInt() : 300;
    QTextStream out(stdout);
    out << "case            members      KB        ms   us/member  ratio\n";
    struct Case
    {
        const char* name;
        std::function<QByteArray(int)> text;
        std::function<bool(const QByteArray&, int)> parse;
    };
    const QList<Case> cases {
        { "dictionary", dictionary, [](const QByteArray& t, int n) { return parseSfDictionary(t)->size() == n; } },
        { "parameters", parameters, [](const QByteArray& t, int n) { return parseSfItem(t)->params.size() == n; } },
        { "inspect-ratelimit", [](int n) -> QByteArray {
                const HttpHeaderList h = rateLimitHead(n);
                return h.at(0).second + h.at(1).second;
            },
            [](const QByteArray&, int n) {
                return parseRateLimits(rateLimitHead(n), QDateTime::currentDateTimeUtc()).snapshots.size() == n;
            } },
    };
    for (const Case& c : cases) {
        double firstPerMember = 0;
        for (int members = 1000;; members *= 2) {
            const QByteArray text = c.text(members);
            if (text.size() > qsizetype(maxKb) * 1024)
                break;
            const double ms = bestMs([&] { return c.parse(text, members); });
            const double perMember = ms * 1000.0 / members;
            if (firstPerMember == 0)
                firstPerMember = perMember;
            out << QString::fromLatin1(c.name).leftJustified(16) << QString::number(members).rightJustified(7)
                << QString::number(double(text.size()) / 1024.0, 'f', 0).rightJustified(8)
                << QString::number(ms, 'f', 1).rightJustified(10) << QString::number(perMember, 'f', 2).rightJustified(12)
                << QString::number(perMember / firstPerMember, 'f', 2).rightJustified(7) << '\n';
            out.flush();
        }
    }
    return 0;
}
