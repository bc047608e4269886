"""Deploy/ as the tests can hold it without a cluster:

- the StatefulSet mounts the auth Secret where LAYOUTD_AUTH_FILE points, under the key the
  Secret holds;
- the Secret's tenants file, its placeholder replaced by a real key's line, is one layoutd
  starts on, and the key it names is accepted (the placeholder itself is refused, so a
  manifest applied unedited never opens the server with a key nobody holds).

Run: python3 Tests/deploy/test_manifests.py
"""
import hashlib
import json
import os
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


if __name__ == "__main__":
    unittest.main(verbosity=2)
