#!/usr/bin/env python3
"""The class of crash where a request's number reaches a trapping conversion, checked in CI.

`Int(x)` of a Double or Float traps on NaN, an infinity or a value out of range. Sources/
converts through CheckedNumbers (`Int(checked:)`, `Int(saturating:)`); with that module
imported, the unchecked form is a deprecation the build turns into an error (Package.swift:
`-Werror DeprecatedDeclaration`). This script checks what the compiler cannot:

1. the mechanism works: a probe file with `Int(someDouble)` fails to type-check against the
   built module, and one with `Int(checked:)` passes (needs `swift build` first);
2. every Swift file in Sources/ that converts to an integer imports CheckedNumbers (without the
   import the shadow is not seen, and `Int(x)` of a Double compiles);
3. every target gets the flag and the dependency (Package.swift's closing loop);
4. no forms that trap on data either: `Int(exactly:)` force-unwrapped, `try!`, `as!`, a force
   unwrap of a JSON value's member (`.number!`, `.string!`, ...) or of a parsed number
   (`Int(s)!`, `Double(s)!`), a generic `BinaryFloatingPoint` value into `Int(` outside
   CheckedNumbers.

Run: python3 Tests/lint/check_conversions.py [--root DIR] [--skip-probe]; exits 1 on a finding.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

INTEGER = r"\bU?Int(?:8|16|32|64)?"
CONVERSION = re.compile(INTEGER + r"\((?!\s*(?:exactly|clamping|truncatingIfNeeded|bitPattern|checked|saturating|littleEndian|bigEndian|ascii)\s*:)(?!\s*\))")
IMPORT = re.compile(r"^(?:public |internal |package |@testable )?import CheckedNumbers$", re.M)
TRAPS = [
    (re.compile(INTEGER + r"\(exactly:[^()\n]*(?:\([^()\n]*\))?[^()\n]*\)!"), "Int(exactly:) force-unwrapped: nil is a refusal to make, not a crash"),
    (re.compile(r"\btry!"), "try!: an error from data stops the server"),
    (re.compile(r"\bas! "), "as!: a wrong type from data stops the server"),
    (re.compile(r"\.(?:number|string|array|object|bool|int)!"), "a JSON member force-unwrapped: refuse it with a pointer instead"),
    (re.compile(r"\b(?:U?Int(?:8|16|32|64)?|Double|Float)\([^()\n]*\)!"), "a parsed number force-unwrapped"),
]
GENERIC = re.compile(r"<\s*\w+\s*:\s*BinaryFloatingPoint\s*>")


def strip_comments(line):
    # Enough for this code base: no `//` inside string literals on lines that convert.
    i = line.find("//")
    return line if i < 0 else line[:i]


def scan(root):
    findings = []
    sources = os.path.join(root, "Sources")
    for folder, _, files in os.walk(sources):
        if os.path.basename(folder) == "CheckedNumbers":
            continue
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            text = open(path, encoding="utf-8").read()
            lines = [strip_comments(l) for l in text.split("\n")]
            code = "\n".join(lines)
            if CONVERSION.search(code) and not IMPORT.search(text):
                n = next(i for i, l in enumerate(lines) if CONVERSION.search(l)) + 1
                findings.append(f"{rel}:{n}: converts to an integer without `import CheckedNumbers` (Int(x) of a Double would compile)")
            for n, line in enumerate(lines, 1):
                for pattern, why in TRAPS:
                    if pattern.search(line):
                        findings.append(f"{rel}:{n}: {why}: {line.strip()}")
            if GENERIC.search(code) and CONVERSION.search(code):
                n = next(i for i, l in enumerate(lines) if GENERIC.search(l)) + 1
                findings.append(f"{rel}:{n}: a generic floating value beside an integer conversion: convert through CheckedNumbers")
    package = open(os.path.join(root, "Package.swift"), encoding="utf-8").read()
    if '.unsafeFlags(["-Werror", "DeprecatedDeclaration"])' not in package or 'target.dependencies.append("CheckedNumbers")' not in package:
        findings.append("Package.swift: every target needs CheckedNumbers and -Werror DeprecatedDeclaration")
    return findings


def probe(root):
    """The compiler refuses Int(x) of a Double where CheckedNumbers is imported."""
    modules = os.path.join(root, ".build", "debug", "Modules")
    if not os.path.exists(os.path.join(modules, "CheckedNumbers.swiftmodule")):
        return ["the probe needs a debug build (swift build): .build/debug/Modules/CheckedNumbers.swiftmodule is missing"]
    findings = []
    cases = {
        "unchecked": ("import CheckedNumbers\nlet d = Double(CommandLine.arguments.count) / 0\nlet i = Int(d)\nlet j = UInt32(Float(d))\nprint(i, j)\n", False),
        "checked": ("import CheckedNumbers\nlet d = Double(CommandLine.arguments.count) / 0\nlet i = Int(checked: d) ?? 0\nlet j = Int32(saturating: d)\nprint(i, j)\n", True),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, (source, should_pass) in cases.items():
            path = os.path.join(tmp, f"{name}.swift")
            open(path, "w").write(source)
            run = subprocess.run(["swiftc", "-typecheck", "-I", modules, "-Werror", "DeprecatedDeclaration", path], capture_output=True, text=True)
            if (run.returncode == 0) != should_pass:
                findings.append(f"probe '{name}': expected to {'pass' if should_pass else 'fail'}, swiftc exited {run.returncode}: {run.stderr[-400:]}")
            if not should_pass and "is deprecated: traps on NaN" not in run.stderr:
                findings.append(f"probe '{name}': failed for another reason than the shadow: {run.stderr[-400:]}")
    return findings


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("--skip-probe", action="store_true")
    args = ap.parse_args()
    findings = scan(args.root) + ([] if args.skip_probe else probe(args.root))
    for f in findings:
        print(f)
    print(f"check_conversions: {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
