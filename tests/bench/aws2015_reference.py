#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A plain Python re-implementation of the AWS 2015 backoff simulator's model, the peer bench_herd measures
Retrylab's herd simulator against (issue 29 §4). Written for this benchmark from the model's description in
resilience-fleets.md §2a: N clients each make one optimistic-concurrency update of one row (read the version,
then a conditional write that fails when another write came between); every network hop takes |N(10 ms, 2 ms)|;
on a failed write the client sleeps per the algorithm (base 5 ms, cap 2 s) and reads again. The attempt counter
is incremented before the sleep, so the first sleep is base·2. Measured: the server's write calls and the
time of the last completion, averaged over the runs.

Usage: aws2015_reference.py --clients 10,50,100,150 --runs 100 [--seed 1] [--json]
"""
import argparse
import heapq
import json
import random
import sys
import time

BASE = 5.0
CAP = 2000.0


def hop(rng):
    return abs(rng.normalvariate(10.0, 2.0))


def make_sleeper(kind, rng):
    if kind == "none":
        return lambda n: 0.0
    if kind == "exponential":
        return lambda n: min(CAP, BASE * 2.0 ** n)
    if kind == "equal-jitter":
        def equal(n):
            v = min(CAP, BASE * 2.0 ** n)
            return v / 2.0 + rng.uniform(0.0, v / 2.0)
        return equal
    if kind == "full-jitter":
        return lambda n: rng.uniform(0.0, min(CAP, BASE * 2.0 ** n))
    if kind == "decorrelated":
        state = {"sleep": BASE}

        def decorrelated(n):
            state["sleep"] = min(CAP, rng.uniform(BASE, state["sleep"] * 3.0))
            return state["sleep"]
        return decorrelated
    raise ValueError(kind)


READ, READ_REPLY, WRITE, WRITE_REPLY = range(4)


def simulate(clients, kind, rng):
    """One run: returns (write calls, time of the last completion in ms)."""
    version = 0
    calls = 0
    seen = [0] * clients
    attempts = [0] * clients
    sleepers = [make_sleeper(kind, rng) for _ in range(clients)]
    order = 0
    events = []
    for c in range(clients):
        heapq.heappush(events, (hop(rng), order, READ, c, False))
        order += 1
    now = 0.0
    while events:
        now, _, what, c, ok = heapq.heappop(events)
        if what == READ:
            seen[c] = version
            heapq.heappush(events, (now + hop(rng), order, READ_REPLY, c, False))
        elif what == READ_REPLY:
            heapq.heappush(events, (now + hop(rng), order, WRITE, c, False))
        elif what == WRITE:
            calls += 1
            ok = seen[c] == version
            if ok:
                version += 1
            heapq.heappush(events, (now + hop(rng), order, WRITE_REPLY, c, ok))
        else:
            if not ok:
                attempts[c] += 1
                heapq.heappush(events, (now + hop(rng) + sleepers[c](attempts[c]), order, READ, c, False))
        order += 1
    return calls, now


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", default="10,50,100,150")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    kinds = ["none", "exponential", "equal-jitter", "full-jitter", "decorrelated"]
    rng = random.Random(args.seed)
    rows = []
    started = time.perf_counter()
    for n in [int(x) for x in args.clients.split(",")]:
        for kind in kinds:
            calls = 0
            finish = 0.0
            for _ in range(args.runs):
                c, t = simulate(n, kind, rng)
                calls += c
                finish += t
            rows.append({"clients": n, "policy": kind, "server_calls_mean": calls / args.runs,
                         "completion_ms_mean": finish / args.runs})
    elapsed = time.perf_counter() - started
    if args.json:
        json.dump({"seconds": elapsed, "rows": rows}, sys.stdout)
        print()
        return
    print("%7s  %-13s %12s %14s" % ("clients", "policy", "calls", "completion ms"))
    for r in rows:
        print("%7d  %-13s %12.1f %14.1f" % (r["clients"], r["policy"], r["server_calls_mean"], r["completion_ms_mean"]))
    print("%.2f s" % elapsed)


if __name__ == "__main__":
    main()
