#!/usr/bin/env python3
"""The `stack-top` screen of families.py laid out by Taffy and by Yoga, for comparison with layoutd.

The screen: a root 375 pt wide; a vertical feed pinned to its top, leading and trailing, as tall
as its content, of N rows with no spacing; each row a horizontal flex row (align-items
flex-start, gap 12) of a 40x40 avatar (no grow, no shrink) and a vertical column (gap 4,
align-items flex-start) of two labels, label k of cell i being (90 + (13i + 29k) % 120) x
(16 + 4k). Every row is 48 tall, so row i sits at y = 48i; the script checks that and fails
loudly if an engine disagrees. `--screen nested`, `grid` or `table`: that screen of
families.py instead, by Taffy only (each `taffy_*_run` says how it is written). `--compare
FRAMES --cells N`: layoutd's answer to `families.py SCREEN N` checked frame by frame against
Taffy's layout of the same screen, nothing timed.

Engines:
  taffy  Taffy through PyPI `stretchable` (Node, Style; Node.compute_layout). Required.
  yoga   Yoga 1.19 through PyPI `poga`, using its binding of Yoga's C API (poga.libpoga_capi),
         not the YogaKit-style PogaView/PogaLayout layer. Skipped with a note if not installed.

Per engine and N, the minimum over --reps repetitions, each on a freshly built tree, of:
  build_ms         creating the node tree (styles, nodes, children)
  first_layout_ms  the first layout of the whole tree
  relayout_ms      the layout again after the second label of cell N//2 grows 20 pt taller (its
                   style changed outside the timing; both libraries mark the node and its
                   ancestors dirty on a style change, which the script checks)
Taffy's layout times are its own computation (stretchable's internal call, without the copy of
every node's layout back into Python objects that Node.compute_layout adds: ~90% of that call);
for Yoga nothing is read back inside the timing either. Yoga 1.19 has no gap, so the gaps are margins (avatar right 12, second
label top 4), which lay out the same. Garbage collection is off inside the timed sections.

Run: python3 -m pip install stretchable poga
     python3 Benchmarks/growth/taffy_yoga.py --cells 1000 10000 --reps 5
Prints one JSON line per engine per N.
"""
import argparse
import gc
import json
import sys
import time

ROOT_WIDTH, ROOT_HEIGHT = 375, 10_000_000  # as families.ROOT
ROW_HEIGHT = 48  # max(40, 20 + 4 + 24)
GROWTH = 20


def label_size(i, k):
    """Width and height of label k (1 or 2) of cell i, as families.label."""
    return 90 + (i * 13 + k * 29) % 120, 16 + 4 * k


def timed(fn, *args):
    gc.collect()
    gc.disable()
    try:
        t = time.perf_counter()
        result = fn(*args)
        return (time.perf_counter() - t) * 1e3, result
    finally:
        gc.enable()


def check(engine, what, got, want):
    if got != want:
        sys.exit(f"{engine}: {what} is {got}, expected {want}")


# Taffy (stretchable)

def taffy_compute(root):
    """What Node.compute_layout does before it copies every node's layout back into Python
    objects (about 90% of its time here): Taffy's own computation, engine to engine.
    stretchable's internals (1.1.x), read from its source."""
    import stretchable.node as sn
    if sn.USE_ROOT_CONTAINER and root.is_root:
        space = sn.SizeAvailableSpace.default()
        if root._container:
            root._container.size = space
        else:
            root._container = sn.Container(root, space)
        ptr = root._container._node_id
    else:
        ptr = root._node_id
    ok = sn.taffylib.node_compute_layout_with_measure(
        sn.taffy._ptr, ptr, sn.SizeAvailableSpace.default().to_dict(),
        lambda kw, kh, aw, ah, ctx: sn._measure_callback(sn._node_refs, kw, kh, aw, ah, ctx))
    check("taffy", "compute_layout succeeded", bool(ok), True)


