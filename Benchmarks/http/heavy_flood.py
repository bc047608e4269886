"""The heaviest requests one tenant's quota allows, for tenant_isolation.py's `heavy` rounds:
THREADS threads (default 2), each posting in turn, for SECONDS, as tenant KEY to PORT:
2,000 constraints at odds on one view (a one-shot layout), a 20,000-word label drawn one word
a line (a picture), a storyboard of 40 scenes (an import), a 500-deep chain's trace; and one
more thread flooding a WebSocket stream with set-constants as fast as it can send them (past
the tenant's rate each is refused, and past 256 refusals in a row the stream is closed: it
opens another). Prints `RESULT requests=N refused=N streamed=N streams=N` at the end.

  python3 Benchmarks/http/heavy_flood.py PORT KEY SECONDS
"""
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import websockets.sync.client

HERE = os.path.dirname(os.path.abspath(__file__))


def conflicts(n):
    cons = [{"expr": "v.left == root.left"}, {"expr": "v.top == root.top"}, {"expr": "v.height == 10"}, {"expr": "v.width == 40"}]
    return {"views": [{"id": "root", "frame": {"x": 0, "y": 0, "width": 1000, "height": 1000}}, {"id": "v", "parent": "root"}],
            "constraints": cons + [{"expr": f"v.width >= {41 + k}"} for k in range(n)]}


def main():
    port, key, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    base = f"http://127.0.0.1:{port}"
    chain = {"views": [{"id": "v0", "frame": {"x": 0, "y": 0, "width": 100, "height": 100}}]
             + [{"id": f"v{i}", "parent": f"v{i - 1}", "frame": {"x": 0, "y": 0, "width": 10, "height": 10}} for i in range(1, 501)]}
    made = urllib.request.Request(base + "/v1/sessions", data=json.dumps(chain).encode(),
                                  headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(made, timeout=120) as r:
        session = json.loads(r.read())["session"]
    storyboard = subprocess.run([sys.executable, os.path.join(HERE, "..", "IBBench", "make_storyboard.py"), "--scenes", "40", "--cards", "8"],
                                capture_output=True, check=True).stdout
    label = {"views": [{"id": "r", "frame": {"x": 0, "y": 0, "width": 320, "height": 480}},
                       {"id": "l", "parent": "r", "text": {"string": "W " * 20000, "numberOfLines": 0}}],
             "constraints": [{"expr": "l.left == r.left"}, {"expr": "l.top == r.top"}, {"expr": "l.width == 1"}]}
    requests = [("POST", "/v1/layout", json.dumps(conflicts(2000)).encode(), "application/json"),
                ("POST", "/v1/render", json.dumps(label).encode(), "application/json"),
                ("POST", "/v1/ib/layout?contentSizes=stored", storyboard, "application/xml"),
                ("GET", f"/v1/sessions/{session}/trace", None, None)]
    counts = {"requests": 0, "refused": 0}
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def loop(offset):
        k = offset
        while time.monotonic() < end:
            method, path, body, kind = requests[k % len(requests)]
            k += 1
            headers = {"Authorization": f"Bearer {key}", **({"Content-Type": kind} if kind else {})}
            try:
                with urllib.request.urlopen(urllib.request.Request(base + path, data=body, method=method, headers=headers), timeout=120) as r:
                    r.read()
                refused = 0
            except urllib.error.HTTPError as e:
                e.read()
                refused = 1 if e.code == 429 else 0
            except OSError:
                refused = 0
            with lock:
                counts["requests"] += 1
                counts["refused"] += refused
    lever = {"views": [{"id": "r", "frame": {"x": 0, "y": 0, "width": 320, "height": 480}}, {"id": "a", "parent": "r"}],
             "constraints": [{"expr": "a.left == r.left"}, {"expr": "a.top == r.top"}, {"expr": "a.height == 10"},
                             {"id": "w", "expr": "a.width == 10"}]}
    made = urllib.request.Request(base + "/v1/sessions", data=json.dumps(lever).encode(),
                                  headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(made, timeout=120) as r:
        streamed_session = json.loads(r.read())["session"]
    counts["streamed"] = counts["streams"] = 0

    def stream():
        k = 0
        while time.monotonic() < end:
            try:
                with websockets.sync.client.connect(f"ws://127.0.0.1:{port}/v1/sessions/{streamed_session}/stream",
                                                    additional_headers={"Authorization": f"Bearer {key}"}, open_timeout=10) as ws:
                    with lock:
                        counts["streams"] += 1
                    while time.monotonic() < end:
                        k += 1
                        ws.send(json.dumps({"w": 10 + k % 50}))
                        with lock:
                            counts["streamed"] += 1
            except (OSError, EOFError, websockets.exceptions.WebSocketException):
                time.sleep(0.01)  # closed past the rate (or reset mid-handshake): open another

    threads = [threading.Thread(target=stream)]
    threads += [threading.Thread(target=loop, args=(i,)) for i in range(int(os.environ.get("THREADS", "2")))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"RESULT requests={counts['requests']} refused={counts['refused']} streamed={counts['streamed']} streams={counts['streams']}",
          flush=True)


if __name__ == "__main__":
    main()
