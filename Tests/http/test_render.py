"""Pictures of layouts, against the real server over loopback:

- the SVG of `POST /v1/render` and of a session's `snapshot.svg` has a box for every shown
  view at the frame the layout answers (in the root's coordinates: frames are in their
  parent's), none for a hidden view or what it holds, guides dashed, ambiguous views and a
  conflict's views marked;
- a label's text is its glyph outlines, on as many lines as the layout measured (the path's
  contours fall in that many line bands);
- many sizes are one contact sheet, a picture per size at that size's frames;
- the PNG (`Accept: image/png`, `?scale=`) is decoded by an independent decoder (Pillow):
  its size is the sheet's times the scale, and the pixels on a box's edge are the box's
  colour, inside an unmarked box the paper's;
- a scale out of range is 400, a picture past `--max-picture-pixels` 413, another's or a
  missing session's snapshot 404;
- `POST /v1/compare` of two answers: equal for the same layout; a changed constant lists
  exactly the views that moved, with their deltas, past the tolerance only; missing, extra
  and hidden views named; sizes compared size by size; drawn over each other as SVG (the
  moved boxes red) or PNG; bad input answered with a pointer.

Run: python3 Tests/http/test_render.py
"""
import http.client
import io
import json
import os
import re
import sys
import time
import unittest
import xml.etree.ElementTree as ET

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from layoutd_process import Layoutd  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"
LABEL = {"family": "DejaVu Sans", "size": 17}
DOC = {
    "views": [
        {"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 240}},
        {"id": "card", "parent": "root"},
        {"id": "title", "parent": "card", "text": {"string": "The quick brown fox jumps over the lazy dog, again and again and again",
                                                   "font": LABEL, "numberOfLines": 0}},
        {"id": "guide", "parent": "root", "kind": "guide"},
        {"id": "drawer", "parent": "root", "hidden": True},
        {"id": "inDrawer", "parent": "drawer"},
        {"id": "loose", "parent": "root"},
        {"id": "a", "parent": "root"},
    ],
    "constraints": [
        {"expr": "card.leading == root.leading + 10"}, {"expr": "card.trailing == root.trailing - 10"},
        {"expr": "card.top == root.top + 12"}, {"expr": "card.bottom == title.bottom + 8"},
        {"expr": "title.leading == card.leading + 8"}, {"expr": "title.trailing == card.trailing - 8"}, {"expr": "title.top == card.top + 8"},
        {"expr": "guide.leading == root.leading + 20"}, {"expr": "guide.width == 60"}, {"expr": "guide.top == card.bottom + 10"},
        {"expr": "guide.height == 30"},
        {"expr": "drawer.leading == root.leading"}, {"expr": "drawer.top == root.top"}, {"expr": "drawer.width == 50"}, {"expr": "drawer.height == 50"},
        {"expr": "inDrawer.leading == drawer.leading + 5"}, {"expr": "inDrawer.top == drawer.top + 5"},
        {"expr": "inDrawer.width == 10"}, {"expr": "inDrawer.height == 10"},
        # loose: a width and height, and nothing for its x: ambiguous.
        {"expr": "loose.top == guide.bottom + 10"}, {"expr": "loose.width == 80"}, {"expr": "loose.height == 30"},
        # a: asked to be 50 and 70 wide, both required: a conflict.
        {"expr": "a.leading == root.leading + 200"}, {"expr": "a.top == guide.top"}, {"expr": "a.height == 30"},
        {"id": "narrow", "expr": "a.width == 50"}, {"id": "wide", "expr": "a.width == 70"},
    ],
}


def absolute(frames, doc):
    parents = {v["id"]: v.get("parent") for v in doc["views"]}

    def at(view):
        f = frames[view]
        p = parents.get(view)
        if p is None:
            return f["x"], f["y"]
        x, y = at(p)
        return x + f["x"], y + f["y"]
    return {v: (*at(v), f["width"], f["height"]) for v, f in frames.items()}


def line_bands(path, line_height):
    """How many lines the path's contours start on (each glyph contour begins with M)."""
    ys = [float(m.group(2)) for m in re.finditer(r"M(-?[\d.]+) (-?[\d.]+)", path)]
    return len({int(y // line_height) for y in ys})


class Render(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Layoutd("--max-picture-pixels", "4000000", "--max-picture-glyphs", "100000")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def request(self, method, path, body=None, accept=None):
        c = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        headers = {"Content-Type": "application/json"}
        if accept:
            headers["Accept"] = accept
        c.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, r.getheader("Content-Type"), data

    def layout(self, doc):
        status, _, data = self.request("POST", "/v1/layout", doc)
        self.assertEqual(status, 200, data)
        return json.loads(data)

    def check_picture(self, group, answer):
        """The boxes of one size's picture against that size's answer."""
        frames = absolute(answer["frames"], DOC)
        rects = {r.get("data-view-id"): r for r in group.iter(SVG_NS + "rect") if r.get("data-view-id")}
        shown = set(frames) - {"drawer", "inDrawer"}
        self.assertEqual(set(rects), shown, "a box for every shown view, none for a hidden one or what it holds")
        for view, (x, y, w, h) in frames.items():
            if view not in shown:
                continue
            r = rects[view]
            got = tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
            for g, e in zip(got, (x, y, w, h)):
                self.assertAlmostEqual(g, e, delta=0.001, msg=view)
        self.assertIn("guide", rects["guide"].get("class").split())
        self.assertIn("ambiguous", rects["loose"].get("class").split())
        self.assertIn("conflict", rects["a"].get("class").split())
        self.assertEqual(rects["card"].get("class"), "view")
        # The label's text: its outlines, on the lines the layout measured.
        line_height = 19.7890625  # DejaVu Sans at 17 points: (ascender - descender + gap) x 17 / units per em
        lines = round(answer["frames"]["title"]["height"] / line_height)
        path = next(p for p in group.iter(SVG_NS + "path") if p.get("data-view-id") == "title")
        self.assertEqual(line_bands(path.get("d"), line_height), lines)
        self.assertEqual(int(path.get("data-lines")), lines)
        return lines

    def test_the_svg_draws_every_shown_view_at_its_frame(self):
        answer = self.layout(DOC)
        status, ctype, svg = self.request("POST", "/v1/render", DOC)
        self.assertEqual((status, ctype), (200, "image/svg+xml"))
        root = ET.fromstring(svg)
        self.assertEqual((root.get("width"), root.get("height")), ("320", "240"))
        groups = root.findall(SVG_NS + "g")
        self.assertEqual(len(groups), 1)
        self.assertGreaterEqual(self.check_picture(groups[0], answer), 2)

    def test_a_label_is_drawn_on_the_lines_the_layout_wrapped_at_a_pixel_scale(self):
        # A label as wide as its text (hugging it): rounded to pixels its frame can come out a
        # pixel narrower than the engine's width; the picture must not wrap it for that.
        for x in (0.3, 0.7, 1.2, 2.45):
            doc = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 400, "height": 100}},
                             {"id": "t", "parent": "root", "text": {"string": "Hugging its text", "font": LABEL, "numberOfLines": 0}}],
                   "constraints": [{"expr": f"t.leading == root.leading + {x}"}, {"expr": "t.top == root.top"}],
                   "options": {"scale": 3}}
            svg = ET.fromstring(self.request("POST", "/v1/render", doc)[2])
            path = next(p for p in svg.iter(SVG_NS + "path") if p.get("data-view-id") == "t")
            self.assertEqual(path.get("data-lines"), "1", x)

    def test_many_sizes_are_one_contact_sheet(self):
        sizes = [{"width": 200, "height": 300}, {"name": "wide", "width": 600, "height": 200}]
        at = self.layout(dict(DOC, sizes=sizes))["sizes"]
        status, _, svg = self.request("POST", "/v1/render", dict(DOC, sizes=sizes))
        self.assertEqual(status, 200, svg)
        groups = ET.fromstring(svg).findall(SVG_NS + "g")
        self.assertEqual(len(groups), 2)
        lines = [self.check_picture(g, a) for g, a in zip(groups, at.values())]
        self.assertGreater(lines[0], lines[1], "the narrow size wraps the label onto more lines")
        captions = [t.text for t in ET.fromstring(svg).iter(SVG_NS + "text") if t.get("class") == "caption"]
        self.assertEqual(captions, ["200×300", "wide 600×200"])

    def test_a_sessions_snapshot_and_its_png(self):
        status, _, created = self.request("POST", "/v1/sessions", DOC)
        sid = json.loads(created)["session"]
        status, ctype, svg = self.request("GET", f"/v1/sessions/{sid}/snapshot.svg")
        self.assertEqual((status, ctype), (200, "image/svg+xml"))
        self.check_picture(ET.fromstring(svg).find(SVG_NS + "g"), self.layout(DOC))
        status, ctype, png = self.request("GET", f"/v1/sessions/{sid}/snapshot.png?scale=2")
        self.assertEqual((status, ctype), (200, "image/png"))
        image = Image.open(io.BytesIO(png)).convert("RGB")
        self.assertEqual(image.size, (640, 480))
        frames = absolute(self.layout(DOC)["frames"], DOC)
        x, y, w, h = frames["card"]
        blue = (0x3B, 0x82, 0xF6)
        # The card's left edge (a 1-point stroke centred on it: two pixels at scale 2).
        edge = image.getpixel((int(x * 2), int((y + h / 2) * 2)))
        self.assertTrue(all(abs(a - b) <= 40 for a, b in zip(edge, blue)), edge)
        # Inside the card, left of the label: paper.
        self.assertEqual(image.getpixel((int(x * 2) + 6, int((y + h / 2) * 2))), (255, 255, 255))
        # The conflicting view: its red edge.
        ax, ay, aw, ah = frames["a"]
        red = image.getpixel((int((ax + aw / 2) * 2), int(ay * 2)))
        self.assertTrue(red[0] > 180 and red[1] < 100 and red[2] < 100, red)
        # Somewhere in the label's first line, ink.
        tx, ty, tw, th = frames["title"]
        row = [image.getpixel((px, int((ty + 10) * 2))) for px in range(int(tx * 2), int((tx + tw) * 2))]
        self.assertTrue(any(sum(p) < 200 for p in row), "no glyph ink on the label's first line")

    def test_accept_picks_the_format_and_limits_hold(self):
        status, ctype, png = self.request("POST", "/v1/render", DOC, accept="image/png")
        self.assertEqual((status, ctype, png[:8]), (200, "image/png", b"\x89PNG\r\n\x1a\n"))
        self.assertEqual(self.request("POST", "/v1/render", DOC, accept="image/svg+xml, image/png")[1], "image/svg+xml")
        self.assertEqual(self.request("POST", "/v1/render?scale=100", DOC, accept="image/png")[0], 400)
        big = json.loads(json.dumps(DOC))
        big["views"][0]["frame"].update(width=3000, height=3000)
        status, ctype, problem = self.request("POST", "/v1/render", big, accept="image/png")
        self.assertEqual(status, 413, problem)
        self.assertEqual(self.request("POST", "/v1/render", big)[0], 200, "an SVG has no pixels to limit")
        status, _, problem = self.request("POST", "/v1/render", dict(DOC, sizes=[{"width": 0, "height": 1}]))
        self.assertEqual((status, json.loads(problem)["pointer"]), (422, "/sizes/0/width"))
        self.assertEqual(self.request("GET", "/v1/sessions/" + "0" * 32 + "/snapshot.png")[0], 404)
        # Frames past any pixel count (multipliers of a million, twice): drawn or refused, never a crash.
        huge = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 100, "height": 100}},
                          {"id": "a", "parent": "root"}, {"id": "b", "parent": "root"}, {"id": "c", "parent": "root"}],
                "constraints": [{"expr": "c.width == 10000000"}, {"expr": "b.width == c.width * 1000000"},
                                {"expr": "a.width == b.width * 1000000"}, {"expr": "a.height == 10"}, {"expr": "b.height == 10"},
                                {"expr": "c.height == 10"}, {"expr": "a.left == root.left"}, {"expr": "b.left == root.left"}, {"expr": "c.left == root.left"},
                                {"expr": "a.top == root.top"}, {"expr": "b.top == root.top"}, {"expr": "c.top == root.top"}]}
        status, ctype, svg = self.request("POST", "/v1/render", huge)
        self.assertEqual(status, 200)
        ET.fromstring(svg)
        self.assertEqual(self.request("POST", "/v1/render", huge, accept="image/png")[0], 200, "the sheet is the root's size")
        self.assertEqual(self.request("GET", "/healthz")[0], 200)
        # Wider than cairo draws, within the pixel budget.
        wide = json.loads(json.dumps(DOC))
        wide["views"][0]["frame"].update(width=40000, height=50)
        self.assertEqual(self.request("POST", "/v1/render", wide, accept="image/png")[0], 413)

    def test_a_long_label_in_a_narrow_width_is_drawn_in_linear_time_or_refused(self):
        def one_word_a_line(words):
            return {"views": [{"id": "r", "frame": {"x": 0, "y": 0, "width": 320, "height": 480}},
                              {"id": "l", "parent": "r", "text": {"string": "W " * words, "font": {"family": "DejaVu Sans", "size": 17},
                                                                  "numberOfLines": 0}}],
                    "constraints": [{"expr": "l.left == r.left"}, {"expr": "l.top == r.top"}, {"expr": "l.width == 1"}]}
        # 32,000 lines of one glyph: each line's glyphs were found by scanning all of them
        # (4.7 s, release); now a range of them.
        t0 = time.monotonic()
        status, _, svg = self.request("POST", "/v1/render", one_word_a_line(32_000))
        self.assertEqual(status, 200)
        self.assertLess(time.monotonic() - t0, 5, "one-word lines drawn in linear time (debug build)")
        path = next(p for p in ET.fromstring(svg).iter(SVG_NS + "path") if p.get("data-view-id") == "l")
        self.assertEqual(int(path.get("data-lines")), 32_000)
        # Past --max-picture-glyphs (100,000 here): refused before anything is drawn.
        status, _, problem = self.request("POST", "/v1/render", one_word_a_line(60_000))
        self.assertEqual(status, 413, problem)
        self.assertIn("--max-picture-glyphs", json.loads(problem)["detail"])
        status, _, _ = self.request("POST", "/v1/render", dict(one_word_a_line(20_000), sizes=[{"name": f"s{i}", "width": 320, "height": 480} for i in range(3)]))
        self.assertEqual(status, 413, "a sheet's sizes share one budget")


    def compare(self, body, accept=None):
        status, ctype, data = self.request("POST", "/v1/compare", body, accept=accept)
        return status, ctype, (json.loads(data) if ctype and "json" in ctype else data)

    def test_compare_two_answers(self):
        before = self.layout(DOC)
        status, _, same = self.compare({"expected": before, "actual": before})
        self.assertEqual((status, same["equal"], same["differences"], same["maxDelta"]), (200, True, [], 0))
        self.assertEqual(same["compared"], len(before["frames"]))
        # The card 5 points further in: the card and what it holds move (in their parent's
        # coordinates only the card and the label's width change), the rest stays.
        moved_doc = json.loads(json.dumps(DOC))
        moved_doc["constraints"][0] = {"expr": "card.leading == root.leading + 15"}
        after = self.layout(moved_doc)
        status, _, c = self.compare({"expected": before, "actual": after, "tolerance": 0.5})
        self.assertFalse(c["equal"])
        changed = {v for v in before["frames"] if before["frames"][v] != after["frames"][v]}
        self.assertEqual({d["view"] for d in c["differences"]}, changed)
        card = next(d for d in c["differences"] if d["view"] == "card")
        self.assertEqual((card["kind"], card["delta"]), ("moved", 5))
        self.assertEqual(self.compare({"expected": before, "actual": after, "tolerance": 5})[2]["differences"], [], "within tolerance")
        # Missing, extra, and a view shown in one and hidden in the other.
        edited = json.loads(json.dumps(before))
        edited["frames"]["new"] = {"x": 0, "y": 0, "width": 1, "height": 1}
        del edited["frames"]["guide"]
        edited["frames"]["a"]["hidden"] = True
        kinds = {d["view"]: d["kind"] for d in self.compare({"expected": before, "actual": edited})[2]["differences"]}
        self.assertEqual(kinds, {"new": "extra", "guide": "missing", "a": "visibility"})
        # Size by size.
        sizes = [{"width": 300, "height": 300}, {"width": 500, "height": 300}]
        a = self.layout(dict(DOC, sizes=sizes))
        b = self.layout(dict(moved_doc, sizes=sizes))
        diffs = self.compare({"expected": a, "actual": b})[2]["differences"]
        self.assertEqual({d["size"] for d in diffs}, {"300x300", "500x300"})
        # Drawn over each other.
        status, ctype, svg = self.compare({"expected": before, "actual": after, "document": DOC}, accept="image/svg+xml")
        self.assertEqual((status, ctype), (200, "image/svg+xml"))
        rects = list(ET.fromstring(svg).iter(SVG_NS + "rect"))
        moved = {r.get("data-view-id") for r in rects if "moved" in (r.get("class") or "").split()}
        self.assertEqual(moved, changed)
        card_rect = next(r for r in rects if r.get("data-view-id") == "card" and "expected" in r.get("class").split())
        self.assertEqual(float(card_rect.get("x")), before["frames"]["card"]["x"])
        status, ctype, png = self.compare({"expected": before, "actual": after}, accept="image/png")
        self.assertEqual((status, ctype, png[:4]), (200, "image/png", b"\x89PNG"))
        # Bad input, with the place.
        for body, pointer in (({"expected": before}, "/actual"), ({"expected": before, "actual": {"frames": {"a": {"x": "1"}}}}, "/actual/frames/a/x"),
                              ({"expected": before, "actual": before, "tolerance": -1}, "/tolerance"),
                              ({"expected": a, "actual": before}, "/actual"), ({"expected": before, "actual": before, "extra": 1}, "/extra")):
            status, _, problem = self.compare(body)
            self.assertEqual((status, problem.get("pointer")), (422, pointer), body.keys())


if __name__ == "__main__":
    unittest.main(verbosity=2)
