// SPDX-License-Identifier: GPL-3.0-or-later
// FaultServer, fourth part: the whole server down. An outage is one of the scenario's windows (timed from
// load or reset) or begins when a route plays an `outage` step (timed from that request). While one lasts,
// every scenario request fails the same way — an answer with its status, an RST, or, with the port closed,
// an RST for a request on a connection opened before — without a route, limiter, key or step having a say,
// so no route's steps move on; then the routes play on from where they were. Each outage is a LabOutage in
// the ledger and two ListeningChanged events (begun, over); a refusing one's events are the refusal's.
#include "lab/faultserver.h"

#include "lab/labconnection.h"
#include "lab/labrequest.h"

#include <QDateTime>
#include <QJsonObject>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

namespace {

QString modeName(OutageMode mode)
{
    switch (mode) {
    case OutageMode::Refuse:
        return u"refuse"_s;
    case OutageMode::Reset:
        return u"reset"_s;
    case OutageMode::Status:
        break;
    }
    return u"status"_s;
}

} // namespace

void FaultServer::refuseFor(milliseconds duration, const QString& why)
{
    if (!m_started)
        return;
    ++m_refusing;
    closeListeners();
    LabEvent event;
    event.kind = LabEvent::Kind::ListeningChanged;
    event.detail = tr("refusing connections for %1 ms (%2)").arg(duration.count()).arg(why);
    report(event);
    emit listeningChanged(false);
    auto* timer = new QTimer(this);
    timer->setSingleShot(true);
    timer->setTimerType(Qt::PreciseTimer);
    m_outageTimers.append(timer);
    connect(timer, &QTimer::timeout, this, [this, timer] {
        m_outageTimers.removeAll(timer);
        timer->deleteLater();
        if (--m_refusing > 0 || !m_started)
            return;
        LabEvent resumed;
        resumed.kind = LabEvent::Kind::ListeningChanged;
        if (listenAll()) {
            resumed.detail = tr("accepting connections again");
            emit listeningChanged(true);
        } else {
            resumed.detail = tr("could not listen again: %1").arg(m_error);
        }
        report(resumed);
    });
    timer->start(duration);
}

void FaultServer::scheduleOutages()
{
    m_windowState.fill(0, m_scenario.outages.size());
    updateOutages();
}

// Windows are checked against the scenario clock, outages under way against their end: whichever of the
// alarm and a request comes first moves them on, so no request is answered by an outage that is over.
void FaultServer::updateOutages()
{
    if (!m_started || m_windowState.size() != m_scenario.outages.size())
        return;
    const qint64 now = nowMs();
    for (qsizetype i = 0; i < m_scenario.outages.size(); ++i) {
        const OutageWindow& window = m_scenario.outages.at(i);
        const qint64 from = m_scenarioStartMs + window.from.count();
        if (m_windowState.at(i) != 0 || now < from)
            continue;
        m_windowState[i] = 1;
        RunningOutage outage;
        outage.mode = window.mode;
        outage.answer.status = window.status;
        outage.answer.json = QJsonObject { { u"error"_s, u"outage"_s }, { u"title"_s, u"scheduled outage"_s } };
        outage.untilMs = from + window.duration.count();
        outage.window = int(i);
        outage.what = u"outages[%1]"_s.arg(i);
        LabOutage record;
        record.cause = u"window"_s;
        record.window = int(i);
        record.fromMs = from;
        beginOutage(outage, record);
    }
    for (qsizetype i = 0; i < m_outages.size();) {
        if (now >= m_outages.at(i).untilMs)
            endOutage(i);
        else
            ++i;
    }
    qint64 next = -1;
    for (const RunningOutage& outage : std::as_const(m_outages))
        next = next < 0 ? outage.untilMs : std::min(next, outage.untilMs);
    for (qsizetype i = 0; i < m_scenario.outages.size(); ++i) {
        if (m_windowState.at(i) == 0) {
            const qint64 from = m_scenarioStartMs + m_scenario.outages.at(i).from.count();
            next = next < 0 ? from : std::min(next, from);
        }
    }
    if (next < 0)
        m_outageAlarm->stop();
    else
        m_outageAlarm->start(milliseconds(std::max<qint64>(1, next - now)));
}

bool FaultServer::inOutage() const
{
    const qint64 now = nowMs();
    for (const RunningOutage& outage : m_outages) {
        if (now < outage.untilMs)
            return true;
    }
    for (qsizetype i = 0; i < m_scenario.outages.size() && i < m_windowState.size(); ++i) {
        const OutageWindow& window = m_scenario.outages.at(i);
        const qint64 from = m_scenarioStartMs + window.from.count();
        if (m_windowState.at(i) == 0 && now >= from && now < from + window.duration.count())
            return true;
    }
    return false;
}

