#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Calls BASE/orders/1..N with Debian's python3-urllib3 at a fixed rate: call i is due at i * INTERVAL
seconds after the first (a late call goes at once, it never waits for the next slot), each GET one
request (retries=False: no retry of its own), one keep-alive pool. Prints one JSON line per call:
{"n": i, "start_ms": …, "first_byte_ms": …, "end_ms": …, "status": 200 | 503 | 0 (no answer)}, times
since the first call's start on this process's monotonic clock.

Usage: fixed_rate_urllib3.py BASE_URL CALLS INTERVAL_SECONDS
"""
import json
import sys
import time

import urllib3


def main():
    base, calls, interval = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    http = urllib3.PoolManager(retries=False, timeout=urllib3.Timeout(total=30))
    t0 = time.monotonic()
    for i in range(calls):
        due = t0 + i * interval
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        start = time.monotonic()
        first_byte = None
        try:
            response = http.request("GET", f"{base}/orders/{i + 1}", retries=False, preload_content=False)
            first_byte = time.monotonic()  # the status line and fields are in
            response.read()
            response.release_conn()
            status = response.status
        except urllib3.exceptions.HTTPError:
            status = 0
        end = time.monotonic()
        print(json.dumps({"n": i + 1, "start_ms": (start - t0) * 1000.0,
                          "first_byte_ms": None if first_byte is None else (first_byte - t0) * 1000.0,
                          "end_ms": (end - t0) * 1000.0, "status": status}), flush=True)


if __name__ == "__main__":
    main()
