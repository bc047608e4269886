"""API keys, tenants and quotas (`--auth-file`), against the real server over loopback:

- health, readiness, metrics and the playground's files are open; every other route needs
  `Authorization: Bearer KEY`: none is 401 with `WWW-Authenticate: Bearer`, an unknown key 401;
- a session belongs to the tenant that made it: another tenant's key finds no such session
  (404, as for one that does not exist) on every session route and on the stream, and that
  holds across a restart on the SQLite store;
- quotas: a tenant's sessions (429 with Retry-After; those the store holds count, across a
  restart), views per session (the document is
  refused as past the server's view limit would be: 413), request rate (429, Retry-After,
  held until the next token, so a client flooding on keep-alive sends at about its rate),
  share of the memory budget (429 once its sessions' estimated heap would pass it; deleting
  one makes room), and that estimate within a factor of 1.5 of the heap really measured
  around sessions of the growth families, on both engines;
- per-tenant metrics with labels from the file only: requests, refusals by quota, sessions;
  refusals of keys by reason; `--metrics-key` puts /metrics behind a key of its own;
- `--cors-origins`: a preflight from a named origin is answered with the route's methods and
  `Authorization` allowed (without a key), answers carry `Access-Control-Allow-Origin`; an
  origin not named gets nothing;
- a browser's WebSocket, which cannot send a header, opens with a single-use ticket that the
  page asked for with its key: it works once, for its session only;
- SIGHUP re-reads the file: a revoked key stops working, a new one works, sessions stay; a bad
  file keeps the one in force and the server up; a bad file at start stops the start.

Run: python3 Tests/http/test_auth.py
"""
import concurrent.futures
import hashlib
import http.client
import re
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

import websockets.exceptions
import websockets.sync.client

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from layoutd_process import BIN, Layoutd, free_port  # noqa: E402

FAMILIES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "Benchmarks", "growth", "families.py")

KEY_A, KEY_A2, KEY_B, KEY_C, KEY_Q = "key-of-team-a", "second-key-of-team-a", "key-of-team-b", "key-of-team-c", "key-of-team-q"
DOC = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 100}},
                 {"id": "v", "parent": "root", "intrinsicSize": {"width": 40, "height": 20}}],
       "constraints": [{"id": "lead", "expr": "v.leading == root.leading + 8"}, {"expr": "v.top == root.top + 4"}]}


def digest(key):
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()


def tenants(a_keys=(KEY_A,)):
    return {"tenants": [
        {"name": "team-a", "keys": [digest(k) for k in a_keys]},
        {"name": "team-b", "keys": [digest(KEY_B)], "quotas": {"sessions": 2, "viewsPerSession": 3}},
        {"name": "team-c", "keys": [digest(KEY_C)], "quotas": {"requestsPerSecond": 5}},
        {"name": "team-q", "keys": [digest(KEY_Q)], "quotas": {"sessions": 3, "viewsPerSession": 4, "constraintsPerSession": 12}},
    ]}


class Client:
    def __init__(self, port):
        self.port = port

    def request(self, method, path, body=None, key=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        h = dict(headers or {})
        if body is not None:
            h["Content-Type"] = "application/json"
        if key is not None:
            h["Authorization"] = f"Bearer {key}"
        c.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=h)
        r = c.getresponse()
        raw = r.read()
        c.close()
        ctype = r.getheader("Content-Type", "")
        return r.status, {k.lower(): v for k, v in r.getheaders()}, json.loads(raw) if raw and "json" in ctype else raw


