"""make bench-cluster: set-constant throughput through the session-affine proxy with 1, 2 and 3
replicas, beside one replica reached directly, in one run.

PostgreSQL (Debian's, in a temporary folder), three release layoutd replicas on it and
nginx on Deploy/proxy/nginx.conf (its ring cut to 1, 2 or 3 of them, its listener plain
HTTP: TLS's own cost is `make load`'s row "tls"), loopback only. Each
configuration gets 64 fresh sessions of one 5-view cell (through the proxy: it picks their
ids, so they spread over its ring) and wrk (Benchmarks/http/constants.lua, -t1 -c64) runs on
it; configurations take turns, round by round, so the machine's drift falls on all alike.
Besides throughput, the CPU each process spent per request (from /proc): on this 2-core
machine every replica, nginx and wrk share two cores, so the figures show what the proxy
costs, not how replicas scale; the per-request CPU gives the estimate for replicas on
machines of their own.

  python3 Benchmarks/cluster/run_cluster.py            # 3 rounds x 8 s
  ROUNDS=5 DURATION=10 DURABILITY=strict python3 Benchmarks/cluster/run_cluster.py
"""
import os
import statistics
import subprocess
import sys
import tempfile
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
os.environ.setdefault("LAYOUTD_BIN", os.path.join(ROOT, ".build", "release", "layoutd"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "cluster"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from layoutd_process import cpu_seconds  # noqa: E402
from test_cluster import Postgres, Proxy, Replica, request  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))
DURATION = int(os.environ.get("DURATION", "8"))
DURABILITY = os.environ.get("DURABILITY", "relaxed")
CELL = os.path.join(ROOT, "Benchmarks", "http", "cell.json")
SCRIPT = os.path.join(ROOT, "Benchmarks", "http", "constants.lua")



def nginx_pids(proxy):
    out = subprocess.run(["pgrep", "-P", str(proxy.proc.pid)], capture_output=True, text=True).stdout.split()
    return [proxy.proc.pid] + [int(p) for p in out]


def sessions(port, n=64):
    import json
    with open(CELL) as f:
        cell = json.load(f)
    ids = []
    for _ in range(n):
        status, _, body = request(port, "POST", "/v1/sessions", cell)
        assert status == 201, body
        ids.append(body["session"])
    return ids


def wrk(port, ids, pids):
    env = dict(os.environ, LAYOUTD_SESSIONS=",".join(ids))
    before = {p: cpu_seconds(p) for p in pids}
    out = subprocess.run(["wrk", "-t1", "-c64", f"-d{DURATION}s", "--timeout", "5s", "-s", SCRIPT, f"http://127.0.0.1:{port}"],
                         env=env, capture_output=True, text=True, timeout=DURATION + 30).stdout
    line = next(l for l in out.splitlines() if l.startswith("RESULT"))
    fields = dict(kv.split("=") for kv in line.split()[1:])
    reqs = int(fields["reqs"])
    cpu = {p: (cpu_seconds(p) - before[p]) * 1e6 / max(1, reqs) for p in pids}
    return float(fields["rps"]), int(fields["p50_us"]), int(fields["p99_us"]), int(fields["non2xx"]) + int(fields["sockerr"]), cpu


def main():
    tmp = tempfile.mkdtemp(prefix="layoutd-bench-cluster-")
    pg = Postgres()
    pg.start()
    replicas, proxies = [], []
    try:
        for k in range(3):
            r = Replica(f"r{k}", pg.url, tmp, durability=DURABILITY)
            r.args += ["--max-sessions", "10000", "--log-level", "warning"]
            replicas.append(r.start())
        configs = {"direct": (replicas[0].port, None, replicas[:1])}
        for n in (1, 2, 3):
            os.makedirs(os.path.join(tmp, f"p{n}"))
            p = Proxy(replicas[:n], os.path.join(tmp, f"p{n}"), tls=False)   # the routing's cost; TLS's is make load's
            proxies.append(p)
            configs[f"proxy-{n}"] = (p.port, p, replicas[:n])
        ids = {name: sessions(port) for name, (port, _, _) in configs.items()}
        for name, (port, _, _) in configs.items():   # warm-up
            subprocess.run(["wrk", "-t1", "-c64", "-d2s", "-s", SCRIPT, f"http://127.0.0.1:{port}"],
                           env=dict(os.environ, LAYOUTD_SESSIONS=",".join(ids[name])), capture_output=True, timeout=30)
        results = {name: [] for name in configs}
        print(f"# bench-cluster: {DURABILITY}, wrk -t1 -c64 {DURATION}s x {ROUNDS} rounds, 64 sessions of a 5-view cell "
              f"per configuration, nproc={os.cpu_count()}")
        for r in range(ROUNDS):
            order = list(configs) if r % 2 == 0 else list(reversed(configs))
            for name in order:
                port, proxy, used = configs[name]
                pids = [x.proc.pid for x in used] + (nginx_pids(proxy) if proxy else [])
                rps, p50, p99, errors, cpu = wrk(port, ids[name], pids)
                layoutd_cpu = sum(cpu[x.proc.pid] for x in used)
                nginx_cpu = sum(v for p, v in cpu.items() if p not in {x.proc.pid for x in used})
                results[name].append((rps, p50, p99, errors, layoutd_cpu, nginx_cpu))
                print(f"ROUND {r + 1} {name:8} rps={rps:.0f} p50_us={p50} p99_us={p99} errors={errors} "
                      f"layoutd_cpu_us_per_req={layoutd_cpu:.2f} nginx_cpu_us_per_req={nginx_cpu:.2f}", flush=True)
        print()
        direct = statistics.median(x[0] for x in results["direct"])
        for name, rows in results.items():
            med = [statistics.median(x[i] for x in rows) for i in range(6)]
            print(f"{name:8} rps={med[0]:.0f} ratio_to_direct={med[0] / direct:.3f} p50_us={med[1]:.0f} p99_us={med[2]:.0f} "
                  f"errors={sum(x[3] for x in rows)} layoutd_cpu_us_per_req={med[4]:.2f} nginx_cpu_us_per_req={med[5]:.2f}")
        alone = statistics.median(x[4] for x in results["direct"])
        shared = statistics.median(x[4] for x in results["proxy-3"])
        proxy_cost = statistics.median(x[5] for x in results["proxy-3"])
        print(f"\nestimate: a replica on a core of its own serves ~{1e6 / alone:.0f} set-constants/s ({alone:.2f} us of "
              f"layoutd CPU each, reached directly; {shared:.2f} us with three replicas sharing these two cores), so N "
              f"replicas on N cores ~N times that; the proxy spends {proxy_cost:.2f} us a request: one nginx core per "
              f"~{1e6 / max(proxy_cost, 0.01):.0f} requests/s")
    finally:
        for p in proxies:
            p.stop()
        for r in replicas:
            r.stop()
        pg.remove()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
