#!/usr/bin/env python3
"""Every request that ever stopped the server, replayed against the real one (loopback HTTP).

`requests.json` holds each: what it is, why it stopped the server, the request, and the
statuses it may get (default: any 2xx or 4xx; a 4xx is application/problem+json), and where
the problem's `pointer` is to point when that was what went wrong. After each,
the process is alive and /healthz answers; a refused request on a session leaves the session
as it was. New entries come from every crash found (fuzzing, reports), with the fix.

Run: python3 Tests/regressions/replay.py   (LAYOUTD_BIN: the server to test)
"""
import json
import os
import sys
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "support"))
from layoutd_process import Layoutd  # noqa: E402

SESSION = {"views": [{"id": "a", "frame": {"x": 0, "y": 0, "width": 100, "height": 100}}, {"id": "b", "parent": "a"}],
           "constraints": [{"id": "w", "expr": "b.width == 10"}, {"expr": "b.height == 10"}, {"expr": "b.left == a.left"}, {"expr": "b.top == a.top"}]}


def call(base, method, path, body=None, content_type="application/json", accept=None):
    headers = {"Content-Type": content_type}
    if accept:
        headers["Accept"] = accept
    req = urllib.request.Request(base + path, method=method, data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


def main():
    entries = json.load(open(os.path.join(HERE, "requests.json"), encoding="utf-8"))
    server = Layoutd()
    passed, failed = 0, []
    try:
        for entry in entries:
            status, _, created = call(server.base, "POST", "/v1/sessions", json.dumps(SESSION).encode())
            assert status == 201, created
            sid = json.loads(created)["session"]
            _, _, before = call(server.base, "GET", f"/v1/sessions/{sid}")
            body = entry["text"].encode() if "text" in entry else json.dumps(entry["body"]).encode()
            path = entry["path"].replace("{session}", sid)
            problems = []
            try:
                status, kind, answer = call(server.base, entry["method"], path, body, entry.get("contentType", "application/json"), entry.get("accept"))
                expect = entry.get("expect")
                if expect is not None and status not in expect:
                    problems.append(f"status {status}, expected one of {expect}: {answer[:300]!r}")
                if expect is None and not (200 <= status < 300 or 400 <= status < 500):
                    problems.append(f"status {status}: {answer[:300]!r}")
                if 400 <= status and kind != "application/problem+json":
                    problems.append(f"a {status} as {kind}, not application/problem+json")
                if "pointer" in entry and 400 <= status:
                    pointer = json.loads(answer).get("pointer")
                    if pointer != entry["pointer"]:
                        problems.append(f"pointer {pointer!r}, expected {entry['pointer']!r}")
                if status >= 400 and "{session}" in entry["path"]:
                    _, _, after = call(server.base, "GET", f"/v1/sessions/{sid}")
                    if after != before:
                        problems.append("the refused request changed the session")
            except OSError as e:
                problems.append(f"no answer: {e}")
            if server.proc.poll() is not None:
                problems.append(f"the server stopped (exit {server.proc.returncode}); its log: {server.log.name}")
            else:
                try:
                    health, _, _ = call(server.base, "GET", "/healthz")
                    if health != 200:
                        problems.append(f"/healthz answered {health}")
                except OSError as e:
                    problems.append(f"/healthz did not answer: {e}")
            print(f"{'ok  ' if not problems else 'FAIL'} {entry['name']}: {status}" + "".join(f"\n     {p}" for p in problems))
            if problems:
                failed.append(entry["name"])
                if server.proc.poll() is not None:
                    server = Layoutd()
            else:
                passed += 1
    finally:
        server.stop()
    print(f"regressions: {passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