def handshake(port, path, key=None):
    """A WebSocket opening handshake; the answer's status."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    auth = f"Authorization: Bearer {key}\r\n" if key else ""
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{auth}\r\n").encode())
    head = s.recv(4096).decode(errors="replace")
    s.close()
    return int(head.split(" ")[1])


class AuthTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="layoutd-auth-")
        self.file = os.path.join(self.dir, "tenants.json")
        self.write(tenants())
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            if s.proc.poll() is None:
                s.stop()

    def write(self, content):
        with open(self.file + ".tmp", "w") as f:
            f.write(content if isinstance(content, str) else json.dumps(content))
        os.replace(self.file + ".tmp", self.file)

    def start(self, *extra):
        s = Layoutd("--auth-file", self.file, *extra)
        self.servers.append(s)
        return s, Client(s.port)

    def hup(self, server, expect_in_log):
        server.proc.send_signal(signal.SIGHUP)
        deadline = time.time() + 10
        while time.time() < deadline:
            with open(server.log.name) as f:
                if f.read().count(expect_in_log) > 0:
                    return
            time.sleep(0.05)
        self.fail(f"no '{expect_in_log}' in the log after SIGHUP")

    def test_keys_and_open_routes(self):
        server, c = self.start("--log-level", "info")
        for path in ("/healthz", "/readyz", "/metrics", "/", "/openapi.yaml"):
            self.assertEqual(c.request("GET", path)[0], 200, path)
        status, headers, problem = c.request("POST", "/v1/sessions", DOC)
        self.assertEqual((status, headers.get("www-authenticate")), (401, "Bearer"))
        self.assertEqual(headers["content-type"], "application/problem+json")
        self.assertEqual(problem["type"], "/problems/unauthorized")
        status, headers, _ = c.request("POST", "/v1/layout", DOC, key="not-a-key")
        self.assertEqual(status, 401)
        self.assertIn("invalid_token", headers["www-authenticate"])
        self.assertEqual(c.request("POST", "/v1/layout", DOC, headers={"Authorization": "Basic abc"})[0], 401)
        # A header of a megabyte: refused (a 4xx, or the connection closed), never served, the server up.
        try:
            status = c.request("POST", "/v1/layout", DOC, key="k" * 1_000_000)[0]
            self.assertTrue(400 <= status < 500, status)
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            pass
        self.assertEqual(c.request("POST", "/v1/layout", DOC, key="\u00e9 key")[0], 401, "odd bytes")
        self.assertEqual(c.request("POST", "/v1/layout", DOC, key="key\x01")[0], 400, "a control character: refused before any key is read")
        self.assertEqual(c.request("POST", "/v1/layout", DOC, key=KEY_A)[0], 200)
        self.assertEqual(c.request("GET", "/healthz")[0], 200, "the server is up after odd keys")

    def test_a_tenant_cannot_reach_another_tenants_session(self):
        store = os.path.join(self.dir, "s.db")
        server, c = self.start("--store", f"sqlite:{store}")
        status, _, created = c.request("POST", "/v1/sessions", DOC, key=KEY_A)
        self.assertEqual(status, 201, created)
        sid = created["session"]
        base = f"/v1/sessions/{sid}"
        routes = [("GET", base, None), ("GET", base + "/frames", None), ("GET", base + "/explain?view=v", None),
                  ("GET", base + "/trace", None), ("POST", base + "/fitting-size", {"view": "v"}),
                  ("POST", base + "/exercise-ambiguity", None), ("POST", base + "/changes", {"ops": []}),
                  ("POST", base + "/frames-at", {"sizes": [{"width": 100, "height": 100}]}),
                  ("GET", base + "/snapshot.svg", None), ("GET", base + "/snapshot.png", None),
                  ("POST", base + "/constants", {"lead": 30}), ("PUT", base + "/document", DOC),
                  ("POST", base + "/stream-ticket", None)]

        def check(server, c):
            for method, path, body in routes:
                status, _, problem = c.request(method, path, body, key=KEY_B)
                self.assertEqual(status, 404, (method, path, problem))
                self.assertEqual(c.request(method, path, body, key=KEY_A)[0], 200, (method, path))
            self.assertEqual(handshake(server.port, base + "/stream", key=KEY_B), 404)
            self.assertEqual(handshake(server.port, base + "/stream"), 401)
            self.assertEqual(handshake(server.port, base + "/stream", key=KEY_A), 101)
            self.assertEqual(c.request("DELETE", base, key=KEY_B)[0], 404)

        check(server, c)
        # As stored: a restart restores the session for its owner only.
        server.stop()
        server, c = self.start("--store", f"sqlite:{store}")
        check(server, c)
        self.assertEqual(c.request("DELETE", base, key=KEY_A)[0], 204)

    def test_quotas(self):
        server, c = self.start()
        made = [c.request("POST", "/v1/sessions", DOC, key=KEY_B)[0] for _ in range(2)]
        self.assertEqual(made, [201, 201])
        status, headers, problem = c.request("POST", "/v1/sessions", DOC, key=KEY_B)
        self.assertEqual(status, 429, problem)
        self.assertIn("retry-after", headers)
        self.assertEqual(problem["type"], "/problems/too-many-requests")
        self.assertEqual(c.request("POST", "/v1/sessions", DOC, key=KEY_A)[0], 201, "another tenant is not held to it")
        big = dict(DOC, views=DOC["views"] + [{"id": f"x{i}", "parent": "root"} for i in range(3)])
        self.assertEqual(c.request("POST", "/v1/sessions", big, key=KEY_A)[0], 201)
        answers = [c.request("POST", "/v1/layout", DOC, key=KEY_C) for _ in range(40)]
        statuses = [a[0] for a in answers]
        self.assertIn(429, statuses, "a burst past 5 a second is refused")
        self.assertEqual(statuses[:5], [200] * 5, "the first second's worth is served")
        headers = next(a[1] for a in answers if a[0] == 429)
        self.assertGreaterEqual(int(headers["retry-after"]), 1)
        self.assertEqual(headers["ratelimit-policy"], '"tenant";q=5;w=1')
        self.assertRegex(headers["ratelimit"], r'^"tenant";r=0;t=\d+$')
        self.assertEqual(c.request("POST", "/v1/layout", DOC, key=KEY_A)[0], 200, "team-a is not held to team-c's rate")
        # A refusal is held until the next token: a client on one keep-alive connection that
        # sends as fast as it can alternates a refusal and an admission, about twice the rate
        # of answers (unheld: thousands a second).
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        body = json.dumps(DOC).encode()
        sent, t0 = 0, time.time()
        while time.time() - t0 < 2:
            conn.request("POST", "/v1/layout", body=body, headers={"Content-Type": "application/json", "Authorization": f"Bearer {KEY_C}"})
            conn.getresponse().read()
            sent += 1
        conn.close()
        self.assertLessEqual(sent, 2 * 5 * 2 + 8, "refusals are held, not answered at once")
        self.assertGreaterEqual(sent, 5, "admitted requests are not held")

    def test_the_sessions_quota_counts_sessions_the_store_holds(self):
        store = os.path.join(self.dir, "quota.db")
        server, c = self.start("--store", f"sqlite:{store}", "--durability", "relaxed")
        made = [c.request("POST", "/v1/sessions", DOC, key=KEY_B) for _ in range(2)]
        self.assertEqual([m[0] for m in made], [201, 201])
        server.stop()
        # After a restart both are only in the store: still team-b's two.
        server, c = self.start("--store", f"sqlite:{store}", "--durability", "relaxed")
        status, headers, problem = c.request("POST", "/v1/sessions", DOC, key=KEY_B)
        self.assertEqual(status, 429, problem)
        self.assertEqual(c.request("DELETE", f"/v1/sessions/{made[0][2]['session']}", key=KEY_B)[0], 204)
        deadline = time.time() + 5  # the deletion written (relaxed: within its flush interval)
        while c.request("POST", "/v1/sessions", DOC, key=KEY_B)[0] != 201:
            self.assertLess(time.time(), deadline, "a deleted session still counted")
            time.sleep(0.05)

    def test_views_per_session_quota(self):
        server, c = self.start()
        big = dict(DOC, views=DOC["views"] + [{"id": f"x{i}", "parent": "root"} for i in range(3)])
        status, _, problem = c.request("POST", "/v1/sessions", big, key=KEY_B)
        self.assertEqual(status, 413, problem)
        self.assertEqual(c.request("POST", "/v1/sessions", DOC, key=KEY_B)[0], 201)

    def test_the_sessions_quota_holds_against_concurrent_creates(self):
        server, c = self.start()
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(lambda _: c.request("POST", "/v1/sessions", DOC, key=KEY_Q)[0], range(16)))
        self.assertEqual(statuses.count(201), 3, statuses)
        self.assertEqual(statuses.count(429), 13, statuses)
        metrics = c.request("GET", "/metrics")[2].decode()
        self.assertIn('layoutd_tenant_sessions{tenant="team-q"} 3', metrics)

    def test_views_and_constraints_quotas_hold_for_changes(self):
        server, c = self.start()
        status, _, created = c.request("POST", "/v1/sessions", DOC, key=KEY_Q)
        self.assertEqual(status, 201, created)
        sid = created["session"]
        before = c.request("GET", f"/v1/sessions/{sid}", key=KEY_Q)[2]
        for op, want in (({"op": "addViews", "views": [{"id": f"x{i}", "parent": "root"} for i in range(3)]}, "views"),
                         ({"op": "addConstraints", "constraints": [{"expr": f"v.width >= {i}"} for i in range(3)]}, "constraints")):
            status, _, problem = c.request("POST", f"/v1/sessions/{sid}/changes", {"ops": [op]}, key=KEY_Q)
            self.assertEqual(status, 413, problem)
            self.assertIn(want, problem["detail"])
        too_many = {"views": DOC["views"], "constraints": DOC["constraints"] + [{"expr": f"v.height >= {i}"} for i in range(3)]}
        self.assertEqual(c.request("PUT", f"/v1/sessions/{sid}/document", too_many, key=KEY_Q)[0], 413)
        self.assertEqual(c.request("POST", "/v1/sessions", too_many, key=KEY_Q)[0], 413)
        self.assertEqual(c.request("GET", f"/v1/sessions/{sid}", key=KEY_Q)[2], before, "refused changes leave the session as it was")
        self.assertEqual(c.request("POST", f"/v1/sessions/{sid}/changes",
                                   {"ops": [{"op": "addConstraints", "constraints": [{"expr": "v.width >= 1"}]}]}, key=KEY_Q)[0], 200)

    def test_memory_share_holds_for_changes_that_grow_a_session(self):
        # team-m's share: 1/64 of 64 MiB, 1 MiB. One session grown cell by cell through changes
        # stops at about the share; each refusal leaves the session as it was.
        share = {"tenants": tenants()["tenants"] + [{"name": "team-m", "keys": [digest("key-m")], "quotas": {"memoryShare": 1 / 64}}]}
        self.write(share)
        server, c = self.start("--memory-budget-mb", "64")
        status, _, created = c.request("POST", "/v1/sessions", DOC, key="key-m")
        sid = created["session"]
        refused = None
        for k in range(200):
            cells = [{"id": f"c{k}_{i}", "parent": "root", "intrinsicSize": {"width": 10, "height": 10}} for i in range(20)]
            pins = [{"expr": f"c{k}_{i}.top == root.top + {i}"} for i in range(20)] + [{"expr": f"c{k}_{i}.left == root.left"} for i in range(20)]
            before = c.request("GET", f"/v1/sessions/{sid}", key="key-m")[2]
            status, headers, body = c.request("POST", f"/v1/sessions/{sid}/changes",
                                              {"ops": [{"op": "addViews", "views": cells}, {"op": "addConstraints", "constraints": pins}]}, key="key-m")
            if status != 200:
                refused = (k, status, headers, body, before)
                break
        self.assertIsNotNone(refused, "a session grew past its tenant's share through changes")
        k, status, headers, body, before = refused
        self.assertEqual(status, 429, body)
        self.assertIn("memory share", body["detail"])
        self.assertIn("retry-after", headers)
        self.assertGreater(k, 5)
        self.assertEqual(c.request("GET", f"/v1/sessions/{sid}", key="key-m")[2], before)
        metrics = c.request("GET", "/metrics")[2].decode()
        held = float(re.search(r'^layoutd_tenant_memory_bytes\{tenant="team-m"\} (\S+)', metrics, re.M).group(1))
        self.assertLessEqual(held, 2**20 * 1.05, "at most about the share")
        self.assertEqual(c.request("POST", f"/v1/sessions/{sid}/changes", {"ops": [{"op": "removeViews", "ids": ["c0_0"]}]}, key="key-m")[0], 200,
                         "a change that adds nothing passes")

    def test_memory_share_quota(self):
        # A budget of 64 MiB, team-m's share 1/64 of it: 1 MiB, about five 10-cell sessions.
        share = {"tenants": tenants()["tenants"] + [{"name": "team-m", "keys": [digest("key-m")], "quotas": {"memoryShare": 1 / 64}}]}
        self.write(share)
        server, c = self.start("--memory-budget-mb", "64")
        doc = json.loads(subprocess.run([sys.executable, FAMILIES, "independent", "10"], capture_output=True, check=True).stdout)
        made = []
        for _ in range(30):
            status, headers, body = c.request("POST", "/v1/sessions", doc, key="key-m")
            if status != 201:
                break
            made.append(body["session"])
        self.assertEqual(status, 429, body)
        self.assertEqual(body["type"], "/problems/too-many-requests")
        self.assertIn("share of the memory budget", body["detail"])
        self.assertIn("retry-after", headers)
        self.assertTrue(3 <= len(made) <= 8, f"{len(made)} sessions of ~190 KB within 1 MiB")
        metrics = c.request("GET", "/metrics")[2].decode()
        self.assertIn('layoutd_tenant_refusals_total{tenant="team-m",reason="memory"} 1', metrics)
        held = float(re.search(r'^layoutd_tenant_memory_bytes\{tenant="team-m"\} (\S+)', metrics, re.M).group(1))
        self.assertTrue(0.5 * 2**20 < held <= 2**20, held)
        self.assertEqual(c.request("POST", "/v1/sessions", doc, key=KEY_A)[0], 201, "another tenant is not held to it")
        self.assertEqual(c.request("DELETE", f"/v1/sessions/{made[0]}", key="key-m")[0], 204)
        self.assertEqual(c.request("POST", "/v1/sessions", doc, key="key-m")[0], 201, "deleting one makes room")
        self.write(dict(share, tenants=[dict(share["tenants"][-1], quotas={"memoryShare": 1.5})]))
        self.hup(server, "auth file not reloaded")
        with open(server.log.name) as f:
            self.assertIn("/tenants/0/quotas/memoryShare", f.read())

    def test_the_memory_estimate_follows_the_heap(self):
        """What a tenant's share counts against is an estimate (O(1), from the engine's size):
        it stays within a factor of 1.5 of the heap measured around the same sessions."""
        server, c = self.start("--threads", "1", "--heap-keep-mb", "0")

        def read():
            text = c.request("GET", "/metrics")[2].decode()
            heap = float(re.search(r"^layoutd_heap_bytes (\S+)", text, re.M).group(1))
            m = re.search(r'^layoutd_tenant_memory_bytes\{tenant="team-a"\} (\S+)', text, re.M)
            return heap, float(m.group(1)) if m else 0.0

        def gauges():
            # Answers are freed on a worker after they are sent (a one-shot's document, a
            # creation's parsed tree): the heap is read once two readings agree (within 64 KB).
            deadline = time.time() + 10
            last = read()
            while True:
                time.sleep(0.02)
                now = read()
                if abs(now[0] - last[0]) < 65536 and now[1] == last[1]:
                    return now
                self.assertLess(time.time(), deadline, f"the heap did not settle: {last} then {now}")
                last = now

        for family, cells in (("independent", 10), ("stack-top", 10), ("labels-chained", 10), ("selfsizing50", 300),
                              ("stack-center", 300), ("nested", 300), ("labels-pinned", 300), ("ambiguous", 300)):
            doc = subprocess.run([sys.executable, FAMILIES, family, str(cells)], capture_output=True, check=True).stdout
            made = []
            c.request("POST", "/v1/layout", json.loads(doc), key=KEY_A)  # the first of a kind warms caches
            heap0, estimate0 = gauges()
            for _ in range(6):
                status, _, body = c.request("POST", "/v1/sessions", json.loads(doc), key=KEY_A)
                self.assertEqual(status, 201, body)
                made.append(body["session"])
            heap1, estimate1 = gauges()
            ratio = (estimate1 - estimate0) / (heap1 - heap0)
            if os.environ.get("SHOW_RATIOS"):
                print(f"{family} {cells}: estimate / heap = {ratio:.2f}", file=sys.stderr)
            self.assertTrue(1 / 1.5 < ratio < 1.5, f"{family} {cells}: estimate / heap = {ratio:.2f}")
            for sid in made:
                self.assertEqual(c.request("DELETE", f"/v1/sessions/{sid}", key=KEY_A)[0], 204)

    def test_sighup_revokes_and_adds_keys_and_keeps_sessions(self):
        server, c = self.start("--log-level", "info")
        status, _, created = c.request("POST", "/v1/sessions", DOC, key=KEY_A)
        sid = created["session"]
        self.write(tenants(a_keys=(KEY_A2,)))
        self.hup(server, "auth file reloaded")
        self.assertEqual(c.request("GET", f"/v1/sessions/{sid}", key=KEY_A)[0], 401, "revoked")
        self.assertEqual(c.request("GET", f"/v1/sessions/{sid}", key=KEY_A2)[0], 200, "the tenant's new key reaches its session")
        self.write("{not json")
        self.hup(server, "auth file not reloaded")
        self.assertEqual(c.request("GET", f"/v1/sessions/{sid}", key=KEY_A2)[0], 200, "a bad file keeps the one in force")
        self.assertEqual(server.proc.poll(), None)

    def test_the_python_client_sends_its_key(self):
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "clients", "python"))
        import layoutd
        server, _ = self.start()
        base = f"http://127.0.0.1:{server.port}"
        with self.assertRaises(layoutd.LayoutdError) as refused:
            layoutd.Client(base).layout(DOC)
        self.assertEqual(refused.exception.status, 401)
        session = layoutd.Client(base, api_key=KEY_A).create_session(DOC)
        with session.stream() as stream:
            self.assertEqual(stream.set_constants({"lead": 20}).frames["v"].x, 20)
        with self.assertRaises(layoutd.LayoutdError) as hidden:
            layoutd.Client(base, api_key=KEY_B).session(session.id).set_constants({"lead": 30})
        self.assertEqual(hidden.exception.status, 404)

    def test_metrics_per_tenant_and_behind_their_key(self):
        server, c = self.start("--metrics-key", "scraper-key")
        self.assertEqual(c.request("GET", "/metrics")[0], 401)
        self.assertEqual(c.request("GET", "/metrics", key=KEY_A)[0], 401, "a tenant's key is not the metrics key")
        c.request("POST", "/v1/sessions", DOC, key=KEY_B)
        c.request("POST", "/v1/sessions", DOC, key=KEY_B)
        c.request("POST", "/v1/sessions", DOC, key=KEY_B)
        c.request("POST", "/v1/layout", DOC)
        c.request("POST", "/v1/layout", DOC, key="nobody")
        status, _, text = c.request("GET", "/metrics", key="scraper-key")
        self.assertEqual(status, 200)
        text = text.decode()
        self.assertIn('layoutd_tenant_requests_total{tenant="team-b"} 3', text)
        self.assertIn('layoutd_tenant_refusals_total{tenant="team-b",reason="sessions"} 1', text)
        self.assertIn('layoutd_tenant_sessions{tenant="team-b"} 2', text)
        self.assertIn('layoutd_tenant_sessions{tenant="team-a"} 0', text)
        self.assertIn('layoutd_auth_refusals_total{reason="no_key"} 1', text)
        self.assertIn('layoutd_auth_refusals_total{reason="unknown_key"} 1', text)
        self.assertNotIn("nobody", text, "labels come from the file, never from requests")

    def test_cross_origin_requests(self):
        server, c = self.start("--cors-origins", "https://app.example.com,http://localhost:5173")
        pre = {"Origin": "https://app.example.com", "Access-Control-Request-Method": "POST",
               "Access-Control-Request-Headers": "authorization, content-type"}
        status, headers, _ = c.request("OPTIONS", "/v1/sessions", headers=pre)
        self.assertEqual(status, 204)
        self.assertEqual(headers["access-control-allow-origin"], "https://app.example.com")
        self.assertIn("POST", headers["access-control-allow-methods"])
        self.assertIn("Authorization", headers["access-control-allow-headers"])
        status, headers, _ = c.request("POST", "/v1/sessions", DOC, key=KEY_A, headers={"Origin": "https://app.example.com"})
        self.assertEqual(status, 201)
        self.assertEqual(headers["access-control-allow-origin"], "https://app.example.com")
        self.assertIn("Location", headers["access-control-expose-headers"])
        # An origin not named: no preflight, no CORS headers.
        status, headers, _ = c.request("OPTIONS", "/v1/sessions", headers=dict(pre, Origin="https://evil.example"))
        self.assertEqual(status, 405)
        self.assertNotIn("access-control-allow-origin", headers)
        status, headers, _ = c.request("POST", "/v1/layout", DOC, key=KEY_A, headers={"Origin": "https://evil.example"})
        self.assertEqual(status, 200)
        self.assertNotIn("access-control-allow-origin", headers)

    def test_a_stream_ticket_opens_one_websocket_once(self):
        server, c = self.start()
        sid = c.request("POST", "/v1/sessions", DOC, key=KEY_A)[2]["session"]
        other = c.request("POST", "/v1/sessions", DOC, key=KEY_A)[2]["session"]
        self.assertEqual(c.request("POST", f"/v1/sessions/{sid}/stream-ticket", key=KEY_B)[0], 404, "not B's session")
        self.assertEqual(c.request("POST", f"/v1/sessions/{sid}/stream-ticket")[0], 401)
        status, _, answer = c.request("POST", f"/v1/sessions/{sid}/stream-ticket", key=KEY_A)
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["expiresInSeconds"], 30)
        ticket = answer["ticket"]
        self.assertEqual(handshake(server.port, f"/v1/sessions/{other}/stream?ticket={ticket}"), 401, "for its own session only")
        ticket = c.request("POST", f"/v1/sessions/{sid}/stream-ticket", key=KEY_A)[2]["ticket"]
        self.assertEqual(handshake(server.port, f"/v1/sessions/{sid}/stream?ticket={ticket}"), 101)
        self.assertEqual(handshake(server.port, f"/v1/sessions/{sid}/stream?ticket={ticket}"), 401, "spent")
        self.assertEqual(handshake(server.port, f"/v1/sessions/{sid}/stream?ticket=made-up"), 401)

    def stream(self, server, sid, key, **options):
        return websockets.sync.client.connect(f"ws://127.0.0.1:{server.port}/v1/sessions/{sid}/stream",
                                              additional_headers={"Authorization": f"Bearer {key}"}, open_timeout=10, **options)

    def test_stream_messages_count_against_the_rate(self):
        server, c = self.start()
        sid = c.request("POST", "/v1/sessions", DOC, key=KEY_C)[2]["session"]
        with self.stream(server, sid, KEY_C) as ws:
            for i in range(40):
                ws.send(json.dumps({"lead": 8 + i}))
            answers = []
            # Admitted set-constants next to each other in a batch are answered once (`coalesced`).
            while sum(a.get("coalesced", 1) for a in answers) < 40:
                answers.append(json.loads(ws.recv(timeout=10)))
        refused = [a for a in answers if a.get("status") == 429]
        applied = [a for a in answers if "revision" in a]
        self.assertGreaterEqual(len(refused), 30, "a burst past 5 a second is refused message by message")
        self.assertTrue(1 <= sum(a.get("coalesced", 1) for a in applied) <= 8, applied)
        self.assertIn("rate", refused[0]["detail"])
        # Once the tenant's bucket has a token again (slower polls than its rate of 5 a second).
        deadline = time.time() + 10
        while (read := c.request("GET", f"/v1/sessions/{sid}", key=KEY_C))[0] == 429:
            self.assertLess(time.time(), deadline, "the tenant's bucket did not refill")
            time.sleep(0.3)
        self.assertEqual(read[2]["revision"], 1 + len(applied), "refused messages changed nothing")
        # A client that goes on regardless is cut off (its stream opened once a token is there).
        deadline = time.time() + 10
        while True:
            try:
                flood = self.stream(server, sid, KEY_C)
                break
            except websockets.exceptions.InvalidStatus as refused:
                self.assertEqual(refused.response.status_code, 429)
                self.assertLess(time.time(), deadline, "the stream was never admitted")
                time.sleep(0.3)
        with flood as ws:
            with self.assertRaises(websockets.exceptions.ConnectionClosed) as closed:
                for i in range(400):   # past 256 refusals in a row; small enough to be sent before the close
                    ws.send(json.dumps({"lead": i}))
                while True:
                    ws.recv(timeout=10)
            # The close frame may be lost to the reset that closing a socket with unread
            # messages sends; when it arrives it says why.
            if closed.exception.rcvd is not None:
                self.assertEqual(closed.exception.rcvd.code, 1008)

    def test_a_revoked_key_closes_its_streams_and_tickets(self):
        self.write(tenants(a_keys=(KEY_A, KEY_A2)))
        server, c = self.start("--log-level", "info")
        sid = c.request("POST", "/v1/sessions", DOC, key=KEY_A)[2]["session"]
        kept, revoked = self.stream(server, sid, KEY_A), self.stream(server, sid, KEY_A2)
        ticket = c.request("POST", f"/v1/sessions/{sid}/stream-ticket", key=KEY_A2)[2]["ticket"]
        kept_ticket = c.request("POST", f"/v1/sessions/{sid}/stream-ticket", key=KEY_A)[2]["ticket"]
        revoked.send(json.dumps({"lead": 9}))
        self.assertEqual(json.loads(revoked.recv(timeout=10))["revision"], 2)
        self.write(tenants(a_keys=(KEY_A,)))
        t0 = time.time()
        self.hup(server, "auth file reloaded")
        with self.assertRaises(websockets.exceptions.ConnectionClosed) as closed:
            revoked.recv(timeout=5)
        self.assertEqual(closed.exception.rcvd.code, 1008)
        self.assertLess(time.time() - t0, 5, "closed at the reload, not at its next message")
        self.assertEqual(handshake(server.port, f"/v1/sessions/{sid}/stream?ticket={ticket}"), 401, "its ticket went with it")
        kept.send(json.dumps({"lead": 10}))
        self.assertEqual(json.loads(kept.recv(timeout=10))["revision"], 3, "another key's stream stays open")
        kept.close()
        self.assertEqual(handshake(server.port, f"/v1/sessions/{sid}/stream?ticket={kept_ticket}"), 101)

    def test_no_one_tenant_holds_every_stream_slot(self):
        server, c = self.start("--max-streams", "4")   # a tenant's share: 2
        a = c.request("POST", "/v1/sessions", DOC, key=KEY_A)[2]["session"]
        b = c.request("POST", "/v1/sessions", DOC, key=KEY_B)[2]["session"]
        held = [self.stream(server, a, KEY_A), self.stream(server, a, KEY_A)]
        with self.assertRaises(websockets.exceptions.InvalidStatus) as refused:
            self.stream(server, a, KEY_A)
        self.assertEqual(refused.exception.response.status_code, 429)
        other = self.stream(server, b, KEY_B)
        other.send(json.dumps({"lead": 9}))
        self.assertEqual(json.loads(other.recv(timeout=10))["revision"], 2, "another tenant still gets a stream")
        held[0].close()
        deadline = time.time() + 5
        while True:   # the slot comes back once the server has seen the close
            try:
                held.append(self.stream(server, a, KEY_A))
                break
            except websockets.exceptions.InvalidStatus:
                self.assertLess(time.time(), deadline, "a closed stream's slot was not given back")
                time.sleep(0.05)
        for s in held[1:] + [other]:
            s.close()

    def test_no_one_tenant_holds_every_connection_slot(self):
        server, c = self.start("--max-connections-per-tenant", "3")

        def keyed(conn, key):
            conn.request("POST", "/v1/layout", body=json.dumps(DOC).encode(),
                         headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
            r = conn.getresponse()
            r.read()
            return r.status, r.getheader("Connection", "")

        held = [http.client.HTTPConnection("127.0.0.1", server.port, timeout=30) for _ in range(3)]
        for conn in held:
            self.assertEqual(keyed(conn, KEY_A)[0], 200)
        for conn in held:   # kept alive, counted once each
            self.assertEqual(keyed(conn, KEY_A)[0], 200)
        extra = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        status, connection = keyed(extra, KEY_A)
        self.assertEqual((status, connection.lower()), (429, "close"), "a fourth connection of one tenant")
        extra.close()
        other = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        self.assertEqual(keyed(other, KEY_B)[0], 200, "another tenant still gets a connection")
        metrics = c.request("GET", "/metrics")[2].decode()
        self.assertIn('layoutd_tenant_refusals_total{tenant="team-a",reason="connections"} 1', metrics)
        held.pop().close()
        deadline = time.time() + 5
        while True:   # the slot comes back once the server has seen the close
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            status = keyed(conn, KEY_A)[0]
            if status == 200:
                held.append(conn)
                break
            conn.close()
            self.assertLess(time.time(), deadline, "a closed connection's slot was not given back")
            time.sleep(0.05)
        for conn in held + [other]:
            conn.close()

    def test_a_silent_stream_is_closed_and_a_pinging_one_is_not(self):
        server, c = self.start("--stream-idle-timeout", "1.5")
        sid = c.request("POST", "/v1/sessions", DOC, key=KEY_A)[2]["session"]
        silent = self.stream(server, sid, KEY_A, ping_interval=None)
        pinging = self.stream(server, sid, KEY_A, ping_interval=0.4, ping_timeout=5)
        t0 = time.time()
        with self.assertRaises(websockets.exceptions.ConnectionClosed) as closed:
            silent.recv(timeout=10)
        self.assertEqual(closed.exception.rcvd.code, 1000)
        self.assertIn("idle", closed.exception.rcvd.reason)
        self.assertTrue(1.4 < time.time() - t0 < 5, time.time() - t0)
        # Time itself is the claim here: a full idle timeout (1.5 s) more, and the pinging stream is open.
        time.sleep(1.5)
        pinging.send(json.dumps({"lead": 11}))
        self.assertEqual(json.loads(pinging.recv(timeout=10))["revision"], 2, "a stream that pings stays open")
        pinging.close()

    def test_a_bad_file_stops_the_start(self):
        self.write({"tenants": [{"name": "team-a", "keys": ["md5:abc"]}]})
        log = tempfile.NamedTemporaryFile(prefix="layoutd-auth-", suffix=".log", delete=False)
        proc = subprocess.run([BIN, "--port", str(free_port()), "--store", "memory", "--auth-file", self.file],
                              stderr=log, stdout=subprocess.DEVNULL, timeout=30)
        self.assertNotEqual(proc.returncode, 0)
        with open(log.name) as f:
            text = f.read()
        self.assertIn("/tenants/0/keys/0", text, text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
