#!/usr/bin/env python3
"""Engine workloads for `make bench-engine`: constraint systems with known solutions.

    python3 Benchmarks/engine/workloads.py --out /tmp/layoutd-workloads
    python3 Benchmarks/engine/workloads.py --out DIR --only chain --chain 4000

Standard library only, deterministic (same arguments, same bytes). Each file is one JSON
object in the `layout-bench/1` format that `layoutd-bench` and the kiwi harness read:

  variables    names, four per view (minX, minY, width, height); a variable is its index
  views        [{"name", "vars": [minX, minY, width, height]}]
  constraints  [{"id", "tag", "terms": [[var, coef]...], "constant", "op", "priority"}]
               meaning  sum(coef * var) + constant  op  0,  op in == <= >=;
               priority 1000 is required, 1...999 optional (higher wins, strictly)
  expected     every variable's value after the build (all constraints added in order)
  phases       [{"name", "description", "steps": [[op...]...], "expected_final"}]
               a step is a batch of ops followed by one solve; ops are
               {"op": "set_constant", "constraint", "constant"},
               {"op": "remove", "constraints": [...]}, {"op": "add", "constraints": [...]}

The expected values are worked out by hand from each family's geometry, not by a solver,
and every system has one solution (whether optional priorities are compared strictly or by
weight), so an engine checks itself against them.

Families: `cells` (self-sizing table cells, independent, each as wide as one shared root),
`drag` (the cells, and one avatar's leading constant moved 10,000 times), `churn` (the cells,
and 100 cells' constraints removed and added back), `chain` (views in a row, each after the
previous and as wide: one dependent chain) and `grid` (rows by columns, equal sizes).
"""

import argparse
import json
import os
import random
import sys

REQUIRED = 1000


def compact(v):
    """Integral values as ints: the files stay small and read as written."""
    v = float(v)
    return int(v) if v == int(v) and abs(v) < 2 ** 53 else round(v, 9)


def wave(t, low, high, step):
    """Tick t of a triangle wave from low up to high and back, `step` a tick."""
    period = int(round((high - low) / step))
    k = t % (2 * period)
    return low + min(k, 2 * period - k) * step


class View:
    """A view's four variables, and the anchors constraints are written with."""

    def __init__(self, name, first):
        self.name = name
        self.vars = [first, first + 1, first + 2, first + 3]
        self.x, self.y, self.w, self.h = self.vars

    # An anchor is a list of (variable, coefficient): left = x, right = x + width.
    def left(self): return [(self.x, 1.0)]
    def top(self): return [(self.y, 1.0)]
    def width(self): return [(self.w, 1.0)]
    def height(self): return [(self.h, 1.0)]
    def right(self): return [(self.x, 1.0), (self.w, 1.0)]
    def bottom(self): return [(self.y, 1.0), (self.h, 1.0)]


def minus(anchor):
    return [(v, -c) for v, c in anchor]


class System:
    """Views, constraints in the order they are added, and the expected frames."""

    def __init__(self):
        self.names = []
        self.views = []
        self.constraints = []
        self.frames = {}

    def view(self, name):
        v = View(name, len(self.names))
        self.names += [f"{name}.{a}" for a in ("minX", "minY", "width", "height")]
        self.views.append(v)
        return v

    def constrain(self, tag, lhs, rhs=(), constant=0.0, op="==", priority=REQUIRED):
        """lhs op rhs + constant, stored as lhs - rhs - constant op 0; returns its id."""
        merged = {}
        for var, coef in list(lhs) + minus(rhs):
            merged[var] = merged.get(var, 0.0) + coef
        self.constraints.append({
            "id": len(self.constraints), "tag": tag,
            "terms": [[var, compact(c)] for var, c in merged.items() if c != 0],
            "constant": compact(-constant), "op": op, "priority": priority,
        })
        return len(self.constraints) - 1

    def place(self, view, x, y, w, h):
        self.frames[view.name] = (x, y, w, h)

    def values(self):
        out = [None] * len(self.names)
        for v in self.views:
            for var, value in zip(v.vars, self.frames[v.name]):
                out[var] = compact(value)
        assert None not in out, "a view without an expected frame"
        return out

    def file(self, wid, family, params, description, phases, expected):
        cs = self.constraints
        return {
            "format": "layout-bench/1", "id": wid, "family": family, "params": params,
            "description": description,
            "counts": {"variables": len(self.names), "views": len(self.views), "constraints": len(cs),
                       "required": sum(c["priority"] == REQUIRED for c in cs),
                       "inequalities": sum(c["op"] != "==" for c in cs),
                       "steps": sum(len(p["steps"]) for p in phases)},
            "variables": self.names,
            "views": [{"name": v.name, "vars": v.vars} for v in self.views],
            "constraints": cs, "expected": expected, "phases": phases,
        }


