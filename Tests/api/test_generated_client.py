"""openapi.yaml is exact enough for a mainstream generator: openapi-python-client (PyPI)
turns it into a client, used here unmodified against the real server (LAYOUTD_BIN) over
loopback: a one-shot layout, a session's life (create, set-constants, changes, frames,
explain, exercise-ambiguity, delete) and problems parsed as the `Problem` model. The server
wants an API key (`--auth-file`): the generator's `AuthenticatedClient` sends it from the
bearer scheme the description declares; its plain `Client` is answered 401.

Run: python3 Tests/api/test_generated_client.py (generates into a temporary directory).
"""
import hashlib
import importlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "debug", "layoutd"))


def generate():
    """The client, generated without a warning: a warning is a model or an endpoint the
    generator left out (two inline schemas it named alike dropped `ComparedAnswer` once)."""
    out = tempfile.mkdtemp(prefix="layoutd-generated-")
    run = subprocess.run(["openapi-python-client", "generate", "--path", os.path.join(ROOT, "openapi.yaml"),
                          "--config", os.path.join(ROOT, "Tests", "api", "python-client.yml"),
                          "--output-path", os.path.join(out, "client"), "--overwrite"], check=True, capture_output=True, text=True, timeout=300)
    said = run.stdout + run.stderr
    if "warning" in said.lower():
        raise AssertionError("openapi-python-client warned: every model and endpoint must be generated\n" + said)
    sys.path.insert(0, os.path.join(out, "client"))
    return importlib.import_module("layoutd_client")


KEY = "generated-client-key"


