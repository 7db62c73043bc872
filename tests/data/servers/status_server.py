#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A third-party HTTP/1.1 server for Retrylab's tests (Python's http.server): GET/POST /status/NNN answers
# status NNN with a short body (none for 204 and 304, as RFC 9110 requires). Prints its port on stdout.
import http.server
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        try:
            code = int(self.path.rsplit("/", 1)[-1])
        except ValueError:
            code = 400
        body = b"" if code in (204, 304) else b'{"status": %d}' % code
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        if code not in (204, 304):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = answer
    do_POST = answer


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    pass
