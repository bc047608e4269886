"""The session store against the real server process and a real SQLite file.

Each test starts `layoutd` (LAYOUTD_BIN, default .build/debug/layoutd) on a store in a
temporary directory, talks to it over loopback HTTP, and kills or stops it:

- crash: clients post changes and set-constants concurrently; SIGKILL at a random moment;
  restarted on the same store, every acknowledged structural change is there (under strict
  every acknowledged set-constant; under relaxed every one acknowledged longer than the
  flush window before the kill, with a margin for a stalled machine), frames equal what
  the client was answered at that revision and a fresh build of the stored document;
  several seeds per policy.
- relaxed loses at most its window: set-constants alone, killed, every one answered longer
  than the window (and a margin) before the kill is stored.
- SIGTERM loses nothing under relaxed.
- a torn or corrupt journal tail is skipped with a warning, never applied; a torn WAL too.
- a full disk (a file size limit on the process) answers 503 with Retry-After, reads go
  on, /readyz says so, and writes come back when there is room; nothing stored is damaged.
- a commit whose fsync fails answers 502 (outcome unknown), the session read back as stored.
- sessions beyond --max-sessions leave memory and come back from the store.

Run: python3 Tests/store/test_store.py [-k NAME]
"""
import http.client
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from layoutd_process import BIN, free_port  # noqa: E402,F401  (free_port: the PostgreSQL and cluster tests take it from here)


class Server:
    """One layoutd process on a store file; restartable on the same file."""

    def __init__(self, directory, durability="relaxed", extra=(), prefix=(), store=None):
        self.directory = directory
        self.path = os.path.join(directory, "sessions.sqlite")
        self.store = store or "sqlite:" + self.path
        self.durability = durability
        self.extra = list(extra)
        self.prefix = list(prefix)
        self.proc = None
        self.log = os.path.join(directory, "server.log")

    def start(self):
        self.port = free_port()
        args = self.prefix + [BIN, "--port", str(self.port), "--store", self.store,
                              "--durability", self.durability, "--log-level", "info"] + self.extra
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(args, stderr=log, stdout=subprocess.DEVNULL)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                status, _, _ = self.request("GET", "/healthz")
                if status == 200:
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("layoutd did not start: " + self.log_text()[-2000:])

    def kill(self):
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=30)

    def request(self, method, path, body=None, conn=None):
        c = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data is not None else {}
        c.request(method, path, body=data, headers=headers)
        r = c.getresponse()
        raw = r.read()
        if conn is None:
            c.close()
        return r.status, dict(r.getheaders()), (json.loads(raw) if raw and r.getheader("Content-Type", "").endswith("json") else raw)

    def log_text(self):
        with open(self.log) as f:
            return f.read()


def chain_document(n=4, constants=None):
    """n views in a column; `constants` sets gap0, w0 and gapN (defaults 10, 100, 4)."""
    k = {"gap0": 10, "w0": 100, **{f"gap{i}": 4 for i in range(1, n)}, **(constants or {})}
    views = [{"id": "root", "frame": {"x": 0, "y": 0, "width": 1000, "height": 5000}}]
    cs = []
    for i in range(n):
        views.append({"id": f"v{i}", "parent": "root"})
        if i == 0:
            cs += [{"id": "gap0", "expr": f"v0.left == root.left + {k['gap0']}"}, {"expr": "v0.top == root.top"},
                   {"id": "w0", "expr": f"v0.width == {k['w0']}"}]
        else:
            cs += [{"expr": f"v{i}.left == v{i-1}.left"}, {"id": f"gap{i}", "expr": f"v{i}.top == v{i-1}.bottom + {k[f'gap{i}']}"},
                   {"expr": f"v{i}.width == v{i-1}.width"}]
        cs.append({"expr": f"v{i}.height == 20"})
    return {"views": views, "constraints": cs}


def close(a, b):
    """Frames maps equal to a millionth."""
    if set(a) != set(b):
        return False
    for k in a:
        for f in ("x", "y", "width", "height"):
            if abs(a[k][f] - b[k][f]) > 1e-6:
                return False
    return True


