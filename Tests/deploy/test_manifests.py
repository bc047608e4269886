"""Deploy/ as the tests can hold it without a cluster:

- the StatefulSet mounts the auth Secret where LAYOUTD_AUTH_FILE points, under the key the
  Secret holds;
- the Secret's tenants file, its placeholder replaced by a real key's line, is one layoutd
  starts on, and the key it names is accepted (the placeholder itself is refused, so a
  manifest applied unedited never opens the server with a key nobody holds);
- the proxy's one listener speaks TLS, with the certificate and key nginx.conf names at the
  paths where the proxy's Deployment mounts the TLS Secret (a `kubernetes.io/tls` Secret:
  tls.crt, tls.key), on the port the Deployment and its Service expose; the Secret's
  placeholders are no certificate and no key (nginx does not start on them). make
  cluster-test runs that nginx.conf with a certificate in those files.

Run: python3 Tests/deploy/test_manifests.py
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.request

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from layoutd_process import BIN, Layoutd, free_port  # noqa: E402


def load(name):
    with open(os.path.join(ROOT, "Deploy", name)) as f:
        return yaml.safe_load(f)


def load_all(name):
    with open(os.path.join(ROOT, "Deploy", name)) as f:
        return {d["kind"]: d for d in yaml.safe_load_all(f)}


class Manifests(unittest.TestCase):
    def test_the_auth_secret_is_mounted_where_the_server_reads_it(self):
        pod = load("statefulset.yaml")["spec"]["template"]["spec"]
        container = pod["containers"][0]
        env = {e["name"]: e.get("value") for e in container["env"]}
        path = env["LAYOUTD_AUTH_FILE"]
        mount = next(m for m in container["volumeMounts"] if path.startswith(m["mountPath"] + "/"))
        volume = next(v for v in pod["volumes"] if v["name"] == mount["name"])
        secret = load("auth-secret.yaml")
        self.assertEqual(volume["secret"]["secretName"], secret["metadata"]["name"])
        self.assertIn(os.path.basename(path), secret["stringData"])

    def test_the_secrets_tenants_file_starts_a_server_once_its_key_is_in(self):
        text = load("auth-secret.yaml")["stringData"]["tenants.json"]
        folder = tempfile.mkdtemp(prefix="layoutd-deploy-")
        unedited = os.path.join(folder, "unedited.json")
        with open(unedited, "w") as f:
            f.write(text)
        refused = subprocess.run([BIN, "--port", str(free_port()), "--store", "memory", "--auth-file", unedited],
                                 capture_output=True, text=True, timeout=30)
        self.assertNotEqual(refused.returncode, 0, "the placeholder is not a key")
        key = "deploy-test-key"
        edited = os.path.join(folder, "tenants.json")
        with open(edited, "w") as f:
            f.write(text.replace("sha256:REPLACE-WITH-THE-LINE-make-key-PRINTS", "sha256:" + hashlib.sha256(key.encode()).hexdigest()))
        server = Layoutd("--auth-file", edited)
        try:
            doc = {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}}]}
            req = urllib.request.Request(server.base + "/v1/layout", data=json.dumps(doc).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
            with urllib.request.urlopen(req, timeout=10) as r:
                self.assertEqual(r.status, 200)
        finally:
            server.stop()


class ProxyTLS(unittest.TestCase):
    def setUp(self):
        with open(os.path.join(ROOT, "Deploy", "proxy", "nginx.conf")) as f:
            self.conf = f.read()
        docs = load_all("proxy/deployment.yaml")
        self.pod = docs["Deployment"]["spec"]["template"]["spec"]
        self.container = next(c for c in self.pod["containers"] if c["name"] == "nginx")
        self.service = docs["Service"]["spec"]
        self.secret = load("proxy/tls-secret.yaml")

    def directive(self, name):
        return re.findall(rf"(?m)^\s*{name}\s+([^;]+);", self.conf)

    def locations(self):
        """Each location block's name and body (nested braces followed)."""
        out = []
        for m in re.finditer(r"(?m)^\s*location\s+([^{]+)\{", self.conf):
            depth, i = 1, m.end()
            while depth:
                depth += {"{": 1, "}": -1}.get(self.conf[i], 0)
                i += 1
            out.append((m.group(1).strip(), self.conf[m.end():i - 1]))
        return out

    def test_every_location_passes_the_clients_address_on(self):
        # nginx inherits no proxy_set_header into a block that sets one of its own: a location
        # that sets any must set X-Forwarded-For too, or the replicas' per-client caps see only
        # the proxy's address.
        locations = self.locations()
        self.assertGreaterEqual(len(locations), 4, locations)
        for name, body in locations:
            if "proxy_pass" in body:
                self.assertIn("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;", body, name)

    def test_the_one_listener_speaks_tls_on_the_exposed_port(self):
        listens = self.directive("listen")
        self.assertEqual(len(listens), 1, listens)
        port, *flags = listens[0].split()
        self.assertIn("ssl", flags)
        exposed = next((p for p in self.container["ports"] if p["containerPort"] == int(port)), None)
        self.assertIsNotNone(exposed, f"the Deployment exposes the listener's port {port}")
        self.assertEqual(self.container["readinessProbe"]["tcpSocket"]["port"], exposed["name"])
        self.assertEqual([p["targetPort"] for p in self.service["ports"]], [exposed["name"]])
        self.assertEqual([p["port"] for p in self.service["ports"]], [443])

    def test_the_tls_secret_is_mounted_where_nginx_reads_it(self):
        self.assertEqual(self.secret["type"], "kubernetes.io/tls")
        self.assertEqual(set(self.secret["stringData"]), {"tls.crt", "tls.key"})
        for name, key in (("ssl_certificate", "tls.crt"), ("ssl_certificate_key", "tls.key")):
            paths = self.directive(name)
            self.assertEqual(len(paths), 1, f"{name}: {paths}")
            path = paths[0].strip()
            self.assertEqual(os.path.basename(path), key, f"{name} reads the Secret's {key}")
            mount = next((m for m in self.container["volumeMounts"] if os.path.dirname(path) == m["mountPath"]), None)
            self.assertIsNotNone(mount, f"{path}: no volume is mounted at its folder")
            self.assertNotIn("subPath", mount, "a subPath mount is never updated when the Secret changes")
            self.assertTrue(mount.get("readOnly"))
            volume = next(v for v in self.pod["volumes"] if v["name"] == mount["name"])
            self.assertEqual(volume["secret"]["secretName"], self.secret["metadata"]["name"])
            self.assertNotIn("items", volume["secret"], "every key under its own name")

    def test_the_placeholders_are_no_certificate_and_no_key(self):
        folder = tempfile.mkdtemp(prefix="layoutd-deploy-")
        for key, command in (("tls.crt", ["x509", "-noout"]), ("tls.key", ["pkey", "-noout"])):
            path = os.path.join(folder, key)
            with open(path, "w") as f:
                f.write(self.secret["stringData"][key])
            self.assertIn("REPLACE-WITH", self.secret["stringData"][key])
            read = subprocess.run(["openssl", *command, "-in", path], capture_output=True, timeout=30)
            self.assertNotEqual(read.returncode, 0, f"the placeholder {key} reads as PEM")



