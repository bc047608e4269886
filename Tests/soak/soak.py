"""A soak: drags over WebSocket streams, HTTP changes and session churn against one
layoutd process for a while, sampling its RSS, heap, open descriptors and threads.

    python3 Tests/soak/soak.py --minutes 60 --streams 256            # make soak (BENCHMARKS.md)
    python3 Tests/soak/soak.py --minutes 1 --interval 6 --check      # in make test (the hour: make soak)

The load, all on loopback: --streams WebSocket streams over 64 sessions (4 each), each
dragging a constraint at 20 Hz and reading every answer; one HTTP client posting a
structural change (a constraint added, then removed) and reading frames every 20 ms; one
creating, changing and deleting a session every 200 ms and reopening a stream every
second. The server stores sessions in SQLite (relaxed) in a temporary directory.

Each --interval seconds one line: minute, RSS, heap (layoutd_heap_bytes), descriptors,
threads, messages answered. With --check it fails when descriptors or threads at the end
exceed what they were after warm-up (the first fifth of the run), or on any error; RSS and
heap are reported against the 5% target (flat after warm-up) without failing a short run.
"""
import argparse
import asyncio
import base64
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "debug", "layoutd"))


def document(cells):
    views = [{"id": "root", "frame": {"x": 0, "y": 0, "width": 375, "height": 2000}}]
    cons = []
    for i in range(cells):
        c = f"c{i}"
        views += [{"id": c, "parent": "root"}, {"id": c + "a", "parent": c},
                  {"id": c + "t", "parent": c, "intrinsicSize": {"width": 60 + i * 7 % 200, "height": 20}}]
        cons += [{"expr": f"{c}.left == root.left"}, {"expr": f"{c}.width == root.width"},
                 {"expr": f"{c}.top == root.top" if i == 0 else f"{c}.top == c{i - 1}.bottom"},
                 {"id": f"lead{i}", "expr": f"{c}a.leading == {c}.leading + 16"},
                 {"expr": f"{c}a.top == {c}.top + 8"}, {"expr": f"{c}a.width == 40"}, {"expr": f"{c}a.height == 40"},
                 {"expr": f"{c}t.leading == {c}a.trailing + 8"}, {"expr": f"{c}t.top == {c}a.top"},
                 {"expr": f"{c}.bottom == {c}a.bottom + 8"}]
    return json.dumps({"views": views, "constraints": cons}).encode()


class Failure(Exception):
    pass


class Stats:
    def __init__(self):
        self.answered = 0
        self.errors = []


async def http(port, method, path, body=None, expect=(200,)):
    r, w = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {len(body or b'')}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        w.write(head.encode() + b"\r\n" + (body or b""))
        await w.drain()
        data = await asyncio.wait_for(r.read(), 30)
    finally:
        w.close()
    status = int(data.split(b" ", 2)[1])
    if status not in expect:
        raise Failure(f"{method} {path}: {status} {data[-300:]!r}")
    return json.loads(data.split(b"\r\n\r\n", 1)[1] or b"null")


