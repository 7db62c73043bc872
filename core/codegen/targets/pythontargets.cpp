// SPDX-License-Identifier: GPL-3.0-or-later
// The urllib3 and tenacity targets (resilience-fleets.md §5, retry-systems.md §2–3). Both send through
// urllib3: its exceptions tell a connect timeout from a read timeout and a reset from a malformed answer,
// which urllib.request folds into URLError. urllib3's Retry is extended where its options fall short: a
// subclass whose increment() asks the policy's rules with the whole answer (status, headers and the
// preloaded body) and whose sleep() waits what the policy drew.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "codegen/decisionequivalence.h"
#include "codegen/targets/pythonimport.h"
#include "codegen/targets/pythonpolicy.h"

#include <QSet>

using namespace Qt::StringLiterals;
using PythonPolicy::Imports;

namespace {

TargetAbilities abilities()
{
    TargetAbilities can;
    can.deadline = true; // checked by the plan before each wait
    can.attemptTimeout = true; // urllib3.Timeout(total=…)
    can.connectTimeout = true; // urllib3.Timeout(connect=…)
    return can;
}

// ", timeout=urllib3.Timeout(…)" on a line of its own, INDENT columns in (under the call's first argument).
QString timeoutArgument(const RetryPolicy& p, int indent)
{
    QStringList parts;
    if (p.limits.attemptTimeout)
        parts << u"total="_s + secondsText(*p.limits.attemptTimeout);
    if (p.limits.connectTimeout)
        parts << u"connect="_s + secondsText(*p.limits.connectTimeout);
    return parts.isEmpty() ? QString() : u",\n%1timeout=urllib3.Timeout(%2)"_s.arg(QString(indent, u' '), parts.join(u", "_s));
}

QString keyHeaderLine(const RetryPolicy& p)
{
    if (!p.idempotency.autoAdd && !PythonPolicy::rulesUseKey(p))
        return {};
    return u"KEY_HEADER = %1\n"_s.arg(quoted(p.idempotency.header));
}

bool loseUnsupportedIsEmpty(const RetryPolicy& p)
{
    LossList lost;
    loseUnsupported(p, abilities(), u"urllib3"_s, lost);
    return lost.items().isEmpty();
}

void commonLosses(const RetryPolicy& p, const QString& name, LossList& lost)
{
    loseUnsupported(p, abilities(), name, lost);
    for (qsizetype i = 0; i < p.rules.size(); ++i)
        if (p.rules.at(i).when.outcome == OutcomeKind::CircuitOpen)
            lost.add(u"rules[%1]"_s.arg(i), u"a rule on calls the circuit breaker refused: there is no breaker here"_s);
}

QString attemptsLine(const RetryPolicy& p)
{
    return u"MAX_RETRIES = %1  # %2 attempts: the first and %1 retries\n"_s.arg(p.maxRetries()).arg(p.limits.maxAttempts);
}

// ---- The native form: Retry(...) alone, where its options decide exactly as the policy does ----------------

const QStringList kUrllib3DefaultMethods { u"HEAD"_s, u"GET"_s, u"PUT"_s, u"DELETE"_s, u"OPTIONS"_s, u"TRACE"_s };

bool retries(const RetryPolicy& p, ErrorClass e)
{
    return std::any_of(p.rules.cbegin(), p.rules.cend(), [e](const RetryRule& r) {
        return r.action == RuleAction::Retry && r.when.outcome == OutcomeKind::Error && r.when.errors.contains(e);
    });
}

QString quotedList(const QStringList& items)
{
    QStringList q;
    for (const QString& i : items)
        q << quoted(i);
    return q.join(u", "_s);
}

struct NativeArgument
{
    QString text; // "backoff_factor=0.5"
    QString comment; // what it does, in a sentence
};

// Retry's keyword arguments as they would express P at VERSION (the non-default ones); empty when P's shape
// has no such form at all. Whether they really decide as P does is the comparator's to say.
QList<NativeArgument> nativeCandidate(const RetryPolicy& p, const QString& version)
{
    const bool v2 = version.startsWith(u'2');
    QList<NativeArgument> args;
    args.append({ u"total=%1"_s.arg(p.maxRetries()), u"retries after the first attempt, every kind of failure together"_s });
    const Backoff& b = p.backoff;
    if (b.kind == BackoffKind::Exponential) {
        if (b.origin != ExponentOrigin::FirstRetryIsZero || b.multiplier != 2.0 || b.exponentOffset != 0 || !b.cap)
            return {};
        args.append({ u"backoff_factor="_s + secondsText(b.base),
            u"0 s before the first retry, then %1 s · 2^(n−1) before retry n, at most %2 s"_s.arg(secondsText(b.base), secondsText(*b.cap)) });
        if (*b.cap != Millis(120000)) {
            if (!v2)
                return {};
            args.append({ u"backoff_max="_s + secondsText(*b.cap), u"the longest backoff"_s });
        }
    } else if (b.kind != BackoffKind::None) {
        return {};
    }
    if (p.jitter.kind == JitterKind::Additive && v2)
        args.append({ u"backoff_jitter="_s + secondsText(p.jitter.additive), u"adds a random 0 to %1 s to each backoff"_s.arg(secondsText(p.jitter.additive)) });
    else if (p.jitter.kind != JitterKind::None)
        return {};
    // The methods: those of the rule retrying read errors, or of the first rule retrying a status.
    std::optional<QStringList> methods;
    QList<StatusRange> forced;
    for (const RetryRule& r : p.rules) {
        if (r.action != RuleAction::Retry)
            continue;
        if (!methods && r.when.outcome == OutcomeKind::Error && r.when.errors.contains(ErrorClass::ResponseTimeout))
            methods = r.when.methods;
        if (r.when.outcome == OutcomeKind::Status && r.when.headers.isEmpty()) {
            if (!methods)
                methods = r.when.methods;
            forced += r.when.statuses;
        }
    }
    if (!forced.isEmpty()) {
        bool tooWide = false;
        const QList<int> codes = statusCodes(forced, 100, &tooWide);
        if (tooWide)
            return {};
        QStringList list;
        for (int c : codes)
            list << QString::number(c);
        args.append({ u"status_forcelist=["_s + list.join(u", "_s) + u']', u"answers retried whether or not they carry Retry-After"_s });
    }
    if (methods && QSet<QString>(methods->cbegin(), methods->cend()) != QSet<QString>(kUrllib3DefaultMethods.cbegin(), kUrllib3DefaultMethods.cend())) {
        if (methods->isEmpty())
            args.append({ u"allowed_methods=None"_s, u"read errors and statuses are retried for every method"_s });
        else
            args.append({ u"allowed_methods=frozenset({%1})"_s.arg(quotedList(*methods)),
                u"read errors and statuses are retried only for these methods"_s });
    }
    if (!retries(p, ErrorClass::ConnectTimeout) && !retries(p, ErrorClass::Refused) && !retries(p, ErrorClass::Dns))
        args.append({ u"connect=0"_s, u"a connection that does not open is not retried"_s });
    if (!retries(p, ErrorClass::ResponseTimeout))
        args.append({ u"read=0"_s, u"an answer lost after sending is not retried"_s });
    if (!retries(p, ErrorClass::Tls))
        args.append({ u"other=0"_s, u"other failures (TLS) are not retried"_s });
    if (p.hints.isEmpty())
        args.append({ u"respect_retry_after_header=False"_s, u"Retry-After is ignored: the backoff alone sets the wait"_s });
    return args;
}

// The native arguments when they decide exactly as P does (judged by importing them back with the
// importer and comparing decisions); empty otherwise.
QList<NativeArgument> nativeArguments(const RetryPolicy& p, const QString& version)
{
    if (!loseUnsupportedIsEmpty(p))
        return {};
    const QList<NativeArgument> args = nativeCandidate(p, version);
    if (args.isEmpty())
        return {};
    QStringList texts;
    for (const NativeArgument& a : args)
        texts << a.text;
    const CodeImport back = importUrllib3Retry((u"Retry("_s + texts.join(u", "_s) + u')').toUtf8());
    if (!back.policy || !back.lost.isEmpty() || !back.problems.isEmpty())
        return {};
    RetryPolicy native = *back.policy;
    native.limits.attemptTimeout = p.limits.attemptTimeout; // passed to http.request as urllib3.Timeout
    native.limits.connectTimeout = p.limits.connectTimeout;
    return firstDecisionDifference(native, p).isEmpty() ? args : QList<NativeArgument>();
}

CodeExport urllib3NativeUnit(const RetryPolicy& p, const QString& version, const QList<NativeArgument>& args)
{
    const QString fn = snakeName(p.name) + u"_request"_s;
    QString c = headerComment(CommentStyle { u"# "_s }, p, u"urllib3 Retry"_s, version, {});
    c += u"import urllib3\nfrom urllib3.util.retry import Retry\n\n"_s;
    c += u"# urllib3's own Retry decides exactly as the policy does:\n"_s;
    QStringList texts;
    for (const NativeArgument& a : args) {
        c += u"#   %1  %2\n"_s.arg(a.text.leftJustified(18), a.comment);
        texts << a.text;
    }
    c += u"# and, as Retry always does: connect errors are retried for any method; read errors (timeout, reset,\n"
         u"# malformed answer) and 413, 429 or 503 with Retry-After only for the allowed methods.\n"_s;
    if (!p.hints.isEmpty())
        c += u"# Retry-After sets the wait (0: the backoff's).\n"_s;
    QString call = u"RETRY = Retry("_s + texts.join(u", "_s) + u")\n"_s;
    if (call.size() > 111)
        call = u"RETRY = Retry(\n    "_s + texts.join(u",\n    "_s) + u",\n)\n"_s;
    c += call;
    c += uR"(
http = urllib3.PoolManager()


def %1(method, url, body=None, headers=None):
    """Sends METHOD to URL under the policy %2 and returns the answer (an HTTPResponse).
    When the retries run out, urllib3 raises MaxRetryError, or the last error when it is not one to retry."""
    # redirect=False: a 3xx is returned as it came, as the policy counts it a success.
    return http.request(method, url, body=body, headers=headers, retries=RETRY, redirect=False%3)
)"_s.arg(fn, quoted(p.name), timeoutArgument(p, 24));
    return CodeExport { c, {} };
}

