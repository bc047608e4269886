#!/usr/bin/env python3
"""Materialises the documents of corpus.tsv from the repositories' mirrors.

Each line of corpus.tsv names a repository, a commit and a path; the document is read with
`git show COMMIT:PATH` from the mirror `MIRROR/owner+name` (a git directory, bare or not, at
the top or under `repo/`) and written to `OUT/<half>/<owner+name>/<path, / as __>`.
The documents are public files of those repositories: they stay outside the repository.

    Benchmarks/IBCorpus/fetch_corpus.py [--mirror /work/.mirror] [--out .build-ibcorpus]

Repositories without a mirror are listed (mirror them first); the exit status is 1 when any
document could not be written, 0 when all were.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read_corpus(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header != ["repository", "commit", "path", "half"]:
            sys.exit(f"{path}: unexpected header {header}")
        for n, line in enumerate(f, start=2):
            line = line.rstrip("\n")
            if not line:
                continue
            fields = line.split("\t")
            if len(fields) != 4:
                sys.exit(f"{path}:{n}: expected 4 fields, found {len(fields)}")
            rows.append(tuple(fields))
    return rows


def git_dir(mirror, repository):
    """The git directory of a repository's mirror, or None."""
    base = os.path.join(mirror, repository.replace("/", "+", 1))
    for candidate in ("repo/.git", "repo", ".git", "."):
        d = os.path.join(base, candidate)
        if os.path.isfile(os.path.join(d, "HEAD")) and os.path.isdir(os.path.join(d, "objects")):
            return d
    return None


def target(out, half, repository, path):
    return os.path.join(out, half, repository.replace("/", "+", 1), path.replace("/", "__"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", default=os.path.join(HERE, "corpus.tsv"))
    p.add_argument("--mirror", default=os.environ.get("IBCORPUS_MIRROR", "/work/.mirror"))
    p.add_argument("--out", default=os.path.join(ROOT, ".build-ibcorpus"))
    args = p.parse_args()

    rows = read_corpus(args.corpus)
    unmirrored, failed, written, kept = set(), [], 0, 0
    for repository, commit, path, half in rows:
        g = git_dir(args.mirror, repository)
        if g is None:
            unmirrored.add(repository)
            failed.append((repository, path, "no mirror"))
            continue
        dest = target(args.out, half, repository, path)
        if os.path.isfile(dest) and os.path.getsize(dest) > 0:
            kept += 1
            continue
        r = subprocess.run(["git", "--git-dir", g, "show", f"{commit}:{path}"], capture_output=True)
        if r.returncode != 0 or not r.stdout:
            failed.append((repository, path, r.stderr.decode("utf-8", "replace").strip() or "empty"))
            continue
        if r.stdout.startswith(b"version https://git-lfs"):
            failed.append((repository, path, "a Git LFS pointer"))
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest + ".part", "wb") as f:
            f.write(r.stdout)
        os.replace(dest + ".part", dest)
        written += 1

    halves = {}
    for _, _, _, half in rows:
        halves[half] = halves.get(half, 0) + 1
    print(f"{len(rows)} documents ({', '.join(f'{h} {n}' for h, n in sorted(halves.items()))}): "
          f"{written} written, {kept} already there, {len(failed)} missing; into {args.out}")
    if unmirrored:
        print(f"{len(unmirrored)} repositories not mirrored (fetch them first):")
        for r in sorted(unmirrored, key=str.lower):
            print(f"  {r}")
    others = [f for f in failed if f[2] != "no mirror"]
    for repository, path, why in others:
        print(f"  {repository} {path}: {why}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
