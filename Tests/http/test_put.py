"""A whole document sent again (`PUT /v1/sessions/{id}/document`), against the real server
over loopback:

- the answer is a change's: only the frames that moved, `applied` counting what the server
  found; afterwards the session lays out as a one-shot layout of the new document, and
  its unnamed constraints that stayed keep their server-given ids (explain says so);
- the same document again moves nothing (the revision goes on by one);
- a stale or malformed `baseRevision`, and bad documents (a bad expr, a parent cycle, an
  unknown field, a view limit, not an object, another media type), are 4xx with a pointer
  into the document, and the session is exactly as before;
- durable: acknowledged under `strict`, a SIGKILL loses nothing; the restored session
  (its journal replayed) answers the same document, frames and ids, and goes on;
- `?timing=true` times it like any change; `layoutd_document_ops_total` counts what was found.

Run: python3 Tests/http/test_put.py
"""
import copy
import http.client
import json
import os
import random
import re
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "store"))
from layoutd_process import Layoutd  # noqa: E402
from test_store import Server  # noqa: E402

CELL = 11  # constraints a cell of the feed has
WORDS = "the quick brown fox jumps over a lazy dog while layouts wrap at every width".split()


def feed(rng, cells):
    """A root and `cells` cards (an icon, a wrapping label), each below the one before: every
    frame determined, so that any history of changes lays it out alike."""
    views = [{"id": "root", "frame": {"x": 0, "y": 0, "width": 375, "height": 4000}}]
    constraints = []
    for i in range(cells):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12)))
        views += [{"id": f"card{i}", "parent": "root"},
                  {"id": f"icon{i}", "parent": f"card{i}", "intrinsicSize": {"width": 24, "height": 24},
                   "hugging": {"horizontal": 1000, "vertical": 1000}, "compressionResistance": {"horizontal": 1000, "vertical": 1000}},
                  {"id": f"text{i}", "parent": f"card{i}",
                   "text": {"string": text, "font": {"family": "DejaVu Sans", "size": 15}, "numberOfLines": 0}}]
        above = "root.top" if i == 0 else f"card{i - 1}.bottom"
        constraints += [{"expr": f"card{i}.top == {above} + 8"},
                        {"expr": f"card{i}.leading == root.leading + 8"},
                        {"expr": f"card{i}.trailing == root.trailing - 8"},
                        {"expr": f"icon{i}.leading == card{i}.leading + 4"},
                        {"expr": f"icon{i}.top == card{i}.top + 4"},
                        {"id": f"gap{i}", "expr": f"text{i}.leading == icon{i}.trailing + 8"},
                        {"expr": f"text{i}.trailing == card{i}.trailing - 4"},
                        {"expr": f"text{i}.top == card{i}.top + 4"},
                        {"expr": f"card{i}.bottom >= text{i}.bottom + 4"},
                        {"expr": f"card{i}.bottom >= icon{i}.bottom + 4"},
                        {"expr": f"card{i}.bottom == text{i}.bottom + 4 @750"}]
    return {"views": views, "constraints": constraints}


