#!/usr/bin/env python3
"""Labels at scale, over HTTP against a release layoutd (loopback):

- a 1,000-cell feed, each cell with two wrapping labels (a title and a body, every text its
  own) below an avatar, stacked: created (every label measured on its natural lines, then
  wrapped at the width it gets);
- the feed's width changed (every label wraps again: one set-constant);
- one label's text changed (one label measured again).

For each step: the time of the request and the measurements layoutd made (its metrics
layoutd_text_measurements_total and layoutd_text_measure_seconds_total, before and after).

Run: make bench-text   (or python3 Benchmarks/text/run_text.py [--cells N])
"""
import argparse
import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "release", "layoutd"))
WORDS = ("layout engine constraint view anchor stack label text width height frame session change solver "
         "priority spacing baseline margin cell feed drag stream revision answer").split()


def feed(cells):
    views = [{"id": "root", "frame": {"x": 0, "y": 0, "width": 375, "height": 1000000}}]
    constraints = [{"id": "edge", "expr": "root.trailing == root.leading + 375"}] if False else []
    for i in range(cells):
        c, a, t, b = f"cell{i}", f"avatar{i}", f"title{i}", f"body{i}"
        title = " ".join(WORDS[(i * 7 + k) % len(WORDS)] for k in range(6 + i % 5)) + f" #{i}"
        body = " ".join(WORDS[(i * 11 + k) % len(WORDS)] for k in range(18 + i % 13)) + f" ({i})"
        views += [{"id": c, "parent": "root"}, {"id": a, "parent": c},
                  {"id": t, "parent": c, "text": {"string": title, "font": {"family": "DejaVu Sans", "size": 17, "weight": 700}, "numberOfLines": 0}},
                  {"id": b, "parent": c, "text": {"string": body, "font": {"family": "DejaVu Sans", "size": 14}, "numberOfLines": 0}}]
        constraints += [
            {"expr": f"{c}.top == root.top" if i == 0 else f"{c}.top == cell{i - 1}.bottom"},
            {"expr": f"{c}.leading == root.leading"}, {"id": f"{c}.width", "expr": f"{c}.width == root.width"},
            {"expr": f"{a}.leading == {c}.leading + 12"}, {"expr": f"{a}.top == {c}.top + 12"},
            {"expr": f"{a}.width == 40"}, {"expr": f"{a}.height == 40"},
            {"expr": f"{t}.leading == {a}.trailing + 10"}, {"expr": f"{t}.trailing == {c}.trailing - 12"},
            {"expr": f"{t}.top == {c}.top + 12"},
            {"expr": f"{b}.leading == {t}.leading"}, {"expr": f"{b}.trailing == {t}.trailing"},
            {"expr": f"{b}.top == {t}.bottom + 6"},
            {"expr": f"{c}.bottom >= {b}.bottom + 12"}, {"expr": f"{c}.bottom >= {a}.bottom + 12"},
            {"expr": f"{c}.bottom == {b}.bottom + 12 @250"},
        ]
    return {"views": views, "constraints": constraints}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cells", type=int, default=1000)
    args = ap.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tempfile.NamedTemporaryFile(prefix="layoutd-", suffix=".log", delete=False)
    server = subprocess.Popen([BIN, "--port", str(port), "--store", "memory", "--log-level", "warning", "--max-body-bytes", "33554432",
                               "--engine", os.environ.get("LAYOUTD_ENGINE", "factored")],
                              stderr=log, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            break
        except OSError:
            time.sleep(0.05)

    def call(method, path, body=None):
        req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        t0 = time.perf_counter()
        with urllib.request.urlopen(req, timeout=600) as r:
            out = json.loads(r.read())
        return out, (time.perf_counter() - t0) * 1000

    def measured():
        text = urllib.request.urlopen(base + "/metrics").read().decode()
        get = lambda name: next(float(l.split()[1]) for l in text.splitlines() if l.startswith(name + " "))
        return get("layoutd_text_measurements_total"), get("layoutd_text_measure_seconds_total")

    try:
        doc = feed(args.cells)
        steps = []
        m0 = measured()
        created, ms = call("POST", "/v1/sessions", doc)
        sid = created["session"]
        m1 = measured()
        steps.append(("create", ms, m1[0] - m0[0], m1[1] - m0[1], len(created["frames"])))
        changed, ms = call("POST", f"/v1/sessions/{sid}/changes",
                           {"ops": [{"op": "updateView", "id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 1000000}}]})
        m2 = measured()
        steps.append(("width 375 -> 320", ms, m2[0] - m1[0], m2[1] - m1[1], len(changed["frames"])))
        one = dict(doc["views"][3 + 4 * (args.cells // 2)])   # a body in the middle
        one["text"] = dict(one["text"], string="A new text, set on one label in the middle of the feed, wraps on its own")
        fields = {k: v for k, v in one.items() if k not in ("id", "parent")}
        changed, ms = call("POST", f"/v1/sessions/{sid}/changes", {"ops": [{"op": "updateView", "id": one["id"], **fields}]})
        m3 = measured()
        steps.append((f"text of {one['id']}", ms, m3[0] - m2[0], m3[1] - m2[1], len(changed["frames"])))
        print(f"text: {args.cells} cells, {2 * args.cells} wrapping labels (release layoutd over loopback HTTP)")
        print(f"{'step':<22}{'request ms':>12}{'measurements':>14}{'measuring ms':>14}{'frames back':>13}")
        for name, ms, n, secs, frames in steps:
            print(f"{name:<22}{ms:>12.1f}{int(n):>14}{secs * 1000:>14.1f}{frames:>13}")
        assert steps[2][2] <= 2, "one label's text change measures that label only (natural lines and wrapped)"
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
