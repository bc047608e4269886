#!/usr/bin/env python3
"""A growth fuzzer: screens composed at random from the constraint forms real documents use,
each laid out at N, 2N and 4N units, any whose cost grows past --limit (2.3x) a doubling
reported with the smallest document that shows it. Found by a search, not a list.

A screen is a *recipe* (fixed per screen) repeated N times: a unit is a cell under the root
holding the recipe's items, placed and sized by the recipe's forms:

  place     how cells sit: chained (`top == previous.bottom + k`, required or @750) or arranged
            in a vertical stack of any distribution and alignment; absent: pinned to the root
  cell      the cell a stack (either axis, any distribution and alignment); absent: a view
  size      the cell's height: `bottom == last.bottom + 12 @P` over `bottom >= item.bottom + 12`
            (P 999, 750, 250), compressed (`height == 0 @P`, P 50, 250, 1), or fixed; absent: ambiguous
  box, label, nest   items: a view of intrinsic size, a wrapping label (DejaVu Sans 15,
            numberOfLines 0), nested stacks 1-3 deep of boxes and labels; in a plain cell each
            beside or below the previous one, `trailing <= cell.trailing - 12`
  eqw       an item's width (or height) equal across units as a star (`== first.width`) or a
            chain (`== previous.width`), required or optional
  aspect    `width == height * m`;  optional  `width == v @750/@250/@1`
  ladder    inequalities and an equality on one attribute at a ladder of priorities (with
            `spread`, each unit's shifted down by i % spread: distinct levels a unit)
  hidden    an item hidden in every k-th unit;  loose  a view with no vertical position (ambiguity)
  conflict  two required constraints at odds: within an item, against the previous unit's, or
            one view's `width == 40` against `width >= 41 + i` of every unit

Each screen is timed by `layoutd-document-bench --reps 1` (LAYOUTD_ENGINE=factored; the one-shot
layout, best of 3 runs, the three sizes in one process) with N chosen so the first size holds
--views views (500-1,000 by default) and the third fits the server's limits (1 MiB body,
20,000 views, 100,000 constraints, depth 512: a document past them, or one the bench refuses,
is skipped and counted). A screen past --limit by time is timed 3 more times, then confirmed by
the one-shot layout's instructions (callgrind, run_growth.instructions) at N, 2N, 4N, and
past the limit again from 4N to 8N (else it is a step: a path a size switches to once, or a
small size's costs, recorded as such, not a finding). A confirmed one is shrunk: its forms dropped one at a time while it still grows past the limit,
then the smallest N that shows it (halved, then bisected), each step by time (best of 6);
the result is counted by instructions (if it is linear so, the screen as found is reported). A screen holding every form kind of a finding is counted under it
(confirmed by instructions --confirm-like times, then by time alone), not shrunk again.

--ib DIR: instead of recipes, every root of every .storyboard/.xib under DIR, imported by a
layoutd server of its own (`POST /v1/ib/layout` answers each root's document; the IB bench
prints none), repeated N times one below the other (ids suffixed `_k`), judged the same way.

  python3 Benchmarks/growth/fuzz_growth.py --minutes 30 --seed 1 --json /tmp/fuzz.json
  python3 Benchmarks/growth/fuzz_growth.py --ib .build-ibcorpus --minutes 10 --json /tmp/ib.json
  R='[{"form":"place","how":"stack","distribution":"fillProportionally","alignment":"fill","spacing":4},
      {"form":"box","w":40,"h":24,"placement":"below"}]'
  python3 Benchmarks/growth/fuzz_growth.py --recipe "$R" --n 200      # one recipe by instructions, shrunk if it grows
  python3 Benchmarks/growth/fuzz_growth.py --document "$R" --n 200 > /tmp/doc.json

The bench is copied at the start (a rebuild mid-run changes nothing); documents go to a
directory under /tmp (--out), the smallest documents of each finding kept there.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import families  # noqa: E402
import run_growth  # noqa: E402

FONT = {"family": "DejaVu Sans", "size": 15}
DISTRIBUTIONS = ["fill", "fillEqually", "fillProportionally", "equalSpacing", "equalCentering"]
ALIGNMENTS = {"horizontal": ["fill", "top", "center", "bottom", "firstBaseline", "lastBaseline", "leading", "trailing"],
              "vertical": ["fill", "leading", "center", "trailing", "top", "bottom"]}
LIMITS = {"body": 1 << 20, "views": 20000, "constraints": 100000, "depth": 512}
ITEMS = ("box", "label", "nest")
PITCH = 400  # pinned cells: one every PITCH points
# Fields that only vary a form's numbers: left out of its kind (what findings are matched by).
DETAIL = {"gap", "spacing", "w", "h", "words", "spread", "item", "value", "m", "every", "height", "levels", "placement", "leaves", "margins"}


# ---------------------------------------------------------------- recipes

def stack_params(rng, axis):
    p = {"distribution": rng.choice(DISTRIBUTIONS), "alignment": rng.choice(ALIGNMENTS[axis]), "spacing": rng.choice([0, 4, 8, 12])}
    if rng.random() < 0.15:
        p["margins"] = True
    return p


def random_recipe(rng):
    forms = []
    if rng.random() < 0.8:
        if rng.random() < 0.6:
            forms.append({"form": "place", "how": "chain", "gap": rng.choice([0, 1, 8]), "priority": rng.choice([1000, 1000, 750])})
        else:
            forms.append({"form": "place", "how": "stack", **stack_params(rng, "vertical")})
    if rng.random() < 0.4:
        axis = rng.choice(["horizontal", "vertical"])
        forms.append({"form": "cell", "axis": axis, **stack_params(rng, axis)})
    if rng.random() < 0.75:
        how = rng.choice(["pin", "compress", "fixed"])
        forms.append({"form": "size", "how": how, "priority": {"pin": rng.choice([999, 750, 250]), "compress": rng.choice([50, 250, 1]),
                                                              "fixed": 1000}[how], "height": rng.choice([60, 80, 120])})
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["box", "box", "label", "nest"])
        item = {"form": kind, "placement": rng.choice(["beside", "below"])}
        if kind == "box":
            item.update(w=rng.choice([24, 40, 90]), h=rng.choice([16, 24, 40]))
        elif kind == "label":
            item.update(words=rng.randint(2, 12), spread=rng.randint(0, 20))
        else:
            axis = rng.choice(["horizontal", "vertical"])
            item.update(axis=axis, depth=rng.randint(1, 3), leaves=[rng.choice(["box", "label"]) for _ in range(rng.randint(2, 3))],
                        **stack_params(rng, axis))
        forms.append(item)
    for _ in range(rng.randint(0, 4)):
        kind = rng.choice(["eqw", "eqw", "aspect", "optional", "ladder", "hidden", "conflict", "loose"])
        f = {"form": kind, "item": rng.randint(0, 3)}
        if kind == "eqw":
            f.update(shape=rng.choice(["star", "chain"]), attr=rng.choice(["width", "width", "height"]), priority=rng.choice([1000, 1000, 750, 250]))
        elif kind == "aspect":
            f.update(m=rng.choice([1, 0.75, 1.5, 1.78]), priority=rng.choice([1000, 750]))
        elif kind == "optional":
            f.update(attr=rng.choice(["width", "height"]), value=rng.choice([20, 44, 120]), priority=rng.choice([750, 250, 1]))
        elif kind == "ladder":
            prios = sorted(rng.sample([999, 900, 751, 750, 500, 251, 250, 249, 50, 1], rng.randint(2, 4)), reverse=True)
            rels = [">=", "<=", "==", ">="]
            f.update(attr=rng.choice(["width", "height"]), spread=rng.choice([1, 1, 3, 50, 1000]),
                     levels=[[rels[k], rng.choice([30, 60, 120, 200]), p] for k, p in enumerate(prios)])
        elif kind == "hidden":
            f.update(every=rng.choice([1, 2, 3, 5]))
        elif kind == "conflict":
            f.update(how=rng.choice(["local", "previous", "at-odds"]), every=rng.choice([1, 1, 4]))
        else:
            f.update(every=rng.choice([1, 3]))
        forms.append(f)
    return forms


def kind(f):
    """A form without its numbers; a ladder's levels apart a unit (spread past 3) kept."""
    k = {key: v for key, v in f.items() if key not in DETAIL}
    if f["form"] == "ladder":
        k["levels_grow"] = f["spread"] > 3
    return json.dumps(k, sort_keys=True)


