// SPDX-License-Identifier: GPL-3.0-or-later
// The got, ky, axios-retry, cockatiel targets (shared/reference/resilience-fleets.md §5 npm rows, §1.5).
// Each unit asks the policy's decide() (nodepolicycode.h) through the library's own extension point, and
// sets the library's options so that none of its defaults decides in its place: got's maxRetryAfter
// give-up, its 413 rule and (16) enforceRetryRules; ky's afterStatusCodes and 10 s timeout; axios-retry's
// Retry-After reading and its shrinking timeout; cockatiel's default backoff.
#include "codegen/codeexport.h"
#include "codegen/codewriter.h"
#include "codegen/targets/nodepolicycode.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace {

enum class Library { Got, Ky, AxiosRetry, Cockatiel };

struct NodeTarget
{
    Library library;
    QString id;
    QString title;
    QStringList versions;
    QStringList exactVersions; // what `npm install` gets, per version
};

const QString kAllMethods = u"[\"get\", \"post\", \"put\", \"patch\", \"delete\", \"head\", \"options\", \"trace\"]"_s;

bool hasSuccessRule(const RetryPolicy& p)
{
    return std::any_of(p.rules.cbegin(), p.rules.cend(), [](const RetryRule& r) { return r.action == RuleAction::Success; });
}

// got, ky and axios only hand failed answers (not 2xx) and errors to their retry hooks.
void loseRetriedSuccesses(const RetryPolicy& p, const QString& name, LossList& lost)
{
    for (qsizetype i = 0; i < p.rules.size(); ++i) {
        const RetryRule& r = p.rules.at(i);
        if (r.action != RuleAction::Retry || r.when.outcome == OutcomeKind::Error || r.when.outcome == OutcomeKind::CircuitOpen)
            continue;
        const bool below400 = r.when.statuses.isEmpty()
            || std::any_of(r.when.statuses.cbegin(), r.when.statuses.cend(), [](const StatusRange& s) { return s.low < 300; });
        if (below400)
            lost.add(u"rules[%1].when"_s.arg(i), u"%1 only retries failed answers and errors: a 2xx answer this rule would retry is returned"_s.arg(name));
    }
}

// The fields of the answer object decide() reads, from an error or response of the library.
QString answerFields(const NodePolicyCode& c, const QString& status, const QString& error, const QString& header,
    const QString& body)
{
    QString out = u"    method: call.method,\n"_s;
    if (c.readsKey)
        out += u"    hasKey: call.hasKey,\n"_s;
    if (c.tracksLostAnswers)
        out += u"    lostEarlier: call.state.lostEarlier,\n"_s;
    out += u"    status: %1,\n    error: %2,\n"_s.arg(status, error);
    if (c.readsHeaders)
        out += u"    header: (name) => %1,\n"_s.arg(header);
    if (c.readsBody)
        out += u"    body: %1,\n"_s.arg(body);
    return out;
}

QString callSetup(const RetryPolicy& p, const NodePolicyCode& c)
{
    QString out = u"  const method = (options.method ?? \"GET\").toUpperCase();\n"_s;
    out += c.addsKeys ? u"  const headers = withIdempotencyKey(method, options.headers);\n"_s
                      : u"  const headers = { ...options.headers };\n"_s;
    out += u"  const call = { method, state: newState()"_s;
    if (c.readsKey)
        out += u", hasKey: Object.keys(headers).some((h) => h.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase())"_s;
    out += u" };\n"_s;
    Q_UNUSED(p)
    return out;
}

// The end of a unit's function: the library's error rethrown, unless the policy counts the answer it carries
// as a success (a rule with action "success"), when that answer is returned. ISANSWER tests that the error
// carries one; ASYNC: answerOf() is awaited.
QString rethrowUnlessSuccess(bool success, const QString& isAnswer, bool async)
{
    QString out = u"  } catch (error) {\n"_s;
    if (success)
        out += u"    if (%1 && ruleFor(%2answerOf(error, call))?.action === \"success\") return error.response;\n"_s
                   .arg(isAnswer, async ? u"await "_s : QString());
    return out + u"    throw error;\n  }\n}\n"_s;
}

QString functionName(const RetryPolicy& p)
{
    return camelName(p.name) + u"Request"_s;
}

