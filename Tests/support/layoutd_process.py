"""A layoutd process for the Python tests: on a free loopback port, in-memory store unless
told otherwise, its log in a temporary file; started when /healthz answers."""
import os
import socket
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("LAYOUTD_BIN", os.path.join(ROOT, ".build", "debug", "layoutd"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(port, proc=None, seconds=20):
    """Until /healthz answers on the port; RuntimeError when it does not in time, or the
    process ended."""
    deadline = time.time() + seconds
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return
        except OSError:
            if time.time() > deadline or (proc is not None and proc.poll() is not None):
                raise RuntimeError(f"layoutd did not start on port {port}")
            time.sleep(0.05)


class Layoutd:
    def __init__(self, *extra):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.NamedTemporaryFile(prefix="layoutd-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([BIN, "--port", str(self.port), "--store", "memory", "--log-level", "warning", *extra],
                                     stderr=self.log, stdout=subprocess.DEVNULL)
        try:
            wait_healthy(self.port, self.proc)
        except RuntimeError:
            raise RuntimeError("layoutd did not start; its log: " + self.log.name) from None

    def stop(self):
        self.proc.terminate()
        self.proc.wait(10)


def cpu_seconds(pid):
    """A process's user and system CPU so far, in seconds (/proc: what a benchmark charges the server)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
