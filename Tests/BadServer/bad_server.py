#!/usr/bin/env python3
"""A deliberately hostile HTTP and WebSocket server for conn's tests (standard library only).

It answers what a script tells it to, so a test can play a captive portal, a redirecting proxy,
a server that sends crafted WebSocket frames or trickles its answer, and it logs every request
it gets (method, path, headers, body) so a test can check what conn sent, and to whom.

    bad_server.py --script SCRIPT.json --log LOG.jsonl [--host 127.0.0.1] [--port 0] [--tls CERT KEY]

prints "listening on http://HOST:PORT" (https with --tls) once ready. With --tls, each handshake
logs {"tlsServerName": NAME} (null when the client sent no SNI). The script is JSON:

    {"routes": [ROUTE, ...]}      the first route whose method and path match answers;
                                  unmatched requests get 404 with a JSON error body
    ROUTE = {
      "method": "POST",           optional; any method when absent
      "path": "/messages",        exact path, query excluded; "*" matches every path
      "status": 200, "headers": [["Content-Type", "text/html"]],
      "body": "text",             "{port}", "{idempotencyKey}", "{requestBody}" and "{now}" (the
                                  server's time in whole ms, read as the answer is made) are replaced
      "trickle": {"bytes": 1, "intervalMs": 200},   send the answer slowly; with
                                  "afterHead": true the head at once and only the body slowly
      "inTurn": [ANSWER, ...],    the Nth request this route matches gets the Nth answer (the last
                                  repeats; with "cycle": true, they go round); ANSWER = {"status",
                                  "headers", "body"}
      "idempotent": true,         honour Idempotency-Key: the first request with a key answered 2xx is
                                  applied (logged as {"applied": KEY}); later ones with that key get
                                  the same answer with Idempotent-Replayed: true
      "close": true,              close the connection without answering
      "gzipZeros": N,             answer N zero bytes, gzip-compressed (Content-Encoding: gzip)
      "websocket": {              upgrade, then:
        "frames": ["text", ...],  text frames sent at once ("{port}" replaced)
        "rawFrames": ["hex", ...],  raw bytes sent as they are (malformed frames)
        "onPing": ["pong", ...],  answer each client ping{t1} with these texts, "{t1}" and "{now}"
                                  (the server's time in ms) replaced
        "onPingInTurn": [...],    answer the Nth ping with the Nth text (cycling); also "{now+D}"
        "holdMs": 5000            keep the connection open this long after the last frame
      }
    }
"""
import argparse
import base64
import gzip
import hashlib
import json
import re
import socket
import ssl
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "bad-server"

    def log_message(self, *args):
        pass

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        if len(body) < length:
            # The client went away mid-body (killed): no request to log, apply or answer.
            self.close_connection = True
            return
        path = self.path.split("?", 1)[0]
        entry = {
            "method": self.command,
            "path": self.path,
            "headers": [[k, v] for k, v in self.headers.items()],
            "body": body.decode("utf-8", "replace"),
            "bodyBase64": base64.b64encode(body).decode(),
        }
        with self.server.log_lock:
            with open(self.server.log_path, "a") as log:
                log.write(json.dumps(entry) + "\n")
        route = self.find_route(self.command, path)
        if route is None:
            self.answer(404, [["Content-Type", "application/json"]],
                        b'{"error":{"code":"notFound","message":"no route in the script"}}', None)
            return
        if route.get("close"):
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if "websocket" in route:
            self.websocket(route["websocket"])
            return
        if "gzipZeros" in route:
            payload = gzip.compress(b"\0" * route["gzipZeros"])
            headers = route.get("headers", []) + [["Content-Encoding", "gzip"]]
            self.answer(route.get("status", 200), headers, payload, route.get("trickle"))
            return
        key = self.headers.get("Idempotency-Key")
        if route.get("idempotent") and key:
            with self.server.log_lock:
                seen = self.server.answered.get(key)
                if seen is None:
                    status, headers, text = self.pick(route, body)
                    # Only a 2xx applied the request; an error (503, 429) is answered afresh.
                    if 200 <= status < 300:
                        self.server.answered[key] = (status, headers, text)
                        with open(self.server.log_path, "a") as log:
                            log.write(json.dumps({"applied": key}) + "\n")
            if seen is not None:
                status, headers, text = seen
                headers = headers + [["Idempotent-Replayed", "true"]]
            self.answer(status, headers, text.encode("utf-8"), route.get("trickle"))
            return
        status, headers, text = self.pick(route, body)
        self.answer(status, headers, text.encode("utf-8"), route.get("trickle"))

    def pick(self, route, body):
        """The answer this request gets: the route's own, or its next one in turn."""
        answer = route
        if "inTurn" in route:
            with self.server.log_lock:
                count = self.server.turns.get(id(route), 0)
                self.server.turns[id(route)] = count + 1
            turns = route["inTurn"]
            answer = turns[count % len(turns)] if route.get("cycle") else turns[min(count, len(turns) - 1)]
        return answer.get("status", 200), answer.get("headers", []), self.fill(answer.get("body", ""), body)

    do_GET = do_POST = do_PUT = do_PATCH = do_HEAD = do_DELETE = do_CONNECT = handle_any

    def fill(self, template, request_body=b""):
        return (template.replace("{port}", str(self.server.server_address[1]))
                .replace("{now}", str(int(time.time() * 1000)))
                .replace("{idempotencyKey}", self.headers.get("Idempotency-Key", ""))
                .replace("{requestBody}", request_body.decode("utf-8", "replace")))

    def find_route(self, method, path):
        for route in self.server.script.get("routes", []):
            if route.get("method") not in (None, method):
                continue
            if route.get("path") in ("*", path):
                return route
        return None

    def answer(self, status, headers, body, trickle):
        head = "HTTP/1.1 %d Scripted\r\n" % status
        names = {name.lower() for name, _ in headers}
        for name, value in headers:
            head += "%s: %s\r\n" % (name, self.fill(value))
        if "date" not in names:
            head += "Date: %s\r\n" % self.date_time_string()
        if "content-length" not in names:
            head += "Content-Length: %d\r\n" % len(body)
        head += "\r\n"
        data = head.encode("latin-1") + (b"" if self.command == "HEAD" else body)
        if trickle:
            step, pause = trickle.get("bytes", 1), trickle.get("intervalMs", 100) / 1000
            if trickle.get("afterHead"):
                self.wfile.write(head.encode("latin-1"))
                self.wfile.flush()
                data = data[len(head.encode("latin-1")):]
            for index in range(0, len(data), step):
                self.wfile.write(data[index:index + step])
                self.wfile.flush()
                time.sleep(pause)
        else:
            self.wfile.write(data)
            self.wfile.flush()

    def websocket(self, plan):
        key = self.headers.get("Sec-WebSocket-Key", "")
        accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        self.wfile.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Accept: %s\r\n\r\n" % accept).encode())
        self.wfile.flush()
        for frame in plan.get("frames", []):
            self.send_frame(0x1, self.fill(frame).encode("utf-8"))
        for raw in plan.get("rawFrames", []):
            self.wfile.write(bytes.fromhex(raw))
            self.wfile.flush()
        deadline = time.monotonic() + plan.get("holdMs", 5000) / 1000
        pings = 0
        self.connection.settimeout(0.05)
        while time.monotonic() < deadline:
            try:
                opcode, payload = self.read_frame()
            except socket.timeout:
                continue
            except (ConnectionError, OSError, ValueError):
                return
            if opcode == 0x8:
                self.send_frame(0x8, payload[:2])
                return
            if opcode == 0x9:
                self.send_frame(0xA, payload)
            if opcode == 0x1 and (plan.get("onPing") or plan.get("onPingInTurn")):
                with self.server.log_lock:
                    with open(self.server.log_path, "a") as log:
                        log.write(json.dumps({"websocketText": payload.decode("utf-8", "replace")}) + "\n")
                try:
                    message = json.loads(payload)
                except ValueError:
                    continue
                if message.get("type") == "ping" and plan.get("onPingInTurn"):
                    turn = plan["onPingInTurn"]
                    answer = turn[pings % len(turn)]
                    pings += 1
                    now_ms = int(time.time() * 1000)
                    answer = re.sub(r"\{now\+(\d+)\}", lambda m: str(now_ms + int(m.group(1))), answer)
                    self.send_frame(0x1, answer.replace("{t1}", str(message.get("t1"))).replace("{now}", str(now_ms)).encode())
                elif message.get("type") == "ping":
                    answers = plan["onPing"] if isinstance(plan["onPing"], list) else [plan["onPing"]]
                    for answer in answers:
                        now = str(int(time.time() * 1000))
                        self.send_frame(0x1, answer.replace("{t1}", str(message.get("t1"))).replace("{now}", now).encode())

    def read_exact(self, count):
        data = b""
        while len(data) < count:
            try:
                chunk = self.connection.recv(count - len(data))
            except socket.timeout:
                if not data:
                    raise
                continue
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def read_frame(self):
        first, second = self.read_exact(2)
        opcode, length = first & 0x0F, second & 0x7F
        if length == 126:
            length = struct.unpack(">H", self.read_exact(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self.read_exact(8))[0]
        mask = self.read_exact(4) if second & 0x80 else b"\0\0\0\0"
        payload = bytearray(self.read_exact(length))
        for index in range(length):
            payload[index] ^= mask[index % 4]
        return opcode, bytes(payload)

    def send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        if len(payload) < 126:
            header += bytes([len(payload)])
        elif len(payload) < 65536:
            header += bytes([126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([127]) + struct.pack(">Q", len(payload))
        self.wfile.write(header + payload)
        self.wfile.flush()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    options = parser.parse_args()
    server = ThreadingHTTPServer((options.host, options.port), Handler)
    if options.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.tls[0], options.tls[1])

        def log_server_name(_socket, server_name, _context):
            # What the client named in SNI (None: no SNI, as for an IP literal).
            with server.log_lock:
                with open(server.log_path, "a") as log:
                    log.write(json.dumps({"tlsServerName": server_name}) + "\n")

        context.sni_callback = log_server_name
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.daemon_threads = True
    with open(options.script) as script:
        server.script = json.load(script)
    server.log_path = options.log
    server.log_lock = threading.RLock()
    server.answered = {}
    server.turns = {}
    open(options.log, "a").close()
    scheme = "https" if options.tls else "http"
    print("listening on %s://%s:%d" % (scheme, options.host, server.server_address[1]), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
