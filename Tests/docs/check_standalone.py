#!/usr/bin/env python3
"""The repository stands alone: every relative link in its Markdown resolves to a file
inside it, and no tracked file names a path beside the repository (`../shared`).
Run by `make lint`; exits 1 naming each finding."""
import os
import re
import subprocess
import sys

root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
files = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout.split()
findings = []
for name in files:
    path = os.path.join(root, name)
    if not os.path.isfile(path) or name.startswith("Tests/docs/"):
        continue
    try:
        text = open(path, encoding="utf-8").read()
    except UnicodeDecodeError:
        continue
    for n, line in enumerate(text.splitlines(), 1):
        if "../shared" in line:
            findings.append(f"{name}:{n}: names ../shared, outside the repository")
    if name.endswith(".md"):
        for m in re.finditer(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if not resolved.startswith(root + os.sep) or not os.path.exists(resolved):
                line = text.count("\n", 0, m.start()) + 1
                findings.append(f"{name}:{line}: link {target} does not resolve inside the repository")
print("\n".join(findings) or f"standalone: {len(files)} files checked")
sys.exit(1 if findings else 0)
