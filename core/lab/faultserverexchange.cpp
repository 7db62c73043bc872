// SPDX-License-Identifier: GPL-3.0-or-later
// FaultServer, second part: how a request is answered (steps, control endpoints); outages and refusals are
// in faultserveroutage.cpp.
#include "lab/faultserver.h"

#include "lab/exchangeplayback.h"
#include "lab/labconnection.h"
#include "lab/labrequest.h"
#include "lab/ratelimitheaders.h"
#include "lab/responsetemplate.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

namespace {

bool storableRefusal(int status)
{
    return status >= 400 && status < 500 && status != 408 && status != 409 && status != 425 && status != 429;
}

} // namespace

LabResponse FaultServer::stepAnswer(
    const FaultStep& step, const ResponseTemplate::Values& values, const QDateTime& nowUtc)
{
    LabResponse response;
    response.status = step.status;
    for (const auto& [name, value] : step.headers)
        response.addHeader(name, ResponseTemplate::renderBody(value, values));
    if (!step.json.isUndefined() && !step.json.isNull()) {
        const QJsonValue rendered = ResponseTemplate::renderJson(step.json, values);
        response.body = rendered.isObject() ? QJsonDocument(rendered.toObject()).toJson(QJsonDocument::Compact)
            : rendered.isArray()            ? QJsonDocument(rendered.toArray()).toJson(QJsonDocument::Compact)
                                            : rendered.toVariant().toString().toUtf8();
        if (!hasHeader(response.headers, "Content-Type"))
            response.addHeader("Content-Type", "application/json");
    } else {
        response.body = ResponseTemplate::renderBody(step.body, values);
    }
    RateLimitHeaders::applyRetryAfter(response, step.retryAfterForm, step.retryAfter, nowUtc);
    return response;
}

ResponseTemplate::Values FaultServer::templateValues(
    const LabRequest& request, qsizetype routeIndex, const LabEvent& event) const
{
    const qsizetype slash = request.path.lastIndexOf(u'/');
    return {
        { u"key"_s, event.idempotencyKey },
        { u"n"_s, QString::number(m_players.at(routeIndex).played()) },
        { u"applied"_s, QString::number(m_appliedPerRoute.at(routeIndex)) },
        { u"method"_s, QString::fromLatin1(request.method) },
        { u"path"_s, request.path },
        { u"route"_s, m_scenario.routes.at(routeIndex).name },
        { u"attempt"_s, event.attemptId },
        { u"last"_s, slash >= 0 ? request.path.mid(slash + 1) : request.path },
        { u"request_id"_s, QString::number(request.id) },
    };
}

// The ramp's line is drawn through this step's plays: its first play starts the clock of a ramp over time.
milliseconds FaultServer::rampDelay(qsizetype routeIndex, qsizetype stepIndex, const LatencyRamp& ramp)
{
    const quint64 key = (quint64(routeIndex) << 32) | quint64(stepIndex);
    const qint64 now = nowMs();
    const qint64 first = *m_rampStarts.insert(key, m_rampStarts.value(key, now));
    return ramp.delayAt(m_players.at(routeIndex).playsOf(stepIndex), milliseconds(now - first));
}

