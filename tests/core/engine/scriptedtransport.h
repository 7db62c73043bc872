// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A transport for whole-engine tests on a ManualScheduler: each attempt takes the next scripted outcome
// and finishes `latency` later in fake time.

#include "engine/transport.h"
#include "support/manualscheduler.h"

#include <QList>

struct ScriptedAnswer
{
    std::optional<int> status;
    std::optional<ErrorClass> error;
    HttpHeaderList headers;
    Millis latency { 100 };
};

struct Script
{
    QList<ScriptedAnswer> answers; // taken in order; the last repeats
    int started = 0;
    ScriptedAnswer next()
    {
        const qsizetype i = std::min<qsizetype>(started++, answers.size() - 1);
        return answers.at(i);
    }
};

class ScriptedTransport final : public Transport
{
    Q_OBJECT
public:
    ScriptedTransport(Script& script, ManualScheduler& scheduler, QObject* parent)
        : Transport(parent)
        , m_script(script)
        , m_scheduler(scheduler)
    {
    }
    ~ScriptedTransport() override
    {
        if (m_task)
            m_scheduler.cancel(*m_task);
    }

    void start(AttemptRecord record, QByteArray, AttemptLimits) override
    {
        m_record = std::move(record);
        m_record.at.started = m_scheduler.clock().now();
        const ScriptedAnswer answer = m_script.next();
        Q_EMIT phaseReached(AttemptPhase::Started, *m_record.at.started);
        Q_EMIT phaseReached(AttemptPhase::Connecting, *m_record.at.started);
        m_task = m_scheduler.scheduleAt(*m_record.at.started + answer.latency, [this, answer] {
            m_task.reset();
            const MonoTime now = m_scheduler.clock().now();
            m_record.status = answer.status;
            m_record.error = answer.error;
            m_record.responseHeaders = answer.headers;
            m_record.phaseReached = answer.status ? AttemptPhase::HeadersReceived : AttemptPhase::Connecting;
            if (answer.status)
                Q_EMIT phaseReached(AttemptPhase::HeadersReceived, now);
            finish();
        });
    }

    void abort(AbortReason reason) override
    {
        if (!m_task)
            return;
        m_scheduler.cancel(*m_task);
        m_task.reset();
        m_record.abortReason = reason;
        finish();
    }

private:
    void finish()
    {
        m_record.at.finished = m_scheduler.clock().now();
        Q_EMIT finished(m_record);
    }

    Script& m_script;
    ManualScheduler& m_scheduler;
    AttemptRecord m_record;
    std::optional<Scheduler::TaskId> m_task;
};
