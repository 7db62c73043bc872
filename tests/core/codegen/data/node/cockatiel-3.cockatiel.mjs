// Retry policy "cockatiel-3", exported by Retrylab @VERSION@ for cockatiel 3.
// cockatiel 3.2.1 as its README composes it: 3 retries with decorrelated backoff from 128 ms, a breaker
// opening at 5 failures in a row for 10 s, a 2 s timeout.
// Source: cockatiel 3.2.1 — wrap(retry, circuitBreaker, timeout) as its README composes them
// NOT EXPRESSED by cockatiel 3 (1), so this code differs from the policy here:
//   - pipeline[1]: the circuit breaker is not written here: wrap this unit's retry with cockatiel's own
//     circuitBreaker() (wrap(retry, breaker))
// npm install cockatiel@3.2.1 (ES module, Node 20)

import { handleWhen, retry } from "cockatiel";

const MAX_ATTEMPTS = 4; // limits.max_retries 3, plus the first attempt

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

// The rules, in order: the first that matches decides (rules[i]).
export const RULES = [
  { name: "the-broken-circuit", action: "retry", when: (a) => false /* no circuit breaker here */ },
  { name: "http-request-exception", action: "retry", when: (a) => a.error !== undefined && ["dns", "refused", "tls", "connection-lost", "protocol"].includes(a.error) },
  { name: "timeout-is-cancellation", action: "stop", when: (a) => a.error !== undefined && ["connect-timeout", "response-timeout"].includes(a.error) },
  { name: "status-is-a-result", action: "stop", when: (a) => a.status !== undefined && (a.status >= 400 && a.status <= 599) },
];

export const ruleFor = (a) => RULES.find((r) => r.when(a));

// The backoff of retry n (backoff.* and jitter.*), in whole milliseconds.
function nextBackoff(backoff, throttling) {
  const n = ++backoff.retries;
  const base = 128;
  // Polly's DecorrelatedJitterBackoffV2: f(t) = 2^t · tanh(√(4t)).
  const curve = (t) => (t <= 0 ? 0 : 2 ** t * Math.tanh(Math.sqrt(4 * t)));
  const next = curve(n - 1 + Math.random());
  const ceiling = Math.min(30000, Math.max(0, ((next - backoff.previous) / 1.4) * base));
  backoff.previous = next;
  return Math.floor(ceiling + 1e-3);
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

// An error or fetch's answer as the answer the policy judges.
function answerOf(error, result, call) {
  const response = result?.response;
  return {
    method: call.method,
    status: response?.status,
    error: response ? undefined : errorClass(error),
  };
}

export async function cockatiel3Request(url, options = {}) {
  const method = (options.method ?? "GET").toUpperCase();
  const headers = { ...options.headers };
  const call = { method, state: newState() };
  const judge = (error, result) => {
    call.state.next = decide(call.state, answerOf(error, result, call));
    return call.state.next.verdict === "retry";
  };
  // An IBackoff whose every wait is what decide() chose.
  const backoff = { next: () => ({ duration: call.state.next.delay, next: backoff.next }) };
  const policy = retry(handleWhen((error) => judge(error)).orWhenResult((result) => judge(undefined, result)), {
    maxAttempts: 3, // retries
    backoff,
  });
  const result = await policy.execute(async () => {
    const response = await fetch(url, {
      ...options,
      method,
      headers,
      signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(2000)]) : AbortSignal.timeout(2000), // each attempt's own
    });
    return { response };
  });
  return result.response;
}

export default cockatiel3Request;
