// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/codewriter.h"

#include "policy/errorclass.h"
#include "policy/presetcatalog.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

void LossList::add(const QString& path, const QString& what)
{
    if (!contains(path))
        m_items.append(LostBehaviour { path, what });
}

bool LossList::contains(const QString& path) const
{
    return std::any_of(m_items.cbegin(), m_items.cend(), [&](const LostBehaviour& l) { return l.path == path; });
}

void loseUnsupported(const RetryPolicy& policy, const TargetAbilities& can, const QString& target, LossList& lost)
{
    if (policy.quota.enabled && !can.retryQuota)
        lost.add(u"quota"_s, u"the retry quota (a token bucket retries draw from, shared by the client's calls): %1 has no budget"_s.arg(target));
    if (policy.throttling.enabled && !can.retryThrottling)
        lost.add(u"throttling"_s, u"retry throttling (gRPC's token bucket across calls): %1 has no budget"_s.arg(target));
    if (policy.hostThrottle.enabled && !can.hostThrottle)
        lost.add(u"host_throttle"_s, u"waiting for a reported rate-limit reset before sending: %1 cannot hold requests back"_s.arg(target));
    if (policy.limits.deadline && !can.deadline)
        lost.add(u"limits.deadline_ms"_s, u"the overall deadline of %1 ms, waits included: %2 has no overall deadline"_s.arg(policy.limits.deadline->count()).arg(target));
    if (policy.limits.attemptTimeout && !can.attemptTimeout)
        lost.add(u"limits.attempt_timeout_ms"_s, u"the per-attempt timeout of %1 ms: %2 has no setting for it (set it on the transport underneath)"_s.arg(policy.limits.attemptTimeout->count()).arg(target));
    if (policy.limits.connectTimeout && !can.connectTimeout)
        lost.add(u"limits.connect_timeout_ms"_s, u"the connect timeout of %1 ms: %2 has no setting for it (set it on the transport underneath)"_s.arg(policy.limits.connectTimeout->count()).arg(target));
    if (policy.limits.connectionsPerHost && !can.connectionPool)
        lost.add(u"limits.connections_per_host"_s, u"at most %1 connections per host: a setting of the HTTP client's pool, not of %2"_s.arg(*policy.limits.connectionsPerHost).arg(target));
    if (policy.backoff.throttlingBase && !can.throttlingBase)
        lost.add(u"backoff.throttling_base_ms"_s, u"a different backoff base (%1 ms) after throttling errors"_s.arg(policy.backoff.throttlingBase->count()));
    for (qsizetype i = 0; i < policy.pipeline.size(); ++i) {
        const ResilienceStrategy& s = policy.pipeline.at(i);
        const QString path = u"pipeline[%1]"_s.arg(i);
        switch (s.kind) {
        case ResilienceStrategy::Kind::Retry:
            break;
        case ResilienceStrategy::Kind::CircuitBreaker:
            if (!can.circuitBreaker)
                lost.add(path, u"the circuit breaker: %1 has none; put the library's own breaker around this code"_s.arg(target));
            break;
        case ResilienceStrategy::Kind::TotalTimeout:
        case ResilienceStrategy::Kind::AttemptTimeout:
            if (!can.timeouts)
                lost.add(path, u"the pipeline's %1 of %2 ms"_s.arg(strategyKindName(s.kind).replace(u'_', u' ')).arg(s.timeout.count()));
            break;
        case ResilienceStrategy::Kind::Hedging:
            if (!can.hedging)
                lost.add(path, u"hedging (sending copies before an answer): %1 cannot"_s.arg(target));
            break;
        default:
            lost.add(path, u"the pipeline's %1 strategy"_s.arg(strategyKindName(s.kind).replace(u'_', u' ')));
            break;
        }
    }
}

const ResilienceStrategy* strategyOf(const RetryPolicy& policy, ResilienceStrategy::Kind kind, qsizetype* index)
{
    for (qsizetype i = 0; i < policy.pipeline.size(); ++i) {
        if (policy.pipeline.at(i).kind == kind) {
            if (index)
                *index = i;
            return &policy.pipeline.at(i);
        }
    }
    return nullptr;
}

