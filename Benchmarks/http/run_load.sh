#!/usr/bin/env bash
# Set-constant round trips on layoutd beside the bare libmicrohttpd server of
# ../shared/bench/http, in one run, on loopback only, every wrk run bounded.
#
#   Benchmarks/http/run_load.sh            # 3 runs x 10 s per server/mode, medians
#   RUNS=5 DURATION=10 Benchmarks/http/run_load.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
shared="${SHARED:-$root/../shared}"
out="${OUT_DIR:-/tmp/layoutd-load}"
RUNS="${RUNS:-3}"; DURATION="${DURATION:-10}"; CONNS="${CONNS:-64}"; THREADS="${THREADS:-2}"
SESSIONS="${SESSIONS:-64}"; PORT="${PORT:-8099}"; PIN="${PIN:-0}"
srv_pin=(); cli_pin=()
if [[ "$PIN" == 1 ]]; then srv_pin=(taskset -c 0); cli_pin=(taskset -c 1); fi
mkdir -p "$out"
bin="$root/.build/release/layoutd"
[ -x "$bin" ] || (cd "$root" && swift build -c release --product layoutd)

median() { sort -g | awk '{a[NR]=$1} END{ if (NR==0) {print "NA"} else if (NR%2) {print a[(NR+1)/2]} else {print (a[NR/2]+a[NR/2+1])/2} }'; }

layoutd_bench() { # label threading
  local label=$1 threading=$2 log="$out/$1.log"
  : > "$log"
  "${srv_pin[@]}" "$bin" --port "$PORT" --threading "$threading" --threads "${LAYOUTD_THREADS:-2}" --connection-memory ${LAYOUTD_CONNECTION_MEMORY:-32768} --log-level warning 2>>"$log" &
  local pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.1; done
  local ids=()
  for _ in $(seq "$SESSIONS"); do
    ids+=("$(curl -s -H 'Content-Type: application/json' --data-binary @"$here/cell.json" "http://127.0.0.1:$PORT/v1/sessions" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin)["session"])')")
  done
  export LAYOUTD_SESSIONS; LAYOUTD_SESSIONS=$(IFS=,; echo "${ids[*]}")
  timeout 10 "${cli_pin[@]}" wrk -t"$THREADS" -c"$CONNS" -d2s -s "$here/constants.lua" "http://127.0.0.1:$PORT" >/dev/null
  for r in $(seq "$RUNS"); do
    local t0 t1 res reqs
    t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    res=$(timeout $((DURATION + 20)) "${cli_pin[@]}" wrk -t"$THREADS" -c"$CONNS" -d"${DURATION}s" --timeout 5s -s "$here/constants.lua" \
      "http://127.0.0.1:$PORT" | grep '^RESULT')
    t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    reqs=$(echo "$res" | tr ' ' '\n' | grep '^reqs=' | cut -d= -f2)
    echo "$res srv_cpu_us_per_req=$(awk -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v n="$reqs" 'BEGIN{printf "%.2f", t / hz * 1e6 / n}')" \
      | sed "s/^RESULT/RUN $label $r/" >> "$log"
  done
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  trap - EXIT
  printf '%-22s' "$label"
  local f
  for f in rps p50_us p90_us p99_us p999_us srv_cpu_us_per_req; do
    printf ' %s=%s' "$f" "$(grep '^RUN' "$log" | tr ' ' '\n' | grep "^$f=" | cut -d= -f2 | median)"
  done
  printf ' non2xx+sockerr=%s\n' "$(grep '^RUN' "$log" | tr ' ' '\n' | grep -E '^(non2xx|sockerr)=' | cut -d= -f2 | awk '{s+=$1} END{print s+0}')"
}

echo "# $(date -u +%FT%TZ) wrk -t$THREADS -c$CONNS -d${DURATION}s x$RUNS, pin=$PIN, $SESSIONS sessions of one 5-view cell, nproc=$(nproc)"
POOL="${LAYOUTD_THREADS:-2}" PIN="$PIN" OUT_DIR="$out/ceiling" MODES="${CEILING_MODES:-pool tpc}" RUNS="$RUNS" DURATION="$DURATION" CONNS="$CONNS" THREADS="$THREADS" GET_TOO=0 \
  "$shared/bench/http/run_ceiling.sh" 2>/dev/null | grep -E '^post-' | sed 's/^/ceiling /'
layoutd_bench "layoutd-constants-pool" pool
[ "${LAYOUTD_MODES:-pool}" = "pool" ] || layoutd_bench "layoutd-constants-tpc" per-connection