CodeExport generate(const NodeTarget& t, const RetryPolicy& p, const QString& version)
{
    // A pipeline's attempt timeout inside the retry is each attempt's own timeout, which every target sets.
    std::optional<Millis> attempt = p.limits.attemptTimeout;
    RetryPolicy rest = p;
    const auto retryAt = std::find_if(p.pipeline.cbegin(), p.pipeline.cend(), [](const ResilienceStrategy& s) { return s.kind == ResilienceStrategy::Kind::Retry; });
    for (qsizetype i = retryAt - p.pipeline.cbegin() + 1; i < p.pipeline.size() && !attempt; ++i) {
        if (p.pipeline.at(i).kind == ResilienceStrategy::Kind::AttemptTimeout) {
            attempt = p.pipeline.at(i).timeout;
            rest.pipeline[i].kind = ResilienceStrategy::Kind::Retry; // nothing left to lose there
        }
    }
    LossList lost;
    if (t.library == Library::Cockatiel) {
        // cockatiel has a breaker, it is just not written here: say so before the common wording does.
        for (qsizetype i = 0; i < p.pipeline.size(); ++i)
            if (p.pipeline.at(i).kind == ResilienceStrategy::Kind::CircuitBreaker)
                lost.add(u"pipeline[%1]"_s.arg(i), u"the circuit breaker is not written here: wrap this unit's retry with cockatiel's own circuitBreaker() (wrap(retry, breaker))"_s);
    }
    TargetAbilities can;
    can.attemptTimeout = true;
    can.connectTimeout = t.library == Library::Got;
    can.throttlingBase = true;
    loseUnsupported(rest, can, t.title, lost);
    if (t.library != Library::Cockatiel)
        loseRetriedSuccesses(p, t.title, lost);

    const NodePolicyCode c = nodePolicyCode(p);
    const QString fn = functionName(p);
    const bool success = hasSuccessRule(p);
    QString imports, setup, body;

    switch (t.library) {
    case Library::Got: {
        imports = u"import got from \"got\";\n"_s;
        body += u"// got's error (HTTPError, TimeoutError, RequestError) as the answer the policy judges.\n"_s;
        body += u"function answerOf(error, call) {\n  const response = error.response;\n  return {\n"_s;
        body += answerFields(c, u"response?.statusCode"_s, u"response ? undefined : errorClass(error)"_s,
            u"response?.headers[name]"_s, u"response ? parseBody(response.body) : undefined"_s);
        body += u"  };\n}\n\n"_s;
        body += u"export async function %1(url, options = {}) {\n"_s.arg(fn) + callSetup(p, c);
        body += u"  try {\n    return await got(url, {\n      ...options,\n      method,\n      headers,\n"_s;
        QStringList timeouts;
        if (attempt)
            timeouts << u"request: %1"_s.arg(attempt->count());
        if (p.limits.connectTimeout)
            timeouts << u"connect: %1"_s.arg(p.limits.connectTimeout->count());
        if (!timeouts.isEmpty())
            body += u"      timeout: { %1 }, // each attempt's own\n"_s.arg(timeouts.join(u", "_s));
        body += u"      retry: {\n        limit: %1,\n"_s.arg(p.maxRetries());
        body += u"        enforceRetryRules: false, // calculateDelay decides, not got's methods/statusCodes/maxRetryAfter\n"_s;
        body += u"        calculateDelay: ({ error }) => {\n          const d = decide(call.state, answerOf(error, call));\n"_s;
        body += u"          return d.verdict === \"retry\" ? Math.max(d.delay, 1) : 0; // got stops on 0; Node's timers wait ≥ 1 ms anyway\n        },\n      },\n    });\n"_s;
        body += rethrowUnlessSuccess(success, u"error.response"_s, false);
        break;
    }
    case Library::Ky: {
        imports = u"import ky, { HTTPError } from \"ky\";\n"_s;
        body += u"// ky's error (HTTPError, TimeoutError, fetch's TypeError) as the answer the policy judges.\n"_s;
        body += u"async function answerOf(error, call) {\n  const response = error instanceof HTTPError ? error.response : undefined;\n"_s;
        if (c.readsBody)
            body += u"  const text = response ? await response.clone().text() : undefined;\n"_s;
        body += u"  return {\n"_s;
        body += answerFields(c, u"response?.status"_s, u"response ? undefined : errorClass(error)"_s,
            u"response?.headers.get(name) ?? undefined"_s, u"parseBody(text)"_s);
        body += u"  };\n}\n\n"_s;
        body += u"export async function %1(url, options = {}) {\n"_s.arg(fn) + callSetup(p, c);
        body += u"  try {\n    return await ky(url, {\n      ...options,\n      method,\n      headers,\n"_s;
        body += attempt ? u"      timeout: %1, // each attempt's own\n"_s.arg(attempt->count()) : u"      timeout: false, // ky's 10 s default is not the policy's\n"_s;
        body += u"      retry: {\n        limit: %1,\n        methods: %2,\n"_s.arg(p.maxRetries()).arg(kAllMethods);
        body += u"        shouldRetry: async ({ error }) => {\n          call.state.next = decide(call.state, await answerOf(error, call));\n"_s;
        body += u"          return call.state.next.verdict === \"retry\"; // true skips ky's statusCodes, afterStatusCodes and Retry-After\n        },\n"_s;
        body += u"        delay: () => call.state.next.delay,\n      },\n    });\n"_s;
        body += rethrowUnlessSuccess(success, u"error instanceof HTTPError"_s, true);
        break;
    }
    case Library::AxiosRetry: {
        imports = u"import axios from \"axios\";\nimport axiosRetry from \"axios-retry\";\n"_s;
        setup += attempt ? u"export const client = axios.create({ timeout: %1 }); // each attempt's own (shouldResetTimeout)\n"_s.arg(attempt->count())
                         : u"export const client = axios.create();\n"_s;
        setup += u"axiosRetry(client, { retries: %1, shouldResetTimeout: true });\n\n"_s.arg(p.maxRetries());
        body += u"// axios's error as the answer the policy judges.\n"_s;
        body += u"function answerOf(error, call) {\n  const response = error.response;\n  return {\n"_s;
        body += answerFields(c, u"response?.status"_s, u"response ? undefined : errorClass(error)"_s,
            u"response?.headers[name] ?? undefined"_s, u"response ? parseBody(response.data) : undefined"_s);
        body += u"  };\n}\n\n"_s;
        body += u"export async function %1(url, options = {}) {\n"_s.arg(fn) + callSetup(p, c);
        body += u"  try {\n    return await client.request({\n      ...options,\n      url,\n      method,\n      headers,\n"_s;
        body += u"      \"axios-retry\": {\n        retryCondition: (error) => {\n          call.state.next = decide(call.state, answerOf(error, call));\n"_s;
        body += u"          return call.state.next.verdict === \"retry\";\n        },\n"_s;
        body += u"        retryDelay: () => call.state.next.delay, // instead of axios-retry's own Retry-After reading\n      },\n    });\n"_s;
        body += rethrowUnlessSuccess(success, u"error.response"_s, false);
        break;
    }
    case Library::Cockatiel: {
        imports = u"import { handleWhen, retry } from \"cockatiel\";\n"_s;
        body += u"// An error or fetch's answer as the answer the policy judges.\n"_s;
        body += u"function answerOf(error, result, call) {\n  const response = result?.response;\n  return {\n"_s;
        body += answerFields(c, u"response?.status"_s, u"response ? undefined : errorClass(error)"_s,
            u"response?.headers.get(name) ?? undefined"_s, u"parseBody(result?.text)"_s);
        body += u"  };\n}\n\n"_s;
        body += u"export async function %1(url, options = {}) {\n"_s.arg(fn) + callSetup(p, c);
        body += u"  const judge = (error, result) => {\n    call.state.next = decide(call.state, answerOf(error, result, call));\n"_s;
        body += u"    return call.state.next.verdict === \"retry\";\n  };\n"_s;
        body += u"  // An IBackoff whose every wait is what decide() chose.\n"_s;
        body += u"  const backoff = { next: () => ({ duration: call.state.next.delay, next: backoff.next }) };\n"_s;
        body += u"  const policy = retry(handleWhen((error) => judge(error)).orWhenResult((result) => judge(undefined, result)), {\n"_s;
        body += u"    maxAttempts: %1, // retries\n    backoff,\n  });\n"_s.arg(p.maxRetries());
        body += u"  const result = await policy.execute(async () => {\n"_s;
        QString signal;
        if (attempt)
            signal = u"      signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(%1)]) : AbortSignal.timeout(%1), // each attempt's own\n"_s.arg(attempt->count());
        body += u"    const response = await fetch(url, {\n      ...options,\n      method,\n      headers,\n%1    });\n"_s.arg(signal);
        body += c.readsBody ? u"    return { response, text: await response.clone().text() };\n"_s : u"    return { response };\n"_s;
        body += u"  });\n  return result.response;\n}\n"_s;
        break;
    }
    }
    body += u"\nexport default %1;\n"_s.arg(fn);

    CodeExport out;
    out.lost = lost.items();
    out.code = headerComment(CommentStyle { u"// "_s }, p, t.title, version, out.lost);
    out.code += u"// npm install %1 (ES module, %2)\n\n"_s.arg(t.exactVersions.value(t.versions.indexOf(version)),
        version == t.versions.first() ? u"Node 20"_s : u"Node ≥ 22"_s);
    out.code += imports + u"\n"_s + setup + c.code + u"\n"_s + body;
    return out;
}

