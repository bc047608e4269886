"""Every size at once, against the real server over loopback:

- `POST /v1/layout` with `sizes` beside the document's fields answers, keyed by name, what a
  separate one-shot layout with the root at each size answers (labels re-wrapped included);
  a device size takes its screen, scale and safe area from `GET /v1/devices`;
- `POST /v1/sessions/{id}/frames-at` answers the same for a session and leaves it as it
  was: document, revision, frames, explain, `frames?since=`, and the next change;
- hostile sizes (0, negative, 10^7, 10,000 of them, a device and a width, an unknown
  device, two of one name, unknown fields) are 4xx with a pointer to the place, the session
  unchanged; `--max-sizes` and `--max-size-points` set the limits.

Run: python3 Tests/http/test_sizes.py
"""
import http.client
import json
import os
import random
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from layoutd_process import Layoutd  # noqa: E402

WORDS = "the quick brown fox jumps over a lazy dog while layouts wrap at every width".split()


def document(rng, width=375, height=600):
    views = [{"id": "root", "frame": {"x": 0, "y": 0, "width": width, "height": height}}]
    constraints = []
    for i in range(rng.randint(2, 6)):
        if rng.random() < 0.5:
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 16)))
            views.append({"id": f"v{i}", "parent": "root",
                          "text": {"string": text, "font": {"family": "DejaVu Sans", "size": 15}, "numberOfLines": 0}})
        else:
            views.append({"id": f"v{i}", "parent": "root", "intrinsicSize": {"width": rng.randint(10, 90), "height": rng.randint(10, 40)}})
        constraints += [{"expr": f"v{i}.leading == root.leading + {rng.randint(0, 30)}"},
                        {"expr": f"v{i}.trailing <= root.trailing - {rng.randint(0, 30)}"},
                        {"expr": f"v{i}.top == {'root.top' if i == 0 else f'v{i - 1}.bottom'} + {rng.randint(0, 12)}"}]
        if rng.random() < 0.3:
            constraints.append({"expr": f"v{i}.width == root.width * 0.{rng.randint(3, 9)} @500"})
    return {"views": views, "constraints": constraints}


