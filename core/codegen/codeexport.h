// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A retry policy as code or configuration for the library a user runs (issue 30): Polly, urllib3, got,
// Envoy… Each target writes a small, complete, idiomatic unit, exact where its options (or its own
// extension point: DelayGenerator, calculateDelay, a custom wait…) can be, and lists every behaviour of the
// policy it cannot express. The facts per target are in shared/reference/resilience-fleets.md §5 and
// retry-systems.md; each generator cites them where it uses them.
//
// Generated code for other languages is the one place a policy's rules are written again outside the core
// (CONVENTIONS), and the conformance tests in tests/codegen prove it by running it.

#include "policy/retrypolicy.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

// One behaviour of the policy the target cannot express, even through its extension points.
struct LostBehaviour
{
    QString path; // the policy file's field path: "jitter.kind", "quota", "rules[3].when.body", "hints[0].max_ms"
    QString what; // one sentence: "Envoy discards a Retry-After above max_interval instead of clamping it"
    friend bool operator==(const LostBehaviour&, const LostBehaviour&) = default;
};

struct CodeExport
{
    QString code; // the whole unit, its header comment and the lost list included; ends with a newline
    QList<LostBehaviour> lost; // empty: the code does exactly what the policy says
    bool exact() const { return lost.isEmpty(); }
};

// Import's result: a policy read from a client's configuration, and what of it could not be read.
struct CodeImport
{
    std::optional<RetryPolicy> policy; // unset when the input is not the target's form at all
    QList<LostBehaviour> lost; // what the input says that the policy cannot hold (path: the input's own)
    QStringList problems; // why the input could not be read (bad syntax, wrong shape), each a sentence
};

// The ten-line client that runs an exported unit under `retrylab conform` (issue 30 §3): the tests' proof and
// the window's "Check with a real client" write it beside the unit and run COMMAND in that folder. It
// sends RETRYLAB_METHOD to RETRYLAB_URL through the unit (a POST carries a small JSON body, and
// RETRYLAB_IDEMPOTENCY_KEY as the policy's key header when the case gives one), exits 0 on a 2xx answer and
// 1 otherwise.
struct ProofClient
{
    QString fileName; // "client.py"
    QString text;
    QStringList command; // argv, run in the folder: {"python3", "client.py"}
    QString needs; // what must be installed, in words: "python3 with urllib3 1.26", "got 14 in ./node_modules"
    QStringList packages; // the runtime's packages the unit imports ("got"; "urllib3"): the window checks them
};

struct CodeTarget
{
    QString id; // "urllib3", "got", "envoy"… (retrylab policy export --to ID)
    QString title; // "urllib3 Retry", "Polly 8 ResiliencePipelineBuilder"
    QString language; // python javascript csharp go java yaml json: the colouring and the file suffix
    QStringList versions; // the target's versions it writes for ("1.26", "2"); the first is the default
    QString runtime; // where it runs: "Python 3", "Node 20", ".NET 8", "Go", "JVM", "proxy"
    // Writes POLICY for VERSION (one of `versions`, checked by exportPolicy()).
    std::function<CodeExport(const RetryPolicy& policy, const QString& version)> generate;
    // The client wrapping UNITFILE (a file name in the same folder) for VERSION; unset where the target does not
    // run on this machine's kind (Polly, resilience4j, Envoy, gRPC).
    std::function<ProofClient(const QString& unitFile, const QString& version)> proofClient;
    // Reads a client's configuration into a policy; unset for the code-shaped targets.
    std::function<CodeImport(const QByteArray& text)> import;
};

namespace CodeTargets {
const QList<CodeTarget>& all(); // in the order `--to all` and the window list them
const CodeTarget* find(const QString& id); // null when unknown
QStringList ids();
QString fileSuffix(const QString& language); // "py", "mjs", "cs", "go", "java", "yaml", "json"
} // namespace CodeTargets

// TARGET's unit for POLICY at VERSION (empty: the target's default). Unset with *error when the version is
// not one the target writes for.
std::optional<CodeExport> exportPolicy(const CodeTarget& target, const RetryPolicy& policy, const QString& version,
    QString* error);

// Writes TARGET's proof client for the unit UNITFILE (VERSION) into DIR, beside the unit, as the tests' proof and
// the window's check both run it; the /bin/sh command line that runs it there ("cd 'DIR' && exec …"), or
// empty with *error set when the target has no client or the file cannot be written.
QString writeProofClient(const CodeTarget& target, const QString& dir, const QString& unitFile, const QString& version,
    QString* error);

// Each family's generators, listed by CodeTargets::all() (one file per family, codegen/targets/).
QList<CodeTarget> pythonTargets(); // urllib3, tenacity
QList<CodeTarget> nodeTargets(); // got, ky, axios-retry, cockatiel
QList<CodeTarget> dotnetTargets(); // polly, ms-http-resilience
QList<CodeTarget> goTargets(); // cenkalti-backoff, go-retryablehttp
QList<CodeTarget> javaTargets(); // resilience4j
QList<CodeTarget> proxyTargets(); // envoy, grpc
