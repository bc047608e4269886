"""The Python client against the real layoutd (LAYOUTD_BIN, default .build/debug/layoutd)
over loopback: every method, errors as LayoutdError, gzip, and a stream."""
import os
import socket
import subprocess
import sys
import time

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from layoutd import Client, Frame, LayoutdError  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "debug", "layoutd"))

CARD = {
    "views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 200}},
              {"id": "avatar", "parent": "root"},
              {"id": "title", "parent": "root", "intrinsicSize": {"width": 120, "height": 20}}],
    "constraints": [{"id": "avatarLeading", "expr": "avatar.leading == root.leading + 16"},
                    {"expr": "avatar.top == root.top + 16"}, {"expr": "avatar.width == 40"}, {"expr": "avatar.height == 40"},
                    {"id": "gap", "expr": "title.leading == avatar.trailing + 8"}, {"expr": "title.top == avatar.top"}],
}


def start_server(*flags):
    """A server on a free loopback port and a Client for it, once it answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([BIN, "--port", str(port), "--store", "memory", "--log-level", "warning", *flags],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c = Client(f"http://127.0.0.1:{port}")
    for _ in range(200):
        try:
            c.request("GET", "/healthz")
            break
        except OSError:
            time.sleep(0.05)
    return proc, c


@pytest.fixture(scope="module")
def client():
    proc, c = start_server()
    yield c
    proc.terminate()
    proc.wait(timeout=30)


def test_layout(client):
    r = client.layout(CARD)
    assert r.frames["avatar"] == Frame(16, 16, 40, 40)
    assert r.frames["title"] == Frame(64, 16, 120, 20)
    assert r.diagnostics == []


def test_many_sizes(client):
    at = client.layout(CARD, sizes=[{"width": 320, "height": 200}, {"name": "phone", "device": "retina4_0", "orientation": "landscape"}])
    assert list(at) == ["320x200", "phone"]
    assert at["320x200"].frames["avatar"] == Frame(16, 16, 40, 40) and at["320x200"].frames["root"].width == 320
    assert (at["phone"].width, at["phone"].height, at["phone"].scale, at["phone"].device) == (568, 320, 2, "retina4_0")
    assert at["phone"].safe_area == {"top": 0, "left": 0, "bottom": 0, "right": 0}
    s = client.create_session(CARD)
    assert s.frames_at([{"width": 320, "height": 200}])["320x200"].frames == at["320x200"].frames
    assert s.frames().revision == 1


def test_pictures(client):
    svg = client.render(CARD, sizes=[{"width": 320, "height": 200}, {"width": 200, "height": 200}])
    assert svg.startswith(b"<svg") and svg.count(b'data-view-id="avatar"') == 2
    png = client.render(CARD, format="png", scale=2)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png[16:20], "big") == 640  # the IHDR width: 320 points at scale 2
    s = client.create_session(CARD)
    assert s.snapshot().count(b"data-view-id=") == 3
    assert s.snapshot("png")[:4] == b"\x89PNG"


def test_session_changes_constants_frames(client):
    s = client.create_session(CARD)
    assert s.revision == 1 and len(s.id) == 32
    assert s.first_frames["title"].x == 64
    r = s.set_constants({"avatarLeading": 20})
    assert r.revision == 2 == s.revision
    assert set(r.frames) == {"avatar", "title"} and r.frames["title"].x == 68
    r = s.changes([{"op": "addViews", "views": [{"id": "badge", "parent": "root"}]},
                   {"op": "addConstraints", "constraints": [{"expr": "badge.left == title.right"}]}], base_revision=2)
    assert r.revision == 3 and r.added == ["c5"]
    assert {d.kind for d in r.diagnostics} == {"ambiguous"}
    assert {(d.fields["view"], d.fields["axis"]) for d in r.diagnostics} == {("badge", "horizontal"), ("badge", "vertical")}
    r = s.changes([{"op": "removeViews", "ids": ["badge"]}])
    assert r.removed == ["badge"] and r.diagnostics == []
    since = s.frames(since=1)
    assert not since.full and set(since.frames) == {"avatar", "title"} and since.removed == ["badge"]
    everything = s.frames()
    assert everything.full and set(everything.frames) == {"root", "avatar", "title"}
    first = s.document()["constraints"][0]   # set since: an expr still, with its new constant
    assert first == {"id": "avatarLeading", "expr": "avatar.leading == root.leading + 20"}
    s.delete()
    with pytest.raises(LayoutdError) as e:
        s.frames()
    assert e.value.status == 404


def test_errors_name_the_place(client):
    s = client.create_session(CARD)
    with pytest.raises(LayoutdError) as e:
        s.changes([{"op": "setConstant", "id": "gap", "constant": 1}, {"op": "setConstant", "id": "nope", "constant": 1}])
    assert (e.value.status, e.value.pointer) == (422, "/ops/1/id")
    assert "nope" in e.value.detail and e.value.title
    assert s.frames().revision == 1, "a refused change changes nothing"
    with pytest.raises(LayoutdError) as e:
        s.changes([], base_revision=7)
    assert e.value.status == 409
    with pytest.raises(LayoutdError) as e:
        client.layout({"views": [{"id": "a", "frame": {"x": 0, "y": 0, "width": -1, "height": 1}}]})
    assert (e.value.status, e.value.pointer) == (422, "/views/0/frame/width")


def test_inspection(client):
    s = client.create_session({"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 100, "height": 100}},
                                         {"id": "saturn", "parent": "root"}],
                               "constraints": [{"expr": "saturn.width == 10"}, {"expr": "saturn.height == 10"},
                                               {"id": "top", "expr": "saturn.top == root.top"}]})
    assert "AMBIGUOUS LAYOUT horizontal" in s.trace()
    other = s.exercise_ambiguity()
    assert "saturn" in other and other["saturn"].width == 10
    explained = s.explain("saturn", "vertical")
    assert [c.id for c in explained] == ["c2", "top"] and explained[1].description == "saturn.top == root.top"


def test_gzip_both_ways(client):
    doc = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 375, "height": 5000}}]
           + [{"id": f"v{i}", "parent": "root"} for i in range(200)],
           "constraints": [c for i in range(200) for c in (
               {"expr": f"v{i}.left == root.left"}, {"expr": f"v{i}.width == 100"}, {"expr": f"v{i}.height == 20"},
               {"expr": f"v{i}.top == root.top + {i * 20}"})]}
    r = client.layout(doc)   # a 20 KB body, sent gzip; a large answer, received gzip
    assert len(r.frames) == 201 and r.frames["v199"] == Frame(0, 3980, 100, 20)


def test_stream(client):
    s = client.create_session(CARD)
    with s.stream() as stream:
        for k in range(1, 31):
            r = stream.set_constants({"avatarLeading": 16 + k})
            assert r.frames["avatar"].x == 16 + k and r.revision == 1 + k
        r = stream.changes([{"op": "setConstant", "id": "gap", "constant": 10}])
        assert r.frames["title"].x == 16 + 30 + 40 + 10
        with pytest.raises(LayoutdError) as e:
            stream.set_constants({"nope": 1})
        assert e.value.status == 422
        assert stream.set_constants({"avatarLeading": 0}).frames["avatar"].x == 0, "the stream stays open after a problem"
    assert s.revision == 33 == s.frames().revision


def test_put_the_whole_document(client):
    import copy
    s = client.create_session(CARD)
    ids = [c["id"] for c in s.document()["constraints"]]
    edited = copy.deepcopy(CARD)
    edited["constraints"][1]["expr"] = "avatar.top == root.top + 24"  # unnamed: keeps its id
    edited["views"].append({"id": "badge", "parent": "root", "intrinsicSize": {"width": 8, "height": 8}})
    edited["constraints"] += [{"expr": "badge.leading == avatar.leading"}, {"expr": "badge.top == avatar.top"}]
    r = s.put(edited, base_revision=1)
    assert r.revision == 2 == s.revision
    assert set(r.frames) == {"avatar", "title", "badge"} and r.frames["avatar"].y == 24
    assert (r.applied["setConstant"], r.applied["addViews"], r.applied["addConstraints"], r.applied["removeViews"]) == (1, 1, 2, 0)
    assert [c["id"] for c in s.document()["constraints"]][:len(ids)] == ids
    assert s.put(edited).frames == {} and s.revision == 3, "the same document again moves nothing"
    with pytest.raises(LayoutdError) as e:
        s.put(edited, base_revision=1)
    assert e.value.status == 409
    with pytest.raises(LayoutdError) as e:
        s.put({"views": CARD["views"], "constraints": [{"expr": "avatar.nope == 1"}]})
    assert e.value.status == 422 and e.value.pointer.startswith("/constraints/0")
    with s.stream() as stream:
        r = stream.put(CARD, base_revision=3)
        assert r.removed == ["badge"] and r.frames["avatar"].y == 16 and r.applied["removeViews"] == 1
        with pytest.raises(LayoutdError) as e:
            stream.put({"views": [{"id": "root", "parent": "root"}]})
        assert e.value.status == 422 and e.value.pointer == "/document/views/0/parent"
        with pytest.raises(LayoutdError) as e:
            stream.put(dict(CARD, baseRevision=4))
        assert e.value.status == 422 and e.value.pointer == "/document/baseRevision", "beside the document only"
    assert s.revision == 4 == s.frames().revision
    assert s.document()["constraints"] == client.create_session(CARD).document()["constraints"]


def test_labels_stacks_and_fitting_sizes(client):
    fonts = client.fonts()
    assert any(f["family"] == "DejaVu Sans" for f in fonts)
    cell = {"views": [{"id": "table", "frame": {"x": 0, "y": 0, "width": 320, "height": 600}}, {"id": "cell", "parent": "table"},
                      {"id": "row", "parent": "cell", "kind": "stack",
                       "stack": {"axis": "vertical", "spacing": 4, "arrangedSubviews": ["title", "body"]}},
                      {"id": "title", "parent": "row", "text": {"string": "A title", "font": {"family": "DejaVu Sans", "size": 17}}},
                      {"id": "body", "parent": "row", "text": {"string": "A body long enough to wrap over more than one line at this width",
                                                               "font": {"family": "DejaVu Sans", "size": 14}, "numberOfLines": 0}}],
            "constraints": [{"expr": "cell.top == table.top"}, {"expr": "cell.leading == table.leading"}, {"expr": "cell.width == table.width"},
                            {"expr": "row.leading == cell.leading + 16"}, {"expr": "row.trailing == cell.trailing - 16"},
                            {"expr": "row.top == cell.top + 8"}, {"expr": "cell.bottom == row.bottom + 8"}]}
    s = client.create_session(cell)
    assert client.layout(cell).diagnostics == []
    width, height = s.fitting_size("cell", (320, 0))
    assert (width, height) == (320, s.frames().frames["cell"].height)
    narrow = s.fitting_size("cell", (200, 0))
    assert narrow[1] > height, "narrower: the body wraps to more lines"
    assert client.fitting_size(cell, "cell", (200, 0)) == narrow
    assert s.revision == 1
    roles = {c.id: c.role for c in s.explain("body", "horizontal")}
    assert roles["body.compression.h"] == "unsatisfied", "narrower than its text: wrapped"
    assert any(id.startswith("row.stack.") and role == "determining" for id, role in roles.items())


def test_interface_builder_documents(client):
    storyboard = os.path.join(ROOT, "Tests", "InterfaceBuilderTests", "Fixtures", "scene.storyboard")
    answer = client.layout_ib(storyboard, content_sizes="stored")
    assert answer.device["id"] == "retina4_7"
    (root,) = answer.roots
    assert (root.name, root.kind, root.root) == ("vc1", "scene", "root")
    assert root.frames["card"] == Frame(20, 40, 335, 100)
    assert root.diagnostics == [] and root.error is None
    # Its document keeps as a session, which a drag follows.
    s = client.create_session(root.document)
    assert s.frames().frames["card"] == root.frames["card"]
    assert s.set_constants({"c8": 50}).frames["card"].y == 70
    # On another device, by bytes; the devices the server knows.
    with open(storyboard, "rb") as f:
        wide = client.layout_ib(f.read(), device="retina5_5", content_sizes="stored")
    assert wide.roots[0].frames["footer"] == Frame(20, 676, 374, 60)
    assert {"retina4_7", "retina5_5"} <= {d["id"] for d in client.devices()}
    with pytest.raises(LayoutdError) as e:
        client.layout_ib(b"<document>\n<objects>\n</document>")
    assert e.value.status == 400 and e.value.body["line"] == 3


def test_a_refusal_says_when_to_retry():
    proc, c = start_server("--max-sessions", "1")
    try:
        c.create_session(CARD)
        with pytest.raises(LayoutdError) as e:
            c.create_session(CARD)
        assert e.value.status == 429
        assert e.value.retry_after is not None and e.value.retry_after > 0
        with pytest.raises(LayoutdError) as e:
            c.layout({"views": [{"id": "a", "parent": "nowhere"}]})
        assert e.value.status == 422 and e.value.retry_after is None
    finally:
        proc.terminate()
        proc.wait(timeout=30)
