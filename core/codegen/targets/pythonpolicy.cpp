// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/targets/pythonpolicy.h"

#include "codegen/codewriter.h"

using namespace Qt::StringLiterals;

namespace PythonPolicy {

QString Imports::lines() const
{
    QString out;
    const auto add = [&](bool used, const char* line) {
        if (used)
            out += QLatin1String(line) + u'\n';
    };
    add(email, "import email.utils");
    add(json, "import json");
    add(math, "import math");
    add(random, "import random");
    add(re, "import re");
    add(socket, "import socket");
    add(time, "import time");
    add(uuid, "import uuid");
    return out;
}

QString tupleOf(const QStringList& items)
{
    QStringList q;
    for (const QString& i : items)
        q << quoted(i);
    return u"("_s + q.join(u", "_s) + (q.size() == 1 ? u",)"_s : u")"_s);
}

namespace {

QString intTuple(const QList<int>& codes)
{
    QStringList s;
    for (int c : codes)
        s << QString::number(c);
    return u"("_s + s.join(u", "_s) + (s.size() == 1 ? u",)"_s : u")"_s);
}

// "status in (429, 503)", "500 <= status <= 599", joined with "or".
QString statusTest(const QList<StatusRange>& ranges)
{
    QList<int> singles;
    QStringList parts;
    for (const StatusRange& r : ranges) {
        if (r.high - r.low < 3) {
            for (int s = r.low; s <= r.high; ++s)
                singles << s;
        } else {
            parts << u"%1 <= status <= %2"_s.arg(r.low).arg(r.high);
        }
    }
    if (singles.size() == 1)
        parts.prepend(u"status == %1"_s.arg(singles.first()));
    else if (!singles.isEmpty())
        parts.prepend(u"status in "_s + intTuple(singles));
    return parts.size() == 1 ? parts.first() : u"("_s + parts.join(u" or "_s) + u')';
}

QStringList errorIds(const QList<ErrorClass>& errors)
{
    QStringList out;
    for (ErrorClass e : errors)
        out << errorClassId(e);
    return out;
}

const QStringList kLostAnswer { u"response-timeout"_s, u"connection-lost"_s, u"protocol"_s };
const QStringList kNeverSent { u"dns"_s, u"refused"_s, u"tls"_s, u"connect-timeout"_s };

// The Python test of WHEN over (method, status, headers, body, error, keyed, answer_lost); "True" when it
// matches anything.
QString conditionTest(const RuleCondition& when)
{
    QStringList t;
    if (when.outcome == OutcomeKind::Status)
        t << u"status is not None"_s;
    else if (when.outcome == OutcomeKind::Error)
        t << u"error is not None"_s;
    if (!when.methods.isEmpty())
        t << (when.methods.size() == 1 ? QString(u"method == "_s + quoted(when.methods.first())) : QString(u"method in "_s + tupleOf(when.methods)));
    if (when.idempotencyKey)
        t << (*when.idempotencyKey ? u"keyed"_s : u"not keyed"_s);
    if (!when.statuses.isEmpty()) {
        if (when.outcome != OutcomeKind::Status)
            t << u"status is not None"_s;
        t << statusTest(when.statuses);
    }
    if (!when.errors.isEmpty()) {
        const QStringList ids = errorIds(when.errors);
        t << (ids.size() == 1 ? QString(u"error == "_s + quoted(ids.first())) : QString(u"error in "_s + tupleOf(ids)));
    }
    if (when.serverCouldHaveActed)
        t << (*when.serverCouldHaveActed ? u"(status is not None or error in %1)"_s.arg(tupleOf(kLostAnswer))
                                         : QString(u"error in "_s + tupleOf(kNeverSent)));
    if (when.body) {
        const QString value = u"_body_value(body, %1)"_s.arg(quoted(when.body->path));
        if (when.body->values.isEmpty())
            t << value + u" is not None"_s;
        else if (when.body->values.size() == 1)
            t << value + u" == "_s + quoted(when.body->values.first());
        else
            t << value + u" in "_s + tupleOf(when.body->values);
    }
    for (const HeaderMatch& h : when.headers) {
        const QString values = u"_header_values(headers, %1)"_s.arg(quoted(h.name));
        if (h.absent)
            t << u"not "_s + values;
        else if (h.values.isEmpty())
            t << values;
        else {
            QStringList lower;
            for (const QString& v : h.values)
                lower << v.toLower();
            t << u"any(v in %1 for v in %2)"_s.arg(tupleOf(lower), values);
        }
    }
    if (when.afterLostAnswer)
        t << (*when.afterLostAnswer ? u"answer_lost"_s : u"not answer_lost"_s);
    if (t.isEmpty())
        return u"True"_s;
    // A status test is redundant after "status is not None" only when a later test needs it; keep both.
    return t.join(u" and "_s);
}

// "    if TEST:  # name" within 110 columns where the terms allow: a longer test is parenthesised and
// broken before an "and", the continuation lines indented twice.
QString ifLine(const QString& test, const QString& comment)
{
    const QString one = u"    if "_s + test + u':' + comment;
    if (one.size() <= 110)
        return one + u'\n';
    const QStringList terms = test.split(u" and "_s);
    QStringList lines { u"    if ("_s + terms.first() };
    const QString name = comment.isEmpty() ? QString() : u"    #"_s + comment.mid(3) + u'\n'; // the rule, above
    for (qsizetype i = 1; i < terms.size(); ++i) {
        const QString next = lines.last() + u" and "_s + terms.at(i);
        if (next.size() <= 106)
            lines.last() = next;
        else
            lines << u"            and "_s + terms.at(i);
    }
    // A single term too long for its line (a long tuple of values): broken after a comma, under the tuple.
    QStringList out;
    for (QString line : std::as_const(lines)) {
        const qsizetype open = line.indexOf(u" in ("_s);
        while (line.size() > 108 && open > 0) {
            const qsizetype cut = line.lastIndexOf(u", "_s, 106);
            if (cut <= open)
                break;
            out << line.left(cut + 1);
            line = QString(open + 5, u' ') + line.mid(cut + 2);
        }
        out << line;
    }
    return name + out.join(u'\n') + u"):\n"_s;
}

QString actionWord(RuleAction a)
{
    switch (a) {
    case RuleAction::Retry:
        return u"\"retry\""_s;
    case RuleAction::Stop:
        return u"\"stop\""_s;
    case RuleAction::Success:
        return u"\"success\""_s;
    }
    return u"None"_s;
}

bool usesBody(const RetryPolicy& p)
{
    return std::any_of(p.rules.cbegin(), p.rules.cend(), [](const RetryRule& r) { return r.when.body.has_value(); });
}

bool usesLostAnswer(const RetryPolicy& p)
{
    return std::any_of(p.rules.cbegin(), p.rules.cend(), [](const RetryRule& r) { return r.when.afterLostAnswer.has_value(); });
}

QString seconds(Millis ms)
{
    return secondsText(ms);
}

// Jitter applied to X (a Python expression), without the floor.
QString jittered(const Jitter& j, const QString& x)
{
    switch (j.kind) {
    case JitterKind::None:
        return x;
    case JitterKind::Full:
        return u"random.uniform(0, %1)"_s.arg(x);
    case JitterKind::Equal:
        return u"%1 / 2 + random.uniform(0, %1 / 2)"_s.arg(x);
    case JitterKind::Proportional:
        return u"%1 * random.uniform(%2, %3)"_s.arg(x, numberText(std::max(0.0, 1 - j.factor)), numberText(1 + j.factor));
    case JitterKind::Multiplicative:
        return u"%1 * random.uniform(%2, %3)"_s.arg(x, numberText(std::min(j.low, j.high)), numberText(std::max(j.low, j.high)));
    case JitterKind::Additive:
        return u"%1 + random.uniform(0, %2)"_s.arg(x, seconds(j.additive));
    }
    return x;
}

QString hintFormatWord(HintFormat f)
{
    switch (f) {
    case HintFormat::RetryAfter:
        return u"\"date\""_s;
    case HintFormat::Milliseconds:
        return u"\"ms\""_s;
    case HintFormat::Seconds:
        return u"\"s\""_s;
    }
    return u"\"s\""_s;
}

} // namespace

bool rulesUseKey(const RetryPolicy& p)
{
    return std::any_of(p.rules.cbegin(), p.rules.cend(), [](const RetryRule& r) { return r.when.idempotencyKey.has_value(); });
}

QString rulesCode(const RetryPolicy& policy, Imports& imports)
{
    imports.socket = true;
    QString c;
    c += uR"(

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
)"_s;
    if (usesBody(policy)) {
        imports.json = true;
        imports.re = true;
        c += uR"(

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
)"_s;
    }
    c += u"\n\ndef _action(method, status, headers, body, error, keyed, answer_lost):\n"
         u"    \"\"\"The policy's rules, first match wins: \"retry\", \"stop\", \"success\" or None (no rule: a\n"
         u"    status below 400 is a success, anything else stops).\"\"\"\n"_s;
    bool open = true;
    for (const RetryRule& r : policy.rules) {
        if (r.when.outcome == OutcomeKind::CircuitOpen)
            continue; // no breaker here: the rule never matches
        const QString test = conditionTest(r.when);
        const QString comment = r.name.isEmpty() ? QString() : u"  # "_s + r.name;
        if (test == u"True") {
            c += u"    return "_s + actionWord(r.action) + comment + u'\n';
            open = false;
            break;
        }
        c += ifLine(test, comment) + u"        return "_s + actionWord(r.action) + u'\n';
    }
    if (open)
        c += u"    return None\n"_s;
    return c;
}

