# Retry policy "slen", exported by Retrylab 0.1.0 for tenacity 8.2.
# Slen SDK: no answer, 429 and 503 with service_unavailable/ledger_unavailable/pool_exhausted are sent again,
# 500/502/504 and every other answer never; 2 retries from 200 ms doubling to 5 s, ±25 %.
# Source: Slen SDK docs — What the SDK sends again, and how long it waits
# Exact: every behaviour of the policy is expressed below.
import email.utils
import json
import random
import re
import socket
import time
import uuid

import urllib3
from tenacity import Retrying, stop_after_attempt
from urllib3.exceptions import (ConnectTimeoutError, NewConnectionError, ProtocolError, ReadTimeoutError,
                                SSLError)

MAX_ATTEMPTS = 3  # tenacity counts attempts: the first and 2 retries
KEY_HEADER = "Idempotency-Key"


def _error_class(error):
    """Retrylab's name for how an attempt failed without an answer."""
    if isinstance(error, SSLError):
        return "tls"
    if isinstance(error, NewConnectionError):
        return "dns" if isinstance(error.__context__, socket.gaierror) else "refused"
    if isinstance(error, ConnectTimeoutError):
        return "connect-timeout"
    if isinstance(error, ReadTimeoutError):
        return "response-timeout"
    if isinstance(error, ProtocolError) and isinstance(error.args[-1], ConnectionError):
        return "connection-lost"
    return "protocol"


def _header_values(headers, name):
    return [v.strip().lower() for v in headers.getlist(name)] if headers else []


def _body_value(body, path):
    """The scalar at PATH ("error.code", "errors[0].code") of a JSON body, as text; None when absent."""
    try:
        value = json.loads(body)
    except ValueError:
        return None
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        if name and isinstance(value, dict) and name in value:
            value = value[name]
        elif index and isinstance(value, list) and int(index) < len(value):
            value = value[int(index)]
        else:
            return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return None if isinstance(value, (dict, list)) else str(value)


def _action(method, status, headers, body, error, keyed, answer_lost):
    """The policy's rules, first match wins: "retry", "stop", "success" or None (no rule: a
    status below 400 is a success, anything else stops)."""
    # customer-deleted-after-lost-answer
    if (status is not None and method == "DELETE" and status == 404
            and _body_value(body, "error.code") == "customer_not_found" and answer_lost):
        return "success"
    if error is not None:  # no-answer
        return "retry"
    if status is not None and status == 429:  # rate-limited
        return "retry"
    # slen-busy
    if (status is not None and status == 503
            and _body_value(body, "error.code") in ("service_unavailable", "ledger_unavailable",
                                                    "pool_exhausted")):
        return "retry"
    if status is not None and status in (500, 502, 504):  # provider-may-have-been-paid
        return "stop"
    if status is not None and 400 <= status <= 599:  # any-other-answer
        return "stop"
    return None


def _hint_seconds(headers, name, unit):
    """A delay hint in seconds: None when absent, "invalid" when unreadable or given twice differently."""
    values = [v.strip() for v in headers.getlist(name)]
    if not values:
        return None
    if len(set(values)) > 1:
        return "invalid"
    if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", values[0]):
        return float(values[0]) / 1000 if unit == "ms" else float(values[0])
    parsed = email.utils.parsedate_tz(values[0]) if unit == "date" else None
    if parsed is not None:
        return max(0.0, email.utils.mktime_tz(parsed) - time.time())
    return "invalid"


class _Plan:
    """One call's decisions under the policy: make one per call, it counts the retries."""

    def __init__(self, keyed=False):
        self.keyed = keyed  # the request carries an idempotency key
        self.retries = 0  # retries so far: the backoff's n
        self.answer_lost = False  # an earlier attempt was sent but its answer lost

    def decide(self, method, response=None, error=None):
        """After one attempt: ("retry", seconds to wait) or ("stop" | "success" | None, None)."""
        method = method.upper()
        status = response.status if response is not None else None
        headers = response.headers if response is not None else None
        error = _error_class(error) if error is not None else None
        action = _action(method, status, headers, response.data if response is not None else b"", error,
                         self.keyed, self.answer_lost)
        self.answer_lost = self.answer_lost or error in ("response-timeout", "connection-lost", "protocol")
        if action != "retry":
            return action, None
        wait = self._backoff()
        # hints[0]: Retry-After
        asked = (_hint_seconds(headers, "Retry-After", "date")
                 if response is not None and status in (429, 503) else None)
        if isinstance(asked, float) and asked >= 0:
            if asked > 30:
                return "stop", None  # the server asks for too long
            wait = asked
            wait = wait * random.uniform(0.75, 1.25)
            return "retry", wait
        return "retry", wait

    def _backoff(self):
        """The backoff before the next retry, in seconds."""
        self.retries += 1
        return min(0.2 * 2 ** (self.retries - 1), 5) * random.uniform(0.75, 1.25)


# tenacity retries; urllib3 sends each attempt once and raises what went wrong.
http = urllib3.PoolManager(retries=False)


def slen_request(method, url, body=None, headers=None):
    """Sends METHOD to URL under the policy "slen" and returns the last answer (an HTTPResponse)."""
    headers = dict(headers or {})
    # One idempotency key for every attempt of this call; a key the caller set wins.
    keyed = any(name.lower() == "idempotency-key" for name in headers)
    if not keyed and method.upper() in ("POST",):
        headers["Idempotency-Key"] = str(uuid.uuid4())
        keyed = True
    plan = _Plan(keyed)
    decisions = {}  # attempt number → the plan's decision, made once

    def decision(retry_state):
        n = retry_state.attempt_number
        if n not in decisions:
            outcome = retry_state.outcome
            decisions[n] = (plan.decide(method, error=outcome.exception()) if outcome.failed
                            else plan.decide(method, response=outcome.result()))
        return decisions[n]

    retrying = Retrying(stop=stop_after_attempt(MAX_ATTEMPTS), retry=lambda rs: decision(rs)[0] == "retry",
                        wait=lambda rs: decision(rs)[1], reraise=True)
    return retrying(http.request, method, url, body=body, headers=headers, redirect=False,
                    timeout=urllib3.Timeout(total=65, connect=5))
