// Retry policy "slen", exported by Retrylab @VERSION@ for got 14.
// Slen SDK: no answer, 429 and 503 with service_unavailable/ledger_unavailable/pool_exhausted are sent again,
// 500/502/504 and every other answer never; 2 retries from 200 ms doubling to 5 s, ±25 %.
// Source: Slen SDK docs — What the SDK sends again, and how long it waits
// Exact: every behaviour of the policy is expressed below.
// npm install got@14.6.6 (ES module, Node 20)

import got from "got";

const MAX_ATTEMPTS = 3; // limits.max_retries 2, plus the first attempt
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
// Errors that prove the server never saw the request.
const NEVER_SENT = ["dns", "refused", "tls", "connect-timeout"];

// One key per call, sent on every attempt (idempotency.*); a key the caller set wins.
function withIdempotencyKey(method, headers = {}) {
  const has = Object.keys(headers).some((h) => h.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase());
  if (has || !["POST"].includes(method)) return { ...headers };
  return { ...headers, [IDEMPOTENCY_HEADER]: `${crypto.randomUUID()}` };
}

// Node's errors as Retrylab's error classes (docs/policy-format.md, "errors").
export function errorClass(error) {
  for (let e = error; e; e = e.cause) {
    const code = String(e.code ?? "");
    if (e.name === "TimeoutError" || code === "ECONNABORTED" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT")
      return ["lookup", "connect", "secureConnect"].includes(e.event) ? "connect-timeout" : "response-timeout";
    if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "ETIMEDOUT") return "connect-timeout";
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns";
    if (code === "ECONNREFUSED") return "refused";
    if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code) || code === "EPROTO") return "tls";
    if (/^HPE_/.test(code)) return "protocol";
    if (["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ERR_STREAM_PREMATURE_CLOSE"].includes(code)) return "connection-lost";
  }
  return "connection-lost";
}

// The value at PATH ("error.code", "errors[0].code") of a JSON body, as text; undefined when absent.
function jsonValue(body, path) {
  let v = body;
  for (const step of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (v === null || typeof v !== "object") return undefined;
    v = step.startsWith("[") ? (Array.isArray(v) ? v[Number(step.slice(1, -1))] : undefined) : Array.isArray(v) ? undefined : v[step];
    if (v === undefined) return undefined;
  }
  return v === null ? "null" : typeof v === "object" ? undefined : String(v);
}

export function parseBody(text) {
  try {
    return typeof text === "string" ? JSON.parse(text) : text;
  } catch {
    return undefined;
  }
}

// The rules, in order: the first that matches decides (rules[i]).
export const RULES = [
  { name: "customer-deleted-after-lost-answer", action: "success", when: (a) => a.status !== undefined && ["DELETE"].includes(a.method) && a.status === 404 && ["customer_not_found"].includes(jsonValue(a.body, "error.code")) && a.lostEarlier },
  { name: "no-answer", action: "retry", when: (a) => a.error !== undefined },
  { name: "rate-limited", action: "retry", throttling: true, when: (a) => a.status !== undefined && a.status === 429 },
  { name: "slen-busy", action: "retry", when: (a) => a.status !== undefined && a.status === 503 && ["service_unavailable", "ledger_unavailable", "pool_exhausted"].includes(jsonValue(a.body, "error.code")) },
  { name: "provider-may-have-been-paid", action: "stop", when: (a) => a.status !== undefined && (a.status === 500 || a.status === 502 || a.status === 504) },
  { name: "any-other-answer", action: "stop", when: (a) => a.status !== undefined && (a.status >= 400 && a.status <= 599) },
];

export const ruleFor = (a) => RULES.find((r) => r.when(a));

// Retry-After (RFC 9110 §10.2.3) in ms: delay-seconds or an HTTP-date (a past one is 0); NaN when invalid.
function retryAfterMs(value) {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const asctime = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(text);
  const date = Date.parse(asctime ? `${text} GMT` : text);
  return Number.isNaN(date) ? NaN : Math.max(0, date - Date.now());
}

function jitter(x) {
  return Math.max(0, x * 0.75) + (Math.max(0, x * 1.25) - Math.max(0, x * 0.75)) * Math.random();
}

// The backoff of retry n (backoff.* and jitter.*), in whole milliseconds.
function nextBackoff(backoff, throttling) {
  const n = ++backoff.retries;
  const base = 200;
  const ceiling = base * 2 ** (n - 1);
  return Math.floor(jitter(Math.min(5000, ceiling)) + 1e-3);
}

export const newState = () => ({ attempts: 0, backoff: { retries: 0, previous: 0 }, lostEarlier: false });

// What the policy does after an attempt's answer A: { verdict: "retry", delay } or "stop" or "success".
export function decide(state, a) {
  const rule = ruleFor(a);
  state.attempts += 1;
  if (a.error !== undefined && !NEVER_SENT.includes(a.error)) state.lostEarlier = true;
  if (!rule) return { verdict: a.status !== undefined && a.status < 400 ? "success" : "stop" };
  if (rule.action !== "retry") return { verdict: rule.action };
  if (state.attempts >= MAX_ATTEMPTS) return { verdict: "stop" };
  let delay = nextBackoff(state.backoff, rule.throttling === true);
  hints: {
    // hints[0]: Retry-After on 429, 503
    {
      let asked = (a.status === 429 || a.status === 503) ? retryAfterMs(a.header("retry-after")) : undefined;
      if (Number.isNaN(asked)) asked = undefined; // not a valid value: ignored
      if (asked !== undefined && asked < 0) asked = undefined; // negative: ignored
      if (asked !== undefined) {
        if (asked > 30000) return { verdict: "stop" }; // more than 30000 ms: give up
        delay = Math.max(0, Math.floor(jitter(asked) + 1e-6));
        break hints;
      }
    }
  }
  return { verdict: "retry", delay: Math.min(delay, 2147483647) };
}

// got's error (HTTPError, TimeoutError, RequestError) as the answer the policy judges.
function answerOf(error, call) {
  const response = error.response;
  return {
    method: call.method,
    lostEarlier: call.state.lostEarlier,
    status: response?.statusCode,
    error: response ? undefined : errorClass(error),
    header: (name) => response?.headers[name],
    body: response ? parseBody(response.body) : undefined,
  };
}

export async function slenRequest(url, options = {}) {
  const method = (options.method ?? "GET").toUpperCase();
  const headers = withIdempotencyKey(method, options.headers);
  const call = { method, state: newState() };
  try {
    return await got(url, {
      ...options,
      method,
      headers,
      timeout: { request: 65000, connect: 5000 }, // each attempt's own
      retry: {
        limit: 2,
        enforceRetryRules: false, // calculateDelay decides, not got's methods/statusCodes/maxRetryAfter
        calculateDelay: ({ error }) => {
          const d = decide(call.state, answerOf(error, call));
          return d.verdict === "retry" ? Math.max(d.delay, 1) : 0; // got stops on 0; Node's timers wait ≥ 1 ms anyway
        },
      },
    });
  } catch (error) {
    if (error.response && ruleFor(answerOf(error, call))?.action === "success") return error.response;
    throw error;
  }
}

export default slenRequest;
