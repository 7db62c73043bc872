// SPDX-License-Identifier: GPL-3.0-or-later
// A real circuit breaker making calls at a fixed rate for `retrylab conform --suite breakers`
// (tst_conform_breakers.cpp): cockatiel 3.2.1 or opossum 9.0.0, pinned by package-lock.json, set up as the
// presets cockatiel-3 and opossum-9 say, around a plain fetch of the case's URL.
//
//   cockatiel: wrap(retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() }),
//                   circuitBreaker(handleAll, { halfOpenAfter: 10000, breaker: new ConsecutiveBreaker(5) }),
//                   timeout(2000, TimeoutStrategy.Cooperative))            (its README's composition)
//   opossum:   new CircuitBreaker(get)                                      (its defaults)
//
// A fetch that gets an answer, whatever its status, resolves: only a transport error (the lab's reset) or
// the timeout is a failure, as the presets say. --reset-ms N sets the break instead (halfOpenAfter,
// resetTimeout), for a run judged by the preset with the same --set pipeline[…].break_ms.
//
// From `retrylab conform`'s environment: RETRYLAB_URL, RETRYLAB_CALLS and RETRYLAB_INTERVAL_MS (call n
// starts (n − 1) × interval after the first, whether or not the calls before it have ended), and
// RETRYLAB_CALL_HEADER, the field that carries n on every request of call n (its retries too). Prints each
// state change the library reports and a summary to stderr; exits 0 once every call has ended.
//
// node breaker-calls.mjs cockatiel|opossum [--reset-ms N]
import {
    ConsecutiveBreaker, ExponentialBackoff, TimeoutStrategy, circuitBreaker, handleAll, retry, timeout, wrap,
} from 'cockatiel';
import CircuitBreaker from 'opossum';

const [library, ...rest] = process.argv.slice(2);
let resetMs;
if (rest.length === 2 && rest[0] === '--reset-ms' && Number(rest[1]) > 0)
    resetMs = Number(rest[1]);
const url = process.env.RETRYLAB_URL;
const calls = Number(process.env.RETRYLAB_CALLS);
const interval = Number(process.env.RETRYLAB_INTERVAL_MS);
const header = process.env.RETRYLAB_CALL_HEADER || 'X-Retrylab-Call';
if (!['cockatiel', 'opossum'].includes(library) || (rest.length > 0 && resetMs === undefined) || !url
    || !(calls > 0) || !(interval > 0)) {
    process.stderr.write('usage: breaker-calls.mjs cockatiel|opossum [--reset-ms N], with RETRYLAB_URL, '
        + 'RETRYLAB_CALLS and RETRYLAB_INTERVAL_MS set (retrylab conform --suite breakers)\n');
    process.exit(2);
}

const log = (o) => process.stderr.write(JSON.stringify(o) + '\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
let epoch = 0;
const since = () => Date.now() - epoch;

async function get(n, signal) {
    const response = await fetch(url, { headers: { [header]: String(n) }, signal });
    await response.arrayBuffer();
    return response.status;
}

let call; // (n) => Promise
let refused; // (error) => boolean
if (library === 'cockatiel') {
    const breaker = circuitBreaker(handleAll, {
        halfOpenAfter: resetMs ?? 10000,
        breaker: new ConsecutiveBreaker(5),
    });
    breaker.onStateChange((state) => log({ event: ['closed', 'open', 'half-open', 'isolated'][state], t: since() }));
    const policy = wrap(retry(handleAll, { maxAttempts: 3, backoff: new ExponentialBackoff() }), breaker,
        timeout(2000, TimeoutStrategy.Cooperative));
    call = (n) => policy.execute(({ signal }) => get(n, signal));
    refused = (e) => e && e.constructor && e.constructor.name === 'BrokenCircuitError';
} else {
    const breaker = new CircuitBreaker(get, resetMs ? { resetTimeout: resetMs } : {});
    breaker.on('open', () => log({ event: 'open', t: since() }));
    breaker.on('halfOpen', () => log({ event: 'half-open', t: since() }));
    breaker.on('close', () => log({ event: 'closed', t: since() }));
    call = (n) => breaker.fire(n);
    refused = (e) => e && e.code === 'EOPENBREAKER';
}

const counts = { ok: 0, failed: 0, refused: 0 };
const pending = [];
epoch = Date.now();
for (let n = 1; n <= calls; ++n) {
    await sleep(epoch + (n - 1) * interval - Date.now());
    pending.push(call(n).then(() => { ++counts.ok; }, (e) => { ++counts[refused(e) ? 'refused' : 'failed']; }));
}
await Promise.all(pending);
log({ library, calls, interval_ms: interval, ...counts, t: since() });
process.exit(0); // opossum's timers are unref'd; cockatiel holds none
