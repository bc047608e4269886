#!/usr/bin/env python3
"""Whole documents over real HTTP, beside the engine alone, in one run.

For feeds of CELLS cells (stacked and independent, gen_feed.py): the median time of
POST /v1/layout and POST /v1/sessions end to end over loopback (a release layoutd started
here), the in-process session build and the engine-only build of the same constraints
(layoutd-document-bench, run right after each pair of requests: the one-shot over the engine
is the median of those pairs' ratios, the machine drifting as it does), and the heap a session
holds (ten sessions of the 1,000-cell feeds, the delta of layoutd_heap_bytes per view). Bounded: each request has a timeout
(TIMEOUT seconds), and a size whose request times out is reported as such, not retried.

Usage: run_document.py [--cells 100,1000,10000] [--reps 3] [--timeout 120] [--engine solved|factored]
(--engine: the sessions' engine; one-shot layouts run on layoutd's default, the factored basis.)
"""
import argparse
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, ".build", "release")


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    engine = "solved"

    def __init__(self):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [os.path.join(BIN, "layoutd"), "--port", str(self.port), "--log-level", "warning", "--store", "memory",
             "--max-body-bytes", str(256 << 20), "--max-views", "1000000", "--max-constraints", "10000000",
             "--max-sessions", "100000", "--memory-budget-mb", "0", "--session-ttl", "3600", "--engine", Server.engine],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.request("GET", "/healthz", timeout=1)
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("layoutd did not start")

    def request(self, method, path, body=None, timeout=600.0):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        c.request(method, path, body=body, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, data

    def heap(self) -> int:
        _, text = self.request("GET", "/metrics")
        m = re.search(rb"^layoutd_heap_bytes (\S+)$", text, re.M)
        return int(float(m.group(1)))

    def stop(self, kill=False):
        """SIGTERM drains (waiting for a request under way); after a timeout, SIGKILL."""
        if kill:
            self.proc.kill()
        else:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def timed(server, method, path, body, timeout):
    # A pause first: the previous answer's session and tree are freed on the server after it
    # was sent, and on two cores that teardown and this client would otherwise be timed too.
    time.sleep(0.05)
    t0 = time.perf_counter()
    status, data = server.request(method, path, body, timeout=timeout)
    return (time.perf_counter() - t0) * 1000, status, data


def median(xs):
    return sorted(xs)[len(xs) // 2]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cells", default="100,1000,10000")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--engine", default="factored", choices=["solved", "factored"])
    args = ap.parse_args()
    Server.engine = args.engine
    sizes = [int(x) for x in args.cells.split(",")]
    work = tempfile.mkdtemp(prefix="layoutd-docs-")
    gen = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen_feed.py")
    server = Server()
    rows = []
    try:
        for mode in ["stacked", "independent"]:
            for n in sizes:
                path = os.path.join(work, f"feed_{mode}_{n}.json")
                subprocess.run([sys.executable, gen, "--cells", str(n), "--mode", mode, "--out", path], check=True)
                body = open(path, "rb").read()
                # The same repetitions at every size: one cold run of 10,000 cells against the
                # median of three warm 1,000s charged the growth with first-touch page faults.
                reps = args.reps
                row = {"document": f"{mode} {n}", "bytes": len(body)}
                layout, create, inprocs, paired = [], [], [], []
                for _ in range(reps):
                    try:
                        ms, status, _ = timed(server, "POST", "/v1/layout", body, args.timeout)
                        assert status == 200, status
                        layout.append(ms)
                        ms, status, data = timed(server, "POST", "/v1/sessions", body, args.timeout)
                        assert status == 201, status
                        create.append(ms)
                        server.request("DELETE", "/v1/sessions/" + json.loads(data)["session"])
                    except (socket.timeout, TimeoutError):
                        row["timeout"] = f">{args.timeout:.0f} s"
                        server.stop(kill=True)
                        server = Server()
                        break
                    # The engine alone right after each request, so that each pair sees the
                    # machine in the same state (it drifts 30% here): the ratio is the median
                    # of the pairs'. Three warm repetitions in process, their median.
                    out = subprocess.run([os.path.join(BIN, "layoutd-document-bench"), "--reps", "3", path],
                                         check=True, capture_output=True, text=True, timeout=args.timeout * 4,
                                         env={**os.environ, "LAYOUTD_ENGINE": args.engine}).stdout
                    inprocs.append(json.loads(out))
                    paired.append(layout[-1] / inprocs[-1]["factored_engine_ms"])
                if layout:
                    row["layout_ms"] = round(median(layout), 1)
                if create:
                    row["create_ms"] = round(median(create), 1)
                if "timeout" not in row and inprocs:
                    row["build_in_process_ms"] = median([d["session_build_ms"] for d in inprocs])
                    row["engine_only_ms"] = median([d["engine_only_ms"] for d in inprocs])
                    row["factored_engine_only_ms"] = median([d["factored_engine_ms"] for d in inprocs])
                    row["layout_over_factored_engine"] = round(median(paired), 2)
                    row["layout_over_factored_engine_of_medians"] = round(row["layout_ms"] / row["factored_engine_only_ms"], 2)
                    # Each at its best (the least disturbed run of either: this machine stalls).
                    row["layout_over_factored_engine_best"] = round(min(layout) / min(d["factored_engine_ms"] for d in inprocs), 2)
                if n == 1000:
                    before = server.heap()
                    ids = []
                    for _ in range(10):
                        status, data = server.request("POST", "/v1/sessions", body)
                        ids.append(json.loads(data)["session"])
                    views = 1 + 5 * n
                    row["heap_per_view_bytes"] = (server.heap() - before) // (10 * views)
                    for s in ids:
                        server.request("DELETE", "/v1/sessions/" + s)
                print(json.dumps(row), flush=True)
                rows.append(row)
    finally:
        server.stop()
    # Growth: 10x the cells should cost about 10x.
    by = {r["document"]: r for r in rows}
    for mode in ["stacked", "independent"]:
        for a, b in zip(sizes, sizes[1:]):
            ra, rb = by.get(f"{mode} {a}"), by.get(f"{mode} {b}")
            if ra and rb and "layout_ms" in ra and "layout_ms" in rb:
                print(json.dumps({"growth": f"{mode} {a} -> {b}",
                                  "layout": round(rb["layout_ms"] / ra["layout_ms"], 1),
                                  "create": round(rb["create_ms"] / ra["create_ms"], 1),
                                  "engine_only": round(rb["engine_only_ms"] / ra["engine_only_ms"], 1) if ra["engine_only_ms"] > 0 else None,
                                  "factored_engine_only": round(rb["factored_engine_only_ms"] / ra["factored_engine_only_ms"], 1)}))


if __name__ == "__main__":
    main()
