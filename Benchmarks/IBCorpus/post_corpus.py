#!/usr/bin/env python3
"""Posts every corpus document to a real `layoutd` over loopback, as a client would.

`run_corpus.py` measures agreement in process; this asks what the issue's server must promise
of the same documents: none answers 5xx or stops the server, and every root is answered. It
starts `layoutd` on a free port (`--layoutd`, as `Tests/support/layoutd_process.py` starts it),
posts each document to `POST /v1/ib/layout` with `contentSizes=stored` and again `measured`,
and prints the
statuses, the roots answered by kind, the roots refused (with their problem) and the slowest
document; `/healthz` is asked after every 100 documents and at the end.

    swift build -c release --product layoutd
    Benchmarks/IBCorpus/post_corpus.py [--dir .build-ibcorpus] [--layoutd .build/release/layoutd]

Exit status 1 when a request answers 5xx or fails, or the server stops answering.
"""
import argparse
import collections
import glob
import json
import os
import sys
import time
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
import layoutd_process  # noqa: E402


def request(url, data=None, timeout=300):
    """(status, body bytes); a failure to connect or read is status None."""
    headers = {"Content-Type": "application/xml"} if data is not None else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except (OSError, urllib.error.URLError) as e:
        return None, str(e).encode()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dir", default=os.path.join(ROOT, ".build-ibcorpus"), help="where fetch_corpus.py wrote the documents")
    p.add_argument("--layoutd", default=os.path.join(ROOT, ".build/release/layoutd"))
    args = p.parse_args()
    documents = sorted(glob.glob(os.path.join(args.dir, "*", "*", "*")))
    if not documents:
        sys.exit(f"no documents under {args.dir}: run fetch_corpus.py")
    layoutd_process.BIN = args.layoutd
    server = layoutd_process.Layoutd()
    base = server.base
    failed = False
    try:
        for mode in ("stored", "measured"):
            statuses, kinds, refused = collections.Counter(), collections.Counter(), collections.Counter()
            slowest, started = (0.0, ""), time.monotonic()
            for n, path in enumerate(documents, start=1):
                with open(path, "rb") as f:
                    body = f.read()
                t = time.monotonic()
                status, answer = request(f"{base}/v1/ib/layout?contentSizes={mode}", body)
                slowest = max(slowest, (time.monotonic() - t, os.path.relpath(path, args.dir)))
                statuses[status] += 1
                if status is None or status >= 500:
                    failed = True
                    print(f"  {mode} {os.path.relpath(path, args.dir)}: {status} {answer[:200]!r}")
                elif status == 200:
                    for root in json.loads(answer)["roots"]:
                        kinds[root["kind"]] += 1
                        if "error" in root:
                            refused[root["error"].get("detail", "")[:100]] += 1
                if n % 100 == 0 and request(base + "/healthz", timeout=10)[0] != 200:
                    failed = True
                    print(f"  {mode}: /healthz not answered after {n} documents")
                    break
            print(f"{mode}: {len(documents)} documents in {time.monotonic() - started:.1f} s; statuses "
                  + ", ".join(f"{s}: {c}" for s, c in sorted(statuses.items(), key=lambda x: str(x[0])))
                  + f"; roots {sum(kinds.values())} ({', '.join(f'{k} {c}' for k, c in sorted(kinds.items()))}), "
                  f"refused {sum(refused.values())}; slowest {slowest[0] * 1e3:.0f} ms ({slowest[1]})")
            for detail, count in refused.most_common():
                print(f"  refused {count}: {detail}")
        alive = request(base + "/healthz", timeout=10)[0] == 200
        print(f"/healthz after both passes: {'200' if alive else 'not answered'}")
        failed = failed or not alive
    finally:
        server.stop()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
