#!/usr/bin/env bash
# Property-based tests generated from openapi.yaml (schemathesis --checks all, every phase
# including the stateful one) against a real layoutd on loopback: no failure of any check
# (what the schema cannot say is declared in schemathesis.toml beside this script), a server
# alive and clean at the end, and its /metrics after the run clean under `promtool check metrics`. Bounded: SCHEMATHESIS_EXAMPLES per
# operation (default 40) and a fixed seed, so a CI run is repeatable (set SCHEMATHESIS_SEED
# to explore other inputs). The server wants an API key (--auth-file), which every generated
# request carries: what a shared server answers is what is tested.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${LAYOUTD_BIN:-.build/debug/layoutd}
EXAMPLES=${SCHEMATHESIS_EXAMPLES:-40}
SEED=${SCHEMATHESIS_SEED:-20261124}
# The console script lands in the interpreter's scripts folder, which may not be on PATH.
ST=$(command -v schemathesis || echo "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/schemathesis")
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
KEY=schemathesis-key
printf '{"tenants":[{"name":"schemathesis","keys":["sha256:%s"]}]}' "$(printf %s "$KEY" | sha256sum | cut -d' ' -f1)" >"$work/tenants.json"
# On a real SQLite store in the temporary folder: the fuzzing exercises the store too.
"$BIN" --host 127.0.0.1 --port "$port" --log-level warning --store "sqlite:$work/sessions.sqlite" --auth-file "$work/tenants.json" \
    >"$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

status=0
(cd "$work" && "$ST" --config-file "$OLDPWD/Tests/api/schemathesis.toml" run "$OLDPWD/openapi.yaml" --url "http://127.0.0.1:$port" \
    --header "Authorization: Bearer $KEY" \
    --checks ${SCHEMATHESIS_CHECKS:-all} --phases examples,coverage,fuzzing,stateful \
    --max-examples "$EXAMPLES" --seed "$SEED" --request-timeout 20 \
    --generation-database none --no-color --suppress-health-check all) >"$work/run.txt" 2>&1 || status=$?
tail -${SCHEMATHESIS_TAIL:-25} "$work/run.txt"
alive=1; curl -fs "http://127.0.0.1:$port/healthz" >/dev/null || alive=0
if [ "$alive" = 0 ] || grep -qiE "fatal error|runtime failure" "$work/server.log"; then
  echo "schemathesis: the server died or trapped during the run:"; tail -20 "$work/server.log"; status=1
fi
if [ "$status" != 0 ]; then echo "schemathesis: FAILED (seed $SEED)"; exit 1; fi
# Every series the run made (routes, statuses, diagnostics, the store), through Prometheus' own linter.
curl -fsS "http://127.0.0.1:$port/metrics" > "$work/metrics.txt"
if ! promtool check metrics < "$work/metrics.txt"; then echo "promtool: /metrics has problems"; exit 1; fi
echo "promtool check metrics: clean ($(grep -vc '^#' "$work/metrics.txt") samples)"
echo "schemathesis: --checks all: no failure (seed $SEED, $EXAMPLES examples per operation)"
