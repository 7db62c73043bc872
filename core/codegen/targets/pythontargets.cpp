// SPDX-License-Identifier: GPL-3.0-or-later
// The urllib3 and tenacity targets (resilience-fleets.md §5, retry-systems.md §2–3). Both send through
// urllib3: its exceptions tell a connect timeout from a read timeout and a reset from a malformed answer,
// which urllib.request folds into URLError. urllib3's Retry is extended where its options fall short: a
// subclass whose increment() asks the policy's rules with the whole answer (status, headers and the
// preloaded body) and whose sleep() waits what the policy drew.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "codegen/targets/pythonpolicy.h"

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

QString timeoutArgument(const RetryPolicy& p)
{
    QStringList parts;
    if (p.limits.attemptTimeout)
        parts << u"total="_s + secondsText(*p.limits.attemptTimeout);
    if (p.limits.connectTimeout)
        parts << u"connect="_s + secondsText(*p.limits.connectTimeout);
    return parts.isEmpty() ? QString() : u", timeout=urllib3.Timeout(%1)"_s.arg(parts.join(u", "_s));
}

QString keyHeaderLine(const RetryPolicy& p)
{
    if (!p.idempotency.autoAdd && !PythonPolicy::rulesUseKey(p))
        return {};
    return u"KEY_HEADER = %1\n"_s.arg(quoted(p.idempotency.header));
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

CodeExport urllib3Unit(const RetryPolicy& p, const QString& version)
{
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
    c += u"    return http.request(method, url, body=body, headers=headers, retries=retries, redirect=False%1)\n"_s.arg(timeoutArgument(p));
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
         u"from urllib3.exceptions import ConnectTimeoutError, NewConnectionError, ProtocolError, ReadTimeoutError, SSLError\n\n"_s;
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
    c += u"    return retrying(http.request, method, url, body=body, headers=headers, redirect=False%1)\n"_s.arg(timeoutArgument(p));
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
