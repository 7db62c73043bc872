// Retry policy "stripe", exported by Retrylab @VERSION@ for axios-retry 4.
// stripe-python 15.3.1 and later: 2 retries, Stripe-Should-Retry obeyed, connection errors except SSL, 409
// and ≥ 500 retried, max(0.5 s, min(0.5 s·2^(n−1), 5 s)·U(0.5, 1)), an automatic bare Idempotency-Key on
// POST, Retry-After not read.
// Source: stripe-python 15.3.1 and later — stripe/_http_client.py
// NOT EXPRESSED by axios-retry 4 (1), so this code differs from the policy here:
//   - rules[1].when: axios-retry only retries failed answers and errors: a 2xx answer this rule would retry
//     is returned
// npm install axios@1.21.1 axios-retry@4.5.0 (ES module, Node 20)

import axios from "axios";
import axiosRetry from "axios-retry";

export const client = axios.create({ timeout: 80000 }); // each attempt's own (shouldResetTimeout)
axiosRetry(client, { retries: 2, shouldResetTimeout: true });

const MAX_ATTEMPTS = 3; // limits.max_retries 2, plus the first attempt
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

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

const headerIs = (value, wanted) => value !== undefined && String(value).split(",").some((v) => wanted.includes(v.trim().toLowerCase()));

// The rules, in order: the first that matches decides (rules[i]).
export const RULES = [
  { name: "should-retry-false", action: "stop", when: (a) => a.status !== undefined && (a.status >= 400 && a.status <= 599) && headerIs(a.header("stripe-should-retry"), ["false"]) },
  { name: "should-retry-true", action: "retry", when: (a) => a.status !== undefined && headerIs(a.header("stripe-should-retry"), ["true"]) },
  { name: "ssl-error", action: "stop", when: (a) => a.error !== undefined && ["tls"].includes(a.error) },
  { name: "connection-error", action: "retry", when: (a) => a.error !== undefined },
  { name: "conflict", action: "retry", when: (a) => a.status !== undefined && a.status === 409 },
  { name: "server-error", action: "retry", when: (a) => a.status !== undefined && (a.status >= 500 && a.status <= 599) },
  { name: "anything-else", action: "stop", when: (a) => a.status !== undefined && (a.status >= 400 && a.status <= 499) },
];

export const ruleFor = (a) => RULES.find((r) => r.when(a));

function jitter(x) {
  return x * (0.5 + 0.5 * Math.random());
}

// The backoff of retry n (backoff.* and jitter.*), in whole milliseconds.
function nextBackoff(backoff, throttling) {
  const n = ++backoff.retries;
  const base = 500;
  const ceiling = base * 2 ** (n - 1);
  return Math.floor(Math.max(500, jitter(Math.min(5000, ceiling))) + 1e-3);
}

export const newState = () => ({ attempts: 0, backoff: { retries: 0, previous: 0 } });

// What the policy does after an attempt's answer A: { verdict: "retry", delay } or "stop" or "success".
export function decide(state, a) {
  const rule = ruleFor(a);
  state.attempts += 1;
  if (!rule) return { verdict: a.status !== undefined && a.status < 400 ? "success" : "stop" };
  if (rule.action !== "retry") return { verdict: rule.action };
  if (state.attempts >= MAX_ATTEMPTS) return { verdict: "stop" };
  const delay = nextBackoff(state.backoff, rule.throttling === true);
  return { verdict: "retry", delay: Math.min(delay, 2147483647) };
}

// axios's error as the answer the policy judges.
function answerOf(error, call) {
  const response = error.response;
  return {
    method: call.method,
    status: response?.status,
    error: response ? undefined : errorClass(error),
    header: (name) => response?.headers[name] ?? undefined,
  };
}

export async function stripeRequest(url, options = {}) {
  const method = (options.method ?? "GET").toUpperCase();
  const headers = withIdempotencyKey(method, options.headers);
  const call = { method, state: newState() };
  try {
    return await client.request({
      ...options,
      url,
      method,
      headers,
      "axios-retry": {
        retryCondition: (error) => {
          call.state.next = decide(call.state, answerOf(error, call));
          return call.state.next.verdict === "retry";
        },
        retryDelay: () => call.state.next.delay, // instead of axios-retry's own Retry-After reading
      },
    });
  } catch (error) {
    throw error;
  }
}

export default stripeRequest;