def describe(recipe):
    return "; ".join(f["form"] + "(" + ",".join(f"{k}={v}" for k, v in f.items() if k != "form") + ")" for f in recipe) or "(bare cells)"


# ---------------------------------------------------------------- documents

def words(i, j, n, spread):
    return " ".join(families.WORDS[(i * 3 + j + k) % len(families.WORDS)] for k in range(n + (i * 7 + j) % (spread + 1)))


def stack(p, axis, arranged):
    s = {"axis": axis, "distribution": p["distribution"], "alignment": p["alignment"], "spacing": p["spacing"], "arrangedSubviews": arranged}
    if p.get("margins"):
        s["layoutMarginsRelativeArrangement"] = True
    return s


def leaf(kind_, vid, parent, i, j):
    if kind_ == "label":
        return {"id": vid, "parent": parent, "text": {"string": words(i, j, 3, 14), "font": FONT, "numberOfLines": 0}}
    return {"id": vid, "parent": parent, "intrinsicSize": {"width": 30 + (i * 13 + j * 29) % 90, "height": 16 + (i * 7 + j) % 24}}


def item_views(it, vid, parent, i, j):
    if it["form"] == "box":
        return [{"id": vid, "parent": parent, "intrinsicSize": {"width": it["w"] + (i * 13 + j * 29) % 60, "height": it["h"] + (i * 7 + j * 11) % 20}}]
    if it["form"] == "label":
        return [{"id": vid, "parent": parent, "text": {"string": words(i, j, it["words"], it["spread"]), "font": FONT, "numberOfLines": 0}}]
    out, axis = [], it["axis"]
    for depth in range(it["depth"]):
        kids = [f"{vid}_{k}" for k in range(len(it["leaves"]))]
        p = dict(it)
        if p["alignment"] not in ALIGNMENTS[axis]:
            p["alignment"] = "fill"
        out.append({"id": vid, "parent": parent, "kind": "stack", "stack": stack(p, axis, kids)})
        out += [leaf(k, kid, vid, i, j + depth * 5 + n) for n, (k, kid) in enumerate(zip(it["leaves"], kids)) if n < len(kids) - 1 or depth == it["depth"] - 1]
        parent, vid, axis = vid, kids[-1], "vertical" if axis == "horizontal" else "horizontal"
    return out