class Sizes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Layoutd("--max-sizes", "16", "--max-size-points", "20000")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def request(self, method, path, body=None, raw=None):
        c = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=60)
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        c.request(method, path, body=data, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        payload = r.read()
        c.close()
        return r.status, json.loads(payload) if payload and r.getheader("Content-Type", "").endswith("json") else payload

    def test_each_size_is_a_one_shot_layout_at_that_size(self):
        rng = random.Random(46)
        sizes = [{"width": 320, "height": 568}, {"name": "narrow", "width": 140, "height": 900}, {"width": 1024, "height": 300}]
        for trial in range(15):
            doc = document(rng)
            status, answer = self.request("POST", "/v1/layout", dict(doc, sizes=sizes))
            self.assertEqual(status, 200, answer)
            self.assertEqual(list(answer["sizes"]), ["320x568", "narrow", "1024x300"])
            for size, (name, at) in zip(sizes, answer["sizes"].items()):
                alone = json.loads(json.dumps(doc))
                alone["views"][0]["frame"].update(width=size["width"], height=size["height"])
                status, expected = self.request("POST", "/v1/layout", alone)
                self.assertEqual(status, 200)
                self.assertEqual((at["width"], at["height"]), (size["width"], size["height"]))
                self.assertEqual(at["diagnostics"], expected["diagnostics"], (trial, name))
                for view, frame in expected["frames"].items():
                    for k in ("x", "y", "width", "height"):
                        self.assertAlmostEqual(at["frames"][view][k], frame[k], places=6, msg=(trial, name, view, k))

    def test_sizes_anywhere_in_the_body_and_the_word_elsewhere(self):
        doc = document(random.Random(5))
        first = json.dumps({"sizes": [{"width": 300, "height": 500}], **doc}).encode()
        status, answer = self.request("POST", "/v1/layout", raw=first)
        self.assertEqual((status, list(answer["sizes"])), (200, ["300x500"]))
        # A view named "sizes" is not a sizes member: a plain answer.
        named = json.loads(json.dumps(doc))
        named["views"].append({"id": "sizes", "parent": "root"})
        status, answer = self.request("POST", "/v1/layout", named)
        self.assertEqual(status, 200)
        self.assertIn("sizes", answer["frames"])

    def test_a_device_size_is_its_screen_scale_and_safe_area(self):
        status, devices = self.request("GET", "/v1/devices")
        device = next(d for d in devices["devices"] if d["id"] == "retina6_12" and d["orientation"] == "landscape")
        doc = document(random.Random(7))
        status, answer = self.request("POST", "/v1/layout", dict(doc, sizes=[{"device": "retina6_12", "orientation": "landscape"}]))
        self.assertEqual(status, 200, answer)
        (name, at), = answer["sizes"].items()
        self.assertEqual(name, device["name"] + " landscape")
        self.assertEqual((at["width"], at["height"], at["scale"]), (device["width"], device["height"], device["scale"]))
        self.assertEqual(at["safeArea"], device["safeArea"])
        self.assertEqual(at["frames"]["root"]["width"], device["width"])
        # Rounded to its pixels (scale 3): every edge a multiple of 1/3.
        for f in at["frames"].values():
            self.assertAlmostEqual(f["x"] * 3, round(f["x"] * 3), places=6)

    def test_frames_at_leaves_the_session_as_it_was(self):
        doc = document(random.Random(11))
        status, created = self.request("POST", "/v1/sessions", doc)
        sid = created["session"]
        before = [self.request("GET", f"/v1/sessions/{sid}{p}")[1] for p in ("", "/frames", "/explain?view=v0", "/trace")]
        status, answer = self.request("POST", f"/v1/sessions/{sid}/frames-at",
                                      {"sizes": [{"width": 200, "height": 900}, {"device": "retina4_0"}]})
        self.assertEqual(status, 200, answer)
        status, one_shot = self.request("POST", "/v1/layout", dict(doc, sizes=[{"width": 200, "height": 900}, {"device": "retina4_0"}]))
        self.assertEqual(answer, one_shot, "a session's sizes are a one-shot layout's")
        after = [self.request("GET", f"/v1/sessions/{sid}{p}")[1] for p in ("", "/frames", "/explain?view=v0", "/trace")]
        for b, a in ((before[0], after[0]),):
            b["stats"].pop("pivots"), a["stats"].pop("pivots")  # work the engine did, not its state
        self.assertEqual(before, after)
        status, since = self.request("GET", f"/v1/sessions/{sid}/frames?since={created['revision']}")
        self.assertEqual(since["frames"], {})
        change = {"ops": [{"op": "updateView", "id": "root", "frame": {"x": 0, "y": 0, "width": 250, "height": 600}}]}
        status, fresh = self.request("POST", "/v1/sessions", doc)
        self.assertEqual(self.request("POST", f"/v1/sessions/{sid}/changes", change)[1]["frames"],
                         self.request("POST", f"/v1/sessions/{fresh['session']}/changes", change)[1]["frames"])

    def test_hostile_sizes_are_refused_with_a_pointer(self):
        doc = document(random.Random(3))
        status, created = self.request("POST", "/v1/sessions", doc)
        sid = created["session"]
        before = self.request("GET", f"/v1/sessions/{sid}")[1]
        cases = [
            ([{"width": 0, "height": 10}], 422, "/sizes/0/width"),
            ([{"width": 10, "height": -5}], 422, "/sizes/0/height"),
            ([{"width": 1e7, "height": 10}], 422, "/sizes/0/width"),
            ([{"width": 30000, "height": 10}], 422, "/sizes/0/width"),  # past --max-size-points 20000
            ([{"width": 10, "height": 10}] * 10000, 413, "/sizes"),
            ([{"width": 10, "height": 10}] * 17, 413, "/sizes"),  # past --max-sizes 16
            ([], 422, "/sizes"),
            ([{"width": 10}], 422, "/sizes/0/height"),
            ([{"device": "retina4_0", "width": 10}], 422, "/sizes/0/width"),
            ([{"device": "nokia3310"}], 422, "/sizes/0/device"),
            ([{"device": "retina4_0", "orientation": "sideways"}], 422, "/sizes/0/orientation"),
            ([{"width": 10, "height": 10}, {"width": 10, "height": 10}], 422, "/sizes/1/name"),
            ([{"width": 10, "height": 10, "colour": "red"}], 422, "/sizes/0/colour"),
            ([{"width": 10, "height": 10, "scale": 0}], 422, "/sizes/0/scale"),
            ([{"width": "wide", "height": 10}], 422, "/sizes/0/width"),
            ("all", 422, "/sizes"),
        ]
        for sizes, status, pointer in cases:
            for path, body in (("/v1/layout", dict(doc, sizes=sizes)), (f"/v1/sessions/{sid}/frames-at", {"sizes": sizes})):
                got, problem = self.request("POST", path, body)
                self.assertEqual((got, problem.get("pointer")), (status, pointer), (path, str(sizes)[:80], problem))
        self.assertEqual(self.request("POST", f"/v1/sessions/{sid}/frames-at", {"sizes": [], "extra": 1})[1]["pointer"], "/extra")
        self.assertEqual(self.request("POST", "/v1/sessions/" + "0" * 32 + "/frames-at", {"sizes": [{"width": 1, "height": 1}]})[0], 404)
        after = self.request("GET", f"/v1/sessions/{sid}")[1]
        self.assertEqual(before, after)
        self.assertEqual(self.request("GET", "/healthz")[0], 200)


if __name__ == "__main__":
    unittest.main(verbosity=2)