def taffy_measure(build, last_row, grow, named=(), frames=None):
    """One screen in Taffy: `build()` makes the tree and returns its root; the first layout and
    the relayout after `grow()` are timed (Taffy's own compute), each followed by the untimed
    copy-back and its checks. `last_row()` gives the last row and the y it should have (and
    may check more); `grow()` restyles one node (set_style marks it and its ancestors dirty)
    and gives it, its new height and how far the last row moves. With `frames`, each of
    `named` (id, node) is recorded after the first layout (`compare`)."""
    build_ms, root = timed(build)
    first_ms, _ = timed(taffy_compute, root)
    root.compute_layout()
    record(named, frames)
    last, y = last_row()
    check("taffy", "last row y", last.border_box.y, y)
    grown, height, moves = grow()
    check("taffy", "root dirty after the style change", root.is_dirty, True)
    relayout_ms, _ = timed(taffy_compute, root)
    root.compute_layout()
    check("taffy", "last row y after growth", last.border_box.y, y + moves)
    check("taffy", "grown node height", grown.border_box.height, height)
    # stretchable offers no way to free nodes: they stay in its process-wide Taffy tree.
    return build_ms, first_ms, relayout_ms


def taffy_run(n):
    import stretchable as st
    from stretchable.style import AlignItems, FlexDirection
    feed = None

    def build():
        nonlocal feed
        # Labels get a fixed size (no measure function). A Style costs milliseconds to construct
        # in stretchable (attrs validation), and is immutable, so each distinct one is made once.
        styles = {}

        def label_style(w, h):
            if (w, h) not in styles:
                styles[w, h] = st.Style(size=(w, h), flex_shrink=0)
            return styles[w, h]

        avatar = st.Style(size=(40, 40), flex_grow=0, flex_shrink=0)
        col = st.Style(flex_direction=FlexDirection.COLUMN, gap=4, align_items=AlignItems.START)
        row = st.Style(flex_direction=FlexDirection.ROW, gap=12, align_items=AlignItems.START)
        feed = st.Node(flex_direction=FlexDirection.COLUMN, flex_shrink=0)
        root = st.Node(feed, size=(ROOT_WIDTH, ROOT_HEIGHT), flex_direction=FlexDirection.COLUMN,
                       align_items=AlignItems.STRETCH)
        for i in range(n):
            labels = st.Node(st.Node(style=label_style(*label_size(i, 1))),
                             st.Node(style=label_style(*label_size(i, 2))), style=col)
            feed.add(st.Node(st.Node(style=avatar), labels, style=row))
        return root

    def last_row():
        l2 = feed[n - 1][1][1].border_box
        check("taffy", "last cell's second label size", (l2.width, l2.height), label_size(n - 1, 2))
        return feed[n - 1], ROW_HEIGHT * (n - 1)

    def grow():
        grown = feed[n // 2][1][1]
        w, h = label_size(n // 2, 2)
        grown.style = st.Style(size=(w, h + GROWTH), flex_shrink=0)
        return grown, h + GROWTH, GROWTH

    return taffy_measure(build, last_row, grow)


def taffy_nested_run(n):
    """The `nested` screen of families.py: a feed (gap 1) of rows, each a row stack aligned
    center inside its 8 pt layout margins (gap 12) of a 40 pt avatar, which takes the row's
    spare width (the lowest hugging, first), and a column (gap 4, stretched) as wide as its
    content of a head row (gap 8, aligned center: label k=1 stretching, a 24x16 badge) and
    label k=2. Every row is 64 tall, so row i sits at y = 65i; checked, and every frame of a
    200-row screen was checked against layoutd's answer when this was written."""
    import stretchable as st
    from stretchable.style import AlignItems, FlexDirection
    from stretchable.style.geometry.length import AUTO
    feed = None

    def build():
        nonlocal feed
        avatar = st.Style(size=(AUTO, 40), flex_basis=40, flex_grow=1, flex_shrink=0)
        badge = st.Style(size=(24, 16), flex_shrink=0)
        row = st.Style(flex_direction=FlexDirection.ROW, gap=12, align_items=AlignItems.CENTER, padding=8)
        col = st.Style(flex_direction=FlexDirection.COLUMN, gap=4, align_items=AlignItems.STRETCH, flex_shrink=0)
        head = st.Style(flex_direction=FlexDirection.ROW, gap=8, align_items=AlignItems.CENTER)
        styles = {}

        def label_style(i, k):
            (w, h), grows = label_size(i, k), k == 1
            if (w, h, grows) not in styles:
                styles[w, h, grows] = (st.Style(size=(AUTO, h), min_size=(w, AUTO), flex_basis=w, flex_grow=1, flex_shrink=0) if grows
                                       else st.Style(size=(AUTO, h), min_size=(w, AUTO)))
            return styles[w, h, grows]

        feed = st.Node(flex_direction=FlexDirection.COLUMN, gap=1, flex_shrink=0)
        root = st.Node(feed, size=(ROOT_WIDTH, ROOT_HEIGHT), flex_direction=FlexDirection.COLUMN, align_items=AlignItems.STRETCH)
        for i in range(n):
            heads = st.Node(st.Node(style=label_style(i, 1)), st.Node(style=badge), style=head)
            feed.add(st.Node(st.Node(style=avatar), st.Node(heads, st.Node(style=label_style(i, 2)), style=col), style=row))
        return root

    def grow():
        grown = feed[n // 2][1][1]
        w, h = label_size(n // 2, 2)
        grown.style = st.Style(size=(AUTO, h + GROWTH), min_size=(w, AUTO))
        return grown, h + GROWTH, GROWTH

    return taffy_measure(build, lambda: (feed[n - 1], 65 * (n - 1)), grow)


def taffy_grid_run(n, frames=None):
    """The `grid` screen of families.py: a feed (gap 3) of rows of three tiles (equal widths:
    grow 1 from a zero basis, gap 3, aligned start), each tile a column (gap 4, stretched) of
    a square image (aspect ratio 1) over a caption 16 tall. Rows are 143 tall, at y = 146r;
    checked, and every frame against layoutd's with --compare."""
    import stretchable as st
    from stretchable.style import AlignItems, FlexDirection
    from stretchable.style.geometry.length import AUTO, PCT
    named, feed, rows = [], None, n // 3
    captions = {}

    def caption(t, grown=0):
        w = 40 + (t * 17) % 70
        if (w, grown) not in captions:
            captions[w, grown] = st.Style(size=(AUTO, 16 + grown), min_size=(w, AUTO))
        return captions[w, grown]

    def build():
        nonlocal feed
        row = st.Style(flex_direction=FlexDirection.ROW, gap=3, align_items=AlignItems.START, flex_shrink=0)
        tile = st.Style(flex_direction=FlexDirection.COLUMN, gap=4, align_items=AlignItems.STRETCH, flex_grow=1, flex_basis=0)
        # As wide as the tile, said outright: with the width left auto, Taffy sizes the row
        # before it stretches the image, and rows come out 20 tall.
        image = st.Style(size=(PCT * 100, AUTO), aspect_ratio=1)
        feed = st.Node(flex_direction=FlexDirection.COLUMN, gap=3, flex_shrink=0)
        root = st.Node(feed, size=(ROOT_WIDTH, ROOT_HEIGHT), flex_direction=FlexDirection.COLUMN, align_items=AlignItems.STRETCH)
        for r in range(rows):
            tiles = []
            for t in range(3 * r, 3 * r + 3):
                img, cap = st.Node(style=image), st.Node(style=caption(t))
                tiles.append(st.Node(img, cap, style=tile))
                if frames is not None:
                    named.extend([(f"tile{t}", tiles[-1]), (f"img{t}", img), (f"cap{t}", cap)])
            feed.add(st.Node(*tiles, style=row))
            if frames is not None:
                named.append((f"row{r}", feed[r]))
        named.append(("feed", feed))
        return root

    def grow():
        grown = feed[rows // 2][1][1]
        grown.style = caption(rows // 2 * 3 + 1, grown=GROWTH)
        return grown, 16 + GROWTH, GROWTH

    return taffy_measure(build, lambda: (feed[rows - 1], 146 * (rows - 1)), grow, named, frames)


def taffy_table_run(n, frames=None):
    """The `table` screen of families.py: a feed of rows, a header 28 tall before every tenth;
    each row a flex row aligned center inside its 8 pt padding (gap 12) of a 29 pt icon, a
    title label that grows from its width and a detail label: rows 45 tall; checked, and
    every frame against layoutd's with --compare."""
    import stretchable as st
    from stretchable.style import AlignItems, FlexDirection
    from stretchable.style.geometry.length import AUTO
    named, rows, styles = [], [], {}

    def style(kind, w, h):
        if (kind, w, h) not in styles:
            styles[kind, w, h] = (st.Style(size=(AUTO, h), min_size=(w, AUTO), flex_basis=w, flex_grow=1, flex_shrink=0) if kind == "title"
                                  else st.Style(size=(w, h), flex_shrink=0))
        return styles[kind, w, h]

    def build():
        header = st.Style(size=(AUTO, 28), flex_shrink=0)
        icon = st.Style(size=(29, 29), flex_shrink=0)
        row = st.Style(flex_direction=FlexDirection.ROW, gap=12, align_items=AlignItems.CENTER, padding=8, flex_shrink=0)
        feed = st.Node(flex_direction=FlexDirection.COLUMN, flex_shrink=0)
        root = st.Node(feed, size=(ROOT_WIDTH, ROOT_HEIGHT), flex_direction=FlexDirection.COLUMN, align_items=AlignItems.STRETCH)
        for i in range(n):
            if i % 10 == 0:
                h = st.Node(style=header)
                feed.add(h)
                if frames is not None:
                    named.append((f"header{i // 10}", h))
            parts = [st.Node(style=icon), st.Node(style=style("title", *label_size(i, 1))),
                     st.Node(style=style("detail", 40 + (i * 7) % 40, 16))]
            rows.append(st.Node(*parts, style=row))
            feed.add(rows[-1])
            if frames is not None:
                named.extend([(f"row{i}", rows[-1]), (f"icon{i}", parts[0]), (f"l1_{i}", parts[1]), (f"detail{i}", parts[2])])
        named.append(("feed", feed))
        return root

    def grow():
        grown = rows[n // 2][1]
        w, h = label_size(n // 2, 1)
        grown.style = style("title", w, h + GROWTH)
        return grown, h + GROWTH, max(29, h + GROWTH) - max(29, h)  # the row is as tall as its tallest

    last_row = lambda: (rows[n - 1], (n - 1) * 45 + ((n - 1) // 10 + 1) * 28)  # noqa: E731
    return taffy_measure(build, last_row, grow, named, frames)


def record(named, frames):
    """Each named node's box (relative to its parent, as layoutd's frames) into `frames`."""
    if frames is not None:
        for id, node in named:
            b = node.border_box
            frames[id] = (b.x, b.y, b.width, b.height)


def compare(screen, n, path):
    """Every frame of layoutd's answer (`POST /v1/layout` of `families.py SCREEN N`, in
    PATH) beside Taffy's first layout of the same screen: exits naming the first that differs."""
    ours = {}
    TAFFY_SCREENS[screen](n, frames=ours)
    theirs = json.load(open(path))["frames"]
    for id, got in ours.items():
        f = theirs[id]
        want = (f["x"], f["y"], f["width"], f["height"])
        if any(abs(a - b) > 0.01 for a, b in zip(got, want)):
            sys.exit(f"{screen} {n}: {id} is {got} in Taffy, {want} in layoutd")
    print(f"{screen} {n}: {len(ours)} frames agree")


# Yoga (poga's binding of the Yoga C API)

def yoga_run(n):
    from poga import libpoga_capi as Y
    config = Y.YGConfigNew()

    def node(width=None, height=None):
        nd = Y.YGNodeNewWithConfig(config)
        if width is not None:
            Y.YGNodeStyleSetWidth(nd, width)
            Y.YGNodeStyleSetHeight(nd, height)
        return nd

    def build():
        # Yoga's defaults: flex-direction column, align-items stretch, flex-shrink 0.
        root = node(ROOT_WIDTH, ROOT_HEIGHT)
        feed = node()
        Y.YGNodeInsertChild(root, feed, 0)
        rows, second_labels = [], []
        for i in range(n):
            row = node()
            Y.YGNodeStyleSetFlexDirection(row, Y.YGFlexDirection.Row)
            Y.YGNodeStyleSetAlignItems(row, Y.YGAlign.FlexStart)
            avatar = node(40, 40)
            Y.YGNodeStyleSetMargin(avatar, Y.YGEdge.Right, 12)  # the row's gap
            col = node()
            Y.YGNodeStyleSetAlignItems(col, Y.YGAlign.FlexStart)
            l1, l2 = node(*label_size(i, 1)), node(*label_size(i, 2))
            Y.YGNodeStyleSetMargin(l2, Y.YGEdge.Top, 4)  # the column's gap
            Y.YGNodeInsertChild(col, l1, 0)
            Y.YGNodeInsertChild(col, l2, 1)
            Y.YGNodeInsertChild(row, avatar, 0)
            Y.YGNodeInsertChild(row, col, 1)
            Y.YGNodeInsertChild(feed, row, i)
            rows.append(row)
            second_labels.append(l2)
        return root, rows, second_labels

    def layout(root):
        Y.YGNodeCalculateLayout(root, Y.YGUndefined, Y.YGUndefined, Y.YGDirection.LTR)

    build_ms, (root, rows, second_labels) = timed(build)
    try:
        first_ms, _ = timed(layout, root)
        check("yoga", "last row y", Y.YGNodeLayoutGetTop(rows[-1]), ROW_HEIGHT * (n - 1))
        l2 = second_labels[-1]
        check("yoga", "last cell's second label size",
              (Y.YGNodeLayoutGetWidth(l2), Y.YGNodeLayoutGetHeight(l2)), label_size(n - 1, 2))

        grown = second_labels[n // 2]
        h = label_size(n // 2, 2)[1]
        # A style setter marks the node and its ancestors dirty (YGNodeMarkDirty is only for
        # nodes with a measure function).
        Y.YGNodeStyleSetHeight(grown, h + GROWTH)
        check("yoga", "root dirty after the style change", Y.YGNodeIsDirty(root), True)
        relayout_ms, _ = timed(layout, root)
        check("yoga", "last row y after growth", Y.YGNodeLayoutGetTop(rows[-1]), ROW_HEIGHT * (n - 1) + GROWTH)
        check("yoga", "grown label height", Y.YGNodeLayoutGetHeight(grown), h + GROWTH)
    finally:
        Y.YGNodeFreeRecursive(root)
        Y.YGConfigFree(config)
    return build_ms, first_ms, relayout_ms


TAFFY_SCREENS = {"stack-top": taffy_run, "nested": taffy_nested_run, "grid": taffy_grid_run, "table": taffy_table_run}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--engines", nargs="+", choices=["taffy", "yoga"], default=["taffy", "yoga"])
    ap.add_argument("--screen", choices=list(TAFFY_SCREENS), default="stack-top", help="all but stack-top: Taffy only")
    ap.add_argument("--compare", metavar="FRAMES",
                    help="layoutd's answer to `families.py SCREEN N` (N the one --cells): check every frame against Taffy's, time nothing")
    args = ap.parse_args()

    try:
        import stretchable  # noqa: F401
    except ImportError:
        sys.exit("taffy_yoga.py needs the PyPI package `stretchable` (Taffy): python3 -m pip install stretchable")
    if args.compare:
        return compare(args.screen, args.cells[0], args.compare)
    runs = {"taffy": TAFFY_SCREENS[args.screen]} | ({"yoga": yoga_run} if args.screen == "stack-top" else {})
    if "yoga" in runs and "yoga" in args.engines:
        try:
            import poga.libpoga_capi  # noqa: F401
        except ImportError as e:
            print(f"yoga skipped: poga is not importable ({e}); python3 -m pip install poga", file=sys.stderr)
            del runs["yoga"]

    for n in args.cells:
        for engine in args.engines:
            if engine not in runs:
                continue
            reps = [runs[engine](n) for _ in range(args.reps)]
            best = [min(r[k] for r in reps) for k in range(3)]
            print(json.dumps({"engine": engine, "cells": n, "build_ms": round(best[0], 3),
                              "first_layout_ms": round(best[1], 3), "relayout_ms": round(best[2], 3)}), flush=True)


if __name__ == "__main__":
    main()
