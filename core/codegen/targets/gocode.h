// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Go both Go targets share (cenkalti/backoff, go-retryablehttp): a per-call `retryState` that judges
// each attempt by the policy's rules in order, draws the policy's own backoff, reads its server hints and
// keeps its deadline, exactly as core/policy/decide.cpp does. The targets only wire it into their library.

#include "codegen/codewriter.h"

#include <QSet>
#include <QString>

struct GoUnit
{
    QSet<QString> imports; // standard-library and library import paths
    QString body; // the declarations after the imports
};

// What the library gives the shared state for the backoff curve.
enum class GoCurve {
    Own, // the policy's formula, written out
    CenkaltiExponential, // a *backoff.ExponentialBackOff built by newBackOff()
    RetryablehttpDefault, // retryablehttp.DefaultBackoff(min, max, n-1, nil)
};

// Whether the cenkalti ExponentialBackOff draws exactly what the policy's curve does.
bool cenkaltiCurveIsExact(const RetryPolicy& policy);
// Whether retryablehttp.DefaultBackoff (min·2^n, capped, no jitter) is exactly the policy's curve.
bool retryablehttpCurveIsExact(const RetryPolicy& policy);

// The shared declarations: the key header, the retryState type with judge(), wait() and helpers. Adds to
// LOST what Go cannot carry (rules on a refused call of a circuit breaker).
void writeGoState(const RetryPolicy& policy, GoCurve curve, GoUnit& unit, LossList& lost);
// The statements that set the idempotency key in HEADERS (an http.Header expression) and
// create the state S; empty key part when the policy adds no keys.
QString goStateSetup(const RetryPolicy& policy, const QString& headers, GoUnit& unit);
// "65 * time.Second", "200 * time.Millisecond".
QString goDuration(Millis ms);
// The complete file: header comment, package, imports, body.
QString goFile(const QString& header, const GoUnit& unit);
