// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Whole runs from an engine, for tests: runFinished carries a run's facts only (RunSummary), each attempt
// came once before it with attemptFinished; this puts them together as RunRecords, in the order the runs
// finished, and calls ON_FINISHED (when given) with each.

#include "engine/retryengine.h"

#include <QHash>
#include <QList>
#include <QObject>

#include <algorithm>
#include <functional>

class RunCollector : public QObject
{
public:
    explicit RunCollector(RetryEngine* engine, std::function<void(const RunRecord&)> onFinished = {})
        : m_onFinished(std::move(onFinished))
    {
        connect(engine, &RetryEngine::attemptFinished, this, [this](const AttemptRecord& a) { m_attempts[a.runId] << a; });
        connect(engine, &RetryEngine::runFinished, this, [this](const RunSummary& summary) {
            RunRecord run;
            static_cast<RunSummary&>(run) = summary;
            run.attempts = m_attempts.take(summary.runId);
            m_runs << run;
            if (m_onFinished)
                m_onFinished(m_runs.last());
        });
    }

    qsizetype size() const { return m_runs.size(); }
    qsizetype count() const { return m_runs.size(); }
    bool isEmpty() const { return m_runs.isEmpty(); }
    const RunRecord& at(qsizetype i) const { return m_runs.at(i); }
    const RunRecord& first() const { return m_runs.first(); }
    const RunRecord& last() const { return m_runs.last(); }
    const QList<RunRecord>& runs() const { return m_runs; }
    QList<RunRecord> byRunId() const
    {
        QList<RunRecord> sorted = m_runs;
        std::sort(sorted.begin(), sorted.end(), [](const RunRecord& a, const RunRecord& b) { return a.runId < b.runId; });
        return sorted;
    }

private:
    std::function<void(const RunRecord&)> m_onFinished;
    QHash<int, QList<AttemptRecord>> m_attempts; // of runs not finished yet
    QList<RunRecord> m_runs;
};