void FaultServer::play(LabConnection* connection, const LabRequest& request, qsizetype routeIndex, LabEvent event,
    const RateLimiter* limiter, std::optional<RateLimitVerdict> verdict)
{
    const FaultRoute& route = m_scenario.routes.at(routeIndex);
    StepPlayer& player = m_players[routeIndex];
    const qsizetype stepIndex = player.next();
    if (stepIndex < 0) {
        answerNow(connection, request, LabResponse::json(500, R"({"error":"route_without_steps"})"), event);
        return;
    }
    FaultStep step = route.steps.at(stepIndex);
    if (step.kind == FaultStep::Kind::Outage) {
        // The request that starts it is its first failure; nothing is applied, no answer kept for its key.
        failInOutage(
            connection, request, event, startOutage(routeIndex, stepIndex, templateValues(request, routeIndex, event)));
        return;
    }
    event.detail = step.note;
    if (step.latencyRamp) {
        step.delay = rampDelay(routeIndex, stepIndex, *step.latencyRamp);
        event.detail
            += (event.detail.isEmpty() ? QString() : u"; "_s) + u"latency %1 ms on the ramp"_s.arg(step.delay.count());
    }
    if (step.kind == FaultStep::Kind::Forward) {
        // The upstream decides what is applied; the lab's idempotency store and ledger stay out of it.
        event.stepKind = FaultStep::kindName(step.kind);
        forward(connection, request, step, event, {});
        return;
    }
    const QDateTime nowUtc = QDateTime::currentDateTimeUtc();
    const bool applied = step.applied.value_or(step.appliesByDefault());
    if (applied)
        ++m_appliedPerRoute[routeIndex];

    LabResponse response = stepAnswer(step, templateValues(request, routeIndex, event), nowUtc);
    if (step.kind == FaultStep::Kind::RateLimit) {
        const RateLimiter* shown = limiter ? limiter : (m_sharedLimiter ? &*m_sharedLimiter : nullptr);
        if (shown) {
            RateLimitVerdict spent = verdict.value_or(shown->peek(nowMs()));
            spent.remaining = 0;
            RateLimitHeaders::apply(response, shown->spec(), spent, nowUtc);
            if (step.retryAfterForm == RetryAfterForm::None)
                RateLimitHeaders::applyRetryAfter(response, shown->spec().retryAfterForm, spent.resetIn, nowUtc);
        }
    } else if (limiter && verdict) {
        RateLimitHeaders::apply(response, limiter->spec(), *verdict, nowUtc);
    }

    event.stepKind = FaultStep::kindName(step.kind);
    event.applied = applied;
    if (applied) {
        LabOperation operation;
        operation.route = route.name;
        operation.operation = route.operation.isEmpty() ? route.name : route.operation;
        operation.idempotencyKey = event.idempotencyKey;
        operation.attemptId = event.attemptId;
        operation.atMs = nowMs();
        m_ledger.recordOperation(operation);
        LabEvent appliedEvent = event;
        appliedEvent.kind = LabEvent::Kind::OperationApplied;
        appliedEvent.detail = operation.operation;
        report(appliedEvent);
    }

    // What repeats under the same key get: the answer of an applied request, or a business refusal.
    // Transient failures (5xx, 408, 409, 425, 429, broken connections) are not stored: the key may retry.
    std::optional<LabResponse> stored;
    if (applied || (step.writesAnswer() && storableRefusal(response.status)))
        stored = response;
    const bool keyed = route.idempotency.enabled && !event.idempotencyKey.isEmpty();
    const QString scope = route.name;
    const QString key = event.idempotencyKey;
    if (keyed) {
        m_idempotency.begin(scope, key, IdempotencyStore::fingerprint(request.method, request.path, request.body));
        if (step.kind == FaultStep::Kind::Late) // settled now; only the answer is late
            m_idempotency.finish(scope, key, stored);
    }
    if (step.kind == FaultStep::Kind::Refuse)
        refuseFor(step.duration, step.note.isEmpty() ? u"refuse step"_s : step.note);

    const quint64 generation = m_generation;
    response.headRequest = request.method == "HEAD";
    startPlayback(connection, step, response, request.keepAlive, event,
        [this, generation, keyed, scope, key, stored, late = step.kind == FaultStep::Kind::Late](bool) {
            if (generation == m_generation && keyed && !late)
                m_idempotency.finish(scope, key, stored);
        });
}

void FaultServer::answerNow(LabConnection* connection, const LabRequest& request, LabResponse response, LabEvent event)
{
    FaultStep step;
    step.kind = FaultStep::Kind::Respond;
    if (event.stepKind.isEmpty())
        event.stepKind = u"respond"_s;
    response.headRequest = request.method == "HEAD";
    startPlayback(connection, step, response, request.keepAlive, event, {});
}

