"""What docs/OPERATING.md and `layoutd --help` say of settings, against the real process:

- each flag can come from the environment (`LAYOUTD_PORT`), and a flag wins over it;
- every `--threading` mode (pool, per-connection, single) serves a layout;
- SIGINT stops the server as SIGTERM does: it exits 0 and the port is closed;
- a server whose store (PostgreSQL) cannot be reached does not start: it says why and
  exits non-zero, never serving with sessions it could not keep.

Run: python3 Tests/http/test_configuration.py
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from layoutd_process import BIN, free_port  # noqa: E402

DOCUMENT = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 100}},
                      {"id": "v", "parent": "root", "intrinsicSize": {"width": 40, "height": 20}}],
            "constraints": [{"expr": "v.leading == root.leading + 8"}, {"expr": "v.top == root.top + 4"}]}


def answers(port, timeout=0.5):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=timeout)
        return True
    except OSError:
        return False


class Process:
    """layoutd started with `args` and `env` added; started when `port` answers /healthz."""

    def __init__(self, port, args=(), env=None):
        self.log = tempfile.NamedTemporaryFile(prefix="layoutd-config-", suffix=".log", delete=False)
        environment = dict(os.environ, **(env or {}))
        self.proc = subprocess.Popen([BIN, "--store", "memory", "--log-level", "warning", *args],
                                     env=environment, stderr=self.log, stdout=subprocess.DEVNULL)
        deadline = time.time() + 20
        while not answers(port):
            if time.time() > deadline or self.proc.poll() is not None:
                self.stop()
                raise AssertionError("layoutd did not answer on port %d; its log: %s" % (port, open(self.log.name).read()[-2000:]))
            time.sleep(0.05)

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.proc.wait(20)


class ConfigurationTests(unittest.TestCase):
    def test_the_environment_sets_a_flag_and_the_flag_wins(self):
        from_env, from_flag = free_port(), free_port()
        p = Process(from_env, env={"LAYOUTD_PORT": str(from_env)})
        try:
            self.assertTrue(answers(from_env))
        finally:
            self.assertEqual(p.stop(), 0)
        p = Process(from_flag, args=["--port", str(from_flag)], env={"LAYOUTD_PORT": str(from_env)})
        try:
            self.assertTrue(answers(from_flag))
            self.assertFalse(answers(from_env), "the environment's port is not the one taken when a flag names another")
        finally:
            self.assertEqual(p.stop(), 0)

    def test_every_threading_mode_serves_a_layout(self):
        for mode in ("pool", "per-connection", "single"):
            with self.subTest(mode=mode):
                port = free_port()
                p = Process(port, args=["--port", str(port), "--threading", mode])
                try:
                    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/layout", data=json.dumps(DOCUMENT).encode(),
                                                     headers={"Content-Type": "application/json"}, method="POST")
                    answer = json.load(urllib.request.urlopen(request, timeout=10))
                    frames = {f["id"]: f for f in answer["frames"]} if isinstance(answer["frames"], list) else answer["frames"]
                    v = frames["v"]
                    frame = v.get("frame", v)
                    self.assertEqual((frame["x"], frame["y"], frame["width"], frame["height"]), (8, 4, 40, 20))
                finally:
                    self.assertEqual(p.stop(), 0)

    def test_sigint_stops_the_server_cleanly(self):
        port = free_port()
        p = Process(port, args=["--port", str(port)])
        self.assertEqual(p.stop(signal.SIGINT), 0)
        self.assertFalse(answers(port))

    def test_an_unreachable_postgres_store_stops_the_start(self):
        port, nobody = free_port(), free_port()  # nothing listens on the second
        with tempfile.NamedTemporaryFile(prefix="layoutd-config-", suffix=".log") as log:
            proc = subprocess.Popen([BIN, "--port", str(port), "--store", f"postgres://layoutd@127.0.0.1:{nobody}/layoutd"],
                                    stderr=log, stdout=subprocess.DEVNULL)
            try:
                code = proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                self.fail("layoutd kept running without its store")
            text = open(log.name).read()
        self.assertNotEqual(code, 0, text)
        self.assertFalse(answers(port), "nothing listens")
        self.assertIn(str(nobody), text, "the log names the store it could not reach")


if __name__ == "__main__":
    unittest.main(verbosity=2)