class Image(unittest.TestCase):
    """The Dockerfile's runtime stage installs every shared library the server links (no
    Docker engine runs here, so the image itself cannot be built: its package list is held
    to the binary's own NEEDED entries, each resolved to its Debian package)."""

    def runtime_packages(self):
        with open(os.path.join(ROOT, "Dockerfile")) as f:
            runtime = f.read().split("\nFROM ")[-1]
        install = re.search(r"apt-get install[^\n]*?--no-install-recommends((?:[^\n]*\\\n)*[^\n]*)", runtime).group(1)
        return {w for w in install.replace("\\", " ").split() if not w.startswith("-") and not w.startswith("&")}

    def test_the_runtime_image_has_every_library_the_server_links(self):
        listed = self.runtime_packages()
        closure = set(listed)
        out = subprocess.run(["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks",
                              "--no-replaces", "--no-enhances", *sorted(listed)], capture_output=True, text=True, check=True).stdout
        closure |= {line.strip().split(":")[0] for line in out.splitlines() if line and not line.startswith(" ")}
        closure |= {line.split("Depends: ")[1].strip().strip("<>").split(":")[0] for line in out.splitlines() if "Depends: " in line}
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", subprocess.run(["readelf", "-d", BIN], capture_output=True, text=True).stdout)
        # The Swift runtime is linked statically into the image's binary (--static-swift-stdlib).
        system = [n for n in needed if not re.match(r"lib(swift|Foundation|dispatch|BlocksRuntime)", n)]
        self.assertIn("librsvg-2.so.2", system)
        paths = {}
        for line in subprocess.run(["ldd", BIN], capture_output=True, text=True).stdout.splitlines():
            m = re.match(r"\s*(\S+) => (\S+)", line)
            if m:
                paths[m.group(1)] = m.group(2)
        for lib in system:
            if lib.startswith("ld-linux"):
                continue
            # dpkg names a file by the path its package ships (/lib or /usr/lib, merged here).
            real = os.path.realpath(paths[lib])
            candidates = [paths[lib], real, real.replace("/usr/lib/", "/lib/", 1), paths[lib].replace("/usr/lib/", "/lib/", 1)]
            owner = next((o for o in (subprocess.run(["dpkg", "-S", c], capture_output=True, text=True).stdout.split(":")[0]
                                      for c in candidates) if o), "")
            priority = subprocess.run(["dpkg-query", "-W", "-f=${Priority}", owner], capture_output=True, text=True).stdout
            self.assertTrue(owner in closure or priority == "required", f"{lib} ({owner}) is not in the runtime image's packages")


if __name__ == "__main__":
    unittest.main(verbosity=2)
