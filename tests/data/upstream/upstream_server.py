#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A real upstream for the lab's proxy tests, built on Python's http.server (not Retrylab code).

Prints "PORT <n>" once listening on 127.0.0.1, then "REQ METHOD TARGET" for every request it receives
(so a test counts them), and serves until killed. With --tls CERT KEY it speaks
HTTPS. What is done is named by the last segment of the path (/x/echo and /echo alike):
  /echo…      200, JSON {"method","target","headers":[[name,value]…],"body_size","body_sha256","peer_port"}
  /status/N   N with "Retry-After: 7" and a small JSON body
  /chunked    200 with Transfer-Encoding: chunked (three chunks)
  /hang       reads the request, never answers (until the lab gives up)
  /garbage    bytes that are not HTTP, then close
  /reset      closes with RST before answering
  /endless    200, chunked, 64 KiB chunks as fast as the socket takes them, forever (until it breaks)
  /trickle    200, no length (the body ends with the connection), a byte every 50 ms, forever
  /bytes/N    200, Content-Length N, the pattern bytes 0..255 repeated (sha256 of it in X-Body-Sha256)
  /chunkedbytes/N   the same N bytes, Transfer-Encoding: chunked, 64 KiB chunks
  /closebytes/N     the same N bytes, no length: the body ends with the connection
  /dies/N     Content-Length N, half of the bytes, then RST (an upstream that dies mid-body)
"""
import hashlib
import http.server
import json
import socket
import ssl
import struct
import sys
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY, as real servers set: the head and the body go in two writes, and with Nagle the body
    # waits for the client's delayed ACK (40 ms on Linux) on every reused connection.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def handle_any(self):
        sys.stdout.write(f"REQ {self.command} {self.path}\n")  # one write: threads' lines do not interleave
        sys.stdout.flush()
        length = int(self.headers.get("Content-Length", "0") or "0")
        body = self.rfile.read(length) if length else b""
        parts = self.path.split("?")[0].strip("/").split("/")
        path = "/" + (parts[-1] if parts[-1] and not parts[-1].isdigit() else "/".join(parts[-2:]))
        if path.startswith("/hang"):
            time.sleep(30)
            return
        if path.startswith("/garbage"):
            self.wfile.write(b"SURPRISE this is not HTTP\r\n\r\n")
            self.wfile.flush()
            self.close_connection = True
            return
        if path.startswith("/reset"):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        if path.startswith("/endless") or path.startswith("/trickle"):
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            endless = path.startswith("/endless")
            self.send_header("Transfer-Encoding" if endless else "Connection", "chunked" if endless else "close")
            self.end_headers()
            self.close_connection = True
            chunk = b"%x\r\n%s\r\n" % (65536, b"e" * 65536)
            try:
                while True:  # the reader gives up, never this side
                    if endless:
                        self.wfile.write(chunk)
                    else:
                        self.wfile.write(b"t")
                        time.sleep(0.05)
            except OSError:  # the lab closed or reset the connection
                return
        if path.split("/")[1] in ("bytes", "chunkedbytes", "closebytes", "dies"):
            self.send_pattern(path.split("/")[1], int(parts[-1]))
            return
        if path.startswith("/chunked"):
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for piece in (b"alpha-", b"beta-", b"gamma"):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            self.wfile.write(b"0\r\n\r\n")
            return
        status = 200
        if path.startswith("/status/"):
            status = int(parts[-1])
        reply = json.dumps({
            "method": self.command,
            "target": self.path,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body_size": len(body),
            "body_sha256": hashlib.sha256(body).hexdigest(),
            "peer_port": self.client_address[1],
        }).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.send_header("X-Upstream", "python")
        self.send_header("Keep-Alive", "timeout=5")
        if status != 200:
            self.send_header("Retry-After", "7")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply)

    def send_pattern(self, how, size):
        block = bytes(range(256)) * 256
        digest = hashlib.sha256()
        for offset in range(0, size, len(block)):
            digest.update(block[: min(len(block), size - offset)])
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("X-Body-Sha256", digest.hexdigest())
        if how == "chunkedbytes":
            self.send_header("Transfer-Encoding", "chunked")
        elif how == "closebytes":
            self.send_header("Connection", "close")
            self.close_connection = True
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        limit = size // 2 if how == "dies" else size
        try:
            for offset in range(0, limit, len(block)):
                piece = block[: min(len(block), limit - offset)]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if how == "chunkedbytes" else piece)
            if how == "chunkedbytes":
                self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            if how == "dies":
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
        except OSError:  # the lab (or its client) went away
            self.close_connection = True

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = handle_any


class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 256  # the abuse tests open tens of connections at once; 5 would drop SYNs
    daemon_threads = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    if len(sys.argv) == 4 and sys.argv[1] == "--tls":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