def document(recipe, n):
    """The screen of `recipe` at n units."""
    first = lambda name: next((f for f in recipe if f["form"] == name), None)  # noqa: E731
    place, cell, size = first("place"), first("cell"), first("size")
    items = [f for f in recipe if f["form"] in ITEMS]
    mods = [f for f in recipe if f["form"] not in ITEMS + ("place", "cell", "size")]
    views, cons = [dict(families.ROOT)], []

    def c(expr, priority=1000):
        cons.append({"expr": expr if priority >= 1000 else f"{expr} @{priority}"})
    parent = "root"
    if place and place["how"] == "stack":
        views.append({"id": "feed", "parent": "root", "kind": "stack", "stack": stack(place, "vertical", [f"c{i}" for i in range(n)])})
        c("feed.top == root.top"), c("feed.leading == root.leading"), c("feed.trailing == root.trailing")
        parent = "feed"
    target = (lambda i, j: f"v{i}_{j % len(items)}") if items else (lambda i, j: f"c{i}")
    hidden = {(i, f["item"] % max(1, len(items))) for f in mods if f["form"] == "hidden" for i in range(0, n, f["every"])}
    if any(f["form"] == "conflict" and f["how"] == "at-odds" for f in mods):
        views.append({"id": "odd", "parent": "root"})
        c("odd.left == root.left"), c("odd.top == root.top"), c("odd.height == 10"), c("odd.width == 40")
    for i in range(n):
        ci = f"c{i}"
        tops = [f"v{i}_{j}" for j in range(len(items))]
        v = {"id": ci, "parent": parent}
        if cell:
            v.update(kind="stack", stack=stack(cell, cell["axis"], tops))
        if not items and (i, 0) in hidden:
            v["hidden"] = True
        views.append(v)
        if parent == "root":
            if place and place["how"] == "chain":
                c(f"{ci}.top == root.top" if i == 0 else f"{ci}.top == c{i - 1}.bottom + {place['gap']}", place["priority"])
            else:
                c(f"{ci}.top == root.top + {i * PITCH}")
            c(f"{ci}.leading == root.leading"), c(f"{ci}.width == root.width")
        for j, it in enumerate(items):
            vs = item_views(it, tops[j], ci, i, j)
            if (i, j) in hidden:
                vs[0]["hidden"] = True
            views += vs
            if cell:
                continue
            t = tops[j]
            if j == 0:
                c(f"{t}.leading == {ci}.leading + 12"), c(f"{t}.top == {ci}.top + 12")
            elif it["placement"] == "beside":
                c(f"{t}.leading == {tops[j - 1]}.trailing + 8"), c(f"{t}.top == {tops[j - 1]}.top")
            else:
                c(f"{t}.leading == {ci}.leading + 12"), c(f"{t}.top == {tops[j - 1]}.bottom + 4")
            c(f"{t}.trailing <= {ci}.trailing - 12")
            if size:
                c(f"{ci}.bottom >= {t}.bottom + 12")
        if size:
            if size["how"] == "pin":
                c(f"{ci}.bottom == {tops[-1]}.bottom + 12" if items and not cell else f"{ci}.height == {size['height']}", size["priority"])
            elif size["how"] == "compress":
                c(f"{ci}.height == 0", size["priority"])
            else:
                c(f"{ci}.height == {size['height']}")
        for m, f in enumerate(mods):
            t = target(i, f["item"])
            if f["form"] == "eqw" and i > 0:
                c(f"{t}.{f['attr']} == {target(0 if f['shape'] == 'star' else i - 1, f['item'])}.{f['attr']}", f["priority"])
            elif f["form"] == "aspect":
                c(f"{t}.width == {t}.height * {f['m']}", f["priority"])
            elif f["form"] == "optional":
                c(f"{t}.{f['attr']} == {f['value'] + (i % 5) * 3}", f["priority"])
            elif f["form"] == "ladder":
                for rel, value, p in f["levels"]:
                    c(f"{t}.{f['attr']} {rel} {value + i % 7}", max(1, p - i % f["spread"]) if p < 1000 else p)
            elif f["form"] == "conflict" and i % f["every"] == 0:
                if f["how"] == "local":
                    c(f"{t}.width == 40"), c(f"{t}.width == 44")
                elif f["how"] == "previous" and i > 0:
                    c(f"{t}.width == {target(i - 1, f['item'])}.width"), c(f"{t}.width == {target(i - 1, f['item'])}.width + 2")
                elif f["how"] == "at-odds":
                    c(f"odd.width >= {41 + i}")
            elif f["form"] == "loose" and i % f["every"] == 0:
                views.append({"id": f"z{m}_{i}", "parent": ci})
                c(f"z{m}_{i}.leading == {ci}.leading + 4"), c(f"z{m}_{i}.width == 20")
    return {"views": views, "constraints": cons}


