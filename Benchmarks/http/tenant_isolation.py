"""One tenant flooding at its request rate beside another tenant's set-constants (issue 48).

A release layoutd with two tenants: `quiet` (no quota) and `flood` (requestsPerSecond 50).
Each round, quiet posts ROUNDS_REQUESTS set-constants to its session one after another on a
keep-alive connection (latency of each); in every other round FLOODERS processes post to
flood's own session as fast as they can meanwhile (all but 50 a second answered 429). Rounds
alternate alone / flooded; the summary is each condition's median p50 and p99 and their
ratio, from the same run.

  python3 Benchmarks/http/tenant_isolation.py   # LAYOUTD_BIN (default .build/release/layoutd), ROUNDS=6, FLOODERS=2

PIN=1 (default) puts the server on CPU 0 and every client on CPU 1, so that what the flood
costs the quiet tenant is the server's work for it, not its clients' CPU (Python clients
spend more on a request than the server does); PIN=0 leaves all of them to the scheduler.
"""
import hashlib
import http.client
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from layoutd_process import free_port  # noqa: E402

BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "release", "layoutd"))
ROUNDS = int(os.environ.get("ROUNDS", "6"))
FLOODERS = int(os.environ.get("FLOODERS", "2"))
REQUESTS = int(os.environ.get("ROUNDS_REQUESTS", "3000"))
PIN = os.environ.get("PIN", "1") == "1" and os.cpu_count() >= 2
CELL = open(os.path.join(ROOT, "Benchmarks", "http", "cell.json")).read()


def post(conn, path, body, key):
    conn.request("POST", path, body=body, headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    r = conn.getresponse()
    r.read()
    return r.status


def flood(port, session, stop, counts):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    ok = refused = 0
    k = 0
    while not stop.is_set():
        k += 1
        status = post(conn, f"/v1/sessions/{session}/constants", '{"lead":%d}' % (8 + k % 64), "flood-key")
        if status == 429:
            refused += 1
        else:
            ok += 1
    counts.put((ok, refused))


def quiet_round(port, session):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    latencies = []
    for k in range(REQUESTS):
        t = time.perf_counter()
        status = post(conn, f"/v1/sessions/{session}/constants", '{"lead":%d}' % (8 + k % 64), "quiet-key")
        latencies.append(time.perf_counter() - t)
        assert status == 200, status
    conn.close()
    latencies.sort()
    return latencies[len(latencies) // 2] * 1e6, latencies[int(len(latencies) * 0.99)] * 1e6


def cpu_seconds(pid):
    """The process's user and system CPU so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    folder = tempfile.mkdtemp(prefix="layoutd-isolation-")
    auth = os.path.join(folder, "tenants.json")
    digest = lambda k: "sha256:" + hashlib.sha256(k.encode()).hexdigest()  # noqa: E731
    with open(auth, "w") as f:
        json.dump({"tenants": [{"name": "quiet", "keys": [digest("quiet-key")]},
                               {"name": "flood", "keys": [digest("flood-key")], "quotas": {"requestsPerSecond": 50}}]}, f)
    port = free_port()
    if PIN:
        os.sched_setaffinity(0, {1})  # this process and the flooders it starts
    server = subprocess.Popen((["taskset", "-c", "0"] if PIN else []) + [BIN, "--port", str(port), "--store", "memory", "--threads", "2", "--log-level", "warning",
                               "--auth-file", auth], stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/healthz")
                break
            except OSError:
                time.sleep(0.05)
        sessions = {}
        for tenant in ("quiet", "flood"):
            c = http.client.HTTPConnection("127.0.0.1", port)
            c.request("POST", "/v1/sessions", body=CELL, headers={"Content-Type": "application/json", "Authorization": f"Bearer {tenant}-key"})
            sessions[tenant] = json.loads(c.getresponse().read())["session"]
        quiet_round(port, sessions["quiet"])  # warm-up
        results = {"alone": [], "flooded": []}
        flooded_counts = []
        cpu_alone = []
        for r in range(ROUNDS):
            c0 = cpu_seconds(server.pid)
            if r % 2 == 0:
                results["alone"].append(quiet_round(port, sessions["quiet"]))
                cpu_alone.append((cpu_seconds(server.pid) - c0) / REQUESTS)
                continue
            stop, counts = multiprocessing.Event(), multiprocessing.Queue()
            procs = [multiprocessing.Process(target=flood, args=(port, sessions["flood"], stop, counts)) for _ in range(FLOODERS)]
            for p in procs:
                p.start()
            time.sleep(0.3)
            t0 = time.time()
            results["flooded"].append(quiet_round(port, sessions["quiet"]))
            elapsed = time.time() - t0
            stop.set()
            got = [counts.get(timeout=10) for _ in procs]
            for p in procs:
                p.join()
            ok, refused = sum(g[0] for g in got), sum(g[1] for g in got)
            flooded_counts.append((ok, refused, elapsed, cpu_seconds(server.pid) - c0))
        for cond, rows in results.items():
            print(f"{cond:8} rounds {len(rows)}: quiet p50 {[round(a) for a, _ in rows]} µs, p99 {[round(b) for _, b in rows]} µs")
        per_quiet = statistics.median(cpu_alone)
        for ok, refused, elapsed, cpu in flooded_counts:
            # The server's CPU in the round less the quiet tenant's share (as measured alone): the flood's.
            per_flood = (cpu - per_quiet * REQUESTS) / max(1, ok + refused)
            print(f"flood: {ok} admitted, {refused} refused (429) in {elapsed:.1f} s ({(ok + refused) / elapsed:.0f} requests/s); "
                  f"server CPU a flood request {per_flood * 1e6:.1f} µs, a quiet set-constant {per_quiet * 1e6:.1f} µs")
        alone = statistics.median(b for _, b in results["alone"])
        flooded = statistics.median(b for _, b in results["flooded"])
        p50a = statistics.median(a for a, _ in results["alone"])
        p50f = statistics.median(a for a, _ in results["flooded"])
        print(f"SUMMARY (pinned: {PIN}) quiet p50 alone {p50a:.0f} µs, flooded {p50f:.0f} µs (x{p50f / p50a:.2f}); "
              f"p99 alone {alone:.0f} µs, flooded {flooded:.0f} µs (x{flooded / alone:.2f})")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
