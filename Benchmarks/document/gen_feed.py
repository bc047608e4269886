#!/usr/bin/env python3
"""A feed of N cells as a layout document (the body of POST /v1/layout or /v1/sessions).

Each cell is a container with an avatar, a title, a date and a body: four views with
intrinsic sizes (so hugging and compression resistance make their optional constraints),
16 constraints written as `expr` and VFL. `--mode stacked` puts each cell below the
previous one (cell i's top is cell i-1's bottom: one dependent chain through the feed);
`--mode independent` pins each cell's top to the root on its own.

Deterministic: the same arguments give the same bytes.
"""
import argparse
import json
import sys


def feed(cells: int, mode: str) -> dict:
    views = [{"id": "root", "frame": {"x": 0, "y": 0, "width": 375, "height": 1000000}}]
    constraints = []
    for i in range(cells):
        c, a, t, d, b = (f"cell{i}", f"avatar{i}", f"title{i}", f"date{i}", f"body{i}")
        body_lines = 1 + (i * 7) % 4
        views += [
            {"id": c, "parent": "root"},
            {"id": a, "parent": c},
            {"id": t, "parent": c, "intrinsicSize": {"width": 90 + (i * 13) % 80, "height": 20}},
            {"id": d, "parent": c, "intrinsicSize": {"width": 48, "height": 16},
             "hugging": {"horizontal": 750, "vertical": 250}},
            {"id": b, "parent": c, "intrinsicSize": {"width": 280, "height": 18 * body_lines}},
        ]
        top = f"{c}.top == root.top" if i == 0 else (
            f"{c}.top == cell{i - 1}.bottom" if mode == "stacked" else f"{c}.top == root.top + {i * 120}")
        constraints += [
            {"id": f"{c}.top", "expr": top},
            {"expr": f"{c}.leading == root.leading"},
            {"expr": f"{c}.width == root.width"},
            # 7 constraints: leading space, avatar width, two spaces, the flexible gap, trailing space, alignment.
            {"id": f"{c}.row", "visual": f"H:|-12-[{a}(40)]-10-[{t}]-(>=8)-[{d}]-12-|",
             "options": ["alignAllTop"]},
            {"expr": f"{a}.height == {a}.width"},
            {"expr": f"{a}.top == {c}.top + 12"},
            {"expr": f"{b}.top == {t}.bottom + 6"},
            {"expr": f"{b}.leading == {t}.leading"},
            {"expr": f"{b}.trailing == {c}.trailing - 12"},
            {"expr": f"{c}.bottom == {b}.bottom + 12 @750"},
            {"expr": f"{c}.bottom >= {a}.bottom + 12"},
            {"expr": f"{c}.bottom >= {b}.bottom + 12"},
        ]
    return {"views": views, "constraints": constraints}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cells", type=int, default=1000)
    ap.add_argument("--mode", choices=["stacked", "independent"], default="stacked")
    ap.add_argument("--out", default="-")
    args = ap.parse_args()
    text = json.dumps(feed(args.cells, args.mode), separators=(",", ":"))
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