QString mayRetryExpression(const RetryPolicy& policy)
{
    QStringList any;
    for (const RetryRule& r : policy.rules) {
        if (r.action != RuleAction::Retry || r.when.outcome == OutcomeKind::Error || r.when.outcome == OutcomeKind::CircuitOpen)
            continue;
        QStringList t;
        if (!r.when.methods.isEmpty())
            t << u"method in "_s + tupleOf(r.when.methods);
        if (!r.when.statuses.isEmpty())
            t << statusTest(r.when.statuses);
        if (t.isEmpty())
            return u"True"_s;
        any << (t.size() == 1 ? t.first() : u"("_s + t.join(u" and "_s) + u')');
    }
    return any.isEmpty() ? u"False"_s : any.join(u" or "_s);
}

QString planCode(const RetryPolicy& policy, Imports& imports)
{
    const Backoff& b = policy.backoff;
    const Jitter& j = policy.jitter;
    const bool decorrelated = b.kind == BackoffKind::Decorrelated || b.kind == BackoffKind::DecorrelatedV2;
    const bool restores = std::any_of(policy.hints.cbegin(), policy.hints.cend(), [](const DelayHint& h) { return !h.advancesBackoff || h.resetsExponent; });
    const bool lost = usesLostAnswer(policy);
    if (j.kind != JitterKind::None || decorrelated)
        imports.random = true;
    QString c;
    if (!policy.hints.isEmpty()) {
        imports.re = true;
        const bool dates = std::any_of(policy.hints.cbegin(), policy.hints.cend(), [](const DelayHint& h) { return h.format == HintFormat::RetryAfter; });
        const bool alsoMs = std::any_of(policy.hints.cbegin(), policy.hints.cend(), [](const DelayHint& h) { return h.alsoRetryAfterMs; });
        if (dates) {
            imports.email = true;
            imports.time = true;
        }
        c += u"\n\ndef _hint_seconds(headers, name, unit):\n"
             u"    \"\"\"A delay hint in seconds: None when absent, \"invalid\" when unreadable or given twice differently.\"\"\"\n"
             u"    values = [v.strip() for v in headers.getlist(name)]\n"_s;
        if (alsoMs)
            c += u"    if not values and name.lower() == \"retry-after\":\n"
                 u"        values, unit = [v.strip() for v in headers.getlist(\"retry-after-ms\")], \"ms\"\n"_s;
        c += u"    if not values:\n        return None\n"
             u"    if len(set(values)) > 1:\n        return \"invalid\"\n"
             u"    if re.fullmatch(r\"-?[0-9]+(\\.[0-9]+)?\", values[0]):\n"
             u"        return float(values[0]) / 1000 if unit == \"ms\" else float(values[0])\n"_s;
        if (dates)
            c += u"    parsed = email.utils.parsedate_tz(values[0]) if unit == \"date\" else None\n"
                 u"    if parsed is not None:\n"
                 u"        return max(0.0, email.utils.mktime_tz(parsed) - time.time())\n"_s;
        c += u"    return \"invalid\"\n"_s;
    }

    c += u"\n\nclass _Plan:\n"
         u"    \"\"\"One call's decisions under the policy: make one per call, it counts the retries.\"\"\"\n\n"
         u"    def __init__(self, keyed=False):\n"
         u"        self.keyed = keyed  # the request carries an idempotency key\n"
         u"        self.retries = 0  # retries so far: the backoff's n\n"_s;
    if (decorrelated)
        c += u"        self.previous = 0.0  # the decorrelated backoff's last value\n"_s;
    if (lost)
        c += u"        self.answer_lost = False  # an earlier attempt was sent but its answer lost\n"_s;
    if (policy.limits.deadline) {
        imports.time = true;
        c += u"        self.started = time.monotonic()\n"_s;
    }
    c += uR"(
    def decide(self, method, response=None, error=None):
        """After one attempt: ("retry", seconds to wait) or ("stop" | "success" | None, None)."""
        method = method.upper()
        status = response.status if response is not None else None
        headers = response.headers if response is not None else None
        error = _error_class(error) if error is not None else None
)"_s;
    c += u"        action = _action(method, status, headers, response.data if response is not None else b\"\", error,\n"
         u"                         self.keyed, %1)\n"_s.arg(lost ? u"self.answer_lost"_s : u"False"_s);
    if (lost)
        c += u"        self.answer_lost = self.answer_lost or error in %1\n"_s.arg(tupleOf(kLostAnswer));
    c += u"        if action != \"retry\":\n            return action, None\n"_s;
    if (restores)
        c += u"        before = (self.retries, %1)\n"_s.arg(decorrelated ? u"self.previous"_s : u"0.0"_s);
    c += u"        wait = self._backoff()\n"_s;
    // The hints, in order: the first present and valid one sets the wait.
    for (qsizetype i = 0; i < policy.hints.size(); ++i) {
        const DelayHint& h = policy.hints.at(i);
        QString applies = u"response is not None"_s;
        if (!h.statuses.isEmpty())
            applies += u" and "_s + statusTest(h.statuses);
        c += u"        # hints[%1]: %2\n"_s.arg(i).arg(h.header);
        const QString read = u"_hint_seconds(headers, %1, %2)"_s.arg(quoted(h.header), hintFormatWord(h.format));
        const QString asked = u"        asked = %1 if %2 else None\n"_s.arg(read, applies);
        c += asked.size() <= 111 ? asked : u"        asked = (%1\n                 if %2 else None)\n"_s.arg(read, applies);
        if (h.invalidMeansStop)
            c += u"        if asked == \"invalid\":\n            return \"stop\", None\n"_s;
        if (h.negativeMeansStop)
            c += u"        if isinstance(asked, float) and asked < 0:\n            return \"stop\", None\n"_s;
        QString usable = u"isinstance(asked, float) and asked >= 0"_s;
        if (h.max && h.overMax == HintOverMax::Ignore)
            usable += u" and asked <= "_s + seconds(*h.max);
        c += u"        if "_s + usable + u":\n"_s;
        if (h.zeroFallsBackToBackoff) {
            // A zero ends the hints: the backoff stands.
            c += u"            if asked == 0:\n                return \"retry\", wait\n"_s;
        }
        if (h.max && h.overMax == HintOverMax::GiveUp)
            c += u"            if asked > %1:\n                return \"stop\", None  # the server asks for too long\n"_s.arg(seconds(*h.max));
        if (h.max && h.overMax == HintOverMax::Clamp)
            c += u"            asked = min(asked, %1)\n"_s.arg(seconds(*h.max));
        switch (h.combine) {
        case HintCombine::Replace:
            c += u"            wait = asked\n"_s;
            break;
        case HintCombine::AtLeastBackoff:
            c += u"            wait = max(wait, asked)\n"_s;
            break;
        case HintCombine::ClampAroundBackoff:
            c += u"            wait = max(wait, min(asked, wait + %1))\n"_s.arg(seconds(h.window));
            break;
        }
        if (h.cappedByBackoffCap && b.cap)
            c += u"            wait = min(wait, %1)\n"_s.arg(seconds(*b.cap));
        if (h.jittered && j.kind != JitterKind::None) {
            imports.random = true;
            c += u"            wait = "_s + (j.floor.count() > 0 ? u"max(%1, %2)"_s.arg(seconds(j.floor), jittered(j, u"wait"_s)) : jittered(j, u"wait"_s)) + u'\n';
        }
        if (h.resetsExponent)
            c += decorrelated ? u"            self.retries, self.previous = 0, 0.0\n"_s : u"            self.retries = 0\n"_s;
        else if (!h.advancesBackoff)
            c += decorrelated ? u"            self.retries, self.previous = before\n"_s : u"            self.retries = before[0]\n"_s;
        if (policy.limits.deadline)
            c += u"            return self._within_deadline(wait)\n"_s;
        else
            c += u"            return \"retry\", wait\n"_s;
    }
    if (policy.limits.deadline) {
        c += u"        return self._within_deadline(wait)\n\n"
             u"    def _within_deadline(self, wait):\n"
             u"        elapsed = time.monotonic() - self.started\n"_s;
        if (policy.limits.deadlineMode == DeadlineMode::StopBeforeWait)
            c += u"        return (\"stop\", None) if elapsed + wait > %1 else (\"retry\", wait)\n"_s.arg(seconds(*policy.limits.deadline));
        else
            c += u"        return (\"stop\", None) if elapsed >= %1 else (\"retry\", wait)\n"_s.arg(seconds(*policy.limits.deadline));
    } else {
        c += u"        return \"retry\", wait\n"_s;
    }

    // The backoff, as core/policy/backoff.cpp draws it.
    c += u"\n    def _backoff(self):\n        \"\"\"The backoff before the next retry, in seconds.\"\"\"\n        self.retries += 1\n"_s;
    const QString base = seconds(b.base);
    const QString cap = b.cap ? seconds(*b.cap) : QString();
    QString ceiling;
    switch (b.kind) {
    case BackoffKind::None:
        ceiling = u"0.0"_s;
        break;
    case BackoffKind::Constant:
        ceiling = base;
        break;
    case BackoffKind::Linear:
        ceiling = u"%1 + (self.retries - 1) * %2"_s.arg(base, seconds(b.increment));
        break;
    case BackoffKind::Exponential: {
        if (b.origin == ExponentOrigin::FirstRetryIsZero)
            c += u"        if self.retries == 1:\n            return %1\n"_s.arg(seconds(j.floor) == u"0" ? u"0.0"_s : seconds(j.floor));
        const QString exponent = b.exponentOffset == 0 ? u"self.retries - 1"_s
            : u"self.retries - 1 %1 %2"_s.arg(b.exponentOffset > 0 ? u"+"_s : u"-"_s).arg(std::abs(b.exponentOffset));
        const bool guard = policy.limits.maxAttempts + b.exponentOffset > 60;
        ceiling = u"%1 * %2 ** %3"_s.arg(base, numberText(b.multiplier), guard ? u"min(%1, 60)"_s.arg(exponent) : u"("_s + exponent + u')');
        if (b.exponentOffset == 0 && !guard)
            ceiling = u"%1 * %2 ** (self.retries - 1)"_s.arg(base, numberText(b.multiplier));
        break;
    }
    case BackoffKind::Decorrelated:
        c += u"        high = max(%1, (self.previous or %1) * 3)\n"_s.arg(base);
        c += u"        self.previous = %1\n"_s.arg(cap.isEmpty() ? u"random.uniform(%1, high)"_s.arg(base) : u"min(%1, random.uniform(%2, high))"_s.arg(cap, base));
        ceiling = u"self.previous"_s;
        break;
    case BackoffKind::DecorrelatedV2:
        imports.math = true;
        c += u"        t = self.retries - 1 + random.random()\n"
             u"        step = 2 ** t * math.tanh(math.sqrt(4 * t))  # Polly's DecorrelatedJitterBackoffV2 curve\n"_s;
        c += u"        ceiling = %1\n"_s.arg(cap.isEmpty() ? u"max(0.0, (step - self.previous) / 1.4 * %1)"_s.arg(base)
                                                      : u"min(%1, max(0.0, (step - self.previous) / 1.4 * %2))"_s.arg(cap, base));
        c += u"        self.previous = step\n"_s;
        ceiling = u"ceiling"_s;
        break;
    }
    QString d;
    if (j.kind == JitterKind::None)
        d = cap.isEmpty() || decorrelated ? ceiling : u"min(%1, %2)"_s.arg(ceiling, cap);
    else if (j.capOrder == CapOrder::BeforeJitter || cap.isEmpty())
        d = jittered(j, cap.isEmpty() || decorrelated ? ceiling : u"min(%1, %2)"_s.arg(ceiling, cap));
    else
        d = u"min(%1, %2)"_s.arg(jittered(j, ceiling), cap);
    if (j.floor.count() > 0)
        d = u"max(%1, %2)"_s.arg(seconds(j.floor), d);
    c += u"        return "_s + d + u'\n';
    return c;
}

QString keyLines(const RetryPolicy& policy, Imports& imports, const QString& in)
{
    const IdempotencyPolicy& k = policy.idempotency;
    QString c;
    const QString lower = quoted(k.header.toLower());
    if (!k.autoAdd) {
        if (!rulesUseKey(policy))
            return {};
        return in + u"keyed = any(name.lower() == %1 for name in headers)\n"_s.arg(lower);
    }
    imports.uuid = true;
    QString value = u"str(uuid.uuid4())"_s;
    if (!k.prefix.isEmpty())
        value = quoted(k.prefix) + u" + "_s + value;
    if (k.format == KeyFormat::Quoted)
        value = u"'\"' + %1 + '\"'"_s.arg(value);
    c += in + u"# One idempotency key for every attempt of this call; a key the caller set wins.\n"_s;
    c += in + u"keyed = any(name.lower() == %1 for name in headers)\n"_s.arg(lower);
    c += in + u"if not keyed and method.upper() in %1:\n"_s.arg(tupleOf(k.methods));
    c += in + u"    headers[%1] = %2\n"_s.arg(quoted(k.header), value);
    c += in + u"    keyed = True\n"_s;
    return c;
}

} // namespace PythonPolicy
