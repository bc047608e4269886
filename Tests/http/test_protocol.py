"""Requests a proxy and the server could read two ways, refused with 400 before anything reads
them, against the real server over raw loopback sockets:

- two `Content-Length`s (different, or the same), and `Content-Length` with `Transfer-Encoding`;
- a NUL or another control character in a header value (`Bearer KEY\\0junk` does not
  authenticate), in the path (`app.js%00.png` is not app.js, `%0d%0a` forges no log line) or
  in the query;
- a JSON member name repeated in an object (the body's `id` twice, a frame's `x` twice);
- what stays accepted: a tab in a header value, an escaped space in a path, one length;
- on a server without keys, a `Host` name other than localhost, an IP address or one of
  `--allowed-hosts` is refused (403: DNS rebinding); a server with keys answers any.

Run: python3 Tests/http/test_protocol.py
"""
import hashlib
import json
import os
import socket
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from layoutd_process import Layoutd  # noqa: E402

KEY = "key-of-team-p"


def exchange(port, raw):
    """Sends raw request bytes; the status of the answer, and its body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(raw)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = next((int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")), None)
            if length is not None and len(body) >= length:
                break
    status_line = data.split(b"\r\n", 1)[0]
    return int(status_line.split()[1]) if status_line.startswith(b"HTTP/") else None, data.partition(b"\r\n\r\n")[2]


def request(method, path, headers=(), body=b"", host="127.0.0.1"):
    lines = [f"{method} {path} HTTP/1.1".encode(), f"Host: {host}".encode(), b"Connection: close"]
    lines += [h if isinstance(h, bytes) else h.encode() for h in headers]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


class ProtocolTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="layoutd-protocol-")
        cls.auth = os.path.join(cls.dir, "auth.json")
        with open(cls.auth, "w") as f:
            json.dump({"tenants": [{"name": "team-p", "keys": ["sha256:" + hashlib.sha256(KEY.encode()).hexdigest()]}]}, f)
        cls.open = Layoutd("--log-level", "debug")
        cls.keyed = Layoutd("--auth-file", cls.auth)

    @classmethod
    def tearDownClass(cls):
        cls.open.stop()
        cls.keyed.stop()

    def test_content_lengths_that_disagree_or_come_with_chunking(self):
        body = b'{"views":[{"id":"a"}]}'
        for headers in (
            [f"Content-Length: {len(body)}", "Content-Length: 5"],
            [f"Content-Length: {len(body)}", f"Content-Length: {len(body)}"],
            [f"Content-Length: {len(body)}", "Transfer-Encoding: chunked"],
        ):
            status, answer = exchange(self.open.port, request("POST", "/v1/layout", ["Content-Type: application/json", *headers], body))
            self.assertEqual(status, 400, f"{headers}: {answer[:200]}")
            self.assertEqual(json.loads(answer)["status"], 400)
        status, _ = exchange(self.open.port, request("POST", "/v1/layout", ["Content-Type: application/json", f"Content-Length: {len(body)}"], body))
        self.assertEqual(status, 200)

    def test_control_characters_in_headers_paths_and_queries(self):
        status, _ = exchange(self.keyed.port, request("GET", "/v1/sessions", [b"Authorization: Bearer " + KEY.encode()]))
        self.assertNotEqual(status, 401, "the key itself authenticates")
        status, _ = exchange(self.keyed.port, request("POST", "/v1/layout", [b"Authorization: Bearer " + KEY.encode() + b"\x00junk",
                                                                            "Content-Type: application/json", "Content-Length: 2"], b"{}"))
        self.assertEqual(status, 400, "a key followed by a NUL and more does not authenticate")
        status, _ = exchange(self.open.port, request("GET", "/healthz", [b"X-Note: a\x01b"]))
        self.assertEqual(status, 400)
        status, _ = exchange(self.open.port, request("GET", "/healthz", [b"X-Note: a\tb"]))
        self.assertEqual(status, 200, "a tab is a header value's own character")
        status, _ = exchange(self.open.port, request("GET", "/playground/app.js"))
        self.assertEqual(status, 200)
        for path in ("/playground/app.js%00.png", "/healthz%00", "/v1/sessions/a%0d%0aforged:%20yes", "/v1/devices?x=1%00", "/v1/devices?x=%0a"):
            status, answer = exchange(self.open.port, request("GET", path))
            self.assertEqual(status, 400, f"{path}: {answer[:200]}")
        status, _ = exchange(self.open.port, request("GET", "/v1/sessions/a%20b"))
        self.assertEqual(status, 404, "an escaped space is a path's own character")
        with open(self.open.log.name, "rb") as f:
            self.assertNotIn(b"\nforged", f.read(), "no log line starts with what the path carried")

    def test_host_names_on_an_open_server(self):
        for host in ("127.0.0.1", "localhost:8080", "LOCALHOST", "10.1.2.3:80", "[::1]:8080", "app.localhost"):
            status, answer = exchange(self.open.port, request("GET", "/healthz", host=host))
            self.assertEqual(status, 200, f"{host}: {answer[:200]}")
        for host in ("rebind.attacker.example", "rebind.attacker.example:8080", "127.0.0.1.attacker.example", "1.2.3"):
            status, answer = exchange(self.open.port, request("GET", "/healthz", host=host))
            self.assertEqual(status, 403, f"{host}: {answer[:200]}")
        status, _ = exchange(self.keyed.port, request("GET", "/healthz", host="rebind.attacker.example"))
        self.assertEqual(status, 200, "a server with keys: a page elsewhere has no key to send")
        listed = Layoutd("--allowed-hosts", "layout.example.com, other.example")
        try:
            self.assertEqual(exchange(listed.port, request("GET", "/healthz", host="layout.example.com:443"))[0], 200)
            self.assertEqual(exchange(listed.port, request("GET", "/healthz", host="elsewhere.example"))[0], 403)
        finally:
            listed.stop()

    def test_a_member_name_repeated_in_an_object(self):
        for body in (b'{"views":[{"id":"a","id":"b"}]}', b'{"views":[{"id":"a","frame":{"x":1,"x":2,"y":0,"width":1,"height":1}}]}',
                     b'{"views":[{"id":"a"}],"views":[{"id":"b"}]}'):
            status, answer = exchange(self.open.port, request("POST", "/v1/layout", ["Content-Type: application/json", f"Content-Length: {len(body)}"], body))
            self.assertEqual(status, 400, f"{body}: {answer[:200]}")
            self.assertIn("repeated", json.loads(answer)["detail"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