# --- cells ------------------------------------------------------------------------------
# A table cell: container (as wide as the root, as tall as its content), a 40-pt avatar,
# a title that hugs its text (250) and gives way before the date (750 < 751), a date at the
# trailing edge, and a body below the title, as tall as its text.

LEAD = 16.0
ROOT_HEIGHT = 812.0


def cell_contents(n, seed=1):
    rng = random.Random(seed)
    return [{"title": rng.randint(60, 320), "date": rng.randint(40, 80),
             "body": rng.choice([14, 20, 40, 60, 80, 100])} for _ in range(n)]


def cells_system(n, root_width=375.0, dragged=None, dragged_title=200):
    s = System()
    root = s.view("root")
    s.constrain("root.minX", root.left())
    s.constrain("root.minY", root.top())
    root_w = s.constrain("root.width", root.width(), constant=root_width)
    s.constrain("root.height", root.height(), constant=ROOT_HEIGHT)
    contents = cell_contents(n)
    if dragged is not None:
        contents[dragged]["title"] = dragged_title
    cells = []
    for i, text in enumerate(contents):
        c, a, t, d, b = (s.view(f"c{i}.{k}") for k in ("container", "avatar", "title", "date", "body"))
        first = len(s.constraints)
        tag = lambda name: f"c{i}.{name}"
        s.constrain(tag("container.minX"), c.left())
        s.constrain(tag("container.minY"), c.top())
        s.constrain(tag("container.width"), c.width(), root.width())
        s.constrain(tag("container.bottom>=avatar"), c.bottom(), a.bottom(), 12, ">=")
        s.constrain(tag("container.bottom>=body"), c.bottom(), b.bottom(), 12, ">=")
        s.constrain(tag("container.height.hug"), c.height(), constant=44, priority=250)
        lead = s.constrain(tag("avatar.leading"), a.left(), c.left(), LEAD)
        s.constrain(tag("avatar.top"), a.top(), c.top(), 12)
        s.constrain(tag("avatar.width"), a.width(), constant=40)
        s.constrain(tag("avatar.aspect"), a.height(), a.width())
        s.constrain(tag("title.leading"), t.left(), a.right(), 8)
        s.constrain(tag("title.top"), t.top(), a.top())
        s.constrain(tag("title.width.hug"), t.width(), constant=text["title"], op="<=", priority=250)
        s.constrain(tag("title.width.compress"), t.width(), constant=text["title"], op=">=", priority=750)
        s.constrain(tag("title.height"), t.height(), constant=20)
        s.constrain(tag("date.leading>=title"), d.left(), t.right(), 8, ">=")
        s.constrain(tag("date.trailing"), d.right(), c.right(), -16)
        s.constrain(tag("date.width.hug"), d.width(), constant=text["date"], op="<=", priority=251)
        s.constrain(tag("date.width.compress"), d.width(), constant=text["date"], op=">=", priority=751)
        s.constrain(tag("date.top"), d.top(), t.top())
        s.constrain(tag("date.height"), d.height(), constant=16)
        s.constrain(tag("body.leading"), b.left(), t.left())
        s.constrain(tag("body.top"), b.top(), t.bottom(), 4)
        s.constrain(tag("body.trailing"), b.right(), c.right(), -16)
        s.constrain(tag("body.height.compress"), b.height(), constant=text["body"], op=">=", priority=750)
        s.constrain(tag("body.height.hug"), b.height(), constant=text["body"], op="<=", priority=250)
        cells.append({"views": (c, a, t, d, b), "text": text, "ids": list(range(first, len(s.constraints))), "lead": lead})
    s.place(root, 0, 0, root_width, ROOT_HEIGHT)
    for cell in cells:
        place_cell(s, cell, root_width, LEAD)
    return s, root_w, cells


