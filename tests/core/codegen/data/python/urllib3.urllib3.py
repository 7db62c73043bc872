# Retry policy "urllib3", exported by Retrylab 0.1.0 for urllib3 Retry 1.26.
# urllib3 Retry.DEFAULT (total=3) with backoff_factor 0.5: connect errors retried for any method, read errors
# only for allowed methods, 413/429/503 only with Retry-After; waits 0, 1, 2, 4 s capped at 120 s.
# Source: urllib3 (Python) — Retry
# Exact: every behaviour of the policy is expressed below.
import urllib3
from urllib3.util.retry import Retry

# urllib3's own Retry decides exactly as the policy does:
#   total=3             retries after the first attempt, every kind of failure together
#   backoff_factor=0.5  0 s before the first retry, then 0.5 s · 2^(n−1) before retry n, at most 120 s
# and, as Retry always does: connect errors are retried for any method; read errors (timeout, reset,
# malformed answer) and 413, 429 or 503 with Retry-After only for the allowed methods.
# Retry-After sets the wait (0: the backoff's).
RETRY = Retry(total=3, backoff_factor=0.5)

http = urllib3.PoolManager()


def urllib3_request(method, url, body=None, headers=None):
    """Sends METHOD to URL under the policy "urllib3" and returns the answer (an HTTPResponse).
    When the retries run out, urllib3 raises MaxRetryError, or the last error when it is not one to retry."""
    # redirect=False: a 3xx is returned as it came, as the policy counts it a success.
    return http.request(method, url, body=body, headers=headers, retries=RETRY, redirect=False)
