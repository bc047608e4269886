"""TLS in the server (`--tls-cert`, `--tls-key`, through libmicrohttpd's GnuTLS), against the
real process with a certificate authority and a server certificate made here by openssl:

- the Python client, given the CA file, lays out over HTTPS and drags over WSS;
- a client that does not trust the CA is refused at the handshake;
- plain HTTP to the TLS port gets no HTTP answer, and the server goes on serving;
- openssl s_client, offering each: TLS 1.0 and 1.1 are refused, static-RSA key exchange and
  CBC suites are refused, TLS 1.2 with ECDHE and TLS 1.3 are agreed (testssl's checks);
  `--tls-priorities` puts another GnuTLS priority string in force;
- a key that does not read, or is not the certificate's, stops the start;
- SIGHUP puts a new certificate in force for new connections (open ones keep theirs), and a
  pair that does not match keeps the one in force.

Run: python3 Tests/http/test_tls.py
"""
import http.client
import json
import os
import shutil
import signal
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


def make_authority(d, name):
    """A CA `name`.pem and a server certificate it signed for 127.0.0.1: `name`-server.pem, .key."""
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.pem", "-days", "2",
            "-subj", f"/CN=layoutd test CA {name}", cwd=d)
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}-server.key", "-out", f"{name}-server.csr", "-subj", "/CN=localhost", cwd=d)
    with open(os.path.join(d, "ext.cnf"), "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", f"{name}-server.csr", "-CA", f"{name}.pem", "-CAkey", f"{name}.key", "-CAcreateserial",
            "-out", f"{name}-server.pem", "-days", "2", "-extfile", "ext.cnf", cwd=d)


def trusts(port, ca):
    """Whether a new HTTPS connection to the port verifies against the CA file."""
    try:
        urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", timeout=5, context=ssl.create_default_context(cafile=ca))
        return True
    except urllib.error.URLError as e:
        if isinstance(e.reason, ssl.SSLCertVerificationError):
            return False
        raise


def read(path):
    with open(path) as f:
        return f.read()


class TLSTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        d = cls.dir = tempfile.mkdtemp(prefix="layoutd-tls-")
        make_authority(d, "ca")
        make_authority(d, "other")
        shutil.copy(os.path.join(d, "ca-server.pem"), os.path.join(d, "server.pem"))
        shutil.copy(os.path.join(d, "ca-server.key"), os.path.join(d, "server.key"))
        cls.port = free_port()
        cls.log = open(os.path.join(d, "layoutd.log"), "w")
        cls.proc = subprocess.Popen([BIN, "--port", str(cls.port), "--store", "memory", "--log-level", "warning", "--max-body-bytes", str(4 << 20),
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

    def test_a_client_that_goes_away_over_tls_cancels_its_work(self):
        # 15,000 views in a column: seconds of a debug build. Over TLS a client's close comes as
        # a close_notify record and then the FIN: the FIN is seen behind the unread record.
        views = [{"id": "root", "frame": {"x": 0, "y": 0, "width": 320, "height": 100000}}]
        cons = []
        for i in range(15000):
            views.append({"id": f"v{i}", "parent": "root", "intrinsicSize": {"width": 50, "height": 20}})
            cons += [{"expr": f"v{i}.left == root.left"}, {"expr": f"v{i}.top == {'root.top' if i == 0 else f'v{i - 1}.bottom'} + 2"}]
        body = json.dumps({"views": views, "constraints": cons}, separators=(",", ":")).encode()   # 2.2 MB: --max-body-bytes 4 MiB
        context = ssl.create_default_context(cafile=self.ca)

        def stopped():
            with urllib.request.urlopen(f"https://127.0.0.1:{self.port}/metrics", timeout=10, context=context) as r:
                text = r.read().decode()
            return float(next(line.split()[1] for line in text.splitlines() if line.startswith("layoutd_requests_stopped_total")))
        before = stopped()
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as raw:
            with context.wrap_socket(raw, server_hostname="localhost") as s:
                s.sendall(b"POST /v1/layout HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
                time.sleep(0.5)
        t0 = time.monotonic()
        while stopped() < before + 1:
            self.assertLess(time.monotonic() - t0, 10, "the work went on for a TLS client that was gone")
            time.sleep(0.1)

    def test_a_client_that_does_not_trust_the_certificate_is_refused(self):
        with self.assertRaises(urllib.error.URLError) as refused:
            urllib.request.urlopen(f"https://127.0.0.1:{self.port}/healthz", timeout=5)
        self.assertIsInstance(refused.exception.reason, ssl.SSLCertVerificationError)

    def test_plain_http_to_the_tls_port_gets_no_answer(self):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try:
            answer = s.recv(4096)
        except (ConnectionResetError, socket.timeout):
            answer = b""
        s.close()
        # Closed, or a TLS alert record (content type 21): never an HTTP answer in the clear.
        self.assertTrue(answer == b"" or answer[0] == 21, answer[:80])
        context = ssl.create_default_context(cafile=self.ca)
        self.assertEqual(urllib.request.urlopen(f"https://127.0.0.1:{self.port}/healthz", timeout=5, context=context).status, 200)

    def handshake(self, port, *args):
        """The cipher openssl s_client agrees on with the server offering `args`, or None."""
        run = subprocess.run(["openssl", "s_client", "-connect", f"127.0.0.1:{port}", "-CAfile", self.ca, *args],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        for line in run.stdout.splitlines():
            if "Cipher is" in line:
                cipher = line.rsplit("Cipher is", 1)[1].strip()
                return None if cipher == "(NONE)" else cipher
        return None

    def test_only_tls_1_2_and_1_3_with_forward_secret_suites(self):
        legacy = ["-cipher", "DEFAULT@SECLEVEL=0"]   # so that the client offers what the server must refuse
        self.assertIsNone(self.handshake(self.port, "-tls1", *legacy))
        self.assertIsNone(self.handshake(self.port, "-tls1_1", *legacy))
        for static_rsa in ("AES128-SHA", "AES256-GCM-SHA384", "AES128-GCM-SHA256"):
            self.assertIsNone(self.handshake(self.port, "-tls1_2", "-cipher", static_rsa), static_rsa)
        self.assertIsNone(self.handshake(self.port, "-tls1_2", "-cipher", "ECDHE-RSA-AES128-SHA"), "a CBC suite")
        self.assertEqual(self.handshake(self.port, "-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"), "ECDHE-RSA-AES128-GCM-SHA256")
        self.assertIn("ECDHE", self.handshake(self.port, "-tls1_2"))
        self.assertTrue(self.handshake(self.port, "-tls1_3").startswith("TLS_"))
        # Another priority string: TLS 1.3 only.
        port = free_port()
        proc = subprocess.Popen([BIN, "--port", str(port), "--store", "memory", "--tls-cert", os.path.join(self.dir, "server.pem"),
                                 "--tls-key", os.path.join(self.dir, "server.key"), "--tls-priorities", "NORMAL:-VERS-ALL:+VERS-TLS1.3"],
                                stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        try:
            deadline = time.time() + 20
            while self.handshake(port, "-tls1_3") is None:
                self.assertLess(time.time(), deadline, "layoutd did not start with --tls-priorities")
                time.sleep(0.1)
            self.assertIsNone(self.handshake(port, "-tls1_2"))
        finally:
            proc.terminate()
            proc.wait(10)

    def test_a_key_that_does_not_read_stops_the_start(self):
        bad = os.path.join(self.dir, "bad.key")
        with open(bad, "w") as f:
            f.write("not a key\n")
        proc = subprocess.run([BIN, "--port", str(free_port()), "--store", "memory", "--tls-cert", os.path.join(self.dir, "server.pem"),
                               "--tls-key", bad], capture_output=True, text=True, timeout=30)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("--tls-key", proc.stderr)

    def test_a_key_that_is_not_the_certificates_stops_the_start(self):
        proc = subprocess.run([BIN, "--port", str(free_port()), "--store", "memory", "--tls-cert", os.path.join(self.dir, "ca-server.pem"),
                               "--tls-key", os.path.join(self.dir, "other-server.key")], capture_output=True, text=True, timeout=30)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("TLS certificate and key", proc.stderr)

    def test_sighup_puts_a_new_certificate_in_force_for_new_connections(self):
        d = tempfile.mkdtemp(prefix="rotate-", dir=self.dir)
        cert, key = os.path.join(d, "tls.crt"), os.path.join(d, "tls.key")
        shutil.copy(os.path.join(self.dir, "ca-server.pem"), cert)
        shutil.copy(os.path.join(self.dir, "ca-server.key"), key)
        port = free_port()
        log = open(os.path.join(d, "layoutd.log"), "w+")
        proc = subprocess.Popen([BIN, "--port", str(port), "--store", "memory", "--tls-cert", cert, "--tls-key", key],
                                stderr=log, stdout=subprocess.DEVNULL)
        try:
            deadline = time.time() + 20
            while True:
                try:
                    self.assertTrue(trusts(port, self.ca))
                    break
                except OSError:
                    self.assertLess(time.time(), deadline, "layoutd did not start over TLS")
                    time.sleep(0.05)
            other = os.path.join(self.dir, "other.pem")
            self.assertFalse(trusts(port, other))
            # A keep-alive connection opened under the first certificate.
            kept = http.client.HTTPSConnection("127.0.0.1", port, timeout=5, context=ssl.create_default_context(cafile=self.ca))
            kept.request("GET", "/healthz")
            self.assertEqual(kept.getresponse().read(), b'{"status":"ok"}')

            shutil.copy(os.path.join(self.dir, "other-server.pem"), cert)
            shutil.copy(os.path.join(self.dir, "other-server.key"), key)
            proc.send_signal(signal.SIGHUP)
            deadline = time.time() + 10
            while not trusts(port, other):
                self.assertLess(time.time(), deadline, "the new certificate was not put in force")
                time.sleep(0.05)
            self.assertFalse(trusts(port, self.ca), "a new connection still got the old certificate")
            kept.request("GET", "/healthz")
            self.assertEqual(kept.getresponse().read(), b'{"status":"ok"}', "an open connection keeps its session")
            kept.close()

            # A pair that does not match (the first key with the new certificate): refused, logged,
            # the certificate in force stays.
            shutil.copy(os.path.join(self.dir, "ca-server.key"), key)
            proc.send_signal(signal.SIGHUP)
            deadline = time.time() + 10
            while "TLS certificate not reloaded" not in read(log.name):
                self.assertLess(time.time(), deadline, "the bad pair was not logged")
                time.sleep(0.05)
            self.assertTrue(trusts(port, other))
            self.assertIsNone(proc.poll())
        finally:
            proc.terminate()
            proc.wait(10)
            log.close()


if __name__ == "__main__":
    unittest.main(verbosity=2)
