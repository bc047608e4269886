"""`layoutd check` on the fixture documents in Tests/fixtures/check, against the real binary:

- the findings: a conflict (the broken constraint and its conflicting set), an ambiguous view,
  a misplaced view (not the one Xcode marked misplaced itself), a constraint the importer
  leaves out, a document that is not XML; each at its element's line and column, a clean
  screen with none;
- each format: text (`FILE:LINE:COL: severity: …`), JSON, JUnit XML valid against
  Tests/check/junit.xsd (xmllint), GitHub workflow commands in the form the runner reads;
- the exit status: 0 clean or warnings only, 1 on an error finding, 2 on a usage or I/O
  error; severities moved between kinds by --error, --warning, --ignore;
- snapshots: recorded, compared unchanged (0, no picture), compared after a constant changed
  in a copy (exactly the views that moved, a PNG of the root, 1);
- devices and sizes: each named in the findings, no misplacement away from the document's own;
- one code path: the same findings from `POST /v1/ib/layout` on the real server;
- the same report whatever the number of jobs.

Run: python3 Tests/check/test_check.py
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from layoutd_process import BIN, Layoutd  # noqa: E402

FIXTURES = os.path.join("Tests", "fixtures", "check")
SCHEMA = os.path.join(ROOT, "Tests", "check", "junit.xsd")
GITHUB = re.compile(r"^::(error|warning) file=([^,]*),line=(\d+),col=(\d+),title=([^,:]*)::(.*)$")


def check(*args, cwd=ROOT):
    """(exit status, stdout, stderr) of `layoutd check ARGS`."""
    p = subprocess.run([BIN, "check", *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def findings(*args, cwd=ROOT):
    status, out, err = check("--format", "json", *args, cwd=cwd)
    return status, json.loads(out)


def place(fixture, ident):
    """Line and column (1-based) of the start tag of the element with id `ident`."""
    with open(os.path.join(ROOT, FIXTURES, fixture)) as f:
        for n, text in enumerate(f, 1):
            if f' id="{ident}"' in text:
                return n, text.index("<") + 1
    raise KeyError(ident)


def by_file(report):
    out = {}
    for f in report["findings"]:
        out.setdefault(os.path.basename(f["file"]), []).append(f)
    return out


class Findings(unittest.TestCase):
    def test_each_fixture_has_its_findings_at_its_elements(self):
        status, report = findings(FIXTURES)
        self.assertEqual(status, 1)
        self.assertEqual(report["documents"], 5)
        files = by_file(report)
        self.assertNotIn("clean.storyboard", files)

        [conflict] = files["conflict.storyboard"]
        self.assertEqual((conflict["kind"], conflict["severity"], conflict["root"]), ("conflict", "error", "conflictVC"))
        broken = conflict["ids"][0]
        self.assertIn(broken, {"bannerLeading", "bannerTrailing", "bannerWidth"})
        self.assertTrue({"bannerLeading", "bannerTrailing", "bannerWidth"} <= set(conflict["ids"]), conflict)
        self.assertIn(f"broke '{broken}'", conflict["message"])
        self.assertEqual((conflict["line"], conflict["column"]), place("conflict.storyboard", broken))

        ambiguous, unsupported = sorted(files["ambiguous.xib"], key=lambda f: f["kind"])
        self.assertEqual((ambiguous["kind"], ambiguous["severity"], ambiguous["ids"]), ("ambiguous", "warning", ["badge"]))
        self.assertIn("horizontal", ambiguous["message"])
        self.assertEqual((ambiguous["line"], ambiguous["column"]), place("ambiguous.xib", "badge"))
        self.assertEqual((unsupported["kind"], unsupported["ids"]), ("unsupported", ["detailOutside"]))
        self.assertEqual((unsupported["line"], unsupported["column"]), place("ambiguous.xib", "detailOutside"))

        # `known` is misplaced too, but Xcode marked it so: left out, as the bench does.
        [misplaced] = files["misplaced.storyboard"]
        self.assertEqual((misplaced["kind"], misplaced["severity"], misplaced["ids"]), ("misplaced", "warning", ["toolbar"]))
        self.assertIn("y 60", misplaced["message"])
        self.assertIn("y 36", misplaced["message"])
        self.assertEqual((misplaced["line"], misplaced["column"]), place("misplaced.storyboard", "toolbar"))

        [refused] = files["refused.xib"]
        self.assertEqual((refused["kind"], refused["severity"], refused["line"], refused["column"]), ("refused", "error", 6, 19))
        self.assertNotIn("root", refused)

        self.assertEqual((report["errors"], report["warnings"]), (2, 3))

    def test_a_tolerance_past_the_distance_keeps_the_view(self):
        _, report = findings(os.path.join(FIXTURES, "misplaced.storyboard"), "--tolerance", "24")
        self.assertEqual(report["findings"], [])
        _, report = findings(os.path.join(FIXTURES, "misplaced.storyboard"), "--tolerance", "23.9")
        self.assertEqual([f["ids"] for f in report["findings"]], [["toolbar"]])


class ExitStatus(unittest.TestCase):
    def test_clean_and_warnings_are_0_errors_1(self):
        self.assertEqual(check(os.path.join(FIXTURES, "clean.storyboard"))[0], 0)
        self.assertEqual(check(os.path.join(FIXTURES, "misplaced.storyboard"))[0], 0)
        self.assertEqual(check(os.path.join(FIXTURES, "ambiguous.xib"))[0], 0)
        self.assertEqual(check(os.path.join(FIXTURES, "conflict.storyboard"))[0], 1)
        self.assertEqual(check(os.path.join(FIXTURES, "refused.xib"))[0], 1)

    def test_severities_are_configurable(self):
        misplaced = os.path.join(FIXTURES, "misplaced.storyboard")
        status, report = findings(misplaced, "--error", "conflict,misplaced")
        self.assertEqual((status, report["errors"]), (1, 1))
        status, report = findings(os.path.join(FIXTURES, "conflict.storyboard"), "--warning", "conflict")
        self.assertEqual((status, report["errors"], report["warnings"]), (0, 0, 1))
        status, report = findings(os.path.join(FIXTURES, "ambiguous.xib"), "--ignore", "unsupported", "--error", "ambiguous")
        self.assertEqual((status, [f["kind"] for f in report["findings"]]), (1, ["ambiguous"]))

    def test_usage_and_io_errors_are_2(self):
        for args in (["--format", "xml", FIXTURES], ["--bogus", FIXTURES], [], ["--error", "nonsense", FIXTURES],
                     ["--size", "320", FIXTURES], ["--device", "nokia3310", FIXTURES], ["--orientation", "upside", FIXTURES],
                     [os.path.join(FIXTURES, "missing.storyboard")], [os.path.join(ROOT, "README.md")]):
            status, _, err = check(*args)
            self.assertEqual(status, 2, (args, err))
            self.assertTrue(err.strip(), args)


class Formats(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.report = findings(FIXTURES)[1]

    def test_text_is_a_line_a_finding_then_totals(self):
        status, out, _ = check(FIXTURES)
        self.assertEqual(status, 1)
        lines = out.splitlines()
        self.assertEqual(len(lines), len(self.report["findings"]) + 1)
        for line, f in zip(lines, self.report["findings"]):
            self.assertTrue(line.startswith(f"{f['file']}:{f['line']}:{f['column']}: {f['severity']}: {f['message']} [{f['kind']}"), line)
        self.assertRegex(lines[-1], r"^5 documents, 4 roots, 4 layouts: 2 errors, 3 warnings \(")

    def test_junit_is_valid_against_the_schema(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "report.xml")
            status, out, _ = check(FIXTURES, "--format", "junit", "--output", path)
            self.assertEqual((status, out), (1, ""))
            lint = subprocess.run(["xmllint", "--noout", "--schema", SCHEMA, path], capture_output=True, text=True)
            self.assertEqual(lint.returncode, 0, lint.stderr)
            import xml.etree.ElementTree as ET
            suites = ET.parse(path).getroot()
        self.assertEqual((suites.get("tests"), suites.get("failures")), ("5", "2"))
        cases = {(c.get("classname").split("/")[-1], c.get("name")): c for c in suites.iter("testcase")}
        self.assertEqual(set(cases), {("ambiguous.xib", "card at retina4_7-portrait"), ("clean.storyboard", "cleanVC at retina4_7-portrait"),
                                      ("conflict.storyboard", "conflictVC at retina4_7-portrait"),
                                      ("misplaced.storyboard", "misplacedVC at retina4_7-portrait"), ("refused.xib", "document")})
        self.assertEqual(cases[("conflict.storyboard", "conflictVC at retina4_7-portrait")].find("failure").get("type"), "conflict")
        self.assertEqual(cases[("refused.xib", "document")].find("failure").get("type"), "refused")
        self.assertIsNone(cases[("misplaced.storyboard", "misplacedVC at retina4_7-portrait")].find("failure"))
        self.assertIn("toolbar", cases[("misplaced.storyboard", "misplacedVC at retina4_7-portrait")].find("system-out").text)
        self.assertEqual(list(cases[("clean.storyboard", "cleanVC at retina4_7-portrait")]), [])

    def test_github_annotations_are_workflow_commands(self):
        status, out, _ = check(FIXTURES, "--format", "github")
        self.assertEqual(status, 1)
        lines = out.splitlines()
        self.assertEqual(len(lines), len(self.report["findings"]) + 1)
        unescape = lambda s: s.replace("%3A", ":").replace("%2C", ",").replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")
        for line, f in zip(lines, self.report["findings"]):
            m = GITHUB.match(line)
            self.assertIsNotNone(m, line)
            severity, file, row, col, title, message = m.groups()
            self.assertEqual((severity, file, int(row), int(col)), (f["severity"], f["file"], f["line"], f["column"]))
            # The title's colon is escaped: unescaped it would end the properties.
            self.assertTrue(title.startswith("layoutd check%3A " + f["kind"]), title)
            self.assertEqual(unescape(message), f["message"])
        self.assertFalse(lines[-1].startswith("::"))


class Snapshots(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        shutil.copy(os.path.join(ROOT, FIXTURES, "clean.storyboard"), self.dir)
        self.sizes = ["--size", "320x568", "--device", "retina4_7", "--device", "retina6_1"]

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_record_then_compare(self):
        status, out, _ = check(".", "--record", "snapshots", *self.sizes, cwd=self.dir)
        self.assertEqual(status, 0, out)
        recorded = sorted(os.listdir(os.path.join(self.dir, "snapshots", "clean.storyboard")))
        self.assertEqual(recorded, ["cleanVC@320x568.json", "cleanVC@retina4_7-portrait.json", "cleanVC@retina6_1-portrait.json"])
        with open(os.path.join(self.dir, "snapshots", "clean.storyboard", "cleanVC@320x568.json")) as f:
            snapshot = json.load(f)
        self.assertEqual(snapshot["frames"]["header"], {"x": 16, "y": 36, "width": 288, "height": 44})
        self.assertEqual(snapshot["parents"]["headerTitle"], "header")

        status, report = findings(".", "--compare", "snapshots", *self.sizes, cwd=self.dir)
        self.assertEqual((status, report["findings"]), (0, []))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "layoutd-changes")))

        # The header 14 points lower: it and the body under it move, the title inside it does not.
        path = os.path.join(self.dir, "clean.storyboard")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace('constant="16" id="headerTop"', 'constant="30" id="headerTop"'))
        status, out, _ = check(".", "--format", "json", "--compare", "snapshots", "--output", "out/report.json", *self.sizes, cwd=self.dir)
        self.assertEqual((status, out), (1, ""))
        with open(os.path.join(self.dir, "out", "report.json")) as f:
            report = json.load(f)
        moved = {(f["size"], f["ids"][0]) for f in report["findings"]}
        sizes = {"320x568", "retina4_7-portrait", "retina6_1-portrait"}
        self.assertEqual(moved, {(s, v) for s in sizes for v in ("header", "body")})
        for f in report["findings"]:
            self.assertEqual((f["kind"], f["severity"]), ("moved", "error"))
            self.assertEqual((f["line"], f["column"]), place("clean.storyboard", f["ids"][0]))
        self.assertIn("y 36", next(f for f in report["findings"] if f["size"] == "320x568" and f["ids"] == ["header"])["message"])
        for s in sizes:
            with open(os.path.join(self.dir, "out", "clean.storyboard", f"cleanVC@{s}.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_a_root_without_a_snapshot_fails_the_compare(self):
        status, report = findings(".", "--compare", "nothing-recorded", cwd=self.dir)
        self.assertEqual(status, 1)
        self.assertEqual([(f["kind"], f["ids"]) for f in report["findings"]], [("moved", ["cleanRoot"])])
        self.assertIn("--record", report["findings"][0]["message"])

    def test_pictures_are_a_sheet_a_document(self):
        status, _, _ = check(".", "--pictures", "sheets", *self.sizes, cwd=self.dir)
        self.assertEqual(status, 0)
        self.assertEqual(os.listdir(os.path.join(self.dir, "sheets")), ["clean.storyboard.png"])
        from PIL import Image
        with Image.open(os.path.join(self.dir, "sheets", "clean.storyboard.png")) as im:
            # Three roots side by side: 320 + 375 + 414 points and two gaps, a pixel a point.
            self.assertEqual(im.size[0], 320 + 375 + 414 + 2 * 24)


class Sizes(unittest.TestCase):
    def test_each_device_and_orientation_is_named_and_misplacement_is_the_documents_own(self):
        args = [os.path.join(FIXTURES, "misplaced.storyboard"), os.path.join(FIXTURES, "ambiguous.xib")]
        _, own = findings(*args)
        self.assertIn("misplaced", {f["kind"] for f in own["findings"]})
        _, report = findings(*args, "--device", "retina6_1", "--orientation", "portrait", "--orientation", "landscape")
        self.assertEqual(report["layouts"], 4)
        self.assertNotIn("misplaced", {f["kind"] for f in report["findings"]})
        ambiguous = {f["size"] for f in report["findings"] if f["kind"] == "ambiguous"}
        self.assertEqual(ambiguous, {"retina6_1-portrait", "retina6_1-landscape"})
        # What the importer left out is said once, not at every size.
        self.assertEqual(sum(f["kind"] == "unsupported" for f in report["findings"]), 1)

    def test_the_jobs_do_not_change_the_report(self):
        one = findings(FIXTURES, "--jobs", "1", "--device", "retina5_9", "--size", "300x500")[1]
        two = findings(FIXTURES, "--jobs", "2", "--device", "retina5_9", "--size", "300x500")[1]
        self.assertEqual(one, two)


class OneCodePath(unittest.TestCase):
    """`POST /v1/ib/layout?contentSizes=stored` answers each root's findings: the same as
    `layoutd check`'s, the same layout made by the same function."""

    @classmethod
    def setUpClass(cls):
        cls.server = Layoutd()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def post(self, fixture, query="contentSizes=stored"):
        with open(os.path.join(ROOT, FIXTURES, fixture), "rb") as f:
            body = f.read()
        req = urllib.request.Request(f"{self.server.base}/v1/ib/layout?{query}", data=body, headers={"Content-Type": "application/xml"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as e:
            return e.code, json.load(e)

    def test_the_route_answers_the_same_findings(self):
        keys = ("kind", "severity", "line", "column", "ids", "root", "message")
        for fixture in ("clean.storyboard", "conflict.storyboard", "ambiguous.xib", "misplaced.storyboard"):
            status, answer = self.post(fixture)
            self.assertEqual(status, 200, answer)
            served = [{k: f[k] for k in keys} for r in answer["roots"] for f in r["findings"]]
            checked = [{k: f[k] for k in keys} for f in findings(os.path.join(FIXTURES, fixture))[1]["findings"]]
            self.assertEqual(served, checked, fixture)
            # The route's diagnostics are the findings' conflicts and ambiguity.
            diagnostics = [d for r in answer["roots"] for d in r["diagnostics"]]
            self.assertEqual(len(diagnostics), sum(f["kind"] in ("conflict", "ambiguous") for f in served))
        status, problem = self.post("refused.xib")
        refused = findings(os.path.join(FIXTURES, "refused.xib"))[1]["findings"][0]
        self.assertEqual((status, problem["line"], problem["column"]), (400, refused["line"], refused["column"]))

    def test_measured_or_another_device_asks_no_misplacement(self):
        for query in ("contentSizes=measured", "contentSizes=stored&device=retina6_1"):
            _, answer = self.post("misplaced.storyboard", query)
            self.assertEqual([f for r in answer["roots"] for f in r["findings"]], [], query)


if __name__ == "__main__":
    unittest.main()