// ---- The subclass form ------------------------------------------------------------------------------

CodeExport urllib3Unit(const RetryPolicy& p, const QString& version)
{
    if (const QList<NativeArgument> native = nativeArguments(p, version); !native.isEmpty())
        return urllib3NativeUnit(p, version, native);
    LossList lost;
    commonLosses(p, u"urllib3"_s, lost);
    Imports imports;
    imports.time = true;
    const QString rules = PythonPolicy::rulesCode(p, imports);
    const QString plan = PythonPolicy::planCode(p, imports);
    const QString keys = PythonPolicy::keyLines(p, imports, u"    "_s);
    const QString cls = pascalName(p.name) + u"Retry"_s;
    const QString fn = snakeName(p.name) + u"_request"_s; // never the name of a module it imports

    QString c = headerComment(CommentStyle { u"# "_s }, p, u"urllib3 Retry"_s, version, lost.items());
    c += imports.lines() + u"\nimport urllib3\n"_s;
    c += u"from urllib3.exceptions import (ConnectTimeoutError, MaxRetryError, NewConnectionError, ProtocolError,\n"
         u"                                ReadTimeoutError, SSLError)\n"
         u"from urllib3.util.retry import RequestHistory, Retry\n\n"_s;
    c += attemptsLine(p) + keyHeaderLine(p);
    c += rules + plan;
    c += uR"(

def _close_failed_connection(stacktrace):
    """urllib3 sleeps before it closes a connection that failed (urlopen's finally comes after sleep()):
    close it now, so the server sees the attempt end when the client gives up, not after the wait."""
    conn = stacktrace.tb_frame.f_locals.get("conn") if stacktrace is not None else None
    if conn is not None:
        conn.close()


class %1(Retry):
    """urllib3's Retry deciding as the policy does. urllib3 copies it with new() after every attempt, so the
    call's plan and the drawn wait travel as constructor arguments."""

    def __init__(self, *args, plan=None, wait=0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.plan = plan if plan is not None else _Plan()
        self.wait = wait

    def new(self, **kw):
        kw.setdefault("plan", self.plan)
        kw.setdefault("wait", self.wait)
        return super().new(**kw)

    def is_retry(self, method, status_code, has_retry_after=False):
        # urllib3 asks with the status alone; increment() then reads the whole answer.
        method, status = method.upper(), status_code
        return bool(self.total) and (%2)

    def increment(self, method=None, url=None, response=None, error=None, _pool=None, _stacktrace=None):
        action, wait = self.plan.decide(method, response, error)
        if action == "retry" and self.total > 0:
            if error is not None:
                _close_failed_connection(_stacktrace)
            status = response.status if response is not None else None
            history = self.history + (RequestHistory(method, url, error, status, None),)
            return self.new(total=self.total - 1, history=history, wait=wait)
        if error is not None and action != "retry":
            raise error.with_traceback(_stacktrace)
        raise MaxRetryError(_pool, url, error)  # an answer: urlopen returns it (raise_on_status=False)

    def sleep(self, response=None):
        time.sleep(self.wait)


http = urllib3.PoolManager()


def %3(method, url, body=None, headers=None):
    """Sends METHOD to URL under the policy %4 and returns the last answer (an HTTPResponse)."""
    headers = dict(headers or {})
)"_s.arg(cls, PythonPolicy::mayRetryExpression(p), fn, quoted(p.name));
    c += keys;
    c += u"    retries = %1(total=MAX_RETRIES, redirect=False, raise_on_status=False, plan=_Plan(%2))\n"_s.arg(cls, keys.isEmpty() ? QString() : u"keyed"_s);
    c += u"    return http.request(method, url, body=body, headers=headers, retries=retries, redirect=False%1)\n"_s.arg(timeoutArgument(p, 24));
    return CodeExport { c, lost.items() };
}

