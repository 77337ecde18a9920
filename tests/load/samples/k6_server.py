"""The local HTTP server the k6 samples were recorded against (tests/load/samples/k6_script.js).

    python tests/load/samples/k6_server.py PORT

Paths: /api/item 200 after 2-15 ms (30-80 ms in the first 4 s: a warm-up), /api/fail 503, /api/missing 404,
/api/slow answers after 1.5 s (the script's 300 ms timeout fires first), /api/reset closes the connection
with a TCP reset instead of answering. It listens on 127.0.0.1 only and stops on SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import random
import socket
import struct
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STARTED = time.monotonic()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        if path == "/api/item":
            warm = time.monotonic() - STARTED < 4.0
            time.sleep(random.uniform(0.030, 0.080) if warm else random.uniform(0.002, 0.015))
            self._answer(200, b'{"id": 42, "name": "item"}')
        elif path == "/api/fail":
            time.sleep(0.005)
            self._answer(503, b'{"error": "overloaded"}')
        elif path == "/api/missing":
            self._answer(404, b'{"error": "not found"}')
        elif path == "/api/slow":
            time.sleep(1.5)
            self._answer(200, b"{}")
        elif path == "/api/reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
        else:
            self._answer(404, b"{}")

    def _answer(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


class Server(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that gave up (timeout) breaks the pipe: expected here


if __name__ == "__main__":
    server = Server(("127.0.0.1", int(sys.argv[1])), Handler)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
