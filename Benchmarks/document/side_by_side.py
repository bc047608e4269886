#!/usr/bin/env python3
"""Two layoutd builds side by side over real HTTP: each POST goes to both in turn (the order
alternating), on one keep-alive connection each, with a pause between requests so that the
previous answer's teardown is not timed. Prints the minimum and median a build, per route.

Usage: side_by_side.py BEFORE_BINARY AFTER_BINARY FEED.json [FEED.json ...] [--requests 24]
(e.g. a worktree's .build/release/layoutd beside this tree's; feeds from gen_feed.py).
"""
import argparse
import http.client
import json
import statistics
import subprocess
import time

from run_document import free_port

ARGS = ["--log-level", "warning", "--store", "memory", "--max-body-bytes", str(256 << 20), "--max-views", "1000000",
        "--max-constraints", "10000000", "--memory-budget-mb", "0"]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("feeds", nargs="+")
    ap.add_argument("--requests", type=int, default=24)
    args = ap.parse_args()
    servers = {}
    for name, binary in (("before", args.before), ("after", args.after)):
        port = free_port()
        servers[name] = (subprocess.Popen([binary, "--port", str(port)] + ARGS, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL), port)
    try:
        conns = {}
        for name, (_, port) in servers.items():
            for _ in range(100):
                try:
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
                    c.request("GET", "/healthz")
                    c.getresponse().read()
                    conns[name] = c
                    break
                except OSError:
                    time.sleep(0.05)
            else:
                raise SystemExit(f"{name} did not start")
        for feed in args.feeds:
            body = open(feed, "rb").read()
            for path in ("/v1/layout", "/v1/sessions"):
                times = {"before": [], "after": []}
                for i in range(args.requests):
                    for name in (("before", "after") if i % 2 == 0 else ("after", "before")):
                        c = conns[name]
                        time.sleep(0.05)
                        t = time.perf_counter()
                        c.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                        r = c.getresponse()
                        data = r.read()
                        times[name].append((time.perf_counter() - t) * 1000)
                        if r.status not in (200, 201):
                            raise SystemExit(f"{name} {path}: {r.status} {data[:200]!r}")
                        if path == "/v1/sessions":
                            c.request("DELETE", "/v1/sessions/" + json.loads(data)["session"])
                            c.getresponse().read()
                print(json.dumps({"document": feed.split("/")[-1], "route": path, **{
                    name: {"min_ms": round(min(ts), 1), "median_ms": round(statistics.median(ts), 1)}
                    for name, ts in times.items()}}), flush=True)
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