class Stream:
    """A WebSocket client on raw asyncio streams: masked text frames out, frames in."""

    async def open(self, port, session):
        self.r, self.w = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        self.w.write((f"GET /v1/sessions/{session}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = await asyncio.wait_for(self.r.readuntil(b"\r\n\r\n"), 30)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise Failure(f"stream handshake: {head[:100]!r}")
        return self

    def send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        length = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
        self.w.write(bytes([0x81]) + length + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    async def receive(self):
        b0, b1 = await asyncio.wait_for(self.r.readexactly(2), 30)
        n = b1 & 0x7F
        if n == 126:
            n = int.from_bytes(await self.r.readexactly(2), "big")
        elif n == 127:
            n = int.from_bytes(await self.r.readexactly(8), "big")
        payload = await self.r.readexactly(n)
        if b0 & 0x0F == 8:
            raise Failure(f"stream closed by the server: {payload!r}")
        return payload

    async def close(self):
        mask = os.urandom(4)
        self.w.write(bytes([0x88, 0x82]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(b"\x03\xe8")))
        try:
            await asyncio.wait_for(self.w.drain(), 5)
        except Exception:
            pass
        self.w.close()


async def drag(port, session, cell, stats, stop):
    s = await Stream().open(port, session)
    k = 0
    try:
        while not stop.is_set():
            k += 1
            s.send(json.dumps({f"lead{cell}": 16 + k % 40}))
            answer = json.loads(await s.receive())
            if "revision" not in answer:
                raise Failure(f"stream answer without a revision: {answer}")
            stats.answered += 1
            await asyncio.sleep(0.05)
    finally:
        await s.close()


async def changes(port, sessions, stats, stop):
    k = 0
    while not stop.is_set():
        sid = sessions[k % len(sessions)]
        cid = f"soak{k}"
        await http(port, "POST", f"/v1/sessions/{sid}/changes",
                   json.dumps({"ops": [{"op": "addConstraints", "constraints": [{"id": cid, "expr": "c0t.width >= 10 @100"}]}]}).encode())
        await http(port, "POST", f"/v1/sessions/{sid}/changes", json.dumps({"ops": [{"op": "removeConstraints", "ids": [cid]}]}).encode())
        await http(port, "GET", f"/v1/sessions/{sid}/frames?since=1")
        stats.answered += 3
        k += 1
        await asyncio.sleep(0.02)


async def churn(port, doc, stats, stop):
    k = 0
    while not stop.is_set():
        created = await http(port, "POST", "/v1/sessions", doc, expect=(201,))
        sid = created["session"]
        if k % 5 == 0:
            s = await Stream().open(port, sid)
            s.send(json.dumps({"lead0": 20}))
            await s.receive()
            await s.close()
        await http(port, "POST", f"/v1/sessions/{sid}/constants", json.dumps({"lead1": 30}).encode())
        await http(port, "DELETE", f"/v1/sessions/{sid}", expect=(204,))
        stats.answered += 3
        k += 1
        await asyncio.sleep(0.2)


def sample(pid, port):
    status = open(f"/proc/{pid}/status").read()
    rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) * 1024
    threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    heap = int(float(re.search(rb"^layoutd_heap_bytes (\S+)$", data, re.M).group(1)))
    return rss, heap, fds, threads


async def run(args):
    directory = tempfile.mkdtemp(prefix="layoutd-soak-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(os.path.join(directory, "server.log"), "w")
    proc = subprocess.Popen([BIN, "--port", str(port), "--store", f"sqlite:{directory}/sessions.sqlite", "--log-level", "warning",
                             "--max-sessions", "2000"], stderr=log, stdout=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                await http(port, "GET", "/healthz")
                break
            except (OSError, Failure):
                await asyncio.sleep(0.05)
        doc = document(20)
        sessions = [(await http(port, "POST", "/v1/sessions", doc, expect=(201,)))["session"] for _ in range(64)]
        stats, stop = Stats(), asyncio.Event()
        tasks = [asyncio.create_task(drag(port, sessions[i % 64], i % 20, stats, stop)) for i in range(args.streams)]
        tasks += [asyncio.create_task(changes(port, sessions, stats, stop)), asyncio.create_task(churn(port, doc, stats, stop))]
        samples = []
        started = time.time()
        print(f"{'minute':>6} {'RSS MB':>8} {'heap MB':>8} {'fds':>5} {'threads':>7} {'answered':>9}", flush=True)
        while time.time() - started < args.minutes * 60:
            done = [t for t in tasks if t.done()]
            for t in done:
                if t.exception():
                    raise t.exception()
            await asyncio.sleep(min(args.interval, max(0.1, args.minutes * 60 - (time.time() - started))))
            rss, heap, fds, threads = sample(proc.pid, port)
            samples.append((rss, heap, fds, threads))
            print(f"{(time.time() - started) / 60:6.1f} {rss / 2**20:8.1f} {heap / 2**20:8.1f} {fds:5d} {threads:7d} {stats.answered:9d}", flush=True)
        stop.set()
        await asyncio.gather(*tasks)
        warm = samples[max(0, len(samples) // 5 - 1)]
        last = samples[-1]
        after = samples[len(samples) // 5:]
        rss_spread = (max(s[0] for s in after) - min(s[0] for s in after)) / warm[0]
        heap_spread = (max(s[1] for s in after) - min(s[1] for s in after)) / warm[1]
        print(f"after warm-up: RSS {warm[0] / 2**20:.1f} -> {last[0] / 2**20:.1f} MB (spread {rss_spread:.1%}), "
              f"heap {warm[1] / 2**20:.1f} -> {last[1] / 2**20:.1f} MB (spread {heap_spread:.1%}), "
              f"fds {warm[2]} -> {last[2]}, threads {warm[3]} -> {last[3]}; {stats.answered} answers")
        if args.check:
            if last[2] > warm[2] + 2:
                raise Failure(f"descriptors grew: {warm[2]} -> {last[2]}")
            if last[3] > warm[3]:
                raise Failure(f"threads grew: {warm[3]} -> {last[3]}")
        if proc.poll() is not None:
            raise Failure("the server died")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        log.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--interval", type=float, default=60)
    ap.add_argument("--streams", type=int, default=256)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    try:
        asyncio.run(run(args))
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