def place_cell(s, cell, width, lead):
    """A cell's frames, worked out by hand: the date keeps its width, the title gives way."""
    c, a, t, d, b = cell["views"]
    text = cell["text"]
    title_x = lead + 40 + 8
    date_w = float(text["date"])
    title_w = min(float(text["title"]), width - 16 - date_w - 8 - title_x)
    body_y = 12 + 20 + 4
    s.place(c, 0, 0, width, max(12 + 40 + 12, body_y + text["body"] + 12))
    s.place(a, lead, 12, 40, 40)
    s.place(t, title_x, 12, title_w, 20)
    s.place(d, width - 16 - date_w, 12, date_w, 16)
    s.place(b, title_x, body_y, width - 16 - title_x, float(text["body"]))


def cells_file(n):
    s, root_w, cells = cells_system(n)
    built = s.values()
    widths = [414, 320, 768, 375, 390]
    for cell in cells:
        place_cell(s, cell, widths[-1], LEAD)
    s.place(s.views[0], 0, 0, widths[-1], ROOT_HEIGHT)
    resize = {"name": "resize",
              "description": "the root's width set to " + ", ".join(map(str, widths)) + ": every cell lays out again",
              "steps": [[{"op": "set_constant", "constraint": root_w, "constant": -w}] for w in widths],
              "expected_final": s.values()}
    return s.file(f"cells_n{n}", "cells", {"n": n, "root_width": 375, "seed": 1},
                  f"{n} independent self-sizing cells of five views and 26 constraints, each as wide as the root",
                  [resize], built)


def drag_file(n, steps):
    dragged = n // 2
    s, _, cells = cells_system(n, dragged=dragged)
    built = s.values()
    cell = cells[dragged]
    ops, lead = [], LEAD
    for t in range(1, steps + 1):
        lead = wave(t, LEAD, LEAD + 100, 0.5)
        ops.append([{"op": "set_constant", "constraint": cell["lead"], "constant": compact(-lead)}])
    place_cell(s, cell, 375.0, lead)
    drag = {"name": "drag",
            "description": f"{steps} set-constants of cell {dragged}'s avatar leading (16 to 116 and back, 0.5 a step); "
                           "its title gives way once the avatar has moved far enough",
            "steps": ops, "expected_final": s.values()}
    return s.file(f"drag_n{n}", "drag", {"n": n, "steps": steps, "drag_cell": dragged, "seed": 1},
                  f"cells_n{n}, the dragged cell's title 200 wide, and a drag", [drag], built)