def depth(doc):
    parents = {v["id"]: v.get("parent") for v in doc["views"]}
    memo = {}

    def d(v):
        if v not in memo:
            memo[v] = 0 if parents.get(v) is None else d(parents[v]) + 1
        return memo[v]
    return max(d(v) for v in parents)


def refusal(doc, data):
    """Why the server would refuse the document (413), or None."""
    if len(data) > LIMITS["body"]:
        return "body"
    if len(doc["views"]) > LIMITS["views"]:
        return "views"
    if len(doc["constraints"]) > LIMITS["constraints"]:
        return "constraints"
    if depth(doc) > LIMITS["depth"]:
        return "depth"
    return None


def write(doc, path):
    data = json.dumps(doc, separators=(",", ":"))
    with open(path, "w") as f:
        f.write(data)
    return data


def units_for(make, target_views):
    """n with about target_views views at n (make(n): the document), its 4n document within
    the limits; or the refusal."""
    per = len(make(2)["views"]) - len(make(1)["views"])
    n = max(2, round(target_views / max(per, 1)))
    while True:
        doc = make(4 * n)
        why = refusal(doc, json.dumps(doc, separators=(",", ":")))
        if why is None:
            return n, None
        if why != "body" or (n - 1) * per < 500 or n <= 2:
            return n, why
        n = max(2, int(n * 0.85))


def of(recipe):
    return lambda n: document(recipe, n)


def scaled(doc, n):
    """An imported root's document n times: each copy's views and constraints renamed `_k`,
    its root a child of one tall root at its stored frame, one below the other; None when
    the document is not one root with a frame and constraints by anchors."""
    roots = [v for v in doc["views"] if not v.get("parent")]
    if len(roots) != 1 or "frame" not in roots[0] or any("first" not in c for c in doc.get("constraints") or []):
        return None
    frame = roots[0]["frame"]
    views, cons = [{"id": "screen", "frame": {"x": 0, "y": 0, "width": frame["width"], "height": 10000000}}], []
    for k in range(n):
        rn = lambda name: f"{name}_{k}"  # noqa: E731
        anchor = lambda a: rn(a.split(".", 1)[0]) + "." + a.split(".", 1)[1]  # noqa: E731
        for v in doc["views"]:
            w = dict(v, id=rn(v["id"]), parent=rn(v["parent"]) if v.get("parent") else "screen")
            if not v.get("parent"):
                w["frame"] = dict(frame, x=0, y=k * frame["height"])
            if "stack" in v:
                w["stack"] = dict(v["stack"], arrangedSubviews=[rn(a) for a in v["stack"]["arrangedSubviews"]])
            views.append(w)
        for c in doc.get("constraints") or []:
            d = dict(c, first=anchor(c["first"]))
            if "id" in c:
                d["id"] = rn(c["id"])
            if c.get("second"):
                d["second"] = anchor(c["second"])
            cons.append(d)
    return dict(doc, views=views, constraints=cons)


