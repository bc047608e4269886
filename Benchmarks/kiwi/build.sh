#!/usr/bin/env bash
# Builds Benchmarks/kiwi/kiwi_harness.cpp against kiwi's C++ headers, taken from the
# kiwisolver source distribution on PyPI (checked against its sha256; nothing of kiwi is
# kept in the repository), and prints the binary's path.
#
#   KIWI=$(Benchmarks/kiwi/build.sh)        OUT=dir CXX=clang++ Benchmarks/kiwi/build.sh
#
# Needs g++, pip and nlohmann/json (Debian: nlohmann-json3-dev; `make bench-engine` installs it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version=1.5.1
sha256=f1303ef2eec81262a4b708c3e858afe58d7c75ad91c1c05266eda7673369859a
out="${OUT:-/tmp/layoutd-kiwi}"
cxx="${CXX:-g++}"
mkdir -p "$out"
src="$out/kiwisolver-$version"
if [ ! -f "$src/kiwi/kiwi.h" ]; then
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    pip download --quiet --no-deps --no-binary :all: "kiwisolver==$version" -d "$tmp" >&2
    echo "$sha256  $tmp/kiwisolver-$version.tar.gz" | sha256sum --check --quiet - >&2
    tar -xzf "$tmp/kiwisolver-$version.tar.gz" -C "$out"
fi
"$cxx" -O2 -std=c++17 -DNDEBUG -Wall -Wextra -I"$src" "$here/kiwi_harness.cpp" -o "$out/kiwi_harness"
echo "built $out/kiwi_harness (kiwi $version, $("$cxx" --version | head -n1))" >&2
echo "$out/kiwi_harness"
