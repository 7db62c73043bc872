// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet/locustfile.h"

#include "codegen/codewriter.h"
#include "codegen/targets/pythonpolicy.h"

using namespace Qt::StringLiterals;

namespace {

QString seconds(Millis ms)
{
    return numberText(double(ms.count()) / 1000.0);
}

// urllib3.Timeout for one attempt: the policy's attempt and connect timeouts, else the fleet's default.
QString timeoutExpression(const RetryPolicy& p, const LocustFileOptions& o)
{
    QStringList parts;
    parts << u"total="_s + seconds(p.limits.attemptTimeout.value_or(o.defaultAttemptTimeout));
    if (p.limits.connectTimeout)
        parts << u"connect="_s + seconds(*p.limits.connectTimeout);
    return u"urllib3.Timeout(%1)"_s.arg(parts.join(u", "_s));
}

// The fleet's own code around the policy's: settings, the logical request, recording and the messages.
const char* const kFleetCode = R"PY(

# ---- the fleet (Retrylab issue 32): settings written by `retrylab fleet` ------------------------------------
URL = %URL%
METHOD = %METHOD%
ARRIVAL = %ARRIVAL%  # "closed": a user waits for its own request; "open": arrivals at RATE whatever happens
RATE = %RATE%  # open loop: logical requests per second, all users together
THINK = %THINK%  # closed loop: seconds between a user's logical requests
USERS = %USERS%
MAX_ATTEMPTS = %MAX_ATTEMPTS%  # the first and the retries: the policy's limits.max_attempts
DURATION = %DURATION%  # seconds: no logical request starts later (from this worker's test start)
DRAIN = %DRAIN%  # seconds after DURATION a request under way may go on; its next attempt is then cut
TIMEOUT = %TIMEOUT%
ATTEMPT_HEADER = %ATTEMPT_HEADER%
FLEET_KEY_HEADER = %KEY_HEADER%
RECORD = %RECORD%  # every attempt through Locust's request event, and on to the master
BATCH_SECONDS = 0.5

_state = {"end": None, "in_flight": 0, "logical": 0, "sent": 0, "users": 0, "done": False}
_batch = []


def _running():
    return _state["end"] is not None and time.monotonic() < _state["end"]


def _attempt_error(error):
    return _error_class(error) if error is not None else None


def _logical_request(environment, http, user):
    """One logical request under the policy: attempts until the policy's plan stops, each recorded."""
    logical = uuid.uuid4().hex
    headers = {FLEET_KEY_HEADER: str(uuid.uuid4())}  # one key for every attempt of this request
    plan = _Plan(keyed=True)
    attempt, wait = 0, 0.0
    while True:
        attempt += 1
        headers[ATTEMPT_HEADER] = "%s;attempt=%d" % (logical, attempt)
        started, clock = time.time(), time.monotonic()
        response = error = None
        try:
            response = http.request(METHOD, URL, headers=headers, retries=False, redirect=False, timeout=TIMEOUT)
        except Exception as e:  # urllib3's errors, raised as they are with retries=False
            error = e
        elapsed = time.monotonic() - clock
        ended = started + elapsed
        action, delay = plan.decide(METHOD, response, error)
        if action is None:  # no rule matched: a status below 400 is a success, anything else stops
            action = "success" if response is not None and response.status < 400 else "stop"
        if action == "retry" and attempt >= MAX_ATTEMPTS:  # as the export's Retry(total=MAX_RETRIES) stops
            action, delay = "stop", None
        cut = action == "retry" and time.monotonic() + delay > _state["end"] + DRAIN
        if RECORD:
            status = response.status if response is not None else None
            record = {
                "logical": logical, "attempt": attempt, "user": user, "method": METHOD, "url": URL,
                "key": headers[FLEET_KEY_HEADER], "start": started, "end": ended, "status": status,
                "error": _attempt_error(error), "wait": wait, "decision": "cut" if cut else action,
                "delay": delay or 0.0, "bytes": len(response.data) if response is not None else 0,
                "headers": [[k, v] for k, v in response.headers.items()] if response is not None else [],
            }
            failure = error if error is not None else (
                Exception("HTTP %d" % status) if status is not None and status >= 400 else None)
            environment.events.request.fire(
                request_type=METHOD, name=URL, response_time=elapsed * 1000,
                response_length=record["bytes"], response=response, context={"retrylab": record},
                exception=failure, start_time=started, url=URL)
        if action != "retry" or cut:
            return
        gevent.sleep(delay)
        wait = delay


@events.request.add_listener
def _on_request(context=None, **kwargs):
    if context and "retrylab" in context:
        _batch.append(context["retrylab"])


def _flush(runner):
    global _batch
    if _batch:
        batch, _batch = _batch, []
        _state["sent"] += len(batch)
        runner.send_message("retrylab_attempts", batch)


def _worker_loop(environment):
    """Sends the attempts in batches; once no request is under way after DURATION, the last batch and done."""
    runner = environment.runner
    while _state["end"] is None or _running() or _state["in_flight"] > 0:
        gevent.sleep(BATCH_SECONDS)
        _flush(runner)
    _flush(runner)
    _state["done"] = True
    runner.send_message("retrylab_done", {"worker": runner.client_id, "attempts": _state["sent"],
                                          "logical": _state["logical"], "users": _state["users"]})


@events.test_start.add_listener
def _on_test_start(environment, **kwargs):
    if isinstance(environment.runner, WorkerRunner) and _state["end"] is None:
        _state["end"] = time.monotonic() + DURATION
        gevent.spawn(_worker_loop, environment)


class FleetUser(User):
    """A client of the fleet: closed loop (one request after another) or open loop (arrivals at a rate)."""
    wait_time = constant(0)

