// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a client command once per suite case against its own fault lab and judges what the command sent
// (`retrylab conform --suite`, the window's Conformance view). Per case: a lab on a free loopback port plays
// the case's scenario; the command runs with RETRYLAB_URL (the case's URL), RETRYLAB_BASE_URL,
// RETRYLAB_CASE, RETRYLAB_METHOD and, when the case suggests one, RETRYLAB_IDEMPOTENCY_KEY in its
// environment, makes one logical request however it likes and exits (or is stopped at the case's timeout).
// Every exchange the lab saw is an attempt of that one request, in arrival order; the judge (a fresh one
// per case: each run of the command is a fresh client) compares them with the policy. A case with `calls`
// also hands the command RETRYLAB_CALLS, RETRYLAB_INTERVAL_MS and RETRYLAB_CALL_HEADER; its exchanges are
// the requests of many calls, judged along their timeline (calls/callsjudge.h).

#include "conform/conformancejudge.h"
#include "conform/conformancesuite.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>

class Clock;
class Scheduler;
struct LabExchange;

struct CaseResult
{
    SuiteCase suiteCase;
    JudgedRun run;
    RunJudgement judgement;
    bool timedOut = false; // stopped at the case's timeout
    bool killedBySignal = false;
    QString startError; // the case could not run (then nothing is judged)
    bool commandNotFound = false; // the command itself could not be started
    QByteArray output; // what the command printed (stdout and stderr), the last 64 KiB
    Millis elapsed { 0 };

    bool conforms() const { return startError.isEmpty() && judgement.conforms(); }
};

// The judged run of exchanges a lab saw for one case (every one an attempt of one request).
JudgedRun judgedRunOf(QList<LabExchange> exchanges, std::optional<int> exitCode, std::optional<qint64> observedUntilMs,
    const QDateTime& wallOrigin);

class ConformanceRunner final : public QObject
{
    Q_OBJECT
public:
    ConformanceRunner(const Clock& clock, Scheduler& scheduler, RetryPolicy policy, JudgeOptions options,
        QObject* parent = nullptr);
    ~ConformanceRunner() override;

    // Runs COMMAND (program and arguments) for each of CASES in turn; finished() after the last or stop().
    void start(const QList<SuiteCase>& cases, const QStringList& command);
    void stop();
    bool isRunning() const;
    const QList<CaseResult>& results() const { return m_results; }

signals:
    void caseStarted(int index, const QString& name, const QUrl& url);
    void caseFinished(int index, const CaseResult& result);
    void finished();

private:
    class CaseRun;
    void next();
    void caseDone(CaseResult result);

    const Clock& m_clock;
    Scheduler& m_scheduler;
    RetryPolicy m_policy;
    JudgeOptions m_options;
    QList<SuiteCase> m_cases;
    QStringList m_command;
    QList<CaseResult> m_results;
    std::unique_ptr<CaseRun> m_current;
    int m_index = -1;
    bool m_stopping = false;
};
