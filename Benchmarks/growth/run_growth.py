#!/usr/bin/env python3
"""How each family of real layouts grows: every family of `families.py` built at 1k, 2k and 4k
cells (10k for those named by --ten), in process by `layoutd-document-bench` on the factored
engine, the engine alone (the batch build of the document's constraints) and the one-shot
layout as `POST /v1/layout` makes it (read, build, diagnostics, every frame), with the heap a
kept session holds; and the changes a kept session takes on its middle cell (`families.py
--changes`: a label grows, a cell inserted, one removed, a set-constant), each with the number
of views its answer lists (what moved: every cell below, on a chain). Prints a table: times (the best of --reps runs), the growth per doubling, and
LINEAR or NOT LINEAR against --limit (2.3x per doubling by default; 10k is judged against
11x of 1k), by time, or with --instructions by the one-shot layout's instruction count, which
this noisy machine does not disturb. `make bench-growth`.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import families  # noqa: E402


def measure(bench, path, reps, changes):
    """The best of `reps` runs (each its own process): this machine's noise only adds time.
    `changes`: name -> file of a `changes` body, each timed on a session kept from the document."""
    env = dict(os.environ, LAYOUTD_ENGINE="factored")
    best = None
    args = [a for name, f in changes.items() for a in ("--change", f"{name}={f}")]
    for _ in range(reps):
        out = subprocess.run([bench, "--reps", "1", *args, path], env=env, check=True, capture_output=True, text=True).stdout
        d = json.loads(out.strip().splitlines()[-1])
        run = {"engine": d["factored_engine_ms"], "one_shot": d["one_shot_layout_ms"],
               "heap": d["session_heap_bytes_per_view"] * d["views"], "pivots": d["factored_pivots"]}
        for name in changes:
            run[name] = d[f"change_{name}_ms"]
            run[name + "_moved"] = d[f"change_{name}_moved"]
        best = run if best is None else {k: min(best[k], run[k]) for k in run}
    return best


# The one-shot `make(documentBytes:…)`, found by its mangled name's stem: the full name
# changes with its parameters (a fixed one went stale when `sizes` came).
ONE_SHOT_STEM = "$s11LayoutModel0A7SessionC4make13documentBytes"


def one_shot_symbol(bench):
    names = subprocess.run(["nm", bench], check=True, capture_output=True, text=True).stdout.split()
    found = [n for n in names if n.startswith(ONE_SHOT_STEM) and n.endswith("FZ")]
    if len(found) != 1:
        sys.exit(f"the one-shot make is not one symbol in {bench}: {found}")
    return found[0]


def instructions(bench, path, tmp):
    """The one-shot layout's instructions (callgrind, collecting inside the one-shot `make`
    only: its second call, after the kept session's). Repeatable whatever the machine does.
    valgrind reads no DWARF of this toolchain: a copy of the bench without it is counted."""
    stripped = os.path.join(tmp, "bench-stripped")
    if not os.path.exists(stripped):
        subprocess.run(["cp", bench, stripped], check=True)
        subprocess.run(["strip", "-g", stripped], check=True)
    out = os.path.join(tmp, "callgrind")
    one_shot = one_shot_symbol(bench)
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--toggle-collect={one_shot}",
                    f"--dump-after={one_shot}", stripped, "--reps", "1", path],
                   env=dict(os.environ, LAYOUTD_ENGINE="factored"), check=True, capture_output=True)
    dumps = sorted((f for f in os.listdir(tmp) if f.startswith("callgrind.")), key=lambda f: int(f.split(".")[-1]))
    with open(os.path.join(tmp, dumps[-1])) as f:
        total = next(int(line.split()[1]) for line in f if line.startswith("totals:") or line.startswith("summary:"))
    for f in dumps:
        os.unlink(os.path.join(tmp, f))
    return total


def side_by_side(args):
    """A screen engine to engine, in one run: layoutd's factored engine building the
    `stack-top` (or `nested`, `grid`, `table`) document and its session taking one label's growth, beside
    Taffy's and Yoga's computation of the same screen (taffy_yoga.py: first layout, relayout
    after that label grows)."""
    sizes = [int(n) for n in args.taffy.split(",")]
    screen = args.taffy_screen
    out = subprocess.run([sys.executable, os.path.join(HERE, "taffy_yoga.py"), "--screen", screen, "--cells", *map(str, sizes), "--reps", str(args.reps)],
                         check=True, capture_output=True, text=True).stdout
    others = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    print(f"\n{screen + ' screen':<16}{'cells':>7}{'first ms':>10}{'relayout ms':>13}{'first / layoutd':>17}{'relayout / layoutd':>20}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path, grow = os.path.join(tmp, "doc.json"), os.path.join(tmp, "grow.json")
            with open(path, "w") as f:
                json.dump(families.FAMILIES[screen](n), f)
            with open(grow, "w") as f:
                json.dump(families.changes(screen, n)["grow"], f)
            ours = measure(args.bench, path, args.reps, {"grow": grow})
            print(f"{'layoutd':<16}{n:>7}{ours['engine']:>10.1f}{ours['grow']:>13.2f}")
            for o in others:
                if o["cells"] == n:
                    print(f"{o['engine']:<16}{n:>7}{o['first_layout_ms']:>10.1f}{o['relayout_ms']:>13.2f}"
                          f"{o['first_layout_ms'] / ours['engine']:>17.2f}{o['relayout_ms'] / ours['grow']:>20.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bench", default=os.path.join(HERE, "../../.build/release/layoutd-document-bench"))
    ap.add_argument("--sizes", default="1000,2000,4000")
    ap.add_argument("--ten", default="chained,selfsizing50,stack-top", help="families also built at 10,000 cells")
    ap.add_argument("--families", default=",".join(f for f in families.FAMILIES if f not in families.PENDING))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--limit", type=float, default=2.3)
    ap.add_argument("--json", help="also write every figure here")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the one-shot layout's instructions (valgrind; slow) and judge linearity by them")
    ap.add_argument("--taffy", default="", help="cells (e.g. 1000,10000): the stack screen beside Taffy and Yoga (pip: stretchable, poga)")
    ap.add_argument("--taffy-screen", default="stack-top", choices=["stack-top", "nested", "grid", "table"],
                    help="the screen --taffy compares (all but stack-top: Taffy only)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    ten = set(args.ten.split(",")) if args.ten else set()
    results = {}
    head = f"{'family':<24}" + "".join(f"{'eng ' + str(n // 1000) + 'k':>10}{'1shot ' + str(n // 1000) + 'k':>11}" for n in sizes)
    print(head + f"{'eng x/2':>14}{'1shot x/2':>14}{'heap x/2':>10}{'10k/1k':>16}  verdict")
    with tempfile.TemporaryDirectory() as tmp:
        for name in filter(None, args.families.split(",")):
            runs = {}
            for n in sizes + ([10000] if name in ten else []):
                path = os.path.join(tmp, f"{name}_{n}.json")
                with open(path, "w") as f:
                    json.dump(families.FAMILIES[name](n), f, separators=(",", ":"))
                changes = {}
                for op, body in families.changes(name, n).items():
                    changes[op] = os.path.join(tmp, f"{name}_{n}_{op}.json")
                    with open(changes[op], "w") as f:
                        json.dump(body, f)
                runs[n] = measure(args.bench, path, args.reps, changes)
                if args.instructions:
                    runs[n]["instructions"] = instructions(args.bench, path, tmp)
                for f in [path, *changes.values()]:
                    os.unlink(f)
            results[name] = runs
            worst = 0.0
            growth = {}
            for k in ("engine", "one_shot", "heap"):
                ratios = [runs[b][k] / max(runs[a][k], 1e-9) for a, b in zip(sizes, sizes[1:])]
                growth[k] = max(ratios)
                if k != "heap":
                    worst = max(worst, growth[k])
            line = f"{name:<24}" + "".join(f"{runs[n]['engine']:>10.1f}{runs[n]['one_shot']:>11.1f}" for n in sizes)
            line += f"{growth['engine']:>14.2f}{growth['one_shot']:>14.2f}{growth['heap']:>10.2f}"
            verdict = worst <= args.limit
            if 10000 in runs:
                r = max(runs[10000][k] / runs[1000][k] for k in ("engine", "one_shot"))
                line += f"{r:>16.1f}"
                verdict = verdict and r <= 11
            else:
                line += f"{'':>16}"
            if args.instructions:
                counts = [runs[n]["instructions"] for n in sorted(runs)]
                r = [b / a for a, b in zip(counts, counts[1:])]
                line += "  one-shot instructions " + " ".join(f"{c / 1e6:.0f}M" for c in counts) + " x" + " ".join(f"{x:.2f}" for x in r)
                verdict = max(r[:len(sizes) - 1]) <= args.limit and (10000 not in runs or counts[-1] / counts[0] <= 11)
            print(line + ("  LINEAR" if verdict else "  NOT LINEAR"), flush=True)
            ops = [op for op in families.changes(name, sizes[0]) if op in runs[sizes[0]]]
            if ops:
                print(f"{'':<24}  changes on the middle cell, ms (views answered): " + ";  ".join(
                    f"{op} " + " ".join(f"{runs[n][op]:.2f}({runs[n][op + '_moved']})" for n in sizes)
                    + f" x{max(runs[b][op] / max(runs[a][op], 1e-3) for a, b in zip(sizes, sizes[1:])):.1f}" for op in ops), flush=True)
    if args.taffy:
        side_by_side(args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
