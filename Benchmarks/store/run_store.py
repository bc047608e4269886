#!/usr/bin/env python3
"""Session creation and restoring with the SQLite store, beside the in-memory store, in one run.

For each store (memory; sqlite relaxed; sqlite strict) a release layoutd is started on a
temporary folder and, alternating store by store, REPS sessions of a stacked feed (CELLS
cells, Benchmarks/document/gen_feed.py) are created over loopback HTTP. The SQLite servers
are then restarted on their store and each session's first request (`GET .../frames`,
which rebuilds it from snapshot + journal) is timed. Prints medians and the ratios the
durable-sessions issue sets: creation with the store / without (≤ 1.2×), restoring /
creating (≤ 1.2×).

  python3 Benchmarks/store/run_store.py [--cells 1000] [--reps 7]
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "release", "layoutd"))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "document"))
from gen_feed import feed  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, store, durability, folder):
        self.store, self.durability, self.folder = store, durability, folder

    def start(self):
        self.port = free_port()
        args = [BIN, "--port", str(self.port), "--log-level", "warning", "--durability", self.durability, "--max-body-bytes", "16777216",
                "--store", "memory" if self.store == "memory" else "sqlite:" + os.path.join(self.folder, "s.sqlite")]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("layoutd did not start")

    def request(self, method, path, body=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        c.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data

    def stop(self):
        self.proc.terminate()
        self.proc.wait()


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cells", type=int, default=1000)
    ap.add_argument("--reps", type=int, default=7)
    a = ap.parse_args()
    body = json.dumps(feed(a.cells, "stacked")).encode()
    work = tempfile.mkdtemp(prefix="layoutd-store-bench-")
    variants = [("memory", "relaxed"), ("sqlite", "relaxed"), ("sqlite", "strict")]
    servers = {}
    for store, durability in variants:
        folder = os.path.join(work, f"{store}-{durability}")
        os.mkdir(folder)
        servers[(store, durability)] = Server(store, durability, folder).start()
    create = {v: [] for v in variants}
    ids = {v: [] for v in variants}
    try:
        for _ in range(a.reps):
            for v in variants:
                t0 = time.perf_counter()
                status, data = servers[v].request("POST", "/v1/sessions", body)
                create[v].append(time.perf_counter() - t0)
                assert status == 201, data[:300]
                ids[v].append(json.loads(data)["session"])
        restore = {}
        for v in variants[1:]:
            servers[v].stop()
            servers[v].start()
            restore[v] = []
            for sid in ids[v]:
                t0 = time.perf_counter()
                status, data = servers[v].request("GET", f"/v1/sessions/{sid}/frames")
                restore[v].append(time.perf_counter() - t0)
                assert status == 200, data[:300]
        print(f"# {a.cells}-cell stacked feed ({len(body)} bytes), {a.reps} sessions per store, medians in ms")
        base = median(create[variants[0]])
        for v in variants:
            c = median(create[v])
            line = f"{v[0]:7} {v[1]:8} create {c * 1e3:8.1f} ms  ({c / base:.2f}x memory)"
            if v in restore:
                r = median(restore[v])
                line += f"   restore {r * 1e3:8.1f} ms  ({r / c:.2f}x its creation)"
            print(line)
    finally:
        for s in servers.values():
            if s.proc.poll() is None:
                s.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