void FaultServer::startPlayback(LabConnection* connection, const FaultStep& step, const LabResponse& response,
    bool keepAlive, LabEvent event, std::function<void(bool answered)> onDone)
{
    auto* playback = new ExchangePlayback(connection, step, response, keepAlive, this);
    m_playbacks.append(playback);
    const bool control = event.kind == LabEvent::Kind::ControlRequest;
    if (LabExchange* x = control ? nullptr : m_exchanges.find(event.requestId)) {
        x->route = event.route;
        x->stepKind = event.stepKind;
        x->applied = event.applied;
        x->note = event.detail;
    }
    connect(playback, &ExchangePlayback::responseStarted, this, [this, event](ExchangePlayback* p) {
        LabEvent started = event;
        started.kind = LabEvent::Kind::ResponseStarted;
        started.status = p->response().status;
        if (LabExchange* x = m_exchanges.find(event.requestId)) {
            x->status = started.status;
            x->responseStartedMs = nowMs();
        }
        report(started);
    });
    connect(playback, &ExchangePlayback::finished, this,
        [this, event, control, onDone = std::move(onDone)](ExchangePlayback* p, bool answered) {
            const bool writes = p->step().writesAnswer();
            LabEvent finished = event;
            finished.kind = control ? LabEvent::Kind::ControlRequest : LabEvent::Kind::ResponseFinished;
            finished.status = writes ? p->response().status : 0;
            if (finished.detail.isEmpty() && writes && !answered)
                finished.detail = p->step().kind == FaultStep::Kind::Truncate ? u"body cut short"_s : u"client gone before the answer"_s;
            if (!control)
                m_ledger.setOutcome(event.requestId, event.stepKind, finished.status);
            m_playbacks.removeAll(p);
            p->deleteLater();
            if (onDone)
                onDone(answered);
            report(finished);
            if (LabExchange* x = control ? nullptr : m_exchanges.find(event.requestId)) {
                const qint64 now = nowMs();
                x->responseHeaders = p->writtenFields();
                x->responseBodyBytes = p->bodyBytesWritten();
                x->responseBodyExcerpt = p->response().content().left(
                    qsizetype(std::min<qint64>(p->bodyBytesWritten(), LabExchange::responseExcerptCap)));
                if (answered)
                    x->responseFinishedMs = now;
                if (p->closedConnection() && !x->labClosedMs)
                    x->labClosedMs = now;
                m_exchanges.finish(event.requestId, outcomeOf(p->step(), answered, *x));
            }
        });
    playback->start();
}

QString FaultServer::outcomeOf(const FaultStep& step, bool answered, const LabExchange& exchange)
{
    switch (step.kind) {
    case FaultStep::Kind::Respond:
    case FaultStep::Kind::Late:
    case FaultStep::Kind::RateLimit:
    case FaultStep::Kind::Forward:
        if (answered)
            return u"answered"_s;
        // Not answered: the client had gone, or the lab cut the connection (a flood while busy).
        return exchange.labClosedMs && !exchange.clientGoneMs ? u"reset"_s : u"client-gone"_s;
    case FaultStep::Kind::Truncate:
        return u"truncated"_s;
    case FaultStep::Kind::Close:
        return u"closed"_s;
    case FaultStep::Kind::Reset:
    case FaultStep::Kind::Refuse:
        return u"reset"_s;
    case FaultStep::Kind::Garbage:
        return u"garbage"_s;
    case FaultStep::Kind::Hang:
        return u"hang"_s;
    case FaultStep::Kind::Outage: // played as respond or reset (failInOutage)
        return answered ? u"answered"_s : u"reset"_s;
    }
    return u"answered"_s;
}

void FaultServer::handleControl(LabConnection* connection, const LabRequest& request)
{
    LabEvent event;
    event.kind = LabEvent::Kind::ControlRequest;
    event.connectionId = connection->id();
    event.method = request.method;
    event.path = request.path;
    event.stepKind = u"control"_s;
    const QByteArray& method = request.method;
    LabResponse response;
    if (request.path == u"/_lab/ledger"_s && (method == "GET" || method == "HEAD")) {
        response = LabResponse::json(200, QJsonDocument(m_ledger.toJson()).toJson(QJsonDocument::Compact));
    } else if (request.path == u"/_lab/scenario"_s && (method == "GET" || method == "HEAD")) {
        response = LabResponse::json(200, QJsonDocument(m_scenario.source).toJson(QJsonDocument::Compact));
    } else if (request.path == u"/_lab/health"_s && (method == "GET" || method == "HEAD")) {
        response = LabResponse::json(200,
            QJsonDocument(QJsonObject { { u"ok"_s, true }, { u"scenario"_s, m_scenario.name },
                              { u"open_connections"_s, openConnectionCount() } })
                .toJson(QJsonDocument::Compact));
    } else if (request.path == u"/_lab/reset"_s && method == "POST") {
        // Reset first (it cancels every playback), then answer on this still-open connection.
        reset();
        response = LabResponse::json(200, R"({"reset":true})");
    } else if (request.path == u"/_lab/ledger"_s || request.path == u"/_lab/scenario"_s
        || request.path == u"/_lab/reset"_s || request.path == u"/_lab/health"_s) {
        response = LabResponse::json(405, R"({"error":"method_not_allowed"})");
    } else {
        response = LabResponse::json(404, R"({"error":"no_such_control_endpoint"})");
    }
    response.headRequest = method == "HEAD";
    startPlayback(connection, FaultStep {}, response, request.keepAlive, event, {});
}
