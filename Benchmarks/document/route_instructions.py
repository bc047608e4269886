#!/usr/bin/env python3
"""The instructions one `POST /v1/layout` costs the whole server process (every thread: the
transport, the route, the document, the engine, the answer), by callgrind: a layoutd under
`valgrind --tool=callgrind --instr-atstart=no`, one request to warm it, then instrumentation
on for exactly one more. The engine-only build to set it against is `layoutd-document-bench`'s
(BENCHMARKS §4).

Usage: route_instructions.py LAYOUTD_BINARY FEED.json   (needs valgrind; copies the binary and
strips its debug info, which this valgrind cannot read)
"""
import glob
import http.client
import os
import shutil
import subprocess
import sys
import tempfile
import time

from run_document import free_port

ARGS = ["--log-level", "warning", "--store", "memory", "--max-body-bytes", str(256 << 20), "--max-views", "1000000",
        "--max-constraints", "10000000", "--memory-budget-mb", "0"]


def main():
    binary, feed = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="route-cg-")
    server = os.path.join(work, "layoutd")
    shutil.copy(binary, server)
    subprocess.run(["strip", "-g", server], check=True)
    port = free_port()
    out = os.path.join(work, "cg.%p")
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=" + out, server,
                          "--port", str(port)] + ARGS, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env={**os.environ, "LAYOUTD_ENGINE": "factored"})
    body = open(feed, "rb").read()
    try:
        for _ in range(600):
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=900)
                c.request("GET", "/healthz")
                c.getresponse().read()
                break
            except Exception:
                time.sleep(0.2)
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=900)

        def post():
            c.request("POST", "/v1/layout", body=body, headers={"Content-Type": "application/json"})
            r = c.getresponse()
            r.read()
            assert r.status == 200, r.status

        post()
        subprocess.run(["callgrind_control", "-i", "on", str(p.pid)], stdout=subprocess.DEVNULL, check=True)
        post()
        subprocess.run(["callgrind_control", "-i", "off", str(p.pid)], stdout=subprocess.DEVNULL, check=True)
        subprocess.run(["callgrind_control", "-d", str(p.pid)], stdout=subprocess.DEVNULL, check=True)
        time.sleep(1)
    finally:
        p.terminate()
        p.wait()
    dumps = [f for f in glob.glob(os.path.join(work, "cg.*")) if os.path.getsize(f) > 1000]
    totals = subprocess.run(["callgrind_annotate", dumps[0]], capture_output=True, text=True).stdout
    line = next(l for l in totals.splitlines() if "PROGRAM TOTALS" in l)
    print(f'{{"document": "{os.path.basename(feed)}", "route": "/v1/layout", "instructions": {line.split()[0].replace(",", "")}, '
          f'"profile": "{dumps[0]}"}}')


if __name__ == "__main__":
    main()