CodeExport tenacityUnit(const RetryPolicy& p, const QString& version)
{
    LossList lost;
    commonLosses(p, u"tenacity"_s, lost);
    Imports imports;
    const QString rules = PythonPolicy::rulesCode(p, imports);
    const QString plan = PythonPolicy::planCode(p, imports);
    const QString keys = PythonPolicy::keyLines(p, imports, u"    "_s);
    const QString fn = snakeName(p.name) + u"_request"_s; // never the name of a module it imports

    QString c = headerComment(CommentStyle { u"# "_s }, p, u"tenacity"_s, version, lost.items());
    c += imports.lines() + u"\nimport urllib3\n"_s;
    c += u"from tenacity import Retrying, stop_after_attempt\n"
         u"from urllib3.exceptions import (ConnectTimeoutError, NewConnectionError, ProtocolError, ReadTimeoutError,\n"
         u"                                SSLError)\n\n"_s;
    c += u"MAX_ATTEMPTS = %1  # tenacity counts attempts: the first and %2 retries\n"_s.arg(p.limits.maxAttempts).arg(p.maxRetries());
    c += keyHeaderLine(p);
    c += rules + plan;
    c += uR"(

# tenacity retries; urllib3 sends each attempt once and raises what went wrong.
http = urllib3.PoolManager(retries=False)


def %1(method, url, body=None, headers=None):
    """Sends METHOD to URL under the policy %2 and returns the last answer (an HTTPResponse)."""
    headers = dict(headers or {})
)"_s.arg(fn, quoted(p.name));
    c += keys;
    c += u"    plan = _Plan(%1)\n"_s.arg(keys.isEmpty() ? QString() : u"keyed"_s);
    c += uR"(    decisions = {}  # attempt number → the plan's decision, made once

    def decision(retry_state):
        n = retry_state.attempt_number
        if n not in decisions:
            outcome = retry_state.outcome
            decisions[n] = (plan.decide(method, error=outcome.exception()) if outcome.failed
                            else plan.decide(method, response=outcome.result()))
        return decisions[n]

    retrying = Retrying(stop=stop_after_attempt(MAX_ATTEMPTS), retry=lambda rs: decision(rs)[0] == "retry",
                        wait=lambda rs: decision(rs)[1], reraise=True)
)"_s;
    c += u"    return retrying(http.request, method, url, body=body, headers=headers, redirect=False%1)\n"_s.arg(timeoutArgument(p, 20));
    return CodeExport { c, lost.items() };
}