QString headerComment(const CommentStyle& style, const RetryPolicy& policy, const QString& targetTitle,
    const QString& targetVersion, const QList<LostBehaviour>& lost)
{
    QStringList lines;
    lines << u"Retry policy \"%1\", exported by Retrylab %2 for %3 %4."_s.arg(policy.name, QStringLiteral(RETRYLAB_VERSION), targetTitle, targetVersion);
    const QString summary = policySummary(policy);
    if (!summary.isEmpty() && summary != policy.name)
        lines << summary;
    if (!policy.sourceTitle.isEmpty())
        lines << u"Source: "_s + policy.sourceTitle;
    if (lost.isEmpty()) {
        lines << u"Exact: every behaviour of the policy is expressed below."_s;
    } else {
        lines << u"NOT EXPRESSED by %1 %2 (%3), so this code differs from the policy here:"_s.arg(targetTitle, targetVersion).arg(lost.size());
        for (const LostBehaviour& l : lost)
            lines << u"  - %1: %2"_s.arg(l.path, l.what);
    }
    QString out;
    for (const QString& l : std::as_const(lines)) {
        // Long lines wrap at 110 columns on a space, continued with the same indent.
        QString rest = l;
        const QString indent = rest.startsWith(u"  - "_s) ? u"    "_s : QString();
        bool first = true;
        while (!rest.isEmpty()) {
            const qsizetype room = 110 - style.line.size() - (first ? 0 : indent.size());
            qsizetype cut = rest.size();
            if (rest.size() > room) {
                cut = rest.lastIndexOf(u' ', room);
                if (cut <= 0)
                    cut = room;
            }
            const QString line = style.line + (first ? QString() : indent) + rest.left(cut);
            out += line.trimmed() + u'\n';
            rest = rest.mid(cut).trimmed();
            first = false;
        }
    }
    return out;
}

namespace {

QStringList words(const QString& name)
{
    QStringList out;
    QString word;
    for (const QChar c : name) {
        if (c.isLetterOrNumber() && c.unicode() < 128) {
            word += c;
        } else if (!word.isEmpty()) {
            out << word;
            word.clear();
        }
    }
    if (!word.isEmpty())
        out << word;
    if (out.isEmpty())
        out << u"policy"_s;
    if (out.first().front().isDigit())
        out.prepend(u"policy"_s);
    return out;
}

QString capitalised(const QString& w)
{
    return w.left(1).toUpper() + w.mid(1);
}

} // namespace

QString snakeName(const QString& policyName)
{
    return words(policyName).join(u'_').toLower();
}

QString camelName(const QString& policyName)
{
    const QStringList w = words(policyName);
    QString out = w.first().toLower();
    for (qsizetype i = 1; i < w.size(); ++i)
        out += capitalised(w.at(i).toLower());
    return out;
}

QString pascalName(const QString& policyName)
{
    QString out;
    for (const QString& w : words(policyName))
        out += capitalised(w.toLower());
    return out;
}

QString quoted(const QString& text)
{
    QString out = u"\""_s;
    for (const QChar c : text) {
        switch (c.unicode()) {
        case '"': out += u"\\\""_s; break;
        case '\\': out += u"\\\\"_s; break;
        case '\n': out += u"\\n"_s; break;
        case '\t': out += u"\\t"_s; break;
        default:
            if (c.unicode() < 0x20 || c.unicode() > 0x7e)
                out += u"\\u%1"_s.arg(int(c.unicode()), 4, 16, QChar(u'0'));
            else
                out += c;
        }
    }
    return out + u'"';
}

QString numberText(double value)
{
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15)
        return QString::number(static_cast<qint64>(value));
    QString text = QString::number(value, 'f', 6);
    while (text.endsWith(u'0'))
        text.chop(1);
    if (text.endsWith(u'.'))
        text.chop(1);
    return text;
}

QString secondsText(Millis ms)
{
    return numberText(static_cast<double>(ms.count()) / 1000.0);
}

