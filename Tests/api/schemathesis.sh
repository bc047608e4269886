#!/usr/bin/env bash
# Property-based tests generated from openapi.yaml (schemathesis, every phase including the
# stateful one) against a real layoutd on loopback. Fails on any 5xx, any lost connection,
# or a server that is not alive and clean at the end. Bounded: SCHEMATHESIS_EXAMPLES per
# operation (default 40) and a fixed seed, so a CI run is repeatable (set SCHEMATHESIS_SEED
# to explore other inputs).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${LAYOUTD_BIN:-.build/debug/layoutd}
EXAMPLES=${SCHEMATHESIS_EXAMPLES:-40}
SEED=${SCHEMATHESIS_SEED:-20261124}
# The console script lands in the interpreter's scripts folder, which may not be on PATH.
ST=$(command -v schemathesis || echo "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/schemathesis")
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# On a real SQLite store in the temporary folder: the fuzzing exercises the store too.
"$BIN" --host 127.0.0.1 --port "$port" --log-level warning --store "sqlite:$work/sessions.sqlite" >"$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

status=0
(cd "$work" && "$ST" run "$OLDPWD/openapi.yaml" --url "http://127.0.0.1:$port" \
    --checks not_a_server_error --phases examples,coverage,fuzzing,stateful \
    --max-examples "$EXAMPLES" --seed "$SEED" --request-timeout 20 \
    --generation-database none --no-color --suppress-health-check all) >"$work/run.txt" 2>&1 || status=$?
tail -25 "$work/run.txt"
alive=1; curl -fs "http://127.0.0.1:$port/healthz" >/dev/null || alive=0
if [ "$alive" = 0 ] || grep -qiE "fatal error|runtime failure" "$work/server.log"; then
  echo "schemathesis: the server died or trapped during the run:"; tail -20 "$work/server.log"; status=1
fi
if [ "$status" != 0 ]; then echo "schemathesis: FAILED (seed $SEED)"; exit 1; fi
echo "schemathesis: no server error, no lost connection (seed $SEED, $EXAMPLES examples per operation)"
