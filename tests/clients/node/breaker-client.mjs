// SPDX-License-Identifier: GPL-3.0-or-later
// A real circuit breaker making calls at a fixed rate (tst_client_breakers.cpp): cockatiel 3.2.1 or
// opossum 9.0.0, pinned by package-lock.json, around a fetch of the lab. One call at a time, each started
// on a fixed beat from the breaker's creation, half a beat off the turns of opossum's buckets; a 5xx answer
// is a failure. Prints one JSON line per call — when it started and when its answer settled (Date.now(),
// what both libraries read), and whether it went and how it ended or was refused — and one per state
// change the library reported.
//
// node breaker-client.mjs cockatiel|opossum URL CALLS INTERVAL_MS BREAK_MS [WINDOW_MS BUCKETS]
import { ConsecutiveBreaker, BrokenCircuitError, circuitBreaker, handleAll } from 'cockatiel';
import CircuitBreaker from 'opossum';
import { EventEmitter } from 'node:events';

const [library, url, callsText, intervalText, breakText, windowText, bucketsText] = process.argv.slice(2);
const calls = Number(callsText);
const interval = Number(intervalText);
const breakMs = Number(breakText);
if (!['cockatiel', 'opossum'].includes(library) || !url || !(calls > 0) || !(interval > 0) || !(breakMs > 0)) {
    process.stderr.write('usage: breaker-client.mjs cockatiel|opossum URL CALLS INTERVAL_MS BREAK_MS [WINDOW_MS BUCKETS]\n');
    process.exit(2);
}

const print = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

// When the last call's answer settled: the moment the breaker counts it (both libraries record a result in
// the same turn of the event loop as the action settles), earlier than the caller's await returns.
let settled = 0;
async function get() {
    try {
        const response = await fetch(url);
        await response.arrayBuffer();
        if (response.status >= 500)
            throw new Error(`status ${response.status}`);
        return response.status;
    } finally {
        settled = Date.now();
    }
}

let rotations = null; // opossum: turns its buckets
let run; // () => Promise, rejecting with a refusal the caller recognises
let refused; // (error) => boolean
if (library === 'cockatiel') {
    const breaker = circuitBreaker(handleAll, { halfOpenAfter: breakMs, breaker: new ConsecutiveBreaker(5) });
    breaker.onStateChange((state) => print({ event: ['closed', 'open', 'half-open', 'isolated'][state], t: Date.now() }));
    run = () => breaker.execute(get);
    refused = (e) => e instanceof BrokenCircuitError;
} else {
    // opossum turns its buckets with a setInterval, which runs late by a little more each turn; its own
    // rotateBucketController option lets the turns come on an exact beat from creation instead (below), so
    // the test knows when each bucket began. Nothing else differs from its defaults but what is passed here.
    rotations = new EventEmitter();
    const breaker = new CircuitBreaker(get, {
        resetTimeout: breakMs,
        rollingCountTimeout: Number(windowText),
        rollingCountBuckets: Number(bucketsText),
        errorThresholdPercentage: 50,
        rotateBucketController: rotations,
    });
    breaker.on('open', () => print({ event: 'open', t: Date.now() }));
    breaker.on('halfOpen', () => print({ event: 'half-open', t: Date.now() }));
    breaker.on('close', () => print({ event: 'closed', t: Date.now() }));
    run = () => breaker.fire();
    refused = (e) => e && e.code === 'EOPENBREAKER';
}
const epoch = Date.now(); // the breaker's creation: opossum's buckets turn from here
print({ epoch });
if (rotations) {
    const bucketMs = Math.floor(Number(windowText) / Number(bucketsText));
    const turn = (k) => setTimeout(() => {
        rotations.emit('rotate');
        turn(k + 1);
    }, epoch + bucketMs * k - Date.now()).unref();
    turn(1);
}

for (let i = 0; i < calls; ++i) {
    await sleep(epoch + interval * i + interval / 2 - Date.now()); // half a beat off the buckets' turns
    const start = Date.now();
    let result;
    try {
        await run();
        result = 'ok';
    } catch (e) {
        result = refused(e) ? 'rejected' : 'fail';
    }
    print({ call: i, start, end: result === 'rejected' ? Date.now() : settled, result });
}
process.exit(0); // opossum's timers are unref'd; cockatiel holds none