ProofClient pythonClient(const QString& unitFile, const QString& needs, const QStringList& packages)
{
    QString module = unitFile;
    if (module.endsWith(u".py"_s))
        module.chop(3);
    ProofClient pc;
    pc.fileName = u"client.py"_s;
    pc.command = { u"/usr/bin/python3"_s, u"client.py"_s };
    pc.needs = needs;
    pc.packages = packages;
    pc.text = uR"(# Retrylab's proof client: sends RETRYLAB_METHOD to RETRYLAB_URL through the exported unit.
import importlib
import os
import sys

unit = importlib.import_module(%1)
send = next(f for name, f in vars(unit).items() if callable(f) and getattr(f, "__module__", "") == unit.__name__
            and not name.startswith("_") and not isinstance(f, type))
method = os.environ.get("RETRYLAB_METHOD", "GET")
body, headers = (b'{"amount": 100}', {"Content-Type": "application/json"}) if method == "POST" else (None, {})
if os.environ.get("RETRYLAB_IDEMPOTENCY_KEY"):
    headers[getattr(unit, "KEY_HEADER", "Idempotency-Key")] = os.environ["RETRYLAB_IDEMPOTENCY_KEY"]
try:
    response = send(method, os.environ["RETRYLAB_URL"], body=body, headers=headers)
except Exception as error:  # the last attempt's error: the call failed
    print(repr(error), file=sys.stderr)
    sys.exit(1)
sys.exit(0 if 200 <= response.status < 300 else 1)
)"_s.arg(quoted(module));
    return pc;
}

} // namespace