def request(port, method, path, body=None, raw=None, content_type="application/json"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    c.request(method, path, body=data, headers={"Content-Type": content_type})
    r = c.getresponse()
    payload = r.read()
    c.close()
    return r.status, (json.loads(payload) if payload and r.getheader("Content-Type", "").endswith("json") else payload)


class Put(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Layoutd("--max-views", "400")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def call(self, method, path, body=None, **kw):
        return request(self.server.port, method, path, body, **kw)

    def create(self, document):
        status, created = self.call("POST", "/v1/sessions", document)
        self.assertEqual(status, 201, created)
        return created["session"]

    def state(self, sid):
        """Everything a client can read of a session."""
        _, session = self.call("GET", f"/v1/sessions/{sid}")
        _, frames = self.call("GET", f"/v1/sessions/{sid}/frames")
        _, explain = self.call("GET", f"/v1/sessions/{sid}/explain?view=text1&axis=horizontal")
        return session["revision"], session["document"], frames, explain

    def test_the_answer_is_the_change_and_the_session_the_new_document(self):
        rng = random.Random(47)
        old = feed(rng, 6)
        sid = self.create(old)
        ids = [c["id"] for c in self.call("GET", f"/v1/sessions/{sid}")[1]["document"]["constraints"]]
        _, before = self.call("GET", f"/v1/sessions/{sid}/frames")

        new = copy.deepcopy(old)
        new["constraints"][3]["expr"] = "icon0.leading == card0.leading + 20"  # unnamed, constant changed
        new["constraints"][CELL + 5] = {"id": "gap1", "expr": "text1.leading == icon1.trailing + 16"}  # named, constant changed
        new["views"][12]["text"]["string"] = "a different label"  # text3
        status, answer = self.call("PUT", f"/v1/sessions/{sid}/document", dict(new, baseRevision=1))
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["revision"], 2)
        self.assertEqual(answer["applied"], {"addViews": 0, "removeViews": 0, "updateView": 1, "addConstraints": 0,
                                             "removeConstraints": 0, "setConstant": 2, "setPriority": 0, "activate": 0,
                                             "deactivate": 0, "setOptions": 0})
        _, after = self.call("GET", f"/v1/sessions/{sid}/frames")
        moved = {v for v, f in after["frames"].items() if before["frames"][v] != f}
        self.assertEqual(set(answer["frames"]), moved, "exactly the frames that moved")
        self.assertIn("icon0", moved)
        self.assertTrue({"icon1", "text1"} & moved, "gap1's new constant moved its views")
        _, one_shot = self.call("POST", "/v1/layout", new)
        self.assertEqual(after["frames"], one_shot["frames"])
        document = self.call("GET", f"/v1/sessions/{sid}")[1]["document"]
        self.assertEqual([c["id"] for c in document["constraints"]], ids, "every constraint kept its id and place")
        self.assertEqual(document["constraints"][3]["expr"], "icon0.leading == card0.leading + 20")

        # A cell inserted in the middle, one removed: the others keep their ids.
        newer = copy.deepcopy(new)
        newer["views"][7:7] = [{"id": "cardX", "parent": "root"},
                               {"id": "iconX", "parent": "cardX", "intrinsicSize": {"width": 24, "height": 24}},
                               {"id": "textX", "parent": "cardX", "text": {"string": "inserted", "font": {"family": "DejaVu Sans", "size": 15}}}]
        newer["constraints"] += [{"expr": "cardX.top == card5.bottom + 8"}, {"expr": "cardX.leading == root.leading"},
                                 {"expr": "cardX.width == 100"}, {"expr": "iconX.leading == cardX.leading"},
                                 {"expr": "iconX.top == cardX.top"}, {"expr": "textX.leading == iconX.trailing"},
                                 {"expr": "textX.top == cardX.top"}, {"expr": "textX.trailing == cardX.trailing"}]
        # Cell 4 goes: cell 5 now follows cell 3 (a constraint with another second: a new one).
        newer["constraints"] = [{"expr": "card5.top == card3.bottom + 8"} if c["expr"].startswith("card5.top") else c
                                for c in newer["constraints"]]
        newer["views"] = [v for v in newer["views"] if not v["id"].endswith("4")]
        newer["constraints"] = [c for c in newer["constraints"] if "4." not in c["expr"]]
        status, answer = self.call("PUT", f"/v1/sessions/{sid}/document", newer)
        self.assertEqual(status, 200, answer)
        self.assertEqual(sorted(answer["removed"]), ["card4", "icon4", "text4"])
        self.assertEqual((answer["applied"]["addViews"], answer["applied"]["removeViews"]), (3, 3))
        self.assertEqual(answer["applied"]["addConstraints"], 9, "the new cell's and cell 5's new top")
        self.assertEqual(answer["applied"]["removeConstraints"], CELL + 1, "cell 4's and cell 5's old top")
        _, one_shot = self.call("POST", "/v1/layout", newer)
        self.assertEqual(self.call("GET", f"/v1/sessions/{sid}/frames")[1]["frames"], one_shot["frames"])
        listed = self.call("GET", f"/v1/sessions/{sid}")[1]["document"]
        self.assertEqual([v["id"] for v in listed["views"]], [v["id"] for v in newer["views"]], "views in the order sent")
        listed = listed["constraints"]
        self.assertEqual([c["expr"] for c in listed], [c["expr"] for c in newer["constraints"]], "in the order sent")
        survivors = [i for i, c in zip(ids, new["constraints"]) if "4." not in c["expr"] and not c["expr"].startswith("card5.top")]
        self.assertEqual([c["id"] for c in listed if c["id"] in survivors], survivors)
        explained = {c["id"] for c in self.call("GET", f"/v1/sessions/{sid}/explain?view=icon1&axis=horizontal")[1]["constraints"]}
        self.assertIn(ids[CELL + 3], explained, "explain names the unnamed constraint by the id it had")

    def test_the_document_read_back_edited_and_sent(self):
        """GET's document (server ids), a constraint without an id put first and a conflict
        made: accepted, and broken as a new session of it breaks."""
        sid = self.create(feed(random.Random(4), 3))
        document = self.call("GET", f"/v1/sessions/{sid}")[1]["document"]
        document["constraints"].insert(0, {"expr": "card1.width == 80"})  # against card1.width == 100 further on
        status, answer = self.call("PUT", f"/v1/sessions/{sid}/document", document)
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["applied"]["addConstraints"], 1)
        new_id = answer["added"][0]
        self.assertNotIn(new_id, [c.get("id") for c in document["constraints"]])
        status, created = self.call("POST", "/v1/sessions", document)
        self.assertEqual(status, 201, created)
        fresh = created["session"]
        broken = [[d["constraint"] for d in a["diagnostics"] if d["kind"] == "unsatisfiable"] for a in (answer, created)]
        self.assertEqual(broken[0], [new_id], "the one listed first breaks")
        self.assertEqual(len(broken[1]), 1)
        self.assertEqual(self.call("GET", f"/v1/sessions/{sid}/frames")[1]["frames"],
                         self.call("GET", f"/v1/sessions/{fresh}/frames")[1]["frames"])

    def test_the_same_document_again_moves_nothing(self):
        doc = feed(random.Random(3), 3)
        sid = self.create(doc)
        for revision in (2, 3):
            status, answer = self.call("PUT", f"/v1/sessions/{sid}/document", dict(doc, baseRevision=revision - 1))
            self.assertEqual(status, 200, answer)
            self.assertEqual((answer["revision"], answer["frames"], answer["removed"]), (revision, {}, []))
            self.assertEqual(set(answer["applied"].values()), {0})

    def test_bad_documents_and_revisions_leave_the_session_as_it_was(self):
        doc = feed(random.Random(5), 3)
        sid = self.create(doc)
        self.call("PUT", f"/v1/sessions/{sid}/document", dict(doc, constraints=doc["constraints"][1:]))
        before = self.state(sid)
        self.assertEqual(before[0], 2)
        cycle = copy.deepcopy(doc)
        cycle["views"][1]["parent"] = "icon0"
        bad_expr = copy.deepcopy(doc)
        bad_expr["constraints"][4] = {"expr": "icon0.leading == card0.nope + 4"}
        derived = copy.deepcopy(doc)
        derived["constraints"][2]["id"] = "card0.stack.0"
        too_many = copy.deepcopy(doc)
        too_many["views"] += [{"id": f"x{i}", "parent": "root"} for i in range(400)]
        cases = [
            (dict(doc, baseRevision=1), 409, "/baseRevision"),
            (dict(doc, baseRevision="2"), 422, "/baseRevision"),
            (cycle, 422, "/views/1/parent"),
            (bad_expr, 422, "/constraints/4/expr"),
            (derived, 422, "/constraints/2/id"),
            (dict(doc, colour="red"), 422, "/colour"),
            (dict(doc, views=[{"id": "a.b"}]), 422, "/views/0/id"),
            (too_many, 413, ""),
            ([doc], 422, ""),
        ]
        for body, status, pointer in cases:
            got, problem = self.call("PUT", f"/v1/sessions/{sid}/document", body)
            self.assertEqual((got, problem.get("pointer", "")), (status, pointer), problem)
            self.assertEqual(self.state(sid), before, f"unchanged after {problem}")
        got, _ = self.call("PUT", f"/v1/sessions/{sid}/document", raw=b"<views/>", content_type="application/xml")
        self.assertEqual(got, 415)
        got, _ = self.call("PUT", f"/v1/sessions/{sid}/document", raw=b"{not json")
        self.assertEqual(got, 400)
        got, _ = self.call("PUT", "/v1/sessions/0123456789abcdef0123456789abcdef/document", doc)
        self.assertEqual(got, 404)
        self.assertEqual(self.state(sid), before)

    def ops_counted(self, op):
        _, text = self.call("GET", "/metrics")
        m = re.search(rf'^layoutd_document_ops_total{{op="{op}"}} (\d+)', text.decode(), re.M)
        return int(m.group(1)) if m else 0

    def test_timing_and_metrics(self):
        doc = feed(random.Random(9), 2)
        sid = self.create(doc)
        doc["constraints"][0]["expr"] = "card0.top == root.top + 9"
        before = self.ops_counted("setConstant"), self.ops_counted("addViews")
        status, answer = self.call("PUT", f"/v1/sessions/{sid}/document?timing=true", doc)
        self.assertEqual(status, 200)
        self.assertGreater(answer["timing"]["engineMicroseconds"], 0)
        self.assertEqual((self.ops_counted("setConstant"), self.ops_counted("addViews")), (before[0] + 1, before[1]))