QList<int> statusCodes(const QList<StatusRange>& ranges, int maxSpan, bool* tooWide)
{
    QList<int> out;
    if (tooWide)
        *tooWide = false;
    for (const StatusRange& r : ranges) {
        if (r.high - r.low + 1 > maxSpan) {
            if (tooWide)
                *tooWide = true;
            return {};
        }
        for (int s = r.low; s <= r.high; ++s)
            if (!out.contains(s))
                out << s;
    }
    std::sort(out.begin(), out.end());
    return out;
}

QString errorClassId(ErrorClass e)
{
    return errorClassName(e);
}

QString policySummary(const RetryPolicy& policy)
{
    const QString s = PresetCatalog::summaryOf(policy.description);
    return s.isEmpty() ? policy.name : s;
}

QString delayNumber(double value, const DelaySyntax& syntax)
{
    const QString t = numberText(value);
    return syntax.doubleLiterals && !t.contains(u'.') ? t + u".0"_s : t;
}

QString jitterExpression(const Jitter& j, const QString& x, const DelaySyntax& syntax)
{
    const QString times = syntax.compact ? u"*"_s : u" * "_s;
    const QString half = syntax.compact ? u"%1/2"_s.arg(x) : u"%1 / 2"_s.arg(x);
    const auto n = [&](double v) { return delayNumber(v, syntax); };
    switch (j.kind) {
    case JitterKind::None:
        return x;
    case JitterKind::Full:
        return u"%1 * %2"_s.arg(x, syntax.draw);
    case JitterKind::Equal:
        return half + u" + "_s + half + times + syntax.draw;
    case JitterKind::Proportional: {
        const double low = std::max(0.0, 1 - j.factor);
        return u"%1 * (%2 + %3%4%5)"_s.arg(x, n(low), n(std::max(0.0, 1 + j.factor) - low), times, syntax.draw);
    }
    case JitterKind::Multiplicative:
        return u"%1 * (%2 + %3%4%5)"_s.arg(x, n(std::min(j.low, j.high)), n(std::abs(j.high - j.low)), times, syntax.draw);
    case JitterKind::Additive:
        return u"%1 + %2%3%4"_s.arg(x, n(double(j.additive.count())), times, syntax.draw);
    }
    return x;
}

QString jitterWords(const Jitter& j)
{
    switch (j.kind) {
    case JitterKind::None:
        return u"no jitter"_s;
    case JitterKind::Full:
        return u"full jitter U(0, d)"_s;
    case JitterKind::Equal:
        return u"equal jitter d/2 + U(0, d/2)"_s;
    case JitterKind::Proportional:
        return u"±%1 %"_s.arg(numberText(j.factor * 100));
    case JitterKind::Multiplicative:
        return u"d × U(%1, %2)"_s.arg(numberText(j.low), numberText(j.high));
    case JitterKind::Additive:
        return u"d + U(0, %1 ms)"_s.arg(j.additive.count());
    }
    return {};
}

