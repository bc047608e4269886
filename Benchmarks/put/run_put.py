#!/usr/bin/env python3
"""A document re-sent whole (`PUT /v1/sessions/{id}/document`) beside the equivalent `changes`
request and beside a fresh build of the same document, same run.

The document is the stacked 1,000-cell feed of Benchmarks/document/gen_feed.py. Three edits:

- one constant: one unnamed constraint's constant (`body500.top == title500.bottom + 6`
  becomes `+ 16`); `changes`: one setConstant under its server-given id;
- one cell inserted in the middle: a copy of cell 500 under new ids between cells 499 and
  500, the chain re-linked (`cell500.top` now hangs below the new cell); `changes`: addViews
  (5), removeConstraints (`cell500.top`), addConstraints (the new cell's 12 and `cell500.top`
  again);
- every constant: every `expr` constraint's constant plus 2 (11 a cell; the VFL rows, whose
  changed text would replace them, stay); `changes`: one setConstant each.

Each round makes two sessions of the feed outside the timed part, then times, in an order
that turns from round to round: (a) PUT of the edited document to one, (b) the `changes`
request to the other, (c) `POST /v1/sessions` of the edited document (deleted afterwards,
untimed). Round 0 warms up and is not counted; the order goes through all six. Checked
every round, untimed: PUT's `applied` counts are exactly the edit's, and the three sessions'
frames are equal (within 1e-6 point). Printed: medians of ROUNDS rounds, the ratios PUT /
changes and PUT / fresh, and the server's CPU a request (from /proc; the client's left out).
Release server on loopback, one keep-alive connection; answers read whole.

  python3 Benchmarks/put/run_put.py      # LAYOUTD_BIN (default .build/release/layoutd), ROUNDS=6, CELLS=1000
"""
import copy
import http.client
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
sys.path.insert(0, os.path.join(ROOT, "Benchmarks", "document"))
from gen_feed import feed  # noqa: E402
from layoutd_process import cpu_seconds, free_port, wait_healthy  # noqa: E402

BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "release", "layoutd"))
ROUNDS = int(os.environ.get("ROUNDS", "6"))
CELLS = int(os.environ.get("CELLS", "1000"))
OPS = ("addViews", "removeViews", "updateView", "addConstraints", "removeConstraints", "setConstant", "setPriority", "activate",
       "deactivate", "setOptions")
EXPR = re.compile(r"^(\S+) (==|>=|<=) (\S+)(?: ([+-]) (\d+))?( @\d+)?$")


def applied(**counts):
    return {op: counts.get(op, 0) for op in OPS}


def with_constant(expr, delta):
    """`expr` with its constant moved by delta, written as the server writes it (integers),
    and the new constant."""
    m = EXPR.match(expr)
    assert m, expr
    first, relation, second, sign, number, priority = m.groups()
    constant = (int(number) * (-1 if sign == "-" else 1) if number else 0) + delta
    term = "" if constant == 0 else f" {'-' if constant < 0 else '+'} {abs(constant)}"
    return f"{first} {relation} {second}{term}{priority or ''}", constant


def edits(doc, ids):
    """(name, edited document, `changes` ops, expected `applied`) for each edit. `ids`: the
    server-given id of each of the document's constraints, in order."""
    mid = CELLS // 2
    out = []

    # One constant.
    k = doc["constraints"].index({"expr": f"body{mid}.top == title{mid}.bottom + 6"})
    one = copy.deepcopy(doc)
    one["constraints"][k]["expr"], constant = with_constant(one["constraints"][k]["expr"], 10)
    out.append(("one constant", one, [{"op": "setConstant", "id": ids[k], "constant": constant}], applied(setConstant=1)))

    # One cell inserted in the middle: cell `mid` copied under new ids, the chain re-linked.
    rename = re.compile(rf"\b(cell|avatar|title|date|body){mid}\b")
    new_ids = lambda text: rename.sub(r"\1new", text)  # noqa: E731
    views = [v for v in doc["views"] if re.fullmatch(rf"(cell|avatar|title|date|body){mid}", v["id"])]
    cell = [c for c in doc["constraints"] if rename.search(c.get("expr", "") + c.get("visual", "") + c.get("id", ""))
            and not c.get("expr", "").startswith(f"cell{mid + 1}.")]
    new_views = json.loads(new_ids(json.dumps(views)))
    new_cell = json.loads(new_ids(json.dumps(cell)))
    assert len(new_views) == 5 and len(new_cell) == 12, (len(new_views), len(new_cell))
    relinked = {"id": f"cell{mid}.top", "expr": f"cell{mid}.top == cellnew.bottom"}
    ins = copy.deepcopy(doc)
    at = next(i for i, v in enumerate(ins["views"]) if v["id"] == f"cell{mid}")
    ins["views"][at:at] = new_views
    at = next(i for i, c in enumerate(ins["constraints"]) if c.get("id") == f"cell{mid}.top")
    ins["constraints"][at:at + 1] = new_cell + [relinked]
    out.append(("one cell inserted", ins,
                [{"op": "removeConstraints", "ids": [f"cell{mid}.top"]}, {"op": "addViews", "views": new_views},
                 {"op": "addConstraints", "constraints": new_cell + [relinked]}],
                applied(addViews=5, removeConstraints=1, addConstraints=13)))

    # Every constant.
    every = copy.deepcopy(doc)
    ops = []
    for k, c in enumerate(every["constraints"]):
        if "expr" in c:
            c["expr"], constant = with_constant(c["expr"], 2)
            ops.append({"op": "setConstant", "id": ids[k], "constant": constant})
    out.append(("every constant", every, ops, applied(setConstant=len(ops))))
    return out