class Durable(unittest.TestCase):
    def test_an_acknowledged_put_survives_a_kill_and_replays(self):
        directory = tempfile.mkdtemp(prefix="layoutd-put-")
        server = Server(directory, durability="strict")
        try:
            server.start()
            rng = random.Random(11)
            doc = feed(rng, 4)
            status, _, created = server.request("POST", "/v1/sessions", doc)
            sid = created["session"]
            new = copy.deepcopy(doc)
            new["constraints"][3]["expr"] = "icon0.leading == card0.leading + 30"
            new["views"] = [v for v in new["views"] if v["id"] != "icon2"]
            new["constraints"] = [c for c in new["constraints"] if "icon2" not in c["expr"]]
            new["views"].append({"id": "icon2", "parent": "card1", "intrinsicSize": {"width": 10, "height": 10}})
            new["constraints"] += [{"expr": "icon2.trailing == card1.trailing"}, {"expr": "icon2.top == card1.top"}]
            # In the middle, against card2's leading and trailing further on: it breaks, as
            # listed first, once its place is replayed too.
            new["constraints"].insert(3, {"expr": "card2.width == 50"})
            # A card listed first: the views' order is replayed too.
            new["views"].insert(1, new["views"].pop(next(k for k, v in enumerate(new["views"]) if v["id"] == "card3")))
            status, answer = server.request("PUT", f"/v1/sessions/{sid}/document", new)[::2]
            self.assertEqual(status, 200, answer)
            fresh = server.request("POST", "/v1/sessions", new)[2]["session"]
            order = [v["id"] for v in server.request("GET", f"/v1/sessions/{fresh}")[2]["document"]["views"]]
            self.assertEqual(order[:2], ["root", "card3"])
            self.assertEqual(server.request("POST", "/v1/layout", new)[2]["frames"], server.request("GET", f"/v1/sessions/{sid}/frames")[2]["frames"])
            stored = server.request("GET", f"/v1/sessions/{sid}")[2]
            frames = server.request("GET", f"/v1/sessions/{sid}/frames")[2]
            server.kill()
            server.start()
            restored = server.request("GET", f"/v1/sessions/{sid}")[2]
            self.assertEqual((restored["revision"], restored["document"]), (stored["revision"], stored["document"]))
            self.assertEqual([v["id"] for v in restored["document"]["views"]], order)
            self.assertEqual(server.request("GET", f"/v1/sessions/{sid}/frames")[2], frames)
            # And it goes on: the same document is nothing, an unnamed constant keeps its id.
            new["constraints"][5]["expr"] = "icon0.top == card0.top + 6"
            status, answer = server.request("PUT", f"/v1/sessions/{sid}/document", dict(new, baseRevision=2))[::2]
            self.assertEqual(status, 200, answer)
            self.assertEqual(answer["applied"]["setConstant"], 1)
            self.assertEqual([c["id"] for c in server.request("GET", f"/v1/sessions/{sid}")[2]["document"]["constraints"]],
                             [c["id"] for c in stored["document"]["constraints"]])
        finally:
            server.stop()
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