QString curveBody(const RetryPolicy& p, const DelaySyntax& x)
{
    const Backoff& b = p.backoff;
    const Jitter& j = p.jitter;
    const auto n = [&](double v) { return delayNumber(v, x); };
    const QString cap = b.cap ? n(double(b.cap->count())) : x.maxWait;
    const QString base = n(double(b.base.count()));
    const QString& in = x.indent;
    const QString local = x.declare + u' ';
    QString out = in + x.retries + u"++;\n"_s;
    if (b.kind == BackoffKind::Exponential && b.origin == ExponentOrigin::FirstRetryIsZero)
        out += in + u"if (%1 == 1) {\n"_s.arg(x.retries) + in + u"    return %1; // the first retry waits nothing\n"_s.arg(n(double(j.floor.count())))
            + in + u"}\n"_s;
    switch (b.kind) {
    case BackoffKind::None:
        out += in + local + u"ceiling = %1;\n"_s.arg(n(0));
        break;
    case BackoffKind::Constant:
        out += in + local + u"ceiling = %1;\n"_s.arg(base);
        break;
    case BackoffKind::Linear:
        out += in + local + u"ceiling = %1 + (%2 - 1) * %3;\n"_s.arg(base, x.retries, n(double(b.increment.count())));
        break;
    case BackoffKind::Exponential:
        out += in + local + u"ceiling = %1 * %2(%3, %4 - 1%5);\n"_s.arg(base, x.pow, n(b.multiplier), x.retries,
            b.exponentOffset == 0 ? QString() : u" %1 %2"_s.arg(b.exponentOffset > 0 ? u"+"_s : u"-"_s).arg(std::abs(b.exponentOffset)));
        break;
    case BackoffKind::Decorrelated:
        out += in + local + u"last = %1 > 0 ? %1 : %2;\n"_s.arg(x.previous, base);
        out += in + local + u"high = %1(%2, %3(last * 3, %4));\n"_s.arg(x.max, base, x.min, x.maxWait);
        out += in + local + u"ceiling = %1(%2, %3 + (high - %3) * %4); // AWS decorrelated: U(base, previous·3)\n"_s.arg(x.min, cap, base, x.draw);
        out += in + x.previous + u" = ceiling;\n"_s;
        break;
    case BackoffKind::DecorrelatedV2:
        out += in + local + u"next = %1(%2 - 1 + %3); // Polly's DecorrelatedJitterBackoffV2\n"_s.arg(x.v2Curve, x.retries, x.draw);
        out += in + local + u"ceiling = %1(%2, (next - %3) / 1.4 * %4);\n"_s.arg(x.min, cap, x.previous, base);
        out += in + x.previous + u" = next;\n"_s;
        break;
    }
    if (j.kind != JitterKind::None)
        out += in + u"// %1, the cap %2 the jitter\n"_s.arg(jitterWords(j), j.capOrder == CapOrder::BeforeJitter ? u"before"_s : u"after"_s);
    if (j.kind == JitterKind::None)
        out += in + local + u"d = %1(ceiling, %2);\n"_s.arg(x.min, cap);
    else if (j.capOrder == CapOrder::BeforeJitter)
        out += in + local + u"d = %1(ceiling, %2);\n"_s.arg(x.min, cap) + in + u"d = %1;\n"_s.arg(jitterExpression(j, u"d"_s, x));
    else
        out += in + local + u"d = %1;\n"_s.arg(jitterExpression(j, u"ceiling"_s, x)) + in + u"d = %1(d, %2);\n"_s.arg(x.min, cap);
    out += in + (j.floor.count() > 0 ? u"return %1(d, %2);\n"_s.arg(x.max, n(double(j.floor.count()))) : u"return d;\n"_s);
    return out;
}

QString hintWaitStatements(const RetryPolicy& p, const DelayHint& h, const DelaySyntax& x)
{
    const auto n = [&](Millis v) { return delayNumber(double(v.count()), x); };
    QString out;
    switch (h.combine) {
    case HintCombine::Replace:
        out += u"wait = asked;\n"_s;
        break;
    case HintCombine::AtLeastBackoff:
        out += u"wait = %1(wait, asked);\n"_s.arg(x.max);
        break;
    case HintCombine::ClampAroundBackoff:
        out += u"wait = %1(wait, %2(asked, wait + %3));\n"_s.arg(x.max, x.min, n(h.window));
        break;
    }
    if (h.cappedByBackoffCap && p.backoff.cap)
        out += u"wait = %1(wait, %2);\n"_s.arg(x.min, n(*p.backoff.cap));
    if (h.jittered && p.jitter.kind != JitterKind::None) {
        out += u"wait = %1(%2); // the policy's jitter shifts it too\n"_s.arg(x.floor, jitterExpression(p.jitter, u"wait"_s, x));
        if (p.jitter.floor.count() > 0)
            out += u"wait = %1(wait, %2);\n"_s.arg(x.max, n(p.jitter.floor));
    }
    return out;
}

QString durationLiteral(Millis v, const DurationSpelling& spelling)
{
    const qint64 n = v.count();
    if (n == 0)
        return spelling.zero;
    if (n % 3600000 == 0)
        return spelling.hours.arg(n / 3600000);
    if (n % 60000 == 0)
        return spelling.minutes.arg(n / 60000);
    if (n % 1000 == 0)
        return spelling.seconds.arg(n / 1000);
    return spelling.milliseconds.arg(n);
}