def same_frames(a, b):
    """Frames equal within 1e-6 point (an incremental solve may round otherwise than a build)."""
    def same(x, y):
        numbers = type(x) in (int, float) and type(y) in (int, float)
        return abs(x - y) <= 1e-6 if numbers else x == y
    return a.keys() == b.keys() and all(a[v].keys() == b[v].keys() and all(same(a[v][k], b[v][k]) for k in a[v]) for v in a)



def main():
    port = free_port()
    server = subprocess.Popen([BIN, "--port", str(port), "--store", "memory", "--log-level", "warning", "--max-body-bytes", "200000000",
                               "--max-views", "1000000", "--max-constraints", "10000000"],
                              stderr=subprocess.DEVNULL)
    conn = None
    try:
        wait_healthy(port, server)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)

        def call(method, path, body=None, status=200):
            conn.request(method, path, body=body, headers={"Content-Type": "application/json", "Accept-Encoding": "identity"})
            r = conn.getresponse()
            data = r.read()
            assert r.status == status, (method, path, r.status, data[:300])
            return data

        doc = feed(CELLS, "stacked")
        original = json.dumps(doc).encode()

        def session():
            return json.loads(call("POST", "/v1/sessions", original, 201))["session"]

        def frames(sid):
            out = json.loads(call("GET", f"/v1/sessions/{sid}/frames"))["frames"]
            assert len(out) >= 5 * CELLS, len(out)
            return out

        sid = session()
        listed = json.loads(call("GET", f"/v1/sessions/{sid}"))["document"]["constraints"]
        assert [{k: v for k, v in c.items() if k != "id"} for c in listed] == [{k: v for k, v in c.items() if k != "id"}
                                                                                for c in doc["constraints"]]
        ids = [c["id"] for c in listed]
        call("DELETE", f"/v1/sessions/{sid}", status=204)

        print(f"# {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}, stacked feed of {CELLS:,} cells, {ROUNDS} rounds, "
              f"nproc={os.cpu_count()}")
        print("| edit | PUT whole document | equivalent `changes` | fresh build | PUT / changes | PUT / fresh | server CPU, PUT / changes / fresh |")
        print("|---|---|---|---|---|---|---|")
        orders = list(itertools.permutations(range(3)))
        for name, edited, ops, expected in edits(doc, ids):
            put_body, changes_body = json.dumps(edited).encode(), json.dumps({"ops": ops}).encode()
            times, cpus = [[], [], []], [[], [], []]
            for r in range(ROUNDS + 1):  # round 0 warms up, not counted
                put_sid, changes_sid = session(), session()
                answers = [None, None, None]
                for side in orders[r % len(orders)]:
                    c0, t0 = cpu_seconds(server.pid), time.perf_counter()
                    if side == 0:
                        answers[0] = call("PUT", f"/v1/sessions/{put_sid}/document", put_body)
                    elif side == 1:
                        answers[1] = call("POST", f"/v1/sessions/{changes_sid}/changes", changes_body)
                    else:
                        answers[2] = call("POST", "/v1/sessions", put_body, 201)
                    t, c = time.perf_counter() - t0, cpu_seconds(server.pid) - c0
                    if r > 0:
                        times[side].append(t)
                        cpus[side].append(c)
                got = json.loads(answers[0])["applied"]
                assert got == expected, (name, got, expected)
                fresh = json.loads(answers[2])
                want = fresh["frames"]
                assert same_frames(frames(put_sid), want), (name, "PUT's frames differ from a fresh build's")
                assert same_frames(frames(changes_sid), want), (name, "changes' frames differ from a fresh build's")
                for s in (put_sid, changes_sid, fresh["session"]):
                    call("DELETE", f"/v1/sessions/{s}", status=204)
            put, changes, fresh = (statistics.median(x) for x in times)
            cp, cc, cf = (statistics.median(x) for x in cpus)
            print(f"| {name} | {put * 1e3:,.1f} ms | {changes * 1e3:,.1f} ms | {fresh * 1e3:,.1f} ms | {put / changes:.2f}x | "
                  f"{put / fresh:.2f}x | {cp * 1e3:,.0f} / {cc * 1e3:,.0f} / {cf * 1e3:,.0f} ms |", flush=True)
    finally:
        if conn:
            conn.close()
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