class Server:
    """A layoutd of our own on a free port, for its Interface Builder importer."""
    def __init__(self, binary, out):
        self.binary, self.log = binary, os.path.join(out, "server.log")

    def __enter__(self):
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen([self.binary, "--port", str(self.port)], stdout=open(self.log, "w"), stderr=subprocess.STDOUT)
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/readyz", timeout=1)
                return self
            except OSError:
                time.sleep(0.1)
        raise OSError(f"layoutd did not start (see {self.log})")

    def __exit__(self, *_):
        self.proc.terminate()
        self.proc.wait()

    def import_ib(self, path):
        with open(path, "rb") as f:
            req = urllib.request.Request(f"http://127.0.0.1:{self.port}/v1/ib/layout", data=f.read(),
                                         headers={"Content-Type": "application/xml"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.load(r)["roots"]
        except urllib.error.HTTPError as e:
            raise ValueError(f"{e.code} {e.read()[:200].decode(errors='replace')}")


# ---------------------------------------------------------------- measuring

class Bench:
    def __init__(self, bench, out):
        self.out = out
        self.path = os.path.join(out, "layoutd-document-bench")
        shutil.copy2(bench, self.path)
        self.cg = os.path.join(out, "callgrind")
        os.makedirs(self.cg, exist_ok=True)
        self.env = dict(os.environ, LAYOUTD_ENGINE="factored", SWIFT_BACKTRACE="enable=no")

    def time(self, paths, runs):
        """Best of `runs` (each one process over every path): per path, the one-shot layout
        and the engine's batch build (ms), pivots, engine constraints; or ("invalid", why)."""
        best = [None] * len(paths)
        for _ in range(runs):
            try:
                p = subprocess.run([self.path, "--reps", "1", *paths], env=self.env, capture_output=True, text=True, timeout=300)
            except subprocess.TimeoutExpired:
                return "timeout", "a run past 300 s"
            lines = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
            if p.returncode != 0 or len(lines) != len(paths):
                why = next((line.strip() for line in p.stderr.splitlines() if "rror" in line), f"exit {p.returncode}")
                return "invalid", f"{os.path.basename(paths[len(lines)])}: {why[-160:]}"
            for k, d in enumerate(lines):
                run = {"one_shot": d["one_shot_layout_ms"], "engine": d["factored_engine_ms"], "pivots": d["factored_pivots"],
                       "engine_constraints": d["engine_constraints"], "views": d["views"]}
                best[k] = run if best[k] is None else {key: min(best[k][key], run[key]) for key in run}
        return "ok", best

    def instructions(self, path):
        return run_growth.instructions(self.path, path, self.cg)


def ratios(xs):
    return [round(b / max(a, 1e-9), 2) for a, b in zip(xs, xs[1:])]


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.out = args.out or tempfile.mkdtemp(prefix="fuzz_growth.", dir="/tmp")
        os.makedirs(self.out, exist_ok=True)
        self.bench = Bench(args.bench, self.out)
        self.tried, self.findings, self.refused = [], [], {}
        self.callgrind_runs, self.confirming = 0, 0.0

    def docs(self, make, n, tag):
        paths = []
        for m in (n, 2 * n, 4 * n):
            paths.append(os.path.join(self.out, f"{tag}_{m}.json"))
            write(make(m), paths[-1])
        return paths

    def by_instructions(self, make, n, tag="cg"):
        paths = self.docs(make, n, tag)
        counts = []
        for p in paths:
            counts.append(self.bench.instructions(p))
            self.callgrind_runs += 1
        for p in paths:
            os.unlink(p)
        return counts, ratios(counts)

    def counted(self, make, n):
        """(n, instructions, ratios) at n, 2n, 4n, n halved first while the 4n document's one-shot
        layout takes more than --cg-budget ms natively (callgrind runs it some 50x slower)."""
        while n > 1:
            st, best = self.bench.time(self.docs(make, n, "budget")[2:], 1)
            if st != "ok" or best[0]["one_shot"] <= self.args.cg_budget:
                break
            n //= 2
        counts, r = self.by_instructions(make, n)
        return n, counts, r

    def a_step(self, rec, make, n, counts):
        """Whether growth past the limit stops one doubling further (8n over 4n by instructions,
        kept in `rec`): a step (a path a size switches to once, as a text pass that remakes its
        rows in bulk past 64 of them) or a small size's costs, not growth."""
        paths = self.docs(make, 2 * n, "next")
        count = self.bench.instructions(paths[2])
        self.callgrind_runs += 1
        for p in paths:
            os.unlink(p)
        rec["instruction_ratio_8n"] = r = round(count / counts[2], 2)
        if r > self.args.limit:
            return False
        rec["status"] = f"a step (x{r} at 8N by instructions)"
        return True

    def grows(self, make, n):
        """Past the limit at n, 2n, 4n by time: the best of 3 runs, then of 6 (a document refused
        or invalid: no)."""
        doc = make(4 * n)
        if refusal(doc, json.dumps(doc, separators=(",", ":"))):
            return False
        paths = self.docs(make, n, "probe")
        best = []
        for _ in range(2):
            st, run = self.bench.time(paths, 3)
            if st != "ok":
                return False
            best = [b["one_shot"] for b in run] if not best else [min(a, b["one_shot"]) for a, b in zip(best, run)]
            if max(ratios(best)) <= self.args.limit:
                return False
        return True

    def shrink(self, recipe, n, views, deadline):
        """Forms dropped while the screen still grows past the limit (N kept at about `views`
        views), each step by time (`grows`): callgrind on a superlinear document at 4N takes
        minutes, so only the result is counted (by the caller)."""
        steps = 0
        changed = True
        while changed and time.time() < deadline:
            changed = False
            for k in range(len(recipe)):
                trial = recipe[:k] + recipe[k + 1:]
                if not trial:
                    continue
                tn, why = units_for(of(trial), views)
                steps += 1
                if why is None and self.grows(of(trial), tn):
                    print(f"    shrink: dropped {describe(recipe[k:k + 1])}: {len(trial)} forms left", flush=True)
                    recipe, n, changed = trial, tn, True
                    break
        return recipe, n, steps

    def smallest_n(self, make, n, deadline):
        """The smallest n (within an eighth) at which make still grows past the limit: n halved,
        then bisected."""
        lo, hi = 0, n
        while hi > 1 and time.time() < deadline:
            if self.grows(make, hi // 2):
                hi //= 2
            else:
                lo = hi // 2
                break
        while hi - lo > max(1, hi // 8) and time.time() < deadline:
            mid = (lo + hi) // 2
            if self.grows(make, mid):
                hi = mid
            else:
                lo = mid
        return hi

    def screen(self, index, recipe, make=None, rec=None):
        """One screen (a recipe, or `make` with its record) timed at n, 2n, 4n; a candidate judged."""
        rec = rec or {"index": index, "recipe": recipe}
        make = make or of(recipe)
        n, why = units_for(make, self.args.views_at_random(index))
        rec["n"] = n
        if why:
            rec["status"] = f"refused: {why}"
            self.refused[why] = self.refused.get(why, 0) + 1
            return rec
        paths = self.docs(make, n, "screen")
        st, best = self.bench.time(paths, 3)
        if st != "ok":
            rec["status"] = f"refused: {st}"
            rec["why"] = best
            self.refused[st] = self.refused.get(st, 0) + 1
            return rec
        if max(b["engine_constraints"] for b in best) > LIMITS["constraints"]:
            rec["status"] = "refused: constraints"
            self.refused["constraints"] = self.refused.get("constraints", 0) + 1
            return rec
        rec.update(views=[b["views"] for b in best], one_shot_ms=[b["one_shot"] for b in best], engine_ms=[b["engine"] for b in best],
                   pivots=[b["pivots"] for b in best])
        rec["time_ratios"] = ratios(rec["one_shot_ms"])
        rec["status"] = "linear"
        if max(rec["time_ratios"]) > self.args.limit:
            st, again = self.bench.time(paths, 3)
            if st == "ok":
                rec["one_shot_ms"] = [min(a, b["one_shot"]) for a, b in zip(rec["one_shot_ms"], again)]
                rec["time_ratios"] = ratios(rec["one_shot_ms"])
            if max(rec["time_ratios"]) > self.args.limit:
                self.confirm(rec, recipe, make, n)
        for p in paths:
            os.unlink(p)
        return rec

    def confirm(self, rec, recipe, make, n):
        t0 = time.time()
        try:
            self.judge(rec, recipe, make, n) if recipe is not None else self.judge_ib(rec, make, n)
        finally:
            self.confirming += time.time() - t0

    def judge(self, rec, recipe, make, n):
        kinds = {kind(f) for f in recipe}
        like = next((f for f in self.findings if f["recipe"] and {kind(g) for g in f["recipe"]} <= kinds), None)
        if like and like["also"] >= self.args.confirm_like:
            like["also"] += 1
            rec["status"] = f"like finding {like['id']} (by time)"
            return
        cn, counts, r = self.counted(make, n)
        rec.update(instruction_n=cn, instructions=counts, instruction_ratios=r)
        print(f"    candidate: time x{rec['time_ratios']}, instructions x{r} (N={cn})", flush=True)
        if max(r) <= self.args.limit:
            rec["status"] = "time only (linear by instructions)"
            return
        if self.a_step(rec, make, cn, counts):
            return
        if like:
            like["also"] += 1
            rec["status"] = f"like finding {like['id']} (confirmed)"
            return
        fid = len(self.findings) + 1
        rec["status"] = f"finding {fid}"
        # Each shrinking step by time; its result counted by instructions, and where it is linear
        # so, the step before it taken instead (the screen as found, then the forms shrunk).
        deadline = self.deadline + self.args.grace * 60
        small, vn, steps = self.shrink(recipe, n, rec["views"][0], deadline)
        cvn, counts_v, r_v = self.counted(of(small), vn) if small != recipe else (cn, counts, r)
        forms_unconfirmed = max(r_v) <= self.args.limit
        if forms_unconfirmed:
            small, vn, cvn, counts_v, r_v = recipe, n, cn, counts, r
        sn = self.smallest_n(of(small), vn, deadline)
        sn, counts_s, r_s = self.counted(of(small), sn) if sn < cvn else (cvn, counts_v, r_v)
        n_unconfirmed = max(r_s) <= self.args.limit
        if n_unconfirmed:
            sn, counts_s, r_s = cvn, counts_v, r_v
        paths = self.docs(of(small), sn, f"finding{fid}")
        st, best = self.bench.time(paths, 3)
        doc = document(small, sn)
        finding = {"id": fid, "screen": rec["index"], "original": recipe, "original_n": n, "original_views": rec["views"],
                   "original_time_ratios": rec["time_ratios"], "original_instructions": counts, "original_instruction_ratios": r, "original_instruction_n": cn,
                   "recipe": small, "shape": describe(small), "n": sn, "views": [len(document(small, m)["views"]) for m in (sn, 2 * sn, 4 * sn)],
                   "constraints": len(doc["constraints"]), "instructions": counts_s, "instruction_ratios": r_s, "shrink_steps": steps,
                   "shrunk_n": cvn, "shrunk_views": len(document(small, cvn)["views"]), "shrunk_instructions": counts_v, "shrunk_instruction_ratios": r_v,
                   "forms_shrink_unconfirmed": forms_unconfirmed, "n_shrink_unconfirmed": n_unconfirmed,
                   "documents": paths, "also": 0}
        if st == "ok":
            finding.update(one_shot_ms=[b["one_shot"] for b in best], time_ratios=ratios([b["one_shot"] for b in best]),
                           engine_ms=[b["engine"] for b in best], pivots=[b["pivots"] for b in best])
        self.findings.append(finding)
        print(f"  FINDING {fid}: {finding['shape']} at N={sn} ({finding['views'][0]} views): instructions x{r_s}, "
              f"time x{finding.get('time_ratios')}; documents {paths[0]} ...", flush=True)

    def judge_ib(self, rec, make, n):
        n, counts, r = self.counted(make, n)
        rec.update(instructions=counts, instruction_ratios=r)
        print(f"    candidate: time x{rec['time_ratios']}, instructions x{r}", flush=True)
        if max(r) <= self.args.limit:
            rec["status"] = "time only (linear by instructions)"
            return
        if self.a_step(rec, make, n, counts):
            return
        fid = len(self.findings) + 1
        rec["status"] = f"finding {fid}"
        sn = self.smallest_n(make, n, self.deadline + self.args.grace * 60)
        sn, counts_s, r_s = self.counted(make, sn)
        if max(r_s) <= self.args.limit:
            sn, counts_s, r_s = n, counts, r
        finding = {"id": fid, "ib": rec["ib"], "root": rec["root"], "original_n": n, "original_views": rec["views"],
                   "original_time_ratios": rec["time_ratios"], "original_instruction_ratios": r, "recipe": [], "n": sn,
                   "shape": f"{rec['ib']} root {rec['root']} repeated", "views": [len(make(m)["views"]) for m in (sn, 2 * sn, 4 * sn)],
                   "instructions": counts_s, "instruction_ratios": r_s, "documents": self.docs(make, sn, f"finding{fid}"), "also": 0}
        self.findings.append(finding)
        print(f"  FINDING {fid}: {finding['shape']} at N={sn}: instructions x{r_s}", flush=True)

    def run_ib(self, started):
        """Every root of every Interface Builder document under --ib, imported by a layoutd
        server (`POST /v1/ib/layout` answers each root's layout document), repeated N times."""
        files = sorted(os.path.join(d, f) for d, _, fs in os.walk(self.args.ib) for f in fs if f.endswith((".storyboard", ".xib")))
        index = 0
        with Server(self.args.server, self.out) as server:
            for path in files:
                if time.time() >= self.deadline:
                    break
                try:
                    roots = server.import_ib(path)
                except (OSError, ValueError) as e:
                    self.refused["import"] = self.refused.get("import", 0) + 1
                    self.tried.append({"index": index, "ib": path, "status": f"refused: import ({str(e)[:120]})"})
                    continue
                for root in roots:
                    rec = {"index": index, "ib": os.path.relpath(path, self.args.ib), "root": root["name"]}
                    if scaled(root["document"], 1) is None:
                        rec["status"] = "refused: unscalable"
                        self.refused["unscalable"] = self.refused.get("unscalable", 0) + 1
                    else:
                        rec = self.screen(index, None, lambda m, d=root["document"]: scaled(d, m), rec)
                    self.tried.append(rec)
                    print(f"{index:5d} n={rec.get('n', 0):<4d} views={rec.get('views', ['-'])[0]!s:<5} time x{rec.get('time_ratios', '-')!s:<14} "
                          f"{rec['status']:<34} {rec['ib']} {rec['root']}", flush=True)
                    index += 1
                    if index % 10 == 0:
                        self.save(started)

    def save(self, started):
        if not self.args.json:
            return
        minutes = (time.time() - started) / 60
        measured = [t for t in self.tried if "time_ratios" in t]
        with open(self.args.json, "w") as f:
            json.dump({"seed": self.args.seed, "limit": self.args.limit, "minutes": round(minutes, 2), "screens": len(self.tried),
                       "measured": len(measured), "screens_per_minute": round(len(self.tried) / max(minutes, 1e-9), 2),
                       "refused": self.refused, "callgrind_runs": self.callgrind_runs,
                       "minutes_confirming": round(self.confirming / 60, 2), "findings": self.findings, "tried": self.tried}, f, indent=1)

    def run(self):
        started = time.time()
        self.deadline = started + self.args.minutes * 60
        print(f"fuzz_growth: seed {self.args.seed}, {self.args.minutes} min, limit {self.args.limit}x, documents in {self.out}", flush=True)
        index = 0
        if self.args.ib:
            self.run_ib(started)
        while not self.args.ib and time.time() < self.deadline:
            rng = random.Random(f"{self.args.seed}:{index}")
            recipe = random_recipe(rng)
            rec = self.screen(index, recipe)
            self.tried.append(rec)
            print(f"{index:5d} n={rec['n']:<4d} views={rec.get('views', ['-'])[0]!s:<5} time x{rec.get('time_ratios', '-')!s:<14} "
                  f"{rec['status']:<34} {describe(recipe)[:150]}", flush=True)
            index += 1
            if index % 10 == 0 or rec["status"].startswith("finding"):
                self.save(started)
        self.save(started)
        minutes = (time.time() - started) / 60
        print(f"\n{len(self.tried)} screens in {minutes:.1f} min ({len(self.tried) / minutes:.1f} a minute); refused {self.refused}; "
              f"{self.callgrind_runs} callgrind runs; {self.confirming / 60:.1f} min confirming and shrinking, "
              f"{len(self.tried) / max(minutes - self.confirming / 60, 1e-9):.1f} screens a minute of the rest")
        for f in self.findings:
            print(f"finding {f['id']} (screen {f.get('screen', f.get('root'))}, {f['also']} more screens like it): {f['shape']}\n"
                  f"  smallest: N={f['n']}, views {f['views']}, instructions {f['instructions']} x{f['instruction_ratios']}, "
                  f"one-shot ms {f.get('one_shot_ms')} x{f.get('time_ratios')}\n"
                  + (f"  shrunk, at about the views found: N={f['shrunk_n']} ({f['shrunk_views']} views), instructions x{f['shrunk_instruction_ratios']}\n"
                     if "shrunk_n" in f else "") +
                  f"  as found: N={f['original_n']}, views {f['original_views']}, time x{f['original_time_ratios']}, "
                  f"instructions x{f['original_instruction_ratios']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=os.path.join(HERE, "../../.build/release/layoutd-document-bench"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--grace", type=float, default=10, help="minutes past --minutes a finding's shrinking may take")
    ap.add_argument("--limit", type=float, default=2.3)
    ap.add_argument("--cg-budget", type=float, default=300, help="ms of one-shot layout (natively) the largest document counted by callgrind may take")
    ap.add_argument("--views", default="500,1000", help="views at the first size: a range, each screen's drawn from it")
    ap.add_argument("--confirm-like", type=int, default=1, help="screens like a finding confirmed by instructions, then counted by time")
    ap.add_argument("--json", help="every recipe tried, its ratios, the findings")
    ap.add_argument("--out", help="where documents are written (default: a new directory under /tmp)")
    ap.add_argument("--recipe", help="one recipe (JSON): measured at --n by time and instructions, then shrunk if it grows")
    ap.add_argument("--document", help="one recipe (JSON): its document at --n printed")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--ib", help="a directory of Interface Builder documents: each root repeated N, 2N, 4N times instead of recipes")
    ap.add_argument("--server", default=os.path.join(HERE, "../../.build/release/layoutd"), help="the layoutd that imports them")
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.views.split(","))
    args.views_at_random = lambda index: random.Random(f"{args.seed}:{index}:views").randint(lo, hi)
    if args.document:
        sys.stdout.write(json.dumps(document(json.loads(args.document), args.n), separators=(",", ":")))
        return
    fz = Fuzzer(args)
    if args.recipe:
        recipe = json.loads(args.recipe)
        fz.deadline = time.time() + args.minutes * 60
        counts, r = fz.by_instructions(of(recipe), args.n)
        print(f"{describe(recipe)}\n  N={args.n}: instructions {counts} x{r}")
        if max(r) > args.limit:
            small, vn, _ = fz.shrink(recipe, args.n, len(document(recipe, args.n)["views"]), fz.deadline)
            print(f"  shrunk: {describe(small)} at N={vn}: instructions x{fz.by_instructions(of(small), vn)[1]}")
            sn = fz.smallest_n(of(small), vn, fz.deadline)
            print(f"  smallest N={sn}: instructions x{fz.by_instructions(of(small), sn)[1]}")
        return
    fz.run()


if __name__ == "__main__":
    main()
