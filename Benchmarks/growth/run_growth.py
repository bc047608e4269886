#!/usr/bin/env python3
"""How each family of real layouts grows: every family of `families.py` built at 1k, 2k and 4k
cells (10k for those named by --ten), in process by `layoutd-document-bench` on the factored
engine, the engine alone (the batch build of the document's constraints) and the one-shot
layout as `POST /v1/layout` makes it (read, build, diagnostics, every frame), with the heap a
kept session holds. Prints a table: times (the best of --reps runs), the growth per doubling, and
LINEAR or NOT LINEAR against --limit (2.3x per doubling by default; 10k is judged against
11x of 1k). `make bench-growth`.
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


def measure(bench, path, reps):
    """The best of `reps` runs (each its own process): this machine's noise only adds time."""
    env = dict(os.environ, LAYOUTD_ENGINE="factored")
    best = None
    for _ in range(reps):
        out = subprocess.run([bench, "--reps", "1", path], env=env, check=True, capture_output=True, text=True).stdout
        d = json.loads(out.strip().splitlines()[-1])
        run = {"engine": d["factored_engine_ms"], "one_shot": d["one_shot_layout_ms"],
               "heap": d["session_heap_bytes_per_view"] * d["views"], "pivots": d["factored_pivots"]}
        best = run if best is None else {k: min(best[k], run[k]) for k in run}
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--bench", default=os.path.join(HERE, "../../.build/release/layoutd-document-bench"))
    ap.add_argument("--sizes", default="1000,2000,4000")
    ap.add_argument("--ten", default="chained,selfsizing50,stack-top", help="families also built at 10,000 cells")
    ap.add_argument("--families", default=",".join(families.FAMILIES))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--limit", type=float, default=2.3)
    ap.add_argument("--json", help="also write every figure here")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    ten = set(args.ten.split(",")) if args.ten else set()
    results = {}
    head = f"{'family':<24}" + "".join(f"{'eng ' + str(n // 1000) + 'k':>10}{'1shot ' + str(n // 1000) + 'k':>11}" for n in sizes)
    print(head + f"{'eng x/2':>14}{'1shot x/2':>14}{'heap x/2':>10}{'10k/1k':>16}  verdict")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.families.split(","):
            runs = {}
            for n in sizes + ([10000] if name in ten else []):
                path = os.path.join(tmp, f"{name}_{n}.json")
                with open(path, "w") as f:
                    json.dump(families.FAMILIES[name](n), f, separators=(",", ":"))
                runs[n] = measure(args.bench, path, args.reps)
                os.unlink(path)
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
            print(line + ("  LINEAR" if verdict else "  NOT LINEAR"), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
