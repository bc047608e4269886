"""The session store on a real PostgreSQL (Debian's postgresql, started here in a temporary
directory on a loopback port, stopped at the end), against the real server process:

- crash: clients post changes and set-constants; SIGKILL mid-load; restarted on the same
  database, every acknowledged change is there (strict: set-constants too), with the frames
  the client was answered, and the session goes on at the next revision;
- SIGTERM loses nothing under relaxed; sessions beyond --max-sessions come back from it;
- two servers on one database: a session made by one is served by the other after the first
  stops (what replicas build on), and at once after it left the first one's memory (its
  lease released then, not handed over on request nor waited out);
- tenants across a takeover: a session made with one tenant's key on one replica is that
  tenant's on the replica that restores it, and no other tenant's;
- the database lost mid-load: writes answer 503 with Retry-After and /readyz says why (reads
  go on only while a session's lease holds: past it the replica cannot know it still owns
  the session); once it is back, writes are accepted again and nothing acknowledged was lost.
- a COMMIT whose answer is lost (its connection dropped after PostgreSQL committed): the
  write is answered 502 outcome-unknown, never 503 "could not be stored", and the session
  read back holds it.

Run: python3 Tests/store/test_postgres_store.py [-k NAME]
"""
import os
import pwd
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_store  # noqa: E402  (the SQLite tests' server, clients and checks)
from test_store import Client, Server, close, free_port  # noqa: E402


def pg_bin(name):
    versions = sorted(os.listdir("/usr/lib/postgresql"), key=lambda v: int(v.split(".")[0]))
    return os.path.join("/usr/lib/postgresql", versions[-1], "bin", name)


def until_ok(server, method, path, body=None, seconds=10, pause=0.1):
    """The request sent again until it is answered 200 or the time is up: the last (status, body)."""
    deadline = time.time() + seconds
    while True:
        status, _, answer = server.request(method, path, body)
        if status == 200 or time.time() >= deadline:
            return status, answer
        time.sleep(pause)


