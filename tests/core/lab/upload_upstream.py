#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The upstream of the lab's upload tests (tst_forwardupload), on Python's http.server (not Retrylab code).

Prints "PORT <n>" once listening on 127.0.0.1. Reads each request's body as it comes — Content-Length or
chunked (http.server does not decode chunked requests: this does, with its own small reader) — hashing it,
never holding it, and prints one line per request:
  BODY <framing> <size> <sha256>      the body came whole
  ABORTED <framing> <size> <why>      the connection ended (EOF or reset) before the body did
and answers 200 with JSON {"body_size","body_sha256","framing","expect"}. The last path segment says how:
  /echo        read as fast as it comes
  /slow/RATE   read at RATE bytes a second (a slow upstream: the lab must hold the client back)
  /early       answer 413 at once without reading the body, then drain and close (an upstream that refuses early)
"""
import hashlib
import http.server
import json
import socket
import sys
import time


class Aborted(Exception):
    pass


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def read_exact(self, n, pace):
        out = b""
        while len(out) < n:
            want = min(n - len(out), 65536)
            try:
                piece = self.rfile.read1(want) if hasattr(self.rfile, "read1") else self.rfile.read(want)
            except OSError as e:
                raise Aborted(type(e).__name__)
            if not piece:
                raise Aborted("eof")
            out += piece
            pace(len(piece))
        return out

    def read_line(self):
        try:
            line = self.rfile.readline(1024)
        except OSError as e:
            raise Aborted(type(e).__name__)
        if not line.endswith(b"\n"):
            raise Aborted("eof")
        return line

    def handle_any(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        rate = int(parts[-1]) if len(parts) >= 2 and parts[-2] == "slow" else 0
        chunked = "chunked" in self.headers.get("Transfer-Encoding", "").lower()
        framing = "chunked" if chunked else "length"
        if parts[-1] == "early":
            body = b'{"error":"too large, said before reading"}'
            self.send_response(413)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            self.close_connection = True
            try:  # a lingering close: no RST that could destroy the answer at the lab
                self.connection.shutdown(socket.SHUT_WR)
                self.connection.settimeout(5)
                while self.connection.recv(65536):
                    pass
            except OSError:
                pass
            print(f"EARLY {framing}", flush=True)
            return
        started = time.monotonic()
        done = [0]

        def pace(n):
            done[0] += n
            if rate:
                ahead = done[0] / rate - (time.monotonic() - started)
                if ahead > 0:
                    time.sleep(ahead)

        digest = hashlib.sha256()
        size = 0
        try:
            if chunked:
                while True:
                    line = self.read_line()
                    n = int(line.split(b";")[0].strip(), 16)
                    if n == 0:
                        while self.read_line() not in (b"\r\n", b"\n"):
                            pass  # trailer fields
                        break
                    piece = self.read_exact(n, pace)
                    digest.update(piece)
                    size += n
                    if self.read_exact(2, lambda n: None) != b"\r\n":
                        raise Aborted("bad chunk end")
            else:
                left = int(self.headers.get("Content-Length", "0") or "0")
                while left > 0:
                    piece = self.read_exact(min(left, 65536), pace)
                    digest.update(piece)
                    size += len(piece)
                    left -= len(piece)
        except Aborted as e:
            print(f"ABORTED {framing} {size} {e}", flush=True)
            self.close_connection = True
            return
        print(f"BODY {framing} {size} {digest.hexdigest()}", flush=True)
        reply = json.dumps({"body_size": size, "body_sha256": digest.hexdigest(), "framing": framing,
                            "expect": self.headers.get("Expect")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def handle_expect_100(self):  # what the lab passes on is counted, not answered for it
        return True

    do_POST = do_PUT = handle_any


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
