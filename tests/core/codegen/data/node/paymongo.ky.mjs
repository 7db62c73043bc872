// Retry policy "paymongo", exported by Retrylab @VERSION@ for ky 1.
// PayMongo PHP package: 429 and never-opened connections retried for any request, 5xx and timeouts only for
// GET, DELETE and keyed POST; 2 retries, full jitter from 200 ms doubling to 5 s.
// Source: PayMongo PHP package docs — Retries
// Exact: every behaviour of the policy is expressed below.
// npm install ky@1.14.3 (ES module, Node 20)

import ky, { HTTPError } from "ky";

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

const couldHaveActed = (a) => a.status !== undefined || !NEVER_SENT.includes(a.error);

// The rules, in order: the first that matches decides (rules[i]).
export const RULES = [
  { name: "delete-404-after-lost-answer", action: "success", when: (a) => a.status !== undefined && ["DELETE"].includes(a.method) && a.status === 404 && a.lostEarlier },
  { name: "rate-limited", action: "retry", throttling: true, when: (a) => a.status !== undefined && a.status === 429 },
  { name: "never-opened", action: "retry", when: (a) => a.error !== undefined && !couldHaveActed(a) },
  { name: "safe-method-5xx", action: "retry", when: (a) => a.status !== undefined && ["GET", "DELETE"].includes(a.method) && (a.status >= 500 && a.status <= 599) },
  { name: "safe-method-timeout", action: "retry", when: (a) => a.error !== undefined && ["GET", "DELETE"].includes(a.method) && ["response-timeout"].includes(a.error) },
  { name: "keyed-post-5xx", action: "retry", when: (a) => a.status !== undefined && ["POST"].includes(a.method) && a.hasKey && (a.status >= 500 && a.status <= 599) },
  { name: "keyed-post-timeout", action: "retry", when: (a) => a.error !== undefined && ["POST"].includes(a.method) && a.hasKey && ["response-timeout"].includes(a.error) },
  { name: "may-have-acted-5xx", action: "stop", when: (a) => a.status !== undefined && (a.status >= 500 && a.status <= 599) },
  { name: "may-have-acted-error", action: "stop", when: (a) => a.error !== undefined && couldHaveActed(a) },
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
  return x * Math.random();
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
    // hints[0]: Retry-After on 429, 500-599
    {
      let asked = (a.status === 429 || (a.status >= 500 && a.status <= 599)) ? retryAfterMs(a.header("retry-after")) : undefined;
      if (Number.isNaN(asked)) asked = undefined; // not a valid value: ignored
      if (asked !== undefined && asked < 0) asked = undefined; // negative: ignored
      if (asked !== undefined) {
        if (asked > 5000) return { verdict: "stop" }; // more than 5000 ms: give up
        delay = asked;
        break hints;
      }
    }
  }
  return { verdict: "retry", delay: Math.min(delay, 2147483647) };
}

// ky's error (HTTPError, TimeoutError, fetch's TypeError) as the answer the policy judges.
async function answerOf(error, call) {
  const response = error instanceof HTTPError ? error.response : undefined;
  return {
    method: call.method,
    hasKey: call.hasKey,
    lostEarlier: call.state.lostEarlier,
    status: response?.status,
    error: response ? undefined : errorClass(error),
    header: (name) => response?.headers.get(name) ?? undefined,
  };
}

export async function paymongoRequest(url, options = {}) {
  const method = (options.method ?? "GET").toUpperCase();
  const headers = withIdempotencyKey(method, options.headers);
  const call = { method, state: newState(), hasKey: Object.keys(headers).some((h) => h.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase()) };
  try {
    return await ky(url, {
      ...options,
      method,
      headers,
      timeout: false, // ky's 10 s default is not the policy's
      retry: {
        limit: 2,
        methods: ["get", "post", "put", "patch", "delete", "head", "options", "trace"],
        shouldRetry: async ({ error }) => {
          call.state.next = decide(call.state, await answerOf(error, call));
          return call.state.next.verdict === "retry"; // true skips ky's statusCodes, afterStatusCodes and Retry-After
        },
        delay: () => call.state.next.delay,
      },
    });
  } catch (error) {
    if (error instanceof HTTPError && ruleFor(await answerOf(error, call))?.action === "success") return error.response;
    throw error;
  }
}

export default paymongoRequest;