def churn_file(n, churned):
    s, _, cells = cells_system(n)
    stride = max(1, n // churned)
    chosen = list(range(0, n, stride))[:churned]
    steps = [[{"op": "remove", "constraints": cells[i]["ids"]}, {"op": "add", "constraints": cells[i]["ids"]}] for i in chosen]
    churn = {"name": "churn",
             "description": f"{len(chosen)} cells, one a step: all of the cell's constraints removed and added back "
                            "(nothing moves)",
             "steps": steps, "expected_final": s.values()}
    return s.file(f"churn_n{n}", "churn", {"n": n, "churn_cells": len(chosen), "stride": stride, "seed": 1},
                  f"cells_n{n}, and constraints removed and added back", [churn], s.values())


# --- chain and grid -----------------------------------------------------------------------

GAP = 8.0


def chain_file(n, steps, cell=20.0):
    s = System()
    root = s.view("root")
    width = GAP * (n + 1) + cell * n
    s.constrain("root.minX", root.left())
    s.constrain("root.minY", root.top())
    root_w = s.constrain("root.width", root.width(), constant=width)
    s.constrain("root.height", root.height(), constant=60)
    views = []
    for i in range(n):
        v = s.view(f"v{i}")
        if views:
            s.constrain(f"v{i}.leading", v.left(), views[-1].right(), GAP)
            s.constrain(f"v{i}.width=prev", v.width(), views[-1].width())
        else:
            s.constrain(f"v{i}.leading", v.left(), root.left(), GAP)
        s.constrain(f"v{i}.top", v.top(), root.top(), GAP)
        s.constrain(f"v{i}.height", v.height(), constant=44)
        views.append(v)
    s.constrain("last.trailing", root.right(), views[-1].right(), GAP)

    def place(w):
        s.place(root, 0, 0, w, 60)
        each = (w - GAP * (n + 1)) / n
        for i, v in enumerate(views):
            s.place(v, GAP + i * (each + GAP), GAP, each, 44)

    place(width)
    built = s.values()
    ops, w = [], width
    for t in range(1, steps + 1):
        w = wave(t, width, width + 1000, 10)
        ops.append([{"op": "set_constant", "constraint": root_w, "constant": -w}])
    place(w)
    propagate = {"name": "propagate",
                 "description": f"{steps} set-constants of the root's width (10 a step): every width, and every minX "
                                "but the first, moves",
                 "steps": ops, "expected_final": s.values()}
    return s.file(f"chain_n{n}", "chain", {"n": n, "steps": steps, "gap": 8},
                  f"{n} views in a row, each 8 after the previous and as wide, the row pinned at both ends",
                  [propagate], built)


def grid_file(rows, cols, steps, cell=20.0):
    s = System()
    root = s.view("root")
    width, height = GAP * (cols + 1) + cell * cols, GAP * (rows + 1) + cell * rows
    s.constrain("root.minX", root.left())
    s.constrain("root.minY", root.top())
    root_w = s.constrain("root.width", root.width(), constant=width)
    root_h = s.constrain("root.height", root.height(), constant=height)
    grid = [[s.view(f"r{r}c{c}") for c in range(cols)] for r in range(rows)]
    for r in range(rows):
        for c in range(cols):
            v, tag = grid[r][c], f"r{r}c{c}"
            s.constrain(f"{tag}.leading", v.left(), grid[r][c - 1].right() if c else root.left(), GAP)
            s.constrain(f"{tag}.top", v.top(), grid[r - 1][c].bottom() if r else root.top(), GAP)
            if c == cols - 1:
                s.constrain(f"{tag}.trailing", root.right(), v.right(), GAP)
            if r == rows - 1:
                s.constrain(f"{tag}.bottom", root.bottom(), v.bottom(), GAP)
            if r or c:
                s.constrain(f"{tag}.width=r0c0", v.width(), grid[0][0].width())
                s.constrain(f"{tag}.height=r0c0", v.height(), grid[0][0].height())

    def place(w, h):
        s.place(root, 0, 0, w, h)
        cw, ch = (w - GAP * (cols + 1)) / cols, (h - GAP * (rows + 1)) / rows
        for r in range(rows):
            for c in range(cols):
                s.place(grid[r][c], GAP + c * (cw + GAP), GAP + r * (ch + GAP), cw, ch)

    place(width, height)
    built = s.values()
    ops, w, h = [], width, height
    for t in range(1, steps + 1):
        w, h = wave(t, width, width + 600, 6), wave(t, height, height + 300, 3)
        ops.append([{"op": "set_constant", "constraint": root_w, "constant": -w},
                    {"op": "set_constant", "constraint": root_h, "constant": -h}])
    place(w, h)
    resize = {"name": "resize", "description": f"{steps} steps, each setting the root's width and height: every frame moves",
              "steps": ops, "expected_final": s.values()}
    return s.file(f"grid_{rows}x{cols}", "grid", {"rows": rows, "cols": cols, "steps": steps, "gap": 8},
                  f"{rows} by {cols} views of equal size, 8 apart, pinned on every side", [resize], built)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--cells", type=int, nargs="*", default=[1000, 10000])
    p.add_argument("--chain", type=int, default=1000)
    p.add_argument("--chain-steps", type=int, default=1000)
    p.add_argument("--grid", default="30x30")
    p.add_argument("--grid-steps", type=int, default=200)
    p.add_argument("--drag-cells", type=int, default=1000)
    p.add_argument("--drag-steps", type=int, default=10000)
    p.add_argument("--churn-cells-total", type=int, default=1000)
    p.add_argument("--churn-cells", type=int, default=100)
    families = ["cells", "chain", "grid", "drag", "churn"]
    p.add_argument("--only", nargs="+", choices=families, default=families)
    a = p.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    files = []
    if "cells" in a.only:
        files += [lambda n=n: cells_file(n) for n in a.cells]
    if "chain" in a.only:
        files.append(lambda: chain_file(a.chain, a.chain_steps))
    if "grid" in a.only:
        rows, cols = (int(x) for x in a.grid.lower().split("x"))
        files.append(lambda: grid_file(rows, cols, a.grid_steps))
    if "drag" in a.only:
        files.append(lambda: drag_file(a.drag_cells, a.drag_steps))
    if "churn" in a.only:
        files.append(lambda: churn_file(a.churn_cells_total, a.churn_cells))
    for make in files:
        doc = make()
        path = os.path.join(a.out, doc["id"] + ".json")
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
            f.write("\n")
        c = doc["counts"]
        print(f"{path}: {c['variables']} variables, {c['constraints']} constraints, {c['steps']} steps")


if __name__ == "__main__":
    sys.exit(main())