ProofClient proof(const NodeTarget& t, const QString& unitFile, const QString& version)
{
    ProofClient pc;
    pc.fileName = u"client.mjs"_s;
    pc.command = QStringList { u"node"_s, pc.fileName };
    pc.packages = t.library == Library::AxiosRetry ? QStringList { u"axios"_s, u"axios-retry"_s } : QStringList { t.id };
    pc.needs = u"%1 in ./node_modules (Node %2)"_s.arg(t.exactVersions.value(t.versions.indexOf(version)),
        version == t.versions.first() ? u"20"_s : u"≥ 22"_s);
    QString send;
    switch (t.library) {
    case Library::Got:
    case Library::Ky: send = u"method === \"POST\" ? { json: { hello: \"retrylab\" } } : {}"_s; break;
    case Library::AxiosRetry: send = u"method === \"POST\" ? { data: { hello: \"retrylab\" } } : {}"_s; break;
    case Library::Cockatiel:
        send = u"method === \"POST\" ? { body: JSON.stringify({ hello: \"retrylab\" }), headers: { \"content-type\": \"application/json\" } } : {}"_s;
        break;
    }
    pc.text = u"// SPDX-License-Identifier: GPL-3.0-or-later\n"_s
        u"// Sends RETRYLAB_METHOD to RETRYLAB_URL through %1; exits 0 on a 2xx answer, else 1.\n"_s.arg(unitFile)
        + u"import * as unit from \"./%1\";\n\n"_s.arg(unitFile)
        + u"const method = process.env.RETRYLAB_METHOD ?? \"GET\";\n"_s
        + u"const options = { method, ...(%1) };\n"_s.arg(send)
        + u"const key = process.env.RETRYLAB_IDEMPOTENCY_KEY;\n"_s
        + u"if (key) options.headers = { ...options.headers, [unit.IDEMPOTENCY_HEADER ?? \"Idempotency-Key\"]: key };\n"_s
        + u"try {\n  const response = await unit.default(process.env.RETRYLAB_URL, options);\n"_s
        + u"  const status = response.statusCode ?? response.status;\n  process.exit(status >= 200 && status < 300 ? 0 : 1);\n"_s
        + u"} catch {\n  process.exit(1);\n}\n"_s;
    return pc;
}

} // namespace

