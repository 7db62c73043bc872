#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A third-party HTTP/1.1 server for Retrylab's wire tests (Python's http.server, one thread per connection).
#   GET /slow?ms=N   answers 200 after N ms, saying which connection the request came on:
#                    X-Conn (the client's port), X-Conn-Requests (requests on that connection so far),
#                    X-Arrived-Ms (server clock at arrival), X-Concurrent (requests in progress at arrival)
#   GET|POST /first-slow?ms=N&id=ID   the first request with this ID answers 200 after N ms, the others at
#                    once (a hedge's copy beats a slow first copy); each arrival's Idempotency-Key is kept
#   GET /stats       {"requests": n, "max_concurrent": m, "connections": c, "keys": {ID: [Idempotency-Key, …]}}
#                    — and resets the counters
# Prints its port on stdout.
import http.server
import json
import threading
import time
import urllib.parse

lock = threading.Lock()
stats = {"requests": 0, "in_progress": 0, "max_concurrent": 0, "connections": set(), "keys": {}}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        self.served = 0

    def send_json(self, code, payload, extra=()):
        body = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/stats":
            with lock:
                out = {"requests": stats["requests"], "max_concurrent": stats["max_concurrent"],
                       "connections": len(stats["connections"]), "keys": stats["keys"]}
                stats.update(requests=0, max_concurrent=0, connections=set(), keys={})
            self.send_json(200, out)
            return
        arrived = time.monotonic()
        self.served += 1
        port = self.client_address[1]
        with lock:
            stats["requests"] += 1
            stats["in_progress"] += 1
            stats["connections"].add(port)
            concurrent = stats["in_progress"]
            stats["max_concurrent"] = max(stats["max_concurrent"], concurrent)
        try:
            query = urllib.parse.parse_qs(url.query)
            ms = int(query.get("ms", ["0"])[0])
            if url.path == "/first-slow":
                with lock:
                    seen = stats["keys"].setdefault(query.get("id", [""])[0], [])
                    seen.append(self.headers.get("Idempotency-Key") or "")
                    if len(seen) > 1:
                        ms = 0
            time.sleep(ms / 1000.0)
            self.send_json(200, {"ok": True}, [("X-Conn", str(port)), ("X-Conn-Requests", str(self.served)),
                                               ("X-Arrived-Ms", "%.3f" % (arrived * 1000.0)),
                                               ("X-Concurrent", str(concurrent))])
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client went (a lost hedge's copy is aborted)
        finally:
            with lock:
                stats["in_progress"] -= 1

    do_POST = do_GET


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # the default backlog of 5 would make simultaneous connects wait for SYN retries


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