FaultServer::RunningOutage FaultServer::startOutage(
    qsizetype routeIndex, qsizetype stepIndex, ResponseTemplate::Values values)
{
    const FaultRoute& route = m_scenario.routes.at(routeIndex);
    const FaultStep& step = route.steps.at(stepIndex);
    RunningOutage outage;
    outage.answer = step;
    outage.answer.kind = FaultStep::Kind::Respond;
    if (outage.answer.body.isEmpty() && (outage.answer.json.isUndefined() || outage.answer.json.isNull()))
        outage.answer.json = QJsonObject { { u"error"_s, u"outage"_s },
            { u"title"_s, u"outage: every request fails for %1 ms"_s.arg(step.duration.count()) } };
    outage.mode = step.outageMode;
    outage.values = std::move(values);
    const qint64 from = nowMs(); // read once: the outage lasts exactly its duration by the lab's clock
    outage.untilMs = from + step.duration.count();
    outage.what = u"route %1, steps[%2]"_s.arg(route.name).arg(stepIndex);
    LabOutage record;
    record.cause = u"step"_s;
    record.route = route.name;
    record.step = int(stepIndex);
    record.fromMs = from;
    const RunningOutage begun = beginOutage(outage, record);
    updateOutages(); // the alarm for its end
    return begun;
}

FaultServer::RunningOutage FaultServer::beginOutage(RunningOutage outage, LabOutage record)
{
    const qint64 now = nowMs();
    record.mode = modeName(outage.mode);
    record.status = outage.mode == OutageMode::Status ? outage.answer.status : 0;
    outage.record = m_ledger.beginOutage(record);
    const milliseconds left(std::max<qint64>(0, outage.untilMs - now));
    const milliseconds length(outage.untilMs - record.fromMs);
    const QString what = outage.what;
    const int status = record.status;
    const OutageMode mode = outage.mode;
    m_outages.append(outage);
    if (mode == OutageMode::Refuse) {
        refuseFor(left, tr("outage, %1").arg(what));
        return outage;
    }
    LabEvent event;
    event.kind = LabEvent::Kind::ListeningChanged;
    event.stepKind = u"outage"_s;
    event.route = record.route;
    event.status = status;
    event.detail = mode == OutageMode::Status
        ? tr("outage for %1 ms (%2): every request answered %3").arg(length.count()).arg(what).arg(status)
        : tr("outage for %1 ms (%2): every request reset").arg(length.count()).arg(what);
    report(event);
    return outage;
}

void FaultServer::endOutage(qsizetype index)
{
    const RunningOutage outage = m_outages.takeAt(index);
    m_ledger.endOutage(outage.record, outage.untilMs);
    if (outage.window >= 0 && outage.window < m_windowState.size())
        m_windowState[outage.window] = 2;
    if (outage.mode == OutageMode::Refuse)
        return; // the refusal says when the port opens again
    if (outage.record < 0 || outage.record >= m_ledger.outages().size())
        return;
    const LabOutage& record = m_ledger.outages().at(outage.record);
    LabEvent event;
    event.kind = LabEvent::Kind::ListeningChanged;
    event.stepKind = u"outage"_s;
    event.route = record.route;
    event.detail = tr("outage over after %1 ms (%2), %3 requests failed: the routes play on")
                       .arg(outage.untilMs - record.fromMs)
                       .arg(outage.what)
                       .arg(record.requestsFailed);
    report(event);
}

void FaultServer::failInOutage(
    LabConnection* connection, const LabRequest& request, LabEvent event, RunningOutage outage)
{
    m_ledger.countOutageFailure(outage.record);
    FaultStep step;
    step.delay = outage.answer.delay;
    event.detail = outage.answer.note;
    if (outage.mode != OutageMode::Status) {
        step.kind = FaultStep::Kind::Reset;
        event.stepKind = u"outage-reset"_s;
        startPlayback(connection, step, LabResponse {}, false, event, {});
        return;
    }
    // The answer's templates: the request at hand, and the route and counts of the request that started it.
    ResponseTemplate::Values values = outage.values;
    const qsizetype slash = request.path.lastIndexOf(u'/');
    values.insert(u"key"_s, event.idempotencyKey);
    values.insert(u"method"_s, QString::fromLatin1(request.method));
    values.insert(u"path"_s, request.path);
    values.insert(u"attempt"_s, event.attemptId);
    values.insert(u"last"_s, slash >= 0 ? request.path.mid(slash + 1) : request.path);
    values.insert(u"request_id"_s, QString::number(request.id));
    step.kind = FaultStep::Kind::Respond;
    LabResponse response = stepAnswer(outage.answer, values, QDateTime::currentDateTimeUtc());
    response.headRequest = request.method == "HEAD";
    event.stepKind = u"outage"_s;
    startPlayback(connection, step, response, request.keepAlive, event, {});
}