CodeImport importUrllib3Retry(const QByteArray& text); // pythonimport.cpp

QList<CodeTarget> pythonTargets()
{
    CodeTarget urllib3;
    urllib3.id = u"urllib3"_s;
    urllib3.title = u"urllib3 Retry"_s;
    urllib3.language = u"python"_s;
    urllib3.versions = { u"1.26"_s, u"2"_s };
    urllib3.runtime = u"Python 3"_s;
    urllib3.generate = urllib3Unit;
    urllib3.proofClient = [](const QString& unitFile, const QString& version) {
        return pythonClient(unitFile, u"python3 with urllib3 %1"_s.arg(version), { u"urllib3"_s });
    };
    urllib3.import = importUrllib3Retry;

    CodeTarget tenacity;
    tenacity.id = u"tenacity"_s;
    tenacity.title = u"tenacity"_s;
    tenacity.language = u"python"_s;
    tenacity.versions = { u"8.2"_s };
    tenacity.runtime = u"Python 3"_s;
    tenacity.generate = tenacityUnit;
    tenacity.proofClient = [](const QString& unitFile, const QString& version) {
        return pythonClient(unitFile, u"python3 with tenacity %1 and urllib3"_s.arg(version), { u"tenacity"_s, u"urllib3"_s });
    };
    return { urllib3, tenacity };
}
