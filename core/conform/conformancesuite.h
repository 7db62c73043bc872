// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A conformance suite (resources/docs/suite-format.md): a list of cases, each one logical request a client
// makes against a lab scenario, with the method and whether to send an idempotency key suggested to the
// command through its environment — or, in a case with `calls`, many calls from one client process at a
// fixed rate, so what a circuit breaker learnt from one call holds for the next. Built-in suites ship as
// :/retrylab/suites/NAME.json; a user's suite is a file in the same format.

#include "lab/faultscenario.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

// Many calls from one client process: call n starts (n − 1) × interval after call 1, whether or not the
// calls before it have ended (RETRYLAB_CALLS, RETRYLAB_INTERVAL_MS), and every request of call n carries n
// in the call header (RETRYLAB_CALL_HEADER).
struct CallPlan
{
    int count = 1;
    std::chrono::milliseconds interval { 1000 };
    friend bool operator==(const CallPlan&, const CallPlan&) = default;
};

// The field a command puts a call's number in (RETRYLAB_CALL_HEADER).
inline constexpr char kCallHeader[] = "X-Retrylab-Call";

struct SuiteCase
{
    QString name; // [a-z0-9][a-z0-9-]*, unique in its suite: RETRYLAB_CASE and the JUnit testcase name
    QString description;
    QString method = QStringLiteral("GET"); // suggested: RETRYLAB_METHOD
    QString path; // the path RETRYLAB_URL points at, "/conform/NAME" unless given
    bool key = false; // suggest an idempotency key (RETRYLAB_IDEMPOTENCY_KEY, a fresh UUID per case)
    std::chrono::milliseconds timeout { 30000 }; // the command is stopped after this long
    std::optional<CallPlan> calls; // "calls" and "interval_ms": many calls, judged along their timeline
    // "steps" (with "outages" if any) make a one-route scenario answering every method on every path
    FaultScenario scenario;
};

struct ConformanceSuite
{
    QString name;
    QString description;
    QString source; // ":/retrylab/suites/standard.json", or the file's path
    QList<SuiteCase> cases;

    // The cases named in NAMES (all when empty); nullopt with *error naming an unknown one.
    std::optional<QList<SuiteCase>> select(const QStringList& names, QString* error) const;
};

namespace SuiteLoader {

struct Result
{
    std::optional<ConformanceSuite> suite;
    QStringList problems; // "$.cases[3].steps[0].status: …", every one at once
    bool ok() const { return suite.has_value(); }
    QString problemText() const { return problems.join(QLatin1Char('\n')); }
};

Result fromJson(const QByteArray& json, const QString& source = {});
Result fromFile(const QString& path);
// A built-in suite by name ("standard", "seeds"), else a suite file.
Result load(const QString& nameOrFile);
QStringList builtInNames();

} // namespace SuiteLoader
