"""One tenant at its request rate, and far past it, beside another tenant's set-constants.

A release layoutd (on CPU 0, one thread) with two tenants: `quiet` (no quota) and `flood`
(requestsPerSecond QUOTA, default 200). Each round, wrk posts set-constants to quiet's
session on one keep-alive connection, one after another, for SECONDS (its latencies);
meanwhile two wrk connections post to flood's own session:

  alone       nothing
  at-limit    each connection paced to half of flood's quota (all of it used)
  past-limit  as fast as they can: all but QUOTA a second answered 429, each refusal
              held until flood's next token
  heavy       two threads of the heaviest requests flood's quota allows (heavy_flood.py:
              2,000 constraints at odds, a 20,000-line label drawn, a 40-scene storyboard,
              a deep chain's trace), each as soon as the one before is answered, and a
              WebSocket stream flooded with set-constants (opened again when it is closed)

The flood starts 1.2 s before quiet's measurement (its burst, a second's worth, is spent by
then). Every client is wrk on CPU 1, a few µs of CPU a request, so what quiet's latencies
show is the server's work, not its clients'. Rounds cycle through the three conditions; the
summary is each condition's median p50 and p99 and their ratio to `alone`, same run.

  python3 Benchmarks/http/tenant_isolation.py   # LAYOUTD_BIN (default .build/release/layoutd), ROUNDS=9, SECONDS=5
"""
import hashlib
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from layoutd_process import cpu_seconds, free_port, wait_healthy  # noqa: E402

BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "release", "layoutd"))
ROUNDS = int(os.environ.get("ROUNDS", "9"))
SECONDS = int(os.environ.get("SECONDS", "5"))
QUOTA = int(os.environ.get("QUOTA", "200"))
HERE = os.path.dirname(os.path.abspath(__file__))
CELL = open(os.path.join(HERE, "cell.json")).read()
CONDITIONS = {"alone": None, "at-limit": 2 * 1000 / QUOTA, "past-limit": 0, "heavy": "heavy"}  # a flood connection's pause, ms


def wrk(port, session, key, seconds, connections, pause_ms=0):
    env = dict(os.environ, LAYOUTD_SESSION=session, LAYOUTD_KEY=key, WRK_DELAY_MS=str(pause_ms))
    return subprocess.Popen(["taskset", "-c", "1", "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s",
                             "-s", os.path.join(HERE, "tenant.lua"), f"http://127.0.0.1:{port}"],
                            env=env, stdout=subprocess.PIPE, text=True)


def result(proc):
    out = proc.communicate(timeout=60)[0]
    line = next(l for l in out.splitlines() if l.startswith("RESULT"))
    return {k: float(v) for k, v in (f.split("=") for f in line.split()[1:])}



def main():
    folder = tempfile.mkdtemp(prefix="layoutd-isolation-")
    auth = os.path.join(folder, "tenants.json")
    digest = lambda k: "sha256:" + hashlib.sha256(k.encode()).hexdigest()  # noqa: E731
    with open(auth, "w") as f:
        json.dump({"tenants": [{"name": "quiet", "keys": [digest("quiet-key")]},
                               {"name": "flood", "keys": [digest("flood-key")], "quotas": {"requestsPerSecond": QUOTA}}]}, f)
    port = free_port()
    server = subprocess.Popen(["taskset", "-c", "0", BIN, "--port", str(port), "--store", "memory", "--threads", "1",
                               "--log-level", "warning", "--auth-file", auth, "--max-body-bytes", str(4 << 20)], stderr=subprocess.DEVNULL)
    try:
        wait_healthy(port, server)
        sessions = {}
        for tenant in ("quiet", "flood"):
            c = http.client.HTTPConnection("127.0.0.1", port)
            c.request("POST", "/v1/sessions", body=CELL, headers={"Content-Type": "application/json", "Authorization": f"Bearer {tenant}-key"})
            sessions[tenant] = json.loads(c.getresponse().read())["session"]
        result(wrk(port, sessions["quiet"], "quiet-key", 2, 1))  # warm-up
        quiet = {c: [] for c in CONDITIONS}
        flood = {c: [] for c in CONDITIONS}
        for r in range(ROUNDS):
            cond = list(CONDITIONS)[r % len(CONDITIONS)]
            pause = CONDITIONS[cond]
            flooder = None
            if pause == "heavy":
                flooder = subprocess.Popen(["taskset", "-c", "1", sys.executable, os.path.join(HERE, "heavy_flood.py"), str(port), "flood-key",
                                            str(SECONDS + 2)], stdout=subprocess.PIPE, text=True)
                time.sleep(1.2)
            elif pause is not None:
                flooder = wrk(port, sessions["flood"], "flood-key", SECONDS + 2, 2, pause)
                time.sleep(1.2)
            c0 = cpu_seconds(server.pid)
            q = result(wrk(port, sessions["quiet"], "quiet-key", SECONDS, 1))
            q["cpu_us"] = (cpu_seconds(server.pid) - c0) * 1e6
            quiet[cond].append(q)
            if flooder:
                flood[cond].append(result(flooder))
        for cond in CONDITIONS:
            print(f"{cond:10} quiet p50 {[int(q['p50_us']) for q in quiet[cond]]} µs, p99 {[int(q['p99_us']) for q in quiet[cond]]} µs, "
                  f"{[int(q['reqs']) for q in quiet[cond]]} requests; server CPU {[round(q['cpu_us'] / SECONDS / 1e4, 1) for q in quiet[cond]]} %")
            for f in flood[cond]:
                if "rps" in f:
                    print(f"  flood {f['rps']:.0f} requests/s, {f['non2xx'] / f['reqs'] * 100:.0f}% refused (429), p50 {f['p50_us']:.0f} µs")
                else:
                    print(f"  flood {f['requests']:.0f} heavy requests, {f['refused']:.0f} refused (429); "
                          f"{f['streamed']:.0f} stream messages on {f['streams']:.0f} streams")
        alone50 = statistics.median(q["p50_us"] for q in quiet["alone"])
        alone99 = statistics.median(q["p99_us"] for q in quiet["alone"])
        # The noise: how far apart the rounds of `alone` itself are.
        lo, hi = min(q["p99_us"] for q in quiet["alone"]), max(q["p99_us"] for q in quiet["alone"])
        for cond in CONDITIONS:
            p50 = statistics.median(q["p50_us"] for q in quiet[cond])
            p99 = statistics.median(q["p99_us"] for q in quiet[cond])
            within = "within" if lo <= p99 <= hi else "outside"
            print(f"SUMMARY {cond:10} quiet p50 {p50:.0f} µs (x{p50 / alone50:.2f}), p99 {p99:.0f} µs (x{p99 / alone99:.2f}), "
                  f"{within} the alone rounds' p99 spread {lo:.0f}-{hi:.0f} µs")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
