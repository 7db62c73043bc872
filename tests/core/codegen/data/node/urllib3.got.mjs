// Retry policy "urllib3", exported by Retrylab @VERSION@ for got 14.
// urllib3 Retry.DEFAULT (total=3) with backoff_factor 0.5: connect errors retried for any method, read errors
// only for allowed methods, 413/429/503 only with Retry-After; waits 0, 1, 2, 4 s capped at 120 s.
// Source: urllib3 (Python) — Retry
// Exact: every behaviour of the policy is expressed below.
// npm install got@14.6.6 (ES module, Node 20)

import got from "got";

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
  { name: "connect-error", action: "retry", when: (a) => a.error !== undefined && ["dns", "refused", "connect-timeout"].includes(a.error) },
  { name: "other-error", action: "retry", when: (a) => a.error !== undefined && ["tls"].includes(a.error) },
  { name: "read-error", action: "retry", when: (a) => a.error !== undefined && ["HEAD", "GET", "PUT", "DELETE", "OPTIONS", "TRACE"].includes(a.method) && ["response-timeout", "connection-lost", "protocol"].includes(a.error) },
  { name: "read-error-method-not-allowed", action: "stop", when: (a) => a.error !== undefined && ["response-timeout", "connection-lost", "protocol"].includes(a.error) },
  { name: "retry-after-status", action: "retry", when: (a) => a.status !== undefined && ["HEAD", "GET", "PUT", "DELETE", "OPTIONS", "TRACE"].includes(a.method) && (a.status === 413 || a.status === 429 || a.status === 503) && a.header("retry-after") !== undefined },
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

// The backoff of retry n (backoff.* and jitter.*), in whole milliseconds.
function nextBackoff(backoff, throttling) {
  const n = ++backoff.retries;
  const base = 500;
  if (n === 1) return 0; // the first retry waits 0
  const ceiling = base * 2 ** (n - 1);
  return Math.floor(Math.min(120000, ceiling) + 1e-3);
}

export const newState = () => ({ attempts: 0, backoff: { retries: 0, previous: 0 } });

// What the policy does after an attempt's answer A: { verdict: "retry", delay } or "stop" or "success".
export function decide(state, a) {
  const rule = ruleFor(a);
  state.attempts += 1;
  if (!rule) return { verdict: a.status !== undefined && a.status < 400 ? "success" : "stop" };
  if (rule.action !== "retry") return { verdict: rule.action };
  if (state.attempts >= MAX_ATTEMPTS) return { verdict: "stop" };
  let delay = nextBackoff(state.backoff, rule.throttling === true);
  hints: {
    // hints[0]: Retry-After
    {
      let asked = retryAfterMs(a.header("retry-after"));
      if (Number.isNaN(asked)) return { verdict: "stop" }; // not a valid value: don't retry
      if (asked !== undefined && asked < 0) asked = undefined; // negative: ignored
      if (asked !== undefined) {
        if (asked === 0) break hints; // 0 falls back to the backoff
        asked = Math.min(asked, 21600000);
        delay = asked;
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
    status: response?.statusCode,
    error: response ? undefined : errorClass(error),
    header: (name) => response?.headers[name],
  };
}

export async function urllib3Request(url, options = {}) {
  const method = (options.method ?? "GET").toUpperCase();
  const headers = { ...options.headers };
  const call = { method, state: newState() };
  try {
    return await got(url, {
      ...options,
      method,
      headers,
      retry: {
        limit: 3,
        enforceRetryRules: false, // calculateDelay decides, not got's methods/statusCodes/maxRetryAfter
        calculateDelay: ({ error }) => {
          const d = decide(call.state, answerOf(error, call));
          return d.verdict === "retry" ? Math.max(d.delay, 1) : 0; // got stops on 0; Node's timers wait ≥ 1 ms anyway
        },
      },
    });
  } catch (error) {
    throw error;
  }
}

export default urllib3Request;