class Postgres:
    """A PostgreSQL cluster of our own: initdb in a temporary folder, trust on loopback."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="layoutd-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        # PostgreSQL refuses to run as root: as root, run it as the postgres user.
        self.prefix = []
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            self.prefix = ["runuser", "-u", "postgres", "--"]
        subprocess.run(self.prefix + [pg_bin("initdb"), "-D", self.data, "-A", "trust", "-U", "postgres", "--no-sync"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def start(self):
        subprocess.run(self.prefix + [pg_bin("pg_ctl"), "-D", self.data, "-l", os.path.join(self.dir, "postgres.log"), "-w", "start",
                                      "-o", f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"],
                       check=True, stdout=subprocess.DEVNULL)

    def stop(self, mode="fast"):
        subprocess.run(self.prefix + [pg_bin("pg_ctl"), "-D", self.data, "-m", mode, "-w", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def remove(self):
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class PostgresStoreTests(test_store.StoreTests):
    @classmethod
    def setUpClass(cls):
        cls.pg = Postgres()
        cls.pg.start()

    @classmethod
    def tearDownClass(cls):
        cls.pg.remove()

    def server(self, **kw):
        # A restarted server is the same replica (it takes its own leases back at once).
        kw["extra"] = list(kw.get("extra", ())) + ["--replica-id", f"replica-{len(self.servers)}"]
        s = Server(self.dir, store=self.pg.url, **kw)
        self.servers.append(s)
        return s

    # What is SQLite's own (a WAL file, a file size limit, a read-only file, its fsync at
    # COMMIT: PostgreSQL's lost COMMIT is tested below) does not apply.
    test_a_failed_fsync_at_commit_is_an_unknown_outcome = None
    test_torn_journal_tail_is_skipped = None
    test_torn_wal_is_recovered = None
    test_full_disk_answers_503_and_recovers = None
    test_unwritable_store_serves_reads = None
    test_journal_is_compacted_and_ids_continue = None

    def test_a_session_moves_between_servers_on_one_database(self):
        a = self.server(durability="strict").start()
        client = Client(a, random.Random(3))
        for k in range(20):
            status, _, answer = a.request("POST", f"/v1/sessions/{client.id}/constants", {"gap0": k})
            self.assertEqual(status, 200, answer)
        _, _, frames = a.request("GET", f"/v1/sessions/{client.id}/frames")
        a.stop()
        b = self.server(durability="strict").start()
        status, _, again = b.request("GET", f"/v1/sessions/{client.id}/frames")
        self.assertEqual(status, 200, again)
        self.assertEqual(again["revision"], frames["revision"])
        self.assertTrue(close(again["frames"], frames["frames"]))
        b.stop()

    def test_a_session_leaving_memory_releases_its_lease(self):
        # Leases of a minute: a lease kept would hold the session from the other server that long,
        # and one handed over on request would be counted.
        a = self.server(durability="strict", extra=["--session-ttl", "0.5", "--lease-ms", "60000"]).start()
        b = self.server(durability="strict", extra=["--lease-ms", "60000"]).start()
        client = Client(a, random.Random(8))
        status, _, answer = a.request("POST", f"/v1/sessions/{client.id}/constants", {"gap0": 5})
        self.assertEqual(status, 200, answer)
        deadline = time.time() + 10
        while b"layoutd_sessions_evicted_total 1" not in a.request("GET", "/metrics")[2] and time.time() < deadline:
            time.sleep(0.05)
        self.assertIn(b"layoutd_sessions_evicted_total 1", a.request("GET", "/metrics")[2], "the idle session left memory")
        status, _, frames = b.request("GET", f"/v1/sessions/{client.id}/frames")
        self.assertEqual(status, 200, frames)
        self.assertEqual(frames["revision"], answer["revision"])
        self.assertIn(b"layoutd_leases_handed_over_total 0", a.request("GET", "/metrics")[2], "released on leaving, not on request")
        a.stop()
        b.stop()

    def test_a_session_stays_its_tenants_across_a_takeover(self):
        import hashlib
        import http.client
        import json
        auth = os.path.join(self.dir, "tenants.json")
        with open(auth, "w") as f:
            json.dump({"tenants": [{"name": t, "keys": ["sha256:" + hashlib.sha256(t.encode()).hexdigest()]} for t in ("team-a", "team-b")]}, f)

        def call(server, method, path, key, body=None):
            c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            headers = {"Authorization": f"Bearer {key}"}
            if body is not None:
                headers["Content-Type"] = "application/json"
            c.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
            r = c.getresponse()
            raw = r.read()
            c.close()
            return r.status, json.loads(raw) if raw else None

        a = self.server(durability="strict", extra=["--auth-file", auth]).start()
        status, created = call(a, "POST", "/v1/sessions", "team-a", test_store.chain_document())
        self.assertEqual(status, 201, created)
        sid = created["session"]
        self.assertEqual(call(a, "GET", f"/v1/sessions/{sid}", "team-b")[0], 404)
        a.stop()
        b = self.server(durability="strict", extra=["--auth-file", auth]).start()
        self.assertEqual(call(b, "GET", f"/v1/sessions/{sid}", "team-b")[0], 404, "restored on another replica: still not team-b's")
        self.assertEqual(call(b, "POST", f"/v1/sessions/{sid}/constants", "team-b", {"gap0": 3})[0], 404)
        status, got = call(b, "GET", f"/v1/sessions/{sid}", "team-a")
        self.assertEqual(status, 200, got)
        self.assertEqual(got["revision"], created["revision"])
        b.stop()

    def test_a_lost_database_answers_503_and_loses_nothing(self):
        server = self.server(durability="strict").start()
        client = Client(server, random.Random(5))
        acked = None
        for k in range(30):
            status, _, answer = server.request("POST", f"/v1/sessions/{client.id}/constants", {"gap0": k})
            self.assertEqual(status, 200, answer)
            acked = answer["revision"]
        self.pg.stop("immediate")
        try:
            status, headers, problem = server.request("POST", f"/v1/sessions/{client.id}/constants", {"gap0": 99})
            self.assertEqual(status, 503, problem)
            self.assertIn("Retry-After", headers)
            deadline = time.time() + 10
            while server.request("GET", "/readyz")[0] != 503 and time.time() < deadline:
                time.sleep(0.1)
            status, _, ready = server.request("GET", "/readyz")
            self.assertEqual(status, 503)
            self.assertIn("PostgreSQL", ready["detail"])
        finally:
            self.pg.start()
        # Writes come back (the writer probes until the database answers).
        status, answer = until_ok(server, "POST", f"/v1/sessions/{client.id}/constants", {"gap0": 7}, seconds=30, pause=0.2)
        self.assertEqual(status, 200, answer)
        self.assertGreater(answer["revision"], acked)
        server.kill()
        server.start()
        status, _, state = server.request("GET", f"/v1/sessions/{client.id}")
        self.assertEqual(status, 200, state)
        self.assertGreaterEqual(state["revision"], answer["revision"])
        server.stop()

    def sql(self, query):
        out = subprocess.run(["psql", self.pg.url, "-At", "-c", query], check=True, capture_output=True, text=True).stdout
        return out.splitlines()

    def test_a_commit_whose_answer_is_lost_answers_outcome_unknown(self):
        """The writer's COMMIT is held after it is durable (PostgreSQL waits for a synchronous
        standby that does not exist), and its backend is terminated there: the transaction is
        committed, the connection dropped before the answer. The client must not hear "not
        stored" (503) for a write that is stored."""
        # Leases of a minute: renewals wait for the standby too, and must not run out meanwhile.
        server = self.server(durability="strict", extra=["--lease-ms", "60000"]).start()
        status, _, created = server.request("POST", "/v1/sessions", test_store.chain_document())
        self.assertEqual(status, 201, created)
        sid = created["session"]
        status, _, answer = server.request("POST", f"/v1/sessions/{sid}/constants", {"gap0": 11})
        self.assertEqual(status, 200, answer)
        before = answer["revision"]
        self.sql("CREATE TABLE IF NOT EXISTS commit_probe(k integer)")
        self.sql("ALTER SYSTEM SET synchronous_standby_names = 'nobody'")
        self.sql("SELECT pg_reload_conf()")
        probe, result = None, {}

        def write():
            result["status"], _, result["body"] = server.request("POST", f"/v1/sessions/{sid}/constants", {"gap0": 55})

        def writer_waiting():
            return self.sql("SELECT pid FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query = 'COMMIT'")

        try:
            # In force once the checkpointer has read it: a commit of our own is held then.
            deadline = time.time() + 10
            while time.time() < deadline:
                probe = subprocess.Popen(["psql", self.pg.url, "-c", "INSERT INTO commit_probe VALUES (1)"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                try:
                    probe.wait(0.3)
                except subprocess.TimeoutExpired:
                    break
            self.assertIsNone(probe.poll(), "commits wait for the standby")
            client = threading.Thread(target=write)
            client.start()
            deadline = time.time() + 10
            while not writer_waiting() and time.time() < deadline:
                time.sleep(0.02)
            pids = writer_waiting()
            self.assertEqual(len(pids), 1, "the store writer's COMMIT waits for the standby")
            self.sql(f"SELECT pg_terminate_backend({pids[0]})")
            client.join(15)
            self.assertFalse(client.is_alive(), "the write was answered")
        finally:
            self.sql("ALTER SYSTEM RESET synchronous_standby_names")
            self.sql("SELECT pg_reload_conf()")
            if probe is not None:
                try:
                    probe.wait(10)
                except subprocess.TimeoutExpired:
                    probe.kill()
        self.assertEqual(result["status"], 502, f"answered {result} for a write that was committed")
        self.assertEqual(result["body"]["type"], "/problems/outcome-unknown", result)
        # Read back: the session left memory and comes back as stored, the write in it.
        status, state = until_ok(server, "GET", f"/v1/sessions/{sid}", pause=0.05)
        self.assertEqual(status, 200, state)
        self.assertEqual(state["revision"], before + 1, "the write was committed, and the session read back holds it")
        gap0 = next(c for c in state["document"]["constraints"] if c.get("id") == "gap0")
        self.assertTrue(gap0.get("constant") == 55 or "+ 55" in gap0.get("expr", ""), gap0)
        # The session goes on from there (the writer takes its connection back).
        status, answer = until_ok(server, "POST", f"/v1/sessions/{sid}/constants", {"gap0": 56})
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["revision"], before + 2)
        server.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)
