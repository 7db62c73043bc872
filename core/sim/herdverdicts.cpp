// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/herdverdicts.h"

#include "policy/rulematcher.h"

#include <QDateTime>

namespace {

const QDateTime& epoch()
{
    static const QDateTime at = QDateTime::fromSecsSinceEpoch(0, Qt::UTC);
    return at;
}

int index(HerdVerdicts::Code code, bool answerLost)
{
    return int(code) * 2 + (answerLost ? 1 : 0);
}

// RFC 9110 §9.2.2: these methods are idempotent; the others may take effect once per copy.
bool idempotentMethod(const QString& method)
{
    static const QStringList methods { QStringLiteral("GET"), QStringLiteral("HEAD"), QStringLiteral("PUT"),
        QStringLiteral("DELETE"), QStringLiteral("OPTIONS"), QStringLiteral("TRACE") };
    return methods.contains(method);
}

} // namespace

HerdVerdicts::HerdVerdicts(const RetryPolicy& policy, const HerdExperiment& experiment)
    : m_policy(policy)
    , m_server(experiment.server)
{
    m_request.method = experiment.clients.method.toUpper();
    m_request.hasIdempotencyKey = policy.idempotency.autoAdd
        && policy.idempotency.methods.contains(m_request.method, Qt::CaseInsensitive);
    m_appliesEachCopy = !idempotentMethod(m_request.method) && !m_request.hasIdempotencyKey;
    for (const ResilienceStrategy& s : policy.pipeline)
        if (s.kind == ResilienceStrategy::Kind::CircuitBreaker)
            m_breaker = &s;
    for (int c = 0; c < kCodes; ++c) {
        const AttemptOutcome o = outcome(Code(c));
        m_couldHaveActed[std::size_t(c)] = o.error && errorClassServerCouldHaveActed(*o.error);
    }
}

AttemptOutcome HerdVerdicts::outcome(Code code) const
{
    const auto answered = [this](int status) {
        HttpHeaderList headers;
        if (m_server.retryAfter && (status == 429 || status == 503)) {
            const qint64 seconds = (m_server.retryAfter->count() + 999) / 1000;
            headers.append({ QByteArrayLiteral("Retry-After"), QByteArray::number(seconds) });
        }
        return AttemptOutcome::answered(status, headers);
    };
    switch (code) {
    case Code::Ok:
        return AttemptOutcome::answered(200);
    case Code::Conflict:
        return AttemptOutcome::answered(412);
    case Code::Error:
        return answered(m_server.errorStatus);
    case Code::Outage:
        return answered(m_server.outageStatus);
    case Code::Overload:
        return answered(m_server.overloadStatus);
    case Code::Reset:
        return AttemptOutcome::failed(ErrorClass::ConnectionLost);
    case Code::Refused:
        return AttemptOutcome::failed(ErrorClass::Refused);
    case Code::Timeout:
        return AttemptOutcome::failed(ErrorClass::ResponseTimeout);
    case Code::Deadline: {
        AttemptOutcome o = AttemptOutcome::failed(ErrorClass::ResponseTimeout);
        o.deadlinePassed = true;
        return o;
    }
    case Code::CircuitOpen:
        return AttemptOutcome::refusedByBreaker(Millis(0));
    }
    return {};
}

const AnswerFacts& HerdVerdicts::facts(Code code, bool answerLost)
{
    std::optional<AnswerFacts>& slot = m_facts[std::size_t(index(code, answerLost))];
    if (!slot) {
        RequestFacts request = m_request;
        request.answerLostEarlier = answerLost;
        slot = readAnswer(m_policy, request, outcome(code), epoch());
    }
    return *slot;
}

const AnswerFacts& HerdVerdicts::refusal(Millis retryIn, bool answerLost)
{
    RequestFacts request = m_request;
    request.answerLostEarlier = answerLost;
    m_refusal = readAnswer(m_policy, request, AttemptOutcome::refusedByBreaker(retryIn), epoch());
    return m_refusal;
}

bool HerdVerdicts::breakerFailure(Code code, bool answerLost, double durationMs)
{
    if (!m_breaker)
        return false;
    if (m_breaker->slowCall && durationMs > double(m_breaker->slowCall->count()))
        return true;
    std::optional<bool>& slot = m_breakerFailures[std::size_t(index(code, answerLost))];
    if (!slot) {
        const AnswerFacts& read = facts(code, answerLost);
        slot = std::any_of(m_breaker->failures.cbegin(), m_breaker->failures.cend(),
            [&](const RuleCondition& when) { return conditionMatches(when, read.request, read.outcome); });
    }
    return *slot;
}

int HerdVerdicts::status(Code code) const
{
    return outcome(code).status.value_or(0);
}

QString HerdVerdicts::errorName(Code code) const
{
    const AttemptOutcome o = outcome(code);
    if (o.circuitOpen)
        return QStringLiteral("circuit-open");
    return o.error ? errorClassName(*o.error) : QString();
}
