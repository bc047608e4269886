"""TLS in the server (`--tls-cert`, `--tls-key`, through libmicrohttpd's GnuTLS), against the
real process with a certificate authority and a server certificate made here by openssl:

- the Python client, given the CA file, lays out over HTTPS and drags over WSS;
- a client that does not trust the CA is refused at the handshake;
- plain HTTP to the TLS port gets no HTTP answer, and the server goes on serving;
- a key that does not read stops the start.

Run: python3 Tests/http/test_tls.py
"""
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))
import layoutd  # noqa: E402
from layoutd_process import BIN, free_port  # noqa: E402

DOC = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 100}},
                 {"id": "v", "parent": "root", "intrinsicSize": {"width": 40, "height": 20}}],
       "constraints": [{"id": "lead", "expr": "v.leading == root.leading + 8"}, {"expr": "v.top == root.top + 4"}]}


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class TLSTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        d = cls.dir = tempfile.mkdtemp(prefix="layoutd-tls-")
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                "-subj", "/CN=layoutd test CA", cwd=d)
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost", cwd=d)
        with open(os.path.join(d, "ext.cnf"), "w") as f:
            f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem",
                "-days", "2", "-extfile", "ext.cnf", cwd=d)
        cls.port = free_port()
        cls.log = open(os.path.join(d, "layoutd.log"), "w")
        cls.proc = subprocess.Popen([BIN, "--port", str(cls.port), "--store", "memory", "--log-level", "warning",
                                     "--tls-cert", os.path.join(d, "server.pem"), "--tls-key", os.path.join(d, "server.key")],
                                    stderr=cls.log, stdout=subprocess.DEVNULL)
        cls.ca = os.path.join(d, "ca.pem")
        context = ssl.create_default_context(cafile=cls.ca)
        deadline = time.time() + 20
        while True:
            try:
                urllib.request.urlopen(f"https://127.0.0.1:{cls.port}/healthz", timeout=2, context=context)
                break
            except (OSError, ssl.SSLError):
                if time.time() > deadline or cls.proc.poll() is not None:
                    raise RuntimeError("layoutd did not start over TLS; log: " + open(cls.log.name).read())
                time.sleep(0.05)

    @classmethod
    def tearDownClass(cls):
        cls.proc.terminate()
        cls.proc.wait(10)
        cls.log.close()

    def test_https_and_wss_with_the_python_client(self):
        client = layoutd.Client(f"https://127.0.0.1:{self.port}", ca_file=self.ca)
        self.assertEqual(client.layout(DOC).frames["v"].x, 8)
        session = client.create_session(DOC)
        with session.stream() as stream:
            for x in (20, 30, 40):
                self.assertEqual(stream.set_constants({"lead": x}).frames["v"].x, x)

    def test_a_client_that_does_not_trust_the_certificate_is_refused(self):
        with self.assertRaises(urllib.error.URLError) as refused:
            urllib.request.urlopen(f"https://127.0.0.1:{self.port}/healthz", timeout=5)
        self.assertIsInstance(refused.exception.reason, ssl.SSLCertVerificationError)

    def test_plain_http_to_the_tls_port_gets_no_answer(self):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        try:
            answer = s.recv(4096)
        except (ConnectionResetError, socket.timeout):
            answer = b""
        s.close()
        self.assertFalse(answer.startswith(b"HTTP/1.1 200"), answer[:80])
        context = ssl.create_default_context(cafile=self.ca)
        self.assertEqual(urllib.request.urlopen(f"https://127.0.0.1:{self.port}/healthz", timeout=5, context=context).status, 200)

    def test_a_key_that_does_not_read_stops_the_start(self):
        bad = os.path.join(self.dir, "bad.key")
        with open(bad, "w") as f:
            f.write("not a key\n")
        proc = subprocess.run([BIN, "--port", str(free_port()), "--store", "memory", "--tls-cert", os.path.join(self.dir, "server.pem"),
                               "--tls-key", bad], capture_output=True, text=True, timeout=30)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("--tls-key", proc.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
