"""k sizes in one request beside k separate one-shot layouts, same run.

`POST /v1/layout` with `sizes` builds the document once and lays it out at each size by
set-constants on the root; k one-shot layouts (the root's frame edited in each) build it k
times. For each document (the 1,000-cell feed of gen_feed.py, and the growth families'
chained cells and wrapping labels) and k in 1, 10, 50: ROUNDS rounds, each timing the one
request and the k requests back to back (order alternating), against a release server on
loopback; answers are read whole, never parsed. Printed: the medians and their ratio, and
the server's CPU a request (from /proc), which leaves out the client's.

  python3 Benchmarks/document/sizes.py        # LAYOUTD_BIN (default .build/release/layoutd), ROUNDS=5
"""
import http.client
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from layoutd_process import cpu_seconds, free_port, wait_healthy  # noqa: E402

BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "release", "layoutd"))
ROUNDS = int(os.environ.get("ROUNDS", "5"))
KS = [int(k) for k in os.environ.get("KS", "1,10,50").split(",")]


def documents():
    feed = json.loads(subprocess.run([sys.executable, os.path.join(HERE, "gen_feed.py"), "--cells", "1000"],
                                     capture_output=True, check=True).stdout)
    families = os.path.join(ROOT, "Benchmarks", "growth", "families.py")
    out = {"feed (gen_feed, 1,000 cells)": feed}
    for family in ("selfsizing50", "labels-chained"):
        out[f"{family} (1,000 cells)"] = json.loads(subprocess.run([sys.executable, families, family, "1000"],
                                                                    capture_output=True, check=True).stdout)
    return out


def widths(k):
    return [320 + (i * 97) % 700 for i in range(k)]



def main():
    port = free_port()
    server = subprocess.Popen([BIN, "--port", str(port), "--store", "memory", "--log-level", "warning", "--max-body-bytes", "50000000",
                               "--max-sizes", "64"], stderr=subprocess.DEVNULL)
    conn = None
    try:
        wait_healthy(port, server)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

        def post(body):
            conn.request("POST", "/v1/layout", body=body, headers={"Content-Type": "application/json", "Accept-Encoding": "identity"})
            r = conn.getresponse()
            data = r.read()
            assert r.status == 200, data[:300]
            return len(data)

        print(f"# {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, {ROUNDS} rounds, nproc={os.cpu_count()}")
        print("| document | k | one request with k sizes | k one-shot layouts | ratio | server CPU, one / k |")
        print("|---|---|---|---|---|---|")
        for name, doc in documents().items():
            height = min(1e6, doc["views"][0]["frame"]["height"])
            post(json.dumps(doc).encode())  # warm-up
            for k in KS:
                sized = json.dumps(dict(doc, sizes=[{"width": w, "height": height} for w in widths(k)])).encode()
                singles = []
                for w in widths(k):
                    d = json.loads(json.dumps(doc))
                    d["views"][0]["frame"]["width"] = w
                    singles.append(json.dumps(d).encode())
                one, many, cpu_one, cpu_many = [], [], [], []
                for r in range(ROUNDS):
                    for side in ((0, 1) if r % 2 == 0 else (1, 0)):
                        c0, t0 = cpu_seconds(server.pid), time.perf_counter()
                        if side == 0:
                            post(sized)
                        else:
                            for body in singles:
                                post(body)
                        t, c = time.perf_counter() - t0, cpu_seconds(server.pid) - c0
                        (one if side == 0 else many).append(t)
                        (cpu_one if side == 0 else cpu_many).append(c)
                a, b = statistics.median(one), statistics.median(many)
                ca, cb = statistics.median(cpu_one), statistics.median(cpu_many)
                print(f"| {name} | {k} | {a * 1e3:,.0f} ms | {b * 1e3:,.0f} ms | **{b / a:.2f}x** | {ca * 1e3:,.0f} / {cb * 1e3:,.0f} ms |",
                      flush=True)
    finally:
        if conn:
            conn.close()
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
