// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How a conformance run is reported: a terminal table, JSON (resources/schemas/conform-report.schema.json)
// and JUnit XML as CI systems read it (one testsuite, one testcase per case, a failure per case that does
// not conform carrying its findings, an error per case that could not run).

#include "conform/conformancerunner.h"
#include "policy/settings/policychanges.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

struct ConformanceReport
{
    QString suite; // "standard", a suite file's name, or "session FILE"
    QString policy; // the policy's name
    PolicyChanges policyChanges; // what was changed in the preset or file it came from (--set); often none
    QStringList command; // empty when judging a session
    QDateTime startedUtc;
    WaitTolerance tolerance;
    QList<CaseResult> cases;

    int failed() const; // cases that ran and did not conform
    int errors() const; // cases that could not run
    bool allConform() const { return failed() == 0 && errors() == 0; }

    // "PASS  503-then-success      3 attempts  …" with each finding indented under its case, and a summary
    // (then "policy: preset curl-7.88, changed: …" when the policy was changed).
    QString table() const;
    // One line: "21 cases: 19 conform, 2 do not (policy curl-7.88)".
    QString summary() const;
    QJsonObject toJson() const;
    QByteArray toJUnit() const;
};

// "conforms", "does not conform", "could not run".
QString caseVerdict(const CaseResult& result);