class Client(threading.Thread):
    """Owns one session; keeps the frames it was answered at each acknowledged revision."""

    def __init__(self, server, rng):
        super().__init__(daemon=True)
        self.server, self.rng = server, rng
        status, _, body = server.request("POST", "/v1/sessions", chain_document())
        assert status == 201, body
        self.id = body["session"]
        self.frames = body["frames"]
        self.history = {body["revision"]: (dict(self.frames), True)}
        self.last_acked = self.last_structural = body["revision"]
        # When each revision was answered (monotonic clock): what relaxed may lose is bounded by it.
        self.acked_at = {body["revision"]: time.monotonic()}
        self.added = []
        self.next_view = 0
        self.stopped = False
        # Set by the test just before it kills the server: only then may a request fail to connect.
        self.killing = threading.Event()
        # What went wrong in this thread (an answer other than 200, a connection lost before
        # the kill, anything raised): the test fails on it, not only the thread.
        self.failure = None

    def change(self, conn):
        r = self.rng.random()
        if r < 0.15 or not self.added:
            k = self.next_view
            self.next_view += 1
            v = f"n{k}"
            body = {"baseRevision": self.last_acked, "ops": [
                {"op": "addViews", "views": [{"id": v, "parent": "root"}]},
                {"op": "addConstraints", "constraints": [
                    {"id": f"{v}.l", "expr": f"{v}.left == root.left + {k}"},
                    {"expr": f"{v}.top == root.top + {200 + k}"},   # a server-given id
                    {"expr": f"{v}.width == 50"}, {"expr": f"{v}.height == 10"}]}]}
            return "/changes", body, ("add", v)
        if r < 0.25:
            v = self.rng.choice(self.added)
            return "/changes", {"ops": [{"op": "removeViews", "ids": [v]}]}, ("remove", v)
        if r < 0.35:
            return "/changes", {"ops": [{"op": "setConstant", "id": self.rng.choice(["gap1", "gap2"]), "constant": self.rng.randint(0, 40)}]}, None
        key = self.rng.choice(["gap0", "w0", "gap3"])
        return "/constants", {key: self.rng.randint(1, 300)}, None

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        try:
            while not self.stopped:
                path, body, effect = self.change(conn)
                status, _, answer = self.server.request("POST", f"/v1/sessions/{self.id}{path}", body, conn=conn)
                assert status == 200, (status, answer, body)
                for v in answer.get("removed", []):
                    self.frames.pop(v, None)
                self.frames.update(answer["frames"])
                structural = path == "/changes"
                self.history[answer["revision"]] = (dict(self.frames), structural)
                self.acked_at[answer["revision"]] = time.monotonic()
                self.last_acked = answer["revision"]
                if structural:
                    self.last_structural = answer["revision"]
                if effect and effect[0] == "add":
                    self.added.append(effect[1])
                elif effect and effect[0] == "remove":
                    self.added.remove(effect[1])
        except (OSError, http.client.HTTPException) as e:
            if not self.killing.is_set():
                self.failure = f"connection lost before the kill: {e!r}"
        except BaseException as e:  # noqa: B036 - an assertion or any error here must reach the test
            self.failure = f"{type(e).__name__}: {e}"
        finally:
            conn.close()


class StoreTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="layoutd-store-")
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            if s.proc and s.proc.poll() is None:
                s.proc.kill()
                s.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    def server(self, **kw):
        s = Server(self.dir, **kw)
        self.servers.append(s)
        return s

    # Relaxed durability writes set-constants within --flush-interval-ms (50 by default); on
    # two shared cores the writer thread can be kept off the CPU for a while, so what the test
    # holds it to is the window plus this margin.
    FLUSH_WINDOW = 0.05
    STALL_MARGIN = 0.75

    def check_restored(self, server, client, strict, killed_at=None):
        status, _, got = server.request("GET", f"/v1/sessions/{client.id}")
        self.assertEqual(status, 200, got)
        rev = got["revision"]
        floor = client.last_acked if strict else client.last_structural
        if not strict and killed_at is not None:
            # Relaxed loses at most the window: what was answered before it is stored.
            settled = [r for r, t in client.acked_at.items() if t <= killed_at - self.FLUSH_WINDOW - self.STALL_MARGIN]
            floor = max([floor] + settled)
        self.assertGreaterEqual(rev, floor, f"acknowledged revision {floor} lost (stored {rev})")
        status, _, frames = server.request("GET", f"/v1/sessions/{client.id}/frames")
        self.assertEqual(status, 200)
        self.assertEqual(frames["revision"], rev)
        if rev in client.history:
            self.assertTrue(close(frames["frames"], client.history[rev][0]), f"frames at revision {rev} differ from the answer then")
        else:
            # A change the server wrote but whose answer the kill cut off: one at most per client.
            self.assertEqual(rev, client.last_acked + 1)
        status, _, fresh = server.request("POST", "/v1/layout", got["document"])
        self.assertEqual(status, 200, fresh)
        self.assertTrue(close(fresh["frames"], frames["frames"]), "frames differ from a fresh build of the stored document")
        # And the session goes on: the next change takes the next revision.
        status, _, after = server.request("POST", f"/v1/sessions/{client.id}/constants", {"w0": 77})
        self.assertEqual(status, 200, after)
        self.assertEqual(after["revision"], rev + 1)

    def crash(self, durability, seed):
        rng = random.Random(seed)
        server = self.server(durability=durability).start()
        clients = [Client(server, random.Random(rng.random())) for _ in range(6)]
        for c in clients:
            c.start()
        # Relaxed runs long enough that set-constants older than the window and its margin exist.
        time.sleep(rng.uniform(0.4, 1.6) + (1.0 if durability == "relaxed" else 0))
        for c in clients:
            c.killing.set()
        killed_at = time.monotonic()
        server.kill()
        for c in clients:
            c.stopped = True
            c.join(10)
            self.assertFalse(c.is_alive(), "a client did not stop")
            self.assertIsNone(c.failure, "a client failed before the kill")
        acked = sum(len(c.history) for c in clients)
        self.assertGreater(acked, 12, "too few changes acknowledged before the kill to test anything")
        server.start()
        for c in clients:
            self.check_restored(server, c, strict=durability == "strict", killed_at=killed_at)
        server.stop()
        return acked

    def test_crash_relaxed(self):
        for seed in (1, 2, 3):
            with self.subTest(seed=seed):
                self.crash("relaxed", seed)
                shutil.rmtree(self.dir); os.mkdir(self.dir)

    def test_crash_strict(self):
        for seed in (4, 5, 6):
            with self.subTest(seed=seed):
                self.crash("strict", seed)
                shutil.rmtree(self.dir); os.mkdir(self.dir)

    def test_relaxed_loses_at_most_its_window(self):
        # Set-constants only: no structural change flushes them early, so only the window does.
        server = self.server(durability="relaxed").start()
        client = Client(server, random.Random(11))
        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        acked = []
        end = time.monotonic() + 2.0
        k = 0
        while time.monotonic() < end:
            k += 1
            status, _, a = server.request("POST", f"/v1/sessions/{client.id}/constants", {"w0": 50 + k % 97}, conn=conn)
            self.assertEqual(status, 200, a)
            acked.append((a["revision"], time.monotonic()))
        conn.close()
        killed_at = time.monotonic()
        server.kill()
        settled = max(r for r, t in acked if t <= killed_at - self.FLUSH_WINDOW - self.STALL_MARGIN)
        server.start()
        status, _, frames = server.request("GET", f"/v1/sessions/{client.id}/frames")
        self.assertEqual(status, 200)
        self.assertGreaterEqual(frames["revision"], settled, "a set-constant answered before the window was lost")
        server.stop()

    def test_sigterm_loses_nothing_relaxed(self):
        # A long flush interval: only the clean stop can have written the set-constants.
        server = self.server(durability="relaxed", extra=["--flush-interval-ms", "60000"]).start()
        client = Client(server, random.Random(9))
        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        for k in range(200):
            status, _, a = server.request("POST", f"/v1/sessions/{client.id}/constants", {"gap0": k, "w0": 50 + k % 7}, conn=conn)
            self.assertEqual(status, 200)
        conn.close()
        expected = a["revision"]
        _, _, frames_before = server.request("GET", f"/v1/sessions/{client.id}/frames")
        server.stop()
        self.assertEqual(server.proc.returncode, 0)
        server.start()
        status, _, frames = server.request("GET", f"/v1/sessions/{client.id}/frames")
        self.assertEqual(status, 200)
        self.assertEqual(frames["revision"], expected)
        self.assertTrue(close(frames["frames"], frames_before["frames"]))

    def test_torn_journal_tail_is_skipped(self):
        server = self.server(durability="strict").start()
        client = Client(server, random.Random(3))
        answers = {}
        for k in range(4):
            status, _, a = server.request("POST", f"/v1/sessions/{client.id}/changes",
                                          {"ops": [{"op": "setConstant", "id": "gap1", "constant": 10 + k}]})
            self.assertEqual(status, 200)
            _, _, f = server.request("GET", f"/v1/sessions/{client.id}/frames")
            answers[a["revision"]] = f["frames"]
        server.kill()
        db = sqlite3.connect(server.path)
        (last,) = db.execute("SELECT max(revision) FROM journal WHERE session=?", (client.id,)).fetchone()
        # The last entry torn in half, as a crash mid-write would leave it.
        db.execute("UPDATE journal SET body=substr(body, 1, length(body)/2) WHERE session=? AND revision=?", (client.id, last))
        db.commit()
        db.close()
        server.start()
        status, _, frames = server.request("GET", f"/v1/sessions/{client.id}/frames")
        self.assertEqual(status, 200)
        self.assertEqual(frames["revision"], last - 1)
        self.assertTrue(close(frames["frames"], answers[last - 1]))
        self.assertIn("torn or corrupt journal tail", server.log_text())
        # The session goes on from there, and the bad entry is gone from the store.
        status, _, a = server.request("POST", f"/v1/sessions/{client.id}/changes",
                                      {"ops": [{"op": "setConstant", "id": "gap2", "constant": 33}]})
        self.assertEqual((status, a["revision"]), (200, last))
        server.kill()
        server.start()
        status, _, frames2 = server.request("GET", f"/v1/sessions/{client.id}/frames")
        self.assertEqual(frames2["revision"], last)
        self.assertEqual(frames2["frames"]["v2"]["y"], frames["frames"]["v1"]["y"] + 20 + 33)
        server.stop()

    def test_torn_wal_is_recovered(self):
        server = self.server(durability="strict").start()
        clients = [Client(server, random.Random(k)) for k in range(3)]
        for c in clients:
            c.start()
        time.sleep(0.8)
        server.kill()
        for c in clients:
            c.stopped = True
            c.join(10)
        wal = server.path + "-wal"
        size = os.path.getsize(wal)
        self.assertGreater(size, 4096)
        # Cut the WAL mid-frame: SQLite drops the torn transaction at its checksum.
        with open(wal, "r+b") as f:
            f.truncate(size - 1500)
        server.start()
        for c in clients:
            status, _, got = server.request("GET", f"/v1/sessions/{c.id}")
            self.assertEqual(status, 200, got)
            status, _, frames = server.request("GET", f"/v1/sessions/{c.id}/frames")
            if frames["revision"] in c.history:
                self.assertTrue(close(frames["frames"], c.history[frames["revision"]][0]))
            status, _, fresh = server.request("POST", "/v1/layout", got["document"])
            self.assertTrue(close(fresh["frames"], frames["frames"]))
        server.stop()

    def test_full_disk_answers_503_and_recovers(self):
        # The process may not grow a file past 1 MB (a soft limit, so that the test can lift it): the store fills up while sessions are made.
        prlimit = shutil.which("prlimit")
        self.assertIsNotNone(prlimit, "prlimit (util-linux) is needed")
        server = self.server(durability="relaxed", prefix=[prlimit, "--fsize=1000000:unlimited", "--"]).start()
        rng = random.Random(7)
        made, refused = [], None
        for _ in range(400):
            # Random ids and frames: documents that compress little, so the limit comes soon.
            big = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 1000, "height": 1000}}] + [
                {"id": "%032x" % rng.getrandbits(128), "parent": "root",
                 "frame": {"x": rng.random() * 900, "y": rng.random() * 900, "width": rng.random() * 99, "height": rng.random() * 99}}
                for _ in range(150)]}
            status, headers, body = server.request("POST", "/v1/sessions", big)
            if status == 201:
                made.append((body["session"], body["frames"]))
                continue
            refused = (status, headers, body)
            break
        self.assertIsNotNone(refused, "the store never filled up")
        status, headers, body = refused
        self.assertEqual(status, 503, body)
        self.assertIn("Retry-After", headers)
        self.assertEqual(body["type"], "/problems/unavailable")
        self.assertGreater(len(made), 2)
        # The disk stays full (no file may grow at all) while the rest is checked.
        subprocess.run([prlimit, "--pid", str(server.proc.pid), "--fsize=1:unlimited"], check=True)
        deadline = time.time() + 10
        while time.time() < deadline and server.request("GET", "/readyz")[0] != 503:
            time.sleep(0.1)
        status, _, ready = server.request("GET", "/readyz")
        self.assertEqual(status, 503)
        self.assertIn("cannot be written", ready["detail"])
        # Reads go on; writes are refused and leave the session as it was.
        sid, frames = made[0]
        status, _, before = server.request("GET", f"/v1/sessions/{sid}")
        self.assertEqual(status, 200)
        status, _, _ = server.request("POST", f"/v1/sessions/{sid}/changes", {"ops": [{"op": "setOptions", "options": {"scale": 2}}]})
        self.assertEqual(status, 503)
        status, _, after = server.request("GET", f"/v1/sessions/{sid}")
        self.assertEqual(after, before)
        # Room again: the store recovers by itself.
        subprocess.run([prlimit, "--pid", str(server.proc.pid), "--fsize=unlimited:unlimited"], check=True)
        deadline = time.time() + 10
        while time.time() < deadline and server.request("GET", "/readyz")[0] != 200:
            time.sleep(0.2)
        self.assertEqual(server.request("GET", "/readyz")[0], 200)
        status, _, a = server.request("POST", f"/v1/sessions/{sid}/changes", {"ops": [{"op": "setOptions", "options": {"scale": 2}}]})
        self.assertEqual(status, 200, a)
        # Nothing stored was damaged: every acknowledged session comes back after a kill.
        server.kill()
        server.prefix = []
        server.start()
        for sid2, frames2 in made[1:]:
            status, _, f = server.request("GET", f"/v1/sessions/{sid2}/frames")
            self.assertEqual(status, 200)
            self.assertTrue(close(f["frames"], frames2))
        server.stop()

    def test_a_failed_fsync_at_commit_is_an_unknown_outcome(self):
        # fsync and fdatasync fail (EIO) while a flag file exists: a shim preloaded into the
        # server. A commit whose fsync failed may be on disk anyway (the kernel wrote the WAL's
        # pages, and recovery replays a commit it finds whole): 502, never 503 "not applied".
        shim = os.path.join(self.dir, "failing_fsync.c")
        with open(shim, "w") as f:
            f.write("""#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
static int failing(void) { const char *f = getenv("FSYNC_FAILS_WHILE"); return f && access(f, F_OK) == 0; }
int fsync(int fd) { if (failing()) { errno = EIO; return -1; } return (int)syscall(SYS_fsync, fd); }
int fdatasync(int fd) { if (failing()) { errno = EIO; return -1; } return (int)syscall(SYS_fdatasync, fd); }
""")
        library, flag = os.path.join(self.dir, "failing_fsync.so"), os.path.join(self.dir, "fsync-fails")
        compiler = shutil.which("cc") or shutil.which("clang")   # the Swift toolchain brings clang
        subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", library, shim], check=True)
        server = self.server(durability="strict", prefix=["env", f"LD_PRELOAD={library}", f"FSYNC_FAILS_WHILE={flag}"]).start()
        status, _, created = server.request("POST", "/v1/sessions", chain_document())
        self.assertEqual(status, 201, created)
        sid = created["session"]
        self.assertEqual(server.request("POST", f"/v1/sessions/{sid}/constants", {"gap0": 20})[0], 200)
        open(flag, "w").close()
        status, headers, problem = server.request("POST", f"/v1/sessions/{sid}/constants", {"gap0": 30})
        self.assertEqual((status, problem["type"]), (502, "/problems/outcome-unknown"), problem)
        self.assertNotIn("Retry-After", headers)
        # Read back: with the write or without it, and either way it can be written on.
        os.remove(flag)
        deadline = time.time() + 10
        while time.time() < deadline and server.request("GET", "/readyz")[0] != 200:
            time.sleep(0.1)
        status, _, seen = server.request("GET", f"/v1/sessions/{sid}/frames")
        self.assertEqual(status, 200, seen)
        self.assertIn(seen["frames"]["v0"]["x"], (20, 30))
        status, _, answer = server.request("POST", f"/v1/sessions/{sid}/constants", {"w0": 50})
        self.assertEqual(status, 200, answer)
        # What was acknowledged survives a crash; the unknown one is there or not, as read.
        server.kill()
        server.prefix = []
        server.start()
        status, _, after = server.request("GET", f"/v1/sessions/{sid}/frames")
        self.assertEqual(status, 200, after)
        self.assertEqual((after["revision"], after["frames"]["v0"]["x"], after["frames"]["v0"]["width"]),
                         (answer["revision"], seen["frames"]["v0"]["x"], 50))
        server.stop()

    def test_journal_is_compacted_and_ids_continue(self):
        server = self.server().start()
        client = Client(server, random.Random(5))
        conn = http.client.HTTPConnection("127.0.0.1", server.port)
        autos = []
        for k in range(350):   # ~240 bytes a change: the journal outgrows 64 KB and the snapshot
            v = f"x{k}"
            status, _, a = server.request("POST", f"/v1/sessions/{client.id}/changes", {"ops": [
                {"op": "addViews", "views": [{"id": v, "parent": "root"}]},
                {"op": "addConstraints", "constraints": [
                    {"expr": f"{v}.left == root.left + {k}"}, {"expr": f"{v}.top == root.top + {300 + k}"},
                    {"expr": f"{v}.width == 40"}, {"expr": f"{v}.height == 12"}]}]}, conn=conn)
            self.assertEqual(status, 200, a)
            autos += a["added"]
        conn.close()
        deadline = time.time() + 10
        snapshots = 0
        while time.time() < deadline and snapshots < 2:   # the first is the creation
            _, _, metrics = server.request("GET", "/metrics")
            line = [l for l in metrics.decode().splitlines() if l.startswith("layoutd_store_snapshots_total")]
            snapshots = float(line[0].split()[-1]) if line else 0
            time.sleep(0.1)
        self.assertGreaterEqual(snapshots, 2, "the journal was never compacted")
        _, _, before = server.request("GET", f"/v1/sessions/{client.id}/frames")
        server.kill()
        db = sqlite3.connect(server.path)
        (entries,) = db.execute("SELECT count(*) FROM journal WHERE session=?", (client.id,)).fetchone()
        (snap_rev,) = db.execute("SELECT revision FROM sessions WHERE id=?", (client.id,)).fetchone()
        db.close()
        self.assertLess(entries, 350)
        self.assertGreater(snap_rev, 1)
        server.start()
        _, _, after = server.request("GET", f"/v1/sessions/{client.id}/frames")
        self.assertEqual(after["revision"], before["revision"])
        self.assertTrue(close(after["frames"], before["frames"]))
        # Server-given ids go on after the last one given before the restart, never reused.
        status, _, a = server.request("POST", f"/v1/sessions/{client.id}/changes",
                                      {"ops": [{"op": "addConstraints", "constraints": [{"expr": "x0.width == 41 @500"}]}]})
        self.assertEqual(status, 200, a)
        number = lambda i: int(i[1:])
        self.assertTrue(all(i.startswith("c") for i in autos + a["added"]))
        self.assertGreater(number(a["added"][0]), max(map(number, autos)))
        server.stop()

    def test_unwritable_store_serves_reads(self):
        server = self.server().start()
        clients = [Client(server, random.Random(k)) for k in range(2)]
        status, _, a = server.request("POST", f"/v1/sessions/{clients[0].id}/constants", {"gap0": 61})
        self.assertEqual(status, 200)
        server.stop()
        # The store's files and folder become read-only to the server: as root, the server runs
        # as nobody (root's permissions ignore modes).
        paths = [self.dir] + [os.path.join(self.dir, f) for f in os.listdir(self.dir) if f.startswith("sessions.sqlite")]
        if os.geteuid() == 0:
            for p in paths:
                os.chown(p, 65534, 65534)
            server.prefix = [shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        for p in paths:
            os.chmod(p, 0o555 if os.path.isdir(p) else 0o444)
        try:
            server.start()
            status, _, ready = server.request("GET", "/readyz")
            self.assertEqual(status, 503, ready)
            self.assertIn("read-only", ready["detail"])
            status, _, f = server.request("GET", f"/v1/sessions/{clients[0].id}/frames")
            self.assertEqual(status, 200, f)
            self.assertEqual((f["revision"], f["frames"]["v0"]["x"]), (2, 61))
            for path, body in [("/constants", {"gap0": 1}), ("/changes", {"ops": [{"op": "setOptions", "options": {"scale": 2}}]})]:
                status, headers, p = server.request("POST", f"/v1/sessions/{clients[1].id}{path}", body)
                self.assertEqual(status, 503, p)
                self.assertIn("Retry-After", headers)
            status, _, p = server.request("POST", "/v1/sessions", chain_document())
            self.assertEqual(status, 503, p)
            self.assertEqual(server.request("DELETE", f"/v1/sessions/{clients[1].id}")[0], 503)
            status, _, f = server.request("GET", f"/v1/sessions/{clients[1].id}/frames")
            self.assertEqual((status, f["revision"]), (200, 1))
            server.stop()
        finally:
            for p in paths:
                os.chmod(p, 0o755 if os.path.isdir(p) else 0o644)

    def test_sessions_beyond_memory_come_back_from_the_store(self):
        server = self.server(extra=["--max-sessions", "3"]).start()
        clients = [Client(server, random.Random(k)) for k in range(8)]
        for c in clients:
            status, _, a = server.request("POST", f"/v1/sessions/{c.id}/constants", {"gap0": 42})
            self.assertEqual(status, 200, a)
        for c in clients:
            status, _, f = server.request("GET", f"/v1/sessions/{c.id}/frames")
            self.assertEqual(status, 200, f)
            self.assertEqual(f["revision"], 2)
            self.assertEqual(f["frames"]["v0"]["x"], 42)
        status, _, metrics = server.request("GET", "/metrics")
        restored = [l for l in metrics.decode().splitlines() if l.startswith("layoutd_sessions_restored_total")]
        self.assertTrue(restored and float(restored[0].split()[-1]) >= 5, restored)
        # A delete removes it from the store too.
        self.assertEqual(server.request("DELETE", f"/v1/sessions/{clients[0].id}")[0], 204)
        server.kill()
        server.start()
        self.assertEqual(server.request("GET", f"/v1/sessions/{clients[0].id}")[0], 404)
        self.assertEqual(server.request("GET", f"/v1/sessions/{clients[1].id}")[0], 200)
        server.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