    def on_start(self):
        _state["users"] += 1
        self.index = _state["users"]
        self.http = urllib3.PoolManager(maxsize=4 if ARRIVAL == "closed" else 64)

    def _one(self):
        _state["in_flight"] += 1
        _state["logical"] += 1
        try:
            _logical_request(self.environment, self.http, self.index)
        finally:
            _state["in_flight"] -= 1

    @task
    def arrive(self):
        if ARRIVAL == "open":
            gap = USERS / RATE
            gevent.sleep(random.uniform(0, gap))
            due = time.monotonic()
            while _running():
                gevent.spawn(self._one)
                due += gap
                gevent.sleep(max(0.0, due - time.monotonic()))
        else:
            while _running():
                self._one()
                if THINK > 0:
                    gevent.sleep(THINK)
        while True:  # the run is over for this user: idle until the master quits
            gevent.sleep(3600)


# ---- the master: the attempts into RETRYLAB_FLEET_OUT, and quit once every worker is done ------------------
_out = None
_done = set()


def _on_attempts(environment, msg, **kwargs):
    for record in msg.data:
        record["worker"] = msg.node_id
        _out.write(json.dumps(record, separators=(",", ":")) + "\n")


def _on_done(environment, msg, **kwargs):
    _out.write(json.dumps({"done": msg.data, "worker": msg.node_id}) + "\n")
    _out.flush()
    _done.add(msg.node_id)
    if len(_done) >= int(os.environ.get("RETRYLAB_FLEET_WORKERS", "1")):
        gevent.spawn_later(0.2, environment.runner.quit)


@events.init.add_listener
def _on_init(environment, **kwargs):
    global _out
    if isinstance(environment.runner, MasterRunner):
        _out = open(os.environ.get("RETRYLAB_FLEET_OUT", "retrylab-fleet.jsonl"), "w", encoding="utf-8")
        environment.runner.register_message("retrylab_attempts", _on_attempts)
        environment.runner.register_message("retrylab_done", _on_done)
)PY";

} // namespace

namespace LocustFile {

QString write(const RetryPolicy& policy, const LocustFileOptions& o, QList<LostBehaviour>* lost)
{
    // What the policy's Python form cannot do, as the urllib3 export says it.
    if (lost) {
        lost->clear();
        if (const CodeTarget* urllib3 = CodeTargets::find(u"urllib3"_s)) {
            QString error;
            if (const std::optional<CodeExport> unit = exportPolicy(*urllib3, policy, {}, &error))
                *lost = unit->lost;
        }
    }
    PythonPolicy::Imports imports;
    imports.json = imports.random = imports.time = imports.uuid = true;
    const QString rules = PythonPolicy::rulesCode(policy, imports);
    const QString plan = PythonPolicy::planCode(policy, imports);

    QString c = u"# SPDX-License-Identifier: GPL-3.0-or-later\n"_s;
    c += u"# A Retrylab fleet's locustfile, written by `retrylab fleet`: every user makes logical requests under the\n"
         u"# retry policy %1 (%2); the policy's rules and plan below are its urllib3 export's, word for word.\n"
         u"# Run by: locust -f THIS --master … / --worker --master-host H (Locust 2.12).\n"_s.arg(
             quoted(policy.name), policySummary(policy));
    c += imports.lines();
    c += u"import os\n\nimport gevent\nimport urllib3\n"
         u"import locust.runners\n"
         u"from locust import User, constant, events, task\n"
         u"from locust.runners import MasterRunner, WorkerRunner\n"
         u"from urllib3.exceptions import (ConnectTimeoutError, NewConnectionError, ProtocolError, ReadTimeoutError,\n"
         u"                                SSLError)\n"_s;
    // Debian 12's python3-locust 2.12.1 carries an empty __version__, and a master refuses a worker whose
    // ready message says nothing ("An old (pre 2.0) worker tried to connect"): give it the packaged version.
    c += u"\nif not locust.runners.__version__:  # Debian's 2.12.1 has an empty one: the master would refuse its "
         u"workers\n"
         u"    locust.runners.__version__ = \"2.12.1\"\n"_s;
    c += u"\n# ---- the policy, as `retrylab policy export --to urllib3` writes it -----------------------------------\n"_s;
    c += rules + plan;
    QString fleet = QString::fromUtf8(kFleetCode);
    fleet.replace(u"%URL%"_s, quoted(o.url));
    fleet.replace(u"%METHOD%"_s, quoted(o.method.toUpper()));
    fleet.replace(u"%ARRIVAL%"_s, o.arrival == LocustFileOptions::Arrival::Open ? u"\"open\""_s : u"\"closed\""_s);
    fleet.replace(u"%RATE%"_s, numberText(o.rate));
    fleet.replace(u"%THINK%"_s, seconds(o.think));
    fleet.replace(u"%USERS%"_s, QString::number(o.users));
    fleet.replace(u"%DURATION%"_s, seconds(o.duration));
    fleet.replace(u"%MAX_ATTEMPTS%"_s, QString::number(policy.limits.maxAttempts));
    fleet.replace(u"%DRAIN%"_s, seconds(o.drain));
    fleet.replace(u"%TIMEOUT%"_s, timeoutExpression(policy, o));
    fleet.replace(u"%ATTEMPT_HEADER%"_s, quoted(QString::fromLatin1(o.attemptHeader)));
    fleet.replace(u"%KEY_HEADER%"_s,
        quoted(policy.idempotency.header.isEmpty() ? u"Idempotency-Key"_s : policy.idempotency.header));
    fleet.replace(u"%RECORD%"_s, o.recordAttempts ? u"True"_s : u"False"_s);
    c += fleet;
    return c;
}

} // namespace LocustFile