QList<CodeTarget> nodeTargets()
{
    const QList<NodeTarget> targets {
        { Library::Got, u"got"_s, u"got"_s, { u"14"_s, u"16"_s }, { u"got@14.6.6"_s, u"got@16"_s } },
        { Library::Ky, u"ky"_s, u"ky"_s, { u"1"_s, u"2"_s }, { u"ky@1.14.3"_s, u"ky@2"_s } },
        { Library::AxiosRetry, u"axios-retry"_s, u"axios-retry"_s, { u"4"_s }, { u"axios@1.21.1 axios-retry@4.5.0"_s } },
        { Library::Cockatiel, u"cockatiel"_s, u"cockatiel"_s, { u"3"_s, u"4"_s }, { u"cockatiel@3.2.1"_s, u"cockatiel@4"_s } },
    };
    QList<CodeTarget> out;
    for (const NodeTarget& t : targets) {
        CodeTarget c;
        c.id = t.id;
        c.title = t.title;
        c.language = u"javascript"_s;
        c.versions = t.versions;
        c.runtime = u"Node 20"_s;
        c.generate = [t](const RetryPolicy& p, const QString& v) { return generate(t, p, v); };
        c.proofClient = [t](const QString& unitFile, const QString& v) { return proof(t, unitFile, v); };
        out << c;
    }
    return out;
}