class GeneratedClient(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = generate()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            cls.port = s.getsockname()[1]
        auth = os.path.join(tempfile.mkdtemp(prefix="layoutd-generated-keys-"), "tenants.json")
        with open(auth, "w") as f:
            json.dump({"tenants": [{"name": "generated", "keys": ["sha256:" + hashlib.sha256(KEY.encode()).hexdigest()]}]}, f)
        cls.proc = subprocess.Popen([BIN, "--port", str(cls.port), "--store", "memory", "--log-level", "warning", "--auth-file", auth],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cls.client = cls.lib.AuthenticatedClient(base_url=f"http://127.0.0.1:{cls.port}", token=KEY, raise_on_unexpected_status=True)
        cls.anonymous = cls.lib.Client(base_url=f"http://127.0.0.1:{cls.port}", raise_on_unexpected_status=True)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", cls.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(timeout=30)

    def api(self, name):
        return importlib.import_module(f"layoutd_client.api.default.{name}")

    def document(self):
        m = importlib.import_module("layoutd_client.models")
        return m.Document.from_dict({
            "views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 200}}, {"id": "avatar", "parent": "root"},
                      {"id": "title", "parent": "root", "intrinsicSize": {"width": 120, "height": 20}}],
            "constraints": [{"id": "lead", "expr": "avatar.leading == root.leading + 16"}, {"expr": "avatar.top == root.top + 16"},
                            {"id": "size", "first": "avatar.width", "constant": 40}, {"expr": "avatar.height == avatar.width"},
                            {"id": "row", "visual": "H:[avatar]-(gap)-[title]", "options": ["alignAllTop"], "metrics": {"gap": 8}}]})

    def test_without_the_key_a_problem_401(self):
        answer = self.api("layout_once").sync_detailed(client=self.anonymous, body=self.document())
        self.assertEqual(answer.status_code, 401)
        self.assertEqual(answer.parsed.status, 401)
        self.assertEqual(answer.parsed.type_, "/problems/unauthorized")

    def test_layout_once(self):
        r = self.api("layout_once").sync(client=self.client, body=self.document())
        frames = r.frames.to_dict()
        self.assertEqual(frames["title"], {"x": 64, "y": 16, "width": 120, "height": 20})
        self.assertEqual(r.diagnostics, [])

    def test_text_stacks_and_fitting(self):
        """v1.1 through the generated models: a label, a stack, a fitting size."""
        m = importlib.import_module("layoutd_client.models")
        doc = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 200}},
                         {"id": "row", "parent": "root", "kind": "stack",
                          "stack": {"distribution": "fillEqually", "alignment": "center", "spacing": 10, "arrangedSubviews": ["icon", "label"]}},
                         {"id": "icon", "parent": "row", "intrinsicSize": {"width": 20, "height": 20}},
                         {"id": "label", "parent": "row", "text": {"string": "Hello", "font": {"family": "DejaVu Sans", "size": 17}}}],
               "constraints": [{"expr": "row.leading == root.leading"}, {"expr": "row.trailing == root.trailing"}, {"expr": "row.top == root.top"}]}
        r = self.api("layout_once").sync(client=self.client, body=m.Document.from_dict(doc))
        frames = r.frames.to_dict()
        self.assertEqual(frames["icon"]["width"], 145)
        self.assertEqual(frames["label"]["x"], 155)
        fitted = self.api("fitting_size_once").sync(client=self.client, body=m.FittingSizeOnceBody.from_dict(
            {"document": doc, "view": "row", "horizontalFittingPriority": 50}))
        self.assertEqual(fitted.view, "row")
        self.assertGreater(fitted.width, 0)
        fonts = self.api("fonts").sync(client=self.client)
        self.assertIn("DejaVu Sans", [f.family for f in fonts.fonts])

    def test_a_session(self):
        m = importlib.import_module("layoutd_client.models")
        created = self.api("create_session").sync(client=self.client, body=self.document())
        sid = created.session
        self.assertEqual(created.revision, 1)
        answer = self.api("set_constants").sync(id=sid, client=self.client, body=m.SetConstantsBody.from_dict({"lead": 20}))
        self.assertEqual(answer.revision, 2)
        self.assertEqual(answer.frames.to_dict()["title"]["x"], 68)
        answer = self.api("apply_changes").sync(id=sid, client=self.client, body=m.Changes.from_dict(
            {"baseRevision": 2, "ops": [{"op": "setConstant", "id": "row.0", "constant": 12},
                                        {"op": "updateView", "id": "title", "hidden": True}]}))
        # Each op is its own generated model (the schema's discriminated oneOf).
        ops = m.Changes.from_dict({"ops": [{"op": "updateView", "id": "title", "hidden": True}]}).ops
        self.assertEqual(type(ops[0]).__name__, "UpdateViewOp")
        self.assertEqual(answer.frames.to_dict()["title"]["x"], 72)
        self.assertTrue(answer.frames.to_dict()["title"]["hidden"])
        frames = self.api("get_frames").sync(id=sid, client=self.client, since=1)
        self.assertEqual(set(frames.frames.to_dict()), {"avatar", "title"})
        explained = self.api("explain").sync(id=sid, client=self.client, view="title", axis=m.Axis("horizontal"))
        self.assertIn("row.0", [c.id for c in explained.constraints])
        problem = self.api("set_constants").sync(id=sid, client=self.client, body=m.SetConstantsBody.from_dict({"nope": 1}))
        self.assertIsInstance(problem, m.Problem)
        self.assertEqual((problem.status, problem.pointer), (422, "/nope"))
        state = self.api("get_session").sync(id=sid, client=self.client)
        self.assertEqual(state.revision, 3)
        # The whole document again, the title shown: one view updated, the answer's `applied` typed.
        put = m.DocumentPut.from_dict(dict(state.document.to_dict(), baseRevision=3))
        put.views[-1].hidden = False
        answer = self.api("put_document").sync(id=sid, client=self.client, body=put)
        self.assertEqual((answer.revision, answer.applied.update_view, answer.applied.add_views), (4, 1, 0))
        self.assertFalse(answer.frames.to_dict()["title"].get("hidden", False))
        self.api("delete_session").sync_detailed(id=sid, client=self.client)
        gone = self.api("get_frames").sync(id=sid, client=self.client)
        self.assertIsInstance(gone, m.Problem)
        self.assertEqual(gone.status, 404)


if __name__ == "__main__":
    unittest.main(verbosity=2)
