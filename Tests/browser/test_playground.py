"""The playground page in a real browser: Debian's chromium and chromium-driver, Selenium
from PyPI, headless, against the real server over loopback.

- the first example is laid out on load: every view is drawn, each rect's position and size
  are its frame from GET /frames (made absolute through its parents), to the page's scale;
- a drag with real pointer events on a picked constraint streams set-constants: the frames
  move, the drawn rects match GET /frames, layoutd_stream_messages_total rises, the revision
  counter is the server's, the timeline has a row per revision with the engine's timing;
- the unsatisfiable example highlights the broken constraint and its conflict set, and the
  views they name; the ambiguous one marks the view, explains it, and exercises another
  layout without keeping it; a bad document shows the problem at its pointer; the 100-cell
  feed draws all 501 views;
- an edit of the editor's text is put into the same session (PUT …/document): one revision an
  edit, the page's status says what the server applied, the drawn rects follow the changed and
  removed frames; a bad edit is shown at its pointer and changes nothing; an edit on a session
  changed elsewhere (409) reads it again and is put over it, one on a session gone (404) makes
  a new one;
- the size picker: two devices and a width picked, the strip draws the document at the three
  sizes (a picture each, every view's box in each) and offers it as SVG and PNG;
- a session's `snapshot.svg` opened in the browser: every view's rect where its frame is, the
  label's glyph outlines inside its box.

Screenshots go to .build/playground-screenshots/ (printed at the end).

Run: python3 Tests/browser/test_playground.py [-k NAME]
"""
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time
import unittest
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from layoutd_process import ROOT, Layoutd  # noqa: E402

SHOTS = os.path.join(ROOT, ".build", "playground-screenshots")


class PlaygroundTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.layoutd = Layoutd()
        cls.port, cls.base = cls.layoutd.port, cls.layoutd.base
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900",
                     f"--user-data-dir={tempfile.mkdtemp(prefix='layoutd-chromium-')}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        cls.browser = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        os.makedirs(SHOTS, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.layoutd.stop()
        print(f"\nscreenshots: {SHOTS}")

    def tearDown(self):
        # Any error the page logged (an uncaught exception, a module or file that failed to
        # load) fails the test; the API's own 4xx answers, which the page shows, do not.
        errors = [e for e in self.browser.get_log("browser") if e["level"] == "SEVERE"
                  and not (e["source"] == "network" and ("/v1/" in e["message"] or "/favicon.ico" in e["message"]))]
        self.assertEqual(errors, [], "the page logged errors")

    # MARK: helpers

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            body = r.read()
            return json.loads(body) if r.headers.get_content_type().endswith("json") else body.decode()

    def post(self, path, body):
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def open(self, query=""):
        self.browser.get(self.base + "/" + query)
        WebDriverWait(self.browser, 20).until(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        return self.browser.find_element(By.TAG_NAME, "body").get_attribute("data-session")

    def rect(self, view):
        return self.browser.find_element(By.CSS_SELECTOR, f'#canvas rect[data-view-id="{view}"]')

    def drawn(self):
        out = {}
        for r in self.browser.find_elements(By.CSS_SELECTOR, "#canvas rect[data-view-id]"):
            out[r.get_attribute("data-view-id")] = {k: float(r.get_attribute(k)) for k in ("x", "y", "width", "height")}
        return out

    def absolute(self, session):
        """GET /frames made absolute through the document's parents."""
        frames = self.get(f"/v1/sessions/{session}/frames")["frames"]
        parents = {v["id"]: v.get("parent") for v in self.get(f"/v1/sessions/{session}")["document"]["views"]}
        out = {}

        def place(v):
            if v not in out:
                f = frames[v]
                p = parents[v]
                o = place(p) if p else {"x": 0, "y": 0}
                out[v] = {"x": o["x"] + f["x"], "y": o["y"] + f["y"], "width": f["width"], "height": f["height"]}
            return out[v]

        for v in frames:
            place(v)
        return out

    def assertDrawnAsServed(self, session):
        served, drawn = self.absolute(session), self.drawn()
        self.assertEqual(set(drawn), set(served))
        for v, f in served.items():
            for k in f:
                self.assertAlmostEqual(drawn[v][k], f[k], places=6, msg=f"{v}.{k}")

    def stream_messages(self):
        text = self.get("/metrics")
        m = re.search(r'^layoutd_stream_messages_total\{direction="in"\} (\S+)$', text, re.M)
        return float(m.group(1)) if m else 0.0

    def requests(self, route, method, status):
        """How many requests layoutd_http_requests_total counted for the route, method and status."""
        pattern = rf'^layoutd_http_requests_total\{{route="{re.escape(route)}",method="{method}",status="{status}"\}} (\S+)$'
        m = re.search(pattern, self.get("/metrics"), re.M)
        return float(m.group(1)) if m else 0.0

    def edit(self, document, keyboard=False):
        """The editor's text replaced by the document, laid out with the button or Ctrl+Enter."""
        editor = self.browser.find_element(By.ID, "editor")
        text = json.dumps(document, indent=2)
        self.browser.execute_script("arguments[0].value = arguments[1]", editor, text)
        if keyboard:
            ActionChains(self.browser).key_down(Keys.CONTROL).send_keys_to_element(editor, Keys.ENTER).key_up(Keys.CONTROL).perform()
        else:
            self.browser.find_element(By.ID, "run").click()
        return text

    def editor_document(self):
        return json.loads(self.browser.find_element(By.ID, "editor").get_attribute("value"))

    def page(self, attribute):
        return self.browser.find_element(By.TAG_NAME, "body").get_attribute(f"data-{attribute}")

    def status(self):
        return self.browser.find_element(By.ID, "status").text

    def shot(self, name):
        path = os.path.join(SHOTS, f"{name}.png")
        self.browser.save_screenshot(path)
        self.assertGreater(os.path.getsize(path), 1000)

    def wait(self, condition, timeout=10):
        return WebDriverWait(self.browser, timeout).until(lambda b: condition())

    # MARK: tests

    def test_first_example_is_laid_out_on_load_and_drawn_to_scale(self):
        session = self.open()
        self.assertRegex(session, r"^[0-9a-f]{32}$")
        self.assertDrawnAsServed(session)
        # To scale on screen too: a rect's size in pixels is its size in points times the scale.
        scale = float(self.browser.find_element(By.ID, "canvas").get_attribute("data-scale"))
        card = self.rect("card")
        self.assertAlmostEqual(card.size["width"], 375 * scale, delta=1.5)
        self.assertAlmostEqual(card.size["height"], 120 * scale, delta=1.5)
        self.assertEqual(self.browser.find_element(By.ID, "revision").text, "1")
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "#diagnostics li[data-diagnostic-kind]"), [])
        self.shot("card")

    def test_a_drag_streams_set_constants_and_the_frames_follow(self):
        session = self.open("?example=card")
        before = self.absolute(session)
        self.rect("avatar").click()
        radio = self.wait(lambda: self.browser.find_element(By.CSS_SELECTOR, 'input[data-drag-constraint="avatarLeading"]'))
        radio.click()
        messages = self.stream_messages()
        scale = float(self.browser.find_element(By.ID, "canvas").get_attribute("data-scale"))
        actions = ActionChains(self.browser, duration=20).click_and_hold(self.rect("avatar"))
        for _ in range(12):
            actions.move_by_offset(5, 0)
        actions.release().perform()
        # Settled: the stream has nothing in flight, and the page's revision is the server's.
        body = self.browser.find_element(By.TAG_NAME, "body")
        self.wait(lambda: body.get_attribute("data-stream-idle") == "true"
                  and body.get_attribute("data-revision") == str(self.get(f"/v1/sessions/{session}/frames")["revision"]) != "1")
        revision = self.get(f"/v1/sessions/{session}/frames")["revision"]
        self.assertGreater(revision, 1)
        self.assertEqual(self.browser.find_element(By.ID, "revision").text, str(revision))
        self.assertGreater(self.stream_messages(), messages)
        after = self.absolute(session)
        moved = after["avatar"]["x"] - before["avatar"]["x"]
        self.assertAlmostEqual(moved, 60 / scale, delta=2 / scale + 0.5)
        self.assertAlmostEqual(after["title"]["x"] - before["title"]["x"], moved)  # the row follows
        self.assertEqual(after["card"], before["card"])
        self.assertDrawnAsServed(session)
        # The constant the server holds is the one the drag ended on.
        explain = self.get(f"/v1/sessions/{session}/explain?view=avatar&axis=horizontal")
        leading = next(c for c in explain["constraints"] if c["id"] == "avatarLeading")
        self.assertIn(f"+ {after['avatar']['x']:g}", leading["description"])
        # The timeline: a row per streamed revision with the engine's own time.
        rows = self.browser.find_elements(By.CSS_SELECTOR, "#timeline tbody tr")
        self.assertEqual(rows[0].get_attribute("data-revision"), str(revision))
        cells = rows[0].find_elements(By.TAG_NAME, "td")
        self.assertGreater(float(cells[1].text), 0)           # engine µs
        self.assertEqual(cells[4].text, "2")                    # avatar and title changed
        # The constraint list shows the document as it now is.
        self.wait(lambda: f"+ {after['avatar']['x']:g}" in
                  self.browser.find_element(By.CSS_SELECTOR, '#constraints li[data-constraint-id="avatarLeading"]').text)
        self.shot("drag")
        # The editor shows the document as the drag left it: laid out again, nothing moves.
        editor = self.browser.find_element(By.ID, "editor")

        def leading_in_editor():
            c = next(c for c in json.loads(editor.get_attribute("value"))["constraints"] if c.get("id") == "avatarLeading")
            return c.get("constant", c.get("expr"))
        self.wait(lambda: leading_in_editor() in (after["avatar"]["x"], f"avatar.leading == root.leading + {after['avatar']['x']:g}"))
        self.browser.find_element(By.ID, "run").click()
        self.wait(lambda: self.browser.find_element(By.TAG_NAME, "body").get_attribute("data-revision") == str(revision + 1))
        self.assertEqual(self.absolute(session), after)
        self.assertIn("nothing changed", self.browser.find_element(By.ID, "status").text)

    def test_with_api_keys_the_page_uses_the_key_typed_and_a_stream_ticket(self):
        key = "playground-test-key"
        folder = tempfile.mkdtemp(prefix="layoutd-keys-")
        with open(os.path.join(folder, "tenants.json"), "w") as f:
            json.dump({"tenants": [{"name": "team", "keys": ["sha256:" + hashlib.sha256(key.encode()).hexdigest()]}]}, f)
        keyed = Layoutd("--auth-file", os.path.join(folder, "tenants.json"))
        try:
            self.browser.get(keyed.base + "/?example=card")
            self.browser.execute_script("sessionStorage.clear()")
            self.browser.get(keyed.base + "/?example=card")
            self.wait(lambda: "API key" in self.browser.find_element(By.ID, "problem").text
                      or "401" in self.browser.find_element(By.ID, "problem").text
                      or "key" in self.browser.find_element(By.ID, "problem").text)
            field = self.browser.find_element(By.ID, "api-key")
            field.send_keys(key)
            field.send_keys(Keys.TAB)  # change: kept in the tab's session storage
            self.assertEqual(self.browser.execute_script("return sessionStorage.getItem('layoutd.apiKey')"), key)
            self.assertNotIn(key, self.browser.current_url)
            self.browser.get(keyed.base + "/?example=card")
            WebDriverWait(self.browser, 20).until(lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-session"))
            session = self.browser.find_element(By.TAG_NAME, "body").get_attribute("data-session")
            self.rect("avatar").click()
            self.wait(lambda: self.browser.find_element(By.CSS_SELECTOR, 'input[data-drag-constraint="avatarLeading"]')).click()
            actions = ActionChains(self.browser, duration=20).click_and_hold(self.rect("avatar"))
            for _ in range(6):
                actions.move_by_offset(5, 0)
            actions.release().perform()

            def revision():
                req = urllib.request.Request(keyed.base + f"/v1/sessions/{session}/frames", headers={"Authorization": f"Bearer {key}"})
                with urllib.request.urlopen(req, timeout=10) as r:
                    return json.loads(r.read())["revision"]

            self.wait(lambda: revision() > 1)  # the drag went over the stream, opened with a ticket
        finally:
            self.browser.execute_script("sessionStorage.clear()")
            keyed.stop()

    def test_the_unsatisfiable_example_highlights_the_conflict_set(self):
        session = self.open("?example=unsatisfiable")
        document = json.loads(self.browser.find_element(By.ID, "editor").get_attribute("value"))
        diagnostics = self.post("/v1/layout", document)["diagnostics"]
        broken = [d for d in diagnostics if d["kind"] == "unsatisfiable"]
        self.assertEqual(len(broken), 1)
        shown = self.browser.find_elements(By.CSS_SELECTOR, '#diagnostics li[data-diagnostic-kind="unsatisfiable"]')
        self.assertEqual(len(shown), 1)
        self.assertEqual(shown[0].get_attribute("data-constraint"), broken[0]["constraint"])
        for cid in broken[0]["conflicts"]:
            item = self.browser.find_element(By.CSS_SELECTOR, f'#constraints li[data-constraint-id="{cid}"]')
            self.assertIn("conflict", item.get_attribute("class").split(), cid)
        item = self.browser.find_element(By.CSS_SELECTOR, f'#constraints li[data-constraint-id="{broken[0]["constraint"]}"]')
        self.assertIn("broken", item.get_attribute("class").split())
        # Constraints outside the set are not highlighted; the button (named by the set) is.
        self.assertNotIn("conflict", self.browser.find_element(By.CSS_SELECTOR, '#constraints li[data-constraint-id="badgeTop"]').get_attribute("class"))
        self.assertIn("conflict", self.rect("button").get_attribute("class").split())
        self.assertNotIn("conflict", self.rect("badge").get_attribute("class").split())
        self.assertDrawnAsServed(session)
        self.shot("unsatisfiable")

    def test_the_ambiguous_example_is_marked_explained_and_exercised(self):
        session = self.open("?example=saturn")
        self.assertIn("ambiguous", self.rect("saturn").get_attribute("class").split())
        item = self.browser.find_element(By.CSS_SELECTOR, '#diagnostics li[data-diagnostic-kind="ambiguous"][data-view="saturn"]')
        self.assertEqual(item.get_attribute("data-axis"), "vertical")
        # Its upper part: the ring lies across its middle.
        ActionChains(self.browser).move_to_element_with_offset(self.rect("saturn"), 0, -40).click().perform()
        self.wait(lambda: self.browser.find_elements(By.CSS_SELECTOR, '#inspector ul.explain[data-axis="vertical"]'))
        horizontal = [e.get_attribute("data-drag-constraint") for e in
                      self.browser.find_elements(By.CSS_SELECTOR, '#inspector ul.explain[data-axis="horizontal"] input')]
        served = [c["id"] for c in self.get(f"/v1/sessions/{session}/explain?view=saturn&axis=horizontal")["constraints"]]
        self.assertEqual(horizontal, served)
        self.assertIn("saturn", self.browser.find_element(By.CSS_SELECTOR, "#inspector pre.trace mark").text)
        before = self.get(f"/v1/sessions/{session}/frames")
        self.browser.find_element(By.ID, "exercise").click()
        ghost = self.wait(lambda: self.browser.find_element(By.CSS_SELECTOR, '#canvas rect.ghost[data-ghost-id="saturn"]'))
        self.assertNotEqual(float(ghost.get_attribute("y")), float(self.rect("saturn").get_attribute("y")))
        self.assertEqual(self.get(f"/v1/sessions/{session}/frames"), before)  # not kept
        self.shot("saturn")

    def test_a_bad_document_shows_the_problem_at_its_pointer(self):
        self.open()
        editor = self.browser.find_element(By.ID, "editor")
        bad = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 100, "height": 100}}, {"id": "a", "parent": "root"}],
               "constraints": [{"expr": "a.width == 10"}, {"first": "a.nowhere", "relation": "==", "constant": 3}]}
        text = json.dumps(bad, indent=2)
        self.browser.execute_script("arguments[0].value = arguments[1]", editor, text)
        self.browser.find_element(By.ID, "run").click()
        problem = self.wait(lambda: self.browser.find_element(By.ID, "problem").is_displayed() and self.browser.find_element(By.ID, "problem"))
        self.assertEqual(problem.get_attribute("data-status"), "422")
        self.assertEqual(problem.get_attribute("data-pointer"), "/constraints/1/first")
        start, end = self.browser.execute_script("return [arguments[0].selectionStart, arguments[0].selectionEnd]", editor)
        self.assertEqual(text[start:end], '"a.nowhere"')
        self.shot("problem")

    def test_an_edit_is_put_into_the_same_session(self):
        session = self.open("?example=card")
        self.assertEqual(self.page("revision"), "1")
        puts, posts = self.requests("/v1/sessions/{id}/document", "PUT", 200), self.requests("/v1/sessions", "POST", 201)
        document = self.editor_document()
        # One constant changed and a view added with its four constraints.
        leading = next(c for c in document["constraints"] if c["id"] == "avatarLeading")
        leading["expr"] = "avatar.leading == card.leading + 20"
        document["views"].append({"id": "badge", "parent": "card"})
        document["constraints"] += [{"expr": "badge.trailing == card.trailing - 8"}, {"expr": "badge.top == card.top + 8"},
                                    {"expr": "badge.width == 24"}, {"expr": "badge.height == 24"}]
        self.edit(document)
        self.wait(lambda: self.page("revision") == "2")
        self.assertEqual(self.page("session"), session)
        served = self.get(f"/v1/sessions/{session}")
        self.assertEqual(served["revision"], 2)
        self.assertIn("badge", [v["id"] for v in served["document"]["views"]])
        self.assertIn("avatar.leading == card.leading + 20", [c.get("expr") for c in served["document"]["constraints"]])
        self.assertRegex(self.status(), r"^revision 2: 1 view added, 4 constraints added, 1 constant set in \d+ ms$")
        self.assertDrawnAsServed(session)
        self.assertEqual(self.absolute(session)["avatar"]["x"], 20)
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#constraints li[data-constraint-id]")),
                         len(served["document"]["constraints"]))
        # Another edit with Ctrl+Enter: one more revision, only the constant.
        next(c for c in document["constraints"] if c["id"] == "avatarWidth")["expr"] = "avatar.width == 50"
        self.edit(document, keyboard=True)
        self.wait(lambda: self.page("revision") == "3")
        self.assertEqual(self.status().split(" in ")[0], "revision 3: 1 constant set")
        self.assertEqual(self.get(f"/v1/sessions/{session}/frames")["revision"], 3)
        self.assertDrawnAsServed(session)
        self.assertEqual(self.absolute(session)["avatar"]["width"], 50)
        # The view taken out again: its rect goes with it.
        document["views"] = [v for v in document["views"] if v["id"] != "badge"]
        document["constraints"] = [c for c in document["constraints"] if "badge" not in c.get("expr", "")]
        self.edit(document)
        self.wait(lambda: self.page("revision") == "4")
        self.assertEqual(self.status().split(" in ")[0], "revision 4: 1 view removed, 4 constraints removed")
        self.assertEqual(self.page("session"), session)
        self.assertNotIn("badge", self.drawn())
        self.assertDrawnAsServed(session)
        # Each edit was one PUT, and no session was made; the timeline has a row a revision.
        self.assertEqual(self.requests("/v1/sessions/{id}/document", "PUT", 200) - puts, 3)
        self.assertEqual(self.requests("/v1/sessions", "POST", 201), posts)
        rows = [r.get_attribute("data-revision") for r in self.browser.find_elements(By.CSS_SELECTOR, "#timeline tbody tr")]
        self.assertEqual(rows, ["4", "3", "2", "1"])
        self.shot("edit")

    def test_an_invalid_edit_shows_its_problem_and_keeps_the_session(self):
        session = self.open("?example=card")
        before = self.drawn()
        document = self.editor_document()
        good = json.loads(json.dumps(document))
        document["constraints"].append({"first": "avatar.nowhere", "relation": "==", "constant": 3})
        text = self.edit(document)
        problem = self.wait(lambda: self.browser.find_element(By.ID, "problem").is_displayed() and self.browser.find_element(By.ID, "problem"))
        self.assertEqual(problem.get_attribute("data-status"), "422")
        self.assertEqual(problem.get_attribute("data-pointer"), "/constraints/5/first")
        editor = self.browser.find_element(By.ID, "editor")
        start, end = self.browser.execute_script("return [arguments[0].selectionStart, arguments[0].selectionEnd]", editor)
        self.assertEqual(text[start:end], '"avatar.nowhere"')
        # The session is as it was, and so is the page: same session, revision, drawing.
        served = self.get(f"/v1/sessions/{session}")
        self.assertEqual(served["revision"], 1)
        self.assertEqual(len(served["document"]["constraints"]), len(good["constraints"]))
        self.assertEqual((self.page("session"), self.page("revision")), (session, "1"))
        self.assertEqual(self.drawn(), before)
        self.assertEqual(self.status(), "not applied: the session is as it was, at revision 1")
        self.shot("edit-problem")
        # Mended, the next edit goes through at the next revision.
        next(c for c in good["constraints"] if c["id"] == "avatarTop")["expr"] = "avatar.top == card.top + 16"
        self.edit(good)
        self.wait(lambda: self.page("revision") == "2")
        self.assertFalse(self.browser.find_element(By.ID, "problem").is_displayed())
        self.assertEqual(self.page("session"), session)
        self.assertDrawnAsServed(session)

    def test_an_edit_of_a_session_changed_elsewhere_reads_it_again(self):
        session = self.open("?example=card")
        conflicts = self.requests("/v1/sessions/{id}/document", "PUT", 409)
        # Another client moves the avatar: the page still shows revision 1.
        self.post(f"/v1/sessions/{session}/constants", {"avatarLeading": 30})
        document = self.editor_document()
        next(c for c in document["constraints"] if c["id"] == "avatarWidth")["expr"] = "avatar.width == 44"
        self.edit(document)
        self.wait(lambda: self.page("revision") == "3")
        self.assertEqual(self.requests("/v1/sessions/{id}/document", "PUT", 409) - conflicts, 1)
        self.assertEqual(self.page("session"), session)
        self.assertIn("changed elsewhere (revision 2)", self.status())
        self.assertIn("revision 3: 2 constants set", self.status())  # the text's leading back to 8, and the width
        self.assertFalse(self.browser.find_element(By.ID, "problem").is_displayed())
        after = self.absolute(session)
        self.assertEqual((after["avatar"]["x"], after["avatar"]["width"]), (8, 44))
        self.assertDrawnAsServed(session)

    def test_an_edit_of_a_session_gone_makes_a_new_one(self):
        session = self.open("?example=card")
        urllib.request.urlopen(urllib.request.Request(f"{self.base}/v1/sessions/{session}", method="DELETE"), timeout=10)
        document = self.editor_document()
        next(c for c in document["constraints"] if c["id"] == "avatarWidth")["expr"] = "avatar.width == 44"
        self.edit(document)
        self.wait(lambda: self.page("session") not in (session, None))
        fresh = self.page("session")
        self.wait(lambda: "was gone" in self.status())
        self.assertEqual(self.page("revision"), "1")
        self.assertFalse(self.browser.find_element(By.ID, "problem").is_displayed())
        self.assertEqual(self.absolute(fresh)["avatar"]["width"], 44)
        self.assertDrawnAsServed(fresh)

    def test_the_label_and_stack_examples(self):
        for name, views in (("label", {"card", "avatar", "title", "body"}), ("stack", {"screen", "toolbar", "back", "title", "share"})):
            session = self.open(f"?example={name}")
            self.assertEqual(set(self.drawn()), views)
            self.assertDrawnAsServed(session)
            self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "#diagnostics li[data-diagnostic-kind]"), [])
            self.shot(name)
        # Roles in explain: the title's horizontal constraints, each marked.
        self.rect("title").click()
        roles = self.wait(lambda: self.browser.find_elements(By.CSS_SELECTOR, '#inspector ul.explain[data-axis="horizontal"] .role'))
        self.assertIn("determining", [r.text for r in roles])

    def test_the_feed_example_draws_every_view(self):
        session = self.open("?example=feed")
        self.assertEqual(len(self.drawn()), 501)
        self.assertDrawnAsServed(session)
        self.shot("feed")

    def test_the_size_picker_draws_a_strip_and_offers_it(self):
        self.open()
        views = len(self.drawn())
        picker = Select(self.browser.find_element(By.ID, "size-devices"))
        picker.select_by_index(0)
        picker.select_by_index(3)
        self.browser.find_element(By.ID, "size-widths").send_keys("300")
        self.browser.find_element(By.ID, "size-draw").click()
        WebDriverWait(self.browser, 20).until(
            lambda b: b.execute_script("return !document.getElementById('size-png').hidden"))
        svg = self.browser.find_element(By.ID, "size-svg").get_attribute("href")
        sheet = ET.fromstring(urllib.parse.unquote(svg.split(",", 1)[1]))
        groups = [len([r for r in g.iter("{http://www.w3.org/2000/svg}rect") if r.get("data-view-id")])
                  for g in sheet.findall("{http://www.w3.org/2000/svg}g")]
        self.assertEqual(groups, [views] * 3)
        shown = self.browser.execute_script("const i = document.querySelector('#size-strip img'); return [i.complete, i.naturalWidth]")
        self.assertTrue(shown[0] and shown[1] > 0, "the strip's image did not load")
        png = self.browser.find_element(By.ID, "size-png").get_attribute("href")
        self.assertTrue(svg.startswith("data:image/svg+xml"), svg[:40])
        self.assertTrue(png.startswith("data:image/png;base64,"), png[:40])
        self.shot("sizes")

    def test_a_snapshot_svg_opens_in_the_browser(self):
        doc = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 300, "height": 160}},
                         {"id": "card", "parent": "root"},
                         {"id": "title", "parent": "card",
                          "text": {"string": "Pictures show the wrapping the layout used", "numberOfLines": 0,
                                   "font": {"family": "DejaVu Sans", "size": 17}}}],
               "constraints": [{"expr": "card.leading == root.leading + 20"}, {"expr": "card.top == root.top + 30"},
                               {"expr": "card.width == 160"}, {"expr": "card.bottom == title.bottom + 10"},
                               {"expr": "title.leading == card.leading + 10"}, {"expr": "title.trailing == card.trailing - 10"},
                               {"expr": "title.top == card.top + 10"}]}
        sid = self.post("/v1/sessions", doc)["session"]
        frames = self.get(f"/v1/sessions/{sid}/frames")["frames"]
        self.browser.get(f"{self.base}/v1/sessions/{sid}/snapshot.svg")
        boxes = self.browser.execute_script(
            "return Array.from(document.querySelectorAll('rect[data-view-id]')).map(r => {"
            " const b = r.getBBox(); return [r.dataset.viewId, b.x, b.y, b.width, b.height]; })")
        self.assertEqual(sorted(b[0] for b in boxes), ["card", "root", "title"])
        card, title = frames["card"], frames["title"]
        expected = {"root": (0, 0, 300, 160), "card": (card["x"], card["y"], card["width"], card["height"]),
                    "title": (card["x"] + title["x"], card["y"] + title["y"], title["width"], title["height"])}
        for view, *box in boxes:
            for got, want in zip(box, expected[view]):
                self.assertAlmostEqual(got, want, delta=0.01, msg=view)
        ink = self.browser.execute_script(
            "const p = document.querySelector('path[data-view-id=title]'); const b = p.getBoundingClientRect();"
            " return [b.left, b.top, b.right, b.bottom, Number(p.dataset.lines)]")
        x, y, w, h = expected["title"]
        self.assertGreaterEqual(ink[4], 2, "the label wraps at 140 points")
        self.assertTrue(x - 1 <= ink[0] and ink[2] <= x + w + 1 and y - 1 <= ink[1] and ink[3] <= y + h + 1, (ink, expected["title"]))
        self.shot("snapshot-svg")

    def test_an_interface_builder_document_opens_as_a_session(self):
        first = self.open()
        storyboard = os.path.join(ROOT, "Tests", "InterfaceBuilderTests", "Fixtures", "scene.storyboard")
        self.browser.find_element(By.ID, "ib-file").send_keys(storyboard)
        body = self.browser.find_element(By.TAG_NAME, "body")
        self.wait(lambda: body.get_attribute("data-ib") == "loaded" and body.get_attribute("data-session") != first)
        session = body.get_attribute("data-session")
        scenes = [o.get_attribute("value") for o in self.browser.find_elements(By.CSS_SELECTOR, "#ib-scene option")]
        self.assertEqual(scenes, ["vc1"])
        self.assertTrue(self.browser.find_element(By.ID, "ib-scene-label").is_displayed())
        self.assertDrawnAsServed(session)
        self.assertEqual(self.absolute(session)["card"], {"x": 20, "y": 40, "width": 335, "height": 100})
        # Another device lays the scene out again, as a new session.
        Select(self.browser.find_element(By.ID, "ib-device")).select_by_value("retina5_9:landscape")
        self.wait(lambda: body.get_attribute("data-session") not in (first, session))
        landscape = body.get_attribute("data-session")
        self.wait(lambda: self.absolute(landscape)["root"]["width"] == 812)
        self.assertDrawnAsServed(landscape)
        self.shot("interface-builder")


if __name__ == "__main__":
    unittest.main(verbosity=2)
