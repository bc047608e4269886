"""Labels measured by the server, checked against HarfBuzz itself (PyPI's uharfbuzz on the
same font file fontconfig picks), over loopback HTTP against the real server:

- one-line widths (Latin with kerning, Arabic, CJK, bold) equal the advances uharfbuzz
  shapes, scaled to the size; heights are lines × the font's own line height;
- a wrapping label's line count and height at a width equal a greedy fill of uharfbuzz's
  word widths; numberOfLines cuts; a newline starts a line;
- narrowing a label with a set-constant re-wraps it: its height grows, the view below it
  moves, both are reported, and nothing else is; widening it back restores the frames;
- GET /v1/fonts lists the families; an unknown family and text beside intrinsicSize are 422
  with a pointer, and a session is left as it was;
- every string of Unicode's LineBreakTest.txt and GraphemeBreakTest.txt (Debian's
  unicode-data) as a label at two widths, word and char wrapping: 200, the server alive after
  each request; a line never ends inside a grapheme cluster (flags, ZWJ families, marks).

The oracle is independent of the measurer under test: HarfBuzz as uharfbuzz bundles it
(pinned in the Makefile, 0.57.0) against Debian's libharfbuzz in the server, on the same font
file. Widths and heights agree to 1e-6 points (`places=6`): both shape unhinted at design
units and scale, so they differ only by rounding.

Run: python3 Tests/text/test_text.py
"""
import json
import os
import subprocess
import sys
import unittest
import urllib.error
import urllib.request

import uharfbuzz as hb

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from layoutd_process import Layoutd  # noqa: E402

FAMILY, SIZE = "DejaVu Sans", 17.0


def font_file(pattern):
    return subprocess.run(["fc-match", "-f", "%{file}", pattern], capture_output=True, text=True, check=True).stdout


class Oracle:
    """HarfBuzz on the font file: advances and extents at design units, scaled."""

    def __init__(self, path, size):
        blob = hb.Blob.from_file_path(path)
        self.face = hb.Face(blob)
        self.font = hb.Font(self.face)
        self.scale = size / self.face.upem
        e = self.font.get_font_extents("ltr")
        self.line_height = (e.ascender - e.descender + e.line_gap) * self.scale

    def width(self, text):
        buf = hb.Buffer()
        buf.add_str(text)
        buf.guess_segment_properties()
        hb.shape(self.font, buf)
        return sum(p.x_advance for p in buf.glyph_positions) * self.scale

    def lines(self, text, width):
        """Greedy filling at spaces (the words here have no other break opportunity)."""
        words, lines, current = text.split(" "), 0, None
        for w in words:
            trial = w if current is None else current + " " + w
            if current is not None and self.width(trial) > width + 1e-9:
                lines, current = lines + 1, w
            else:
                current = trial
        return lines + (current is not None)


class TextTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.layoutd = Layoutd()
        cls.port = cls.layoutd.port
        cls.regular = Oracle(font_file(FAMILY), SIZE)
        cls.bold = Oracle(font_file(f"{FAMILY}:weight=200"), SIZE)   # fontconfig's bold is 200

    @classmethod
    def tearDownClass(cls):
        cls.layoutd.stop()

    def call(self, method, path, body=None):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def label(self, string, lines=1, width=None, **font):
        """A one-shot layout of one label at the root's origin, `width` wide when given."""
        constraints = [{"expr": "label.left == root.left"}, {"expr": "label.top == root.top"}]
        if width is not None:
            constraints.append({"expr": f"label.width == {width}"})
        doc = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 1000, "height": 1000}},
                         {"id": "label", "parent": "root",
                          "text": {"string": string, "font": {"family": FAMILY, "size": SIZE, **font}, "numberOfLines": lines}}],
               "constraints": constraints}
        status, answer = self.call("POST", "/v1/layout", doc)
        self.assertEqual(status, 200, answer)
        return answer["frames"]["label"]

    def test_one_line_widths_are_harfbuzz_advances(self):
        for text in ["Hello, world", "AVAVAV Ta To", "مرحبا بالعالم", "日本語のテキスト", "naïve café ﬁ"]:
            frame = self.label(text)
            self.assertAlmostEqual(frame["width"], self.regular.width(text), places=6, msg=text)
            self.assertAlmostEqual(frame["height"], self.regular.line_height, places=6, msg=text)
        self.assertAlmostEqual(self.label("Bold text", weight=700)["width"], self.bold.width("Bold text"), places=6)
        self.assertGreater(self.bold.width("Bold text"), self.regular.width("Bold text"))

    def test_wrapping_follows_the_width(self):
        text = "Ken Ferry liked your post about the internals of the layout engine"
        for width in [120, 180, 260, 400]:
            frame = self.label(text, lines=0, width=width)
            expected = self.regular.lines(text, width)
            self.assertAlmostEqual(frame["height"], expected * self.regular.line_height, places=6, msg=f"at {width}")
        self.assertAlmostEqual(self.label(text, lines=2, width=120)["height"], 2 * self.regular.line_height, places=6)
        self.assertAlmostEqual(self.label("one\ntwo\nthree", lines=0)["height"], 3 * self.regular.line_height, places=6)
        self.assertAlmostEqual(self.label("one\ntwo\nthree", lines=0)["width"], self.regular.width("three"), places=6)
        # Arabic and CJK wrap too.
        self.assertGreater(self.label("مرحبا بالعالم هذا نص طويل للاختبار", lines=0, width=100)["height"], self.regular.line_height)
        self.assertGreater(self.label("日本語のテキストは単語の間に空白がありません", lines=0, width=100)["height"], 2 * self.regular.line_height)

    def test_a_narrowing_drag_rewraps_and_moves_what_is_below(self):
        doc = {"views": [{"id": "card", "frame": {"x": 0, "y": 0, "width": 300, "height": 600}},
                         {"id": "title", "parent": "card",
                          "text": {"string": "Ken Ferry liked your post about the layout engine", "font": {"family": FAMILY, "size": SIZE},
                                   "numberOfLines": 0}},
                         {"id": "below", "parent": "card"}, {"id": "side", "parent": "card"}],
               "constraints": [{"expr": "title.leading == card.leading + 10"}, {"id": "edge", "expr": "title.trailing == card.trailing - 10"},
                               {"expr": "title.top == card.top + 10"}, {"expr": "below.top == title.bottom + 8"},
                               {"expr": "below.leading == card.leading"}, {"expr": "below.width == 50"}, {"expr": "below.height == 20"},
                               {"expr": "side.top == card.top"}, {"expr": "side.leading == card.leading"},
                               {"expr": "side.width == 10"}, {"expr": "side.height == 10"}]}
        status, created = self.call("POST", "/v1/sessions", doc)
        self.assertEqual(status, 201, created)
        sid, first = created["session"], created["frames"]
        text = doc["views"][1]["text"]["string"]
        self.assertAlmostEqual(first["title"]["height"], self.regular.lines(text, 280) * self.regular.line_height, places=6)
        status, narrowed = self.call("POST", f"/v1/sessions/{sid}/constants", {"edge": -150})
        self.assertEqual(status, 200, narrowed)
        self.assertEqual(set(narrowed["frames"]), {"title", "below"})
        lines = self.regular.lines(text, 140)
        self.assertGreater(lines, self.regular.lines(text, 280))
        self.assertAlmostEqual(narrowed["frames"]["title"]["height"], lines * self.regular.line_height, places=6)
        self.assertAlmostEqual(narrowed["frames"]["below"]["y"], 10 + lines * self.regular.line_height + 8, places=6)
        status, back = self.call("POST", f"/v1/sessions/{sid}/constants", {"edge": -10})
        self.assertEqual(back["frames"]["title"], first["title"])
        self.assertEqual(back["frames"]["below"], first["below"])
        # Measurements are counted.
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics") as r:
            metrics = r.read().decode()
        count = next(float(l.split()[1]) for l in metrics.splitlines() if l.startswith("layoutd_text_measurements_total"))
        self.assertGreater(count, 0)

    def test_fitting_size_of_a_self_sizing_cell(self):
        """POST /fitting-size (session and one-shot): the height a full layout at that width gives."""
        def doc(width):
            return {"views": [{"id": "table", "frame": {"x": 0, "y": 0, "width": width, "height": 900}}, {"id": "cell", "parent": "table"},
                              {"id": "label", "parent": "cell", "text": {"string": "A self-sizing cell wraps its label to the width it is given",
                                                                        "font": {"family": FAMILY, "size": SIZE}, "numberOfLines": 0}}],
                    "constraints": [{"expr": "cell.top == table.top"}, {"expr": "cell.leading == table.leading"}, {"expr": "cell.width == table.width"},
                                    {"expr": "label.leading == cell.leading + 16"}, {"expr": "label.trailing == cell.trailing - 16"},
                                    {"expr": "label.top == cell.top + 11"}, {"expr": "cell.bottom == label.bottom + 11"}]}
        status, created = self.call("POST", "/v1/sessions", doc(375))
        sid = created["session"]
        for width in (375, 200):
            status, fitted = self.call("POST", f"/v1/sessions/{sid}/fitting-size", {"view": "cell", "targetSize": {"width": width, "height": 0}})
            self.assertEqual(status, 200, fitted)
            _, full = self.call("POST", "/v1/layout", doc(width))
            self.assertAlmostEqual(fitted["height"], full["frames"]["cell"]["height"], places=9)
            lines = self.regular.lines(doc(width)["views"][2]["text"]["string"], width - 32)
            self.assertAlmostEqual(fitted["height"], 22 + lines * self.regular.line_height, places=6)
        status, once = self.call("POST", "/v1/fitting-size", {"document": doc(375), "view": "cell", "targetSize": {"width": 200}})
        self.assertEqual((status, once["view"]), (200, "cell"))
        self.assertAlmostEqual(once["height"], fitted["height"], places=9)
        status, state = self.call("GET", f"/v1/sessions/{sid}")
        self.assertEqual(state["revision"], 1)
        status, frames = self.call("GET", f"/v1/sessions/{sid}/frames")
        self.assertEqual(frames["frames"], created["frames"])

    def test_every_string_of_unicodes_break_tests(self):
        strings = []
        for name in ("LineBreakTest.txt", "GraphemeBreakTest.txt"):
            with open(f"/usr/share/unicode/auxiliary/{name}", encoding="utf-8") as f:
                for line in f:
                    body = line.split("#", 1)[0].split()
                    points = [int(t, 16) for t in body if t not in ("×", "÷")]
                    if points:
                        # A lone surrogate cannot travel in JSON's UTF-8; none is in these files.
                        strings.append("".join(chr(p) for p in points if not 0xD800 <= p <= 0xDFFF))
        self.assertGreater(len(strings), 8000)
        batch = 400
        for start in range(0, len(strings), batch):
            chunk = strings[start:start + batch]
            for width, mode in ((1, "word"), (40, "char")):
                views = [{"id": "root", "frame": {"x": 0, "y": 0, "width": 1000, "height": 1000}}]
                constraints = []
                for k, text in enumerate(chunk):
                    views.append({"id": f"l{k}", "parent": "root",
                                  "text": {"string": text, "font": {"family": FAMILY, "size": SIZE}, "numberOfLines": 0, "lineBreak": mode}})
                    constraints += [{"expr": f"l{k}.left == root.left"}, {"expr": f"l{k}.top == root.top"}, {"expr": f"l{k}.width == {width}"}]
                status, answer = self.call("POST", "/v1/layout", {"views": views, "constraints": constraints})
                self.assertEqual(status, 200, f"strings {start}..{start + len(chunk)} at {width} ({mode}): {answer}")
                self.assertEqual(len(answer["frames"]), len(chunk) + 1)
            status, _ = self.call("GET", "/healthz")
            self.assertEqual(status, 200)

    def test_a_line_never_ends_inside_a_grapheme_cluster(self):
        one = self.regular.line_height
        # At a width of one point every cluster has a line of its own: the line count is the
        # cluster count, whatever the code points in each.
        for text, clusters in [("🇫🇷🇩🇪🇯🇵", 3), ("👨‍👩‍👧‍👦👍🏽", 2), ("e\u0301e\u0301", 2), ("#\uFE0F\u20E3x", 2), ("Hi 🇫🇷", 3),
                               ("🇫", 1), ("a\uFFFEb\uFFFF", 4)]:
            for mode in ("word", "char"):
                frame = self.wrapped(text, 1, mode)
                self.assertAlmostEqual(frame["height"], clusters * one, places=6, msg=f"{text!r} {mode}")

    def wrapped(self, string, width, mode):
        doc = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 1000, "height": 1000}},
                         {"id": "label", "parent": "root",
                          "text": {"string": string, "font": {"family": FAMILY, "size": SIZE}, "numberOfLines": 0, "lineBreak": mode}}],
               "constraints": [{"expr": "label.left == root.left"}, {"expr": "label.top == root.top"}, {"expr": f"label.width == {width}"}]}
        status, answer = self.call("POST", "/v1/layout", doc)
        self.assertEqual(status, 200, answer)
        return answer["frames"]["label"]

    def test_a_label_without_a_font_has_the_default_one(self):
        status, fonts = self.call("GET", "/v1/fonts")
        default = next((f["family"] for f in fonts["fonts"] if f["family"] == "Inter"), FAMILY)
        def one(text):
            doc = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 1000, "height": 1000}},
                             {"id": "label", "parent": "root", "text": text}],
                   "constraints": [{"expr": "label.left == root.left"}, {"expr": "label.top == root.top"}]}
            status, answer = self.call("POST", "/v1/layout", doc)
            self.assertEqual(status, 200, answer)
            return answer["frames"]["label"]
        stated = one({"string": "Hello, world", "font": {"family": default, "size": 17}})
        self.assertEqual(one({"string": "Hello, world", "font": {"family": default}}), stated)
        self.assertGreater(stated["width"], 50)
        # No family: the system font, the default family tracked as San Francisco is at 17
        # points where that family is Inter (-0.40 a cluster), at 17 points when no size.
        system = one({"string": "Hello, world"})
        self.assertEqual(one({"string": "Hello, world", "font": {"size": 17}}), system)
        tracked = stated["width"] - (12 * 0.40 if default == "Inter" else 0)
        self.assertAlmostEqual(system["width"], tracked, places=6)
        self.assertEqual(system["height"], stated["height"])

    def test_fonts_and_refusals(self):
        status, fonts = self.call("GET", "/v1/fonts")
        self.assertEqual(status, 200)
        dejavu = next(f for f in fonts["fonts"] if f["family"] == FAMILY)
        self.assertIn(400, dejavu["weights"])
        bad = {"views": [{"id": "a", "text": {"string": "x", "font": {"family": "Comic Nope", "size": 12}}}]}
        status, problem = self.call("POST", "/v1/layout", bad)
        self.assertEqual((status, problem["pointer"]), (422, "/views/0/text/font/family"))
        both = {"views": [{"id": "a", "intrinsicSize": {"width": 3}, "text": {"string": "x", "font": {"family": FAMILY, "size": 12}}}]}
        status, problem = self.call("POST", "/v1/layout", both)
        self.assertEqual((status, problem["pointer"]), (422, "/views/0/text"))
        status, created = self.call("POST", "/v1/sessions", {"views": [{"id": "a", "text": {"string": "x", "font": {"family": FAMILY, "size": 12}}}]})
        sid = created["session"]
        status, problem = self.call("POST", f"/v1/sessions/{sid}/changes",
                                    {"ops": [{"op": "updateView", "id": "a", "text": {"string": "y", "font": {"family": FAMILY, "size": 0}}}]})
        self.assertEqual((status, problem["pointer"]), (422, "/ops/0/text/font/size"))
        status, state = self.call("GET", f"/v1/sessions/{sid}")
        self.assertEqual(state["revision"], 1)
        self.assertEqual(state["document"]["views"][0]["text"]["string"], "x")


if __name__ == "__main__":
    unittest.main(verbosity=2)
