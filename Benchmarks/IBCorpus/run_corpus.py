#!/usr/bin/env python3
"""Runs `layoutd-ib-bench` on the corpus, half by half, and prints each half's figures.

Builds nothing: `swift build -c release --product layoutd-ib-bench` first, and
`Benchmarks/IBCorpus/fetch_corpus.py` to materialise the documents.

Each document runs in a process of its own, with contents sized as Xcode stored them
(`--stored`) and again as the server measures them ("measured"), so that a document that
crashes the bench or runs past the time limit is counted and named without stopping the run.
Per half: documents, views agreeing of those compared, documents fully agreeing, and the
documents that crashed, timed out or were refused.

    Benchmarks/IBCorpus/run_corpus.py [--half development|validation] [--mode stored|measured]
                                      [--details FILE] [--json FILE]

`--details FILE` writes each disagreeing view of the development half (the bench's `--verbose`
lines, one document after another). The validation half is for checking rules found on the
development half: its totals are printed, never its views, unless `--details-validation` is
given once the rules are settled.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from fetch_corpus import read_corpus, target  # noqa: E402

DOC_LINE = re.compile(r"^(?P<path>.*): (?P<roots>\d+) roots, (?P<agree>\d+) of (?P<views>\d+) views agree$")
REFUSED_LINE = re.compile(r"^(?P<path>.*): refused at (?P<where>\d+:\d+): (?P<message>.*)$")
ROOT_REFUSED = re.compile(r"^(?P<path>.*) (?P<root>\S+): layoutd refused its document: (?P<message>.*)$")
CONFLICT_LINE = re.compile(
    r"^  conflicting roots (?P<roots>\d+) \((?P<full>\d+) fully agree\): (?P<agree>\d+) of (?P<views>\d+) views agree$")
STALE_LINE = re.compile(r"^  stale views (?P<stale>\d+) of the (?P<apart>\d+) disagreeing$")
SYMBOL_LINE = re.compile(r"^  symbol views (?P<symbols>\d+) of the (?P<apart>\d+) disagreeing$")
VIEW_LINE = re.compile(
    r"^  (?P<root>\S+) (?P<view>\S+): layoutd (?P<lx>[^,\s]+), (?P<ly>[^,\s]+), (?P<lw>[^,\s]+) × (?P<lh>[^,\s]+)"
    r"  Xcode (?P<xx>[^,\s]+), (?P<xy>[^,\s]+), (?P<xw>[^,\s]+) × (?P<xh>[^,\s]+)$")


def run_one(bench, path, stored, verbose, timeout):
    """One document through the bench: a dict of what it said."""
    argv = [bench] + (["--stored"] if stored else []) + (["--verbose"] if verbose else []) + [path]
    started = time.monotonic()
    try:
        r = subprocess.run(argv, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"outcome": "timeout", "error": f"no answer in {timeout:g} s"}
    seconds = time.monotonic() - started
    out = r.stdout.decode("utf-8", "replace")
    err = r.stderr.decode("utf-8", "replace").strip()
    lines = out.splitlines()
    result = {"seconds": seconds, "root_refusals": [], "views_apart": [], "notes": []}
    totals = None
    if lines and lines[-1].startswith("{"):
        try:
            totals = json.loads(lines[-1])
        except ValueError:
            totals = None
    if r.returncode != 0 or totals is None:
        why = f"signal {-r.returncode}" if r.returncode < 0 else f"exit status {r.returncode}"
        tail = err.splitlines()[-1] if err else (lines[-1] if lines else "no output")
        result.update(outcome="crash", error=f"{why}: {tail[:300]}")
        return result
    for line in lines[:-1]:
        if m := REFUSED_LINE.match(line):
            result.update(outcome="refused", error=f"at {m['where']}: {m['message']}")
            return result
        if m := ROOT_REFUSED.match(line):
            result["root_refusals"].append(f"{m['root']}: {m['message']}")
        elif m := CONFLICT_LINE.match(line):
            result.update(conflict_roots=int(m["roots"]), conflict_full=int(m["full"]), conflict_views=int(m["views"]),
                          conflict_agreeing=int(m["agree"]))
        elif m := STALE_LINE.match(line):
            result.update(stale_views=int(m["stale"]), stale_only=int(m["stale"]) == int(m["apart"]))
        elif line == "  every disagreeing view counted apart":
            result["apart_only"] = True
        elif m := SYMBOL_LINE.match(line):
            result.update(symbol_views=int(m["symbols"]))
        elif m := VIEW_LINE.match(line):
            result["views_apart"].append(line.strip())
        elif line.startswith("  "):
            result["notes"].append(line.strip())
        elif m := DOC_LINE.match(line):
            result.update(roots=int(m["roots"]), views=int(m["views"]), agreeing=int(m["agree"]))
        elif line.endswith(": cannot read"):
            result.update(outcome="unreadable", error="cannot read")
            return result
    if "views" not in result:
        result.update(outcome="crash", error="no line for the document")
        return result
    result["outcome"] = "ok"
    return result


def summarize(half, mode, docs, results):
    ok = [(d, r) for d, r in zip(docs, results) if r["outcome"] == "ok"]
    views = sum(r["views"] for _, r in ok)
    agreeing = sum(r["agreeing"] for _, r in ok)
    compared = [(d, r) for d, r in ok if r["views"] > 0]
    full = sum(1 for _, r in compared if r["views"] == r["agreeing"])
    s = {
        "half": half, "mode": mode, "documents": len(docs),
        "repositories": len({d[0] for d in docs}),
        "views": views, "agreeing": agreeing, "share": agreeing / views if views else 0.0,
        "documents_compared": len(compared), "documents_full": full,
        "documents_without_views": len(ok) - len(compared),
        "roots": sum(r["roots"] for _, r in ok),
        "root_refusals": sum(len(r["root_refusals"]) for _, r in ok),
        # Roots whose required constraints conflict, apart: Xcode's frames of them are weak evidence.
        "conflicting_roots": sum(r.get("conflict_roots", 0) for _, r in ok),
        "conflicting_documents": sum(1 for _, r in ok if r.get("conflict_roots", 0)),
        "conflicting_full": sum(r.get("conflict_full", 0) for _, r in ok),
        "conflicting_views": sum(r.get("conflict_views", 0) for _, r in ok),
        "conflicting_agreeing": sum(r.get("conflict_agreeing", 0) for _, r in ok),
        # Disagreeing views whose stored frames break their own required constraints (stale:
        # Xcode would show them misplaced), apart; still counted in the figures above.
        "stale_views": sum(r.get("stale_views", 0) for _, r in ok),
        "stale_documents": sum(1 for _, r in ok if r.get("stale_views", 0)),
        "stale_only_documents": sum(1 for _, r in ok if r.get("stale_only", False)),
        # Disagreeing views showing an SF Symbol (stored at the symbol's image rect), apart.
        "symbol_views": sum(r.get("symbol_views", 0) for _, r in ok),
        "symbol_documents": sum(1 for _, r in ok if r.get("symbol_views", 0)),
        # Documents whose every disagreeing view is one counted apart (conflicting, stale, symbol).
        "apart_only_documents": sum(1 for _, r in ok if r.get("apart_only", False)),
        "seconds": sum(r.get("seconds", 0) for r in results),
    }
    for outcome in ("crash", "timeout", "refused", "unreadable"):
        s[outcome] = [{"repository": d[0], "path": d[2], "error": r["error"]}
                      for d, r in zip(docs, results) if r["outcome"] == outcome]
    s["roots_refused"] = [{"repository": d[0], "path": d[2], "error": e}
                          for d, r in ok for e in r["root_refusals"]]
    return s


def print_summary(s):
    pct = 100 * s["share"]
    print(f"  {s['mode']:<8} views agreeing {s['agreeing']} / {s['views']} ({pct:.1f}%); "
          f"documents fully agreeing {s['documents_full']} / {s['documents_compared']} "
          f"({s['documents_without_views']} with no view compared); "
          f"crashed {len(s['crash'])}, timed out {len(s['timeout'])}, refused {len(s['refused'])}, "
          f"roots refused {s['root_refusals']}; {s['seconds']:.0f} s")
    other_views = s["views"] - s["conflicting_views"]
    other_agreeing = s["agreeing"] - s["conflicting_agreeing"]
    print(f"           conflicting roots {s['conflicting_roots']} (in {s['conflicting_documents']} documents; "
          f"{s['conflicting_full']} fully agree): "
          f"views agreeing {s['conflicting_agreeing']} / {s['conflicting_views']}; "
          f"the other roots: {other_agreeing} / {other_views}"
          f" ({100 * other_agreeing / other_views if other_views else 0:.1f}%)")
    print(f"           stale views (stored frames break their own required constraints; counted above as they are): "
          f"{s['stale_views']} in {s['stale_documents']} documents, "
          f"{s['stale_only_documents']} documents whose only disagreeing views are stale")
    print(f"           SF Symbol views disagreeing (stored at the symbol's image rect): "
          f"{s['symbol_views']} in {s['symbol_documents']} documents")
    print(f"           documents whose every disagreeing view is counted apart: {s['apart_only_documents']} "
          f"(fully agreeing with them: {s['documents_full'] + s['apart_only_documents']} / {s['documents_compared']})")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", default=os.path.join(HERE, "corpus.tsv"))
    p.add_argument("--dir", default=os.path.join(ROOT, ".build-ibcorpus"), help="where fetch_corpus.py wrote the documents")
    p.add_argument("--bench", default=os.path.join(ROOT, ".build/release/layoutd-ib-bench"))
    p.add_argument("--half", choices=["development", "validation"], action="append")
    p.add_argument("--mode", choices=["stored", "measured"], action="append")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds a document may take (60)")
    p.add_argument("--details", help="write the development half's disagreeing views (stored) to this file")
    p.add_argument("--details-validation", action="store_true", help="the validation half's views too, once rules are settled")
    p.add_argument("--json", help="write the figures as JSON to this file")
    args = p.parse_args()

    if not os.access(args.bench, os.X_OK):
        sys.exit(f"{args.bench}: not built (swift build -c release --product layoutd-ib-bench)")
    rows = read_corpus(args.corpus)
    halves = args.half or ["development", "validation"]
    modes = args.mode or ["stored", "measured"]
    # Opened only when a half whose views it gets is run: a validation-only run leaves an
    # earlier development file as it was.
    writes = args.details and "stored" in modes and ("development" in halves or args.details_validation)
    details = open(args.details, "w", encoding="utf-8") if writes else None
    summaries, missing = [], []
    for half in halves:
        docs = [r for r in rows if r[3] == half]
        present = []
        for d in docs:
            f = target(args.dir, half, d[0], d[2])
            (present if os.path.isfile(f) else missing).append(d)
        print(f"{half}: {len(docs)} documents of {len({d[0] for d in docs})} repositories"
              + (f" ({len(docs) - len(present)} not materialised: run fetch_corpus.py)" if len(present) < len(docs) else ""))
        for mode in modes:
            verbose = details is not None and mode == "stored" and (half == "development" or args.details_validation)
            results = []
            for d in present:
                f = target(args.dir, half, d[0], d[2])
                r = run_one(args.bench, f, mode == "stored", verbose, args.timeout)
                results.append(r)
                if verbose and r["outcome"] == "ok" and (r["views_apart"] or r["notes"]):
                    details.write(f"# {d[0]}\t{d[2]}\t{r['agreeing']} of {r['views']}\n")
                    for line in r["views_apart"] + r["notes"]:
                        details.write(f"{line}\n")
            s = summarize(half, mode, present, results)
            summaries.append(s)
            print_summary(s)
            sys.stdout.flush()
    if details:
        details.close()

    print("\ndocuments that crashed, timed out or were refused:")
    any_listed = False
    for s in summaries:
        for outcome in ("crash", "timeout", "refused", "unreadable"):
            for e in s[outcome]:
                any_listed = True
                print(f"  {s['half']} {s['mode']} {outcome}: {e['repository']} {e['path']}: {e['error']}")
        for e in s["roots_refused"]:
            any_listed = True
            print(f"  {s['half']} {s['mode']} root refused: {e['repository']} {e['path']} {e['error']}")
    if not any_listed:
        print("  none")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(summaries, f, indent=1)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
