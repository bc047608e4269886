#!/usr/bin/env bash
# Set-constant round trips on layoutd beside the bare libmicrohttpd server (bare_server.c,
# driven by echo.lua), loopback only, every wrk run bounded.
#
# Both servers run at the same time (the idle one costs nothing) and wrk alternates between
# them, run by run, so each layoutd figure has a ceiling figure taken seconds apart: this
# machine's speed drifts by 20-30% over minutes, and a ratio of runs minutes apart
# measures the drift. Each run prints both; the summary gives medians and the median of the
# per-pair throughput ratios.
#
# Layouts (LAYOUTS, default "split shared"):
#   split   each server: one thread on CPU 0; wrk -t1 on CPU 1 (load generator off the
#           server's core, the usual way to measure a server)
#   shared  each server: two threads, unpinned; wrk -t2 unpinned (all four share 2 cores)
#
#   Benchmarks/http/run_load.sh                    # 5 pairs x 8 s per layout
#   RUNS=3 DURATION=10 LAYOUTS=split Benchmarks/http/run_load.sh
#   MODE=tpc ...                                   # thread per connection, both servers
#   LAYOUTD_ARGS="--connection-memory 16384" ...   # extra layoutd flags
#   STORES="memory relaxed strict" ...              # the session store: none, or SQLite (in a
#                                                   # temporary folder) under each durability
#   BASELINE=memory STORES=relaxed ...              # the other side of each pair is layoutd with
#                                                   # the memory store, not the bare server: the
#                                                   # store's cost, paired run by run
#
# The row "tls" (in STORES by default, after the stores): both sides are layoutd on the memory
# store, one serving plain HTTP, the other HTTPS (--tls-cert/--tls-key, a P-256 certificate made
# here by openssl in OUT_DIR); wrk keeps its connections, so a handshake per connection, not per
# request. Its ratio is TLS over plain, throughput and p50/p99. The row "tls-close" (not by
# default) sends `Connection: close` on both sides: a new connection per request, and over TLS
# a full handshake each (layoutd's TLS resumes no session: `openssl s_client -reconnect` is
# given a new one every time).
#   STORES=tls RUNS=3 DURATION=5 Benchmarks/http/run_load.sh    # the TLS row alone
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${OUT_DIR:-/tmp/layoutd-load}"
RUNS="${RUNS:-5}"; DURATION="${DURATION:-8}"; CONNS="${CONNS:-64}"; SESSIONS="${SESSIONS:-64}"
LAYOUTS="${LAYOUTS:-split shared}"; MODE="${MODE:-pool}"; STORES="${STORES:-memory relaxed tls}"
CEIL_PORT="${CEIL_PORT:-8098}"; PORT="${PORT:-8099}"
mkdir -p "$out"
bin="${LAYOUTD_BIN:-$root/.build/release/layoutd}"  # LAYOUTD_BIN: another build, e.g. the previous commit's
[ -x "$bin" ] || (cd "$root" && swift build -c release --product layoutd)
cc -O2 -Wall -Wextra -o "$out/bare_server" "$here/bare_server.c" $(pkg-config --cflags --libs libmicrohttpd)
cc -O2 -pthread -o "$out/stall_probe" "$root/Benchmarks/machine/stall_probe.c"
case " $STORES " in *" tls"*)
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$out/tls.key" -out "$out/tls.crt" 2>/dev/null ;;
esac

median() { sort -g | awk '{a[NR]=$1} END{ if (NR==0) {print "NA"} else if (NR%2) {print a[(NR+1)/2]} else {print (a[NR/2]+a[NR/2+1])/2} }'; }
field() { tr ' ' '\n' | grep "^$1=" | cut -d= -f2; }
ratio() { awk -v a="$(echo "$2" | field "$1")" -v b="$(echo "$3" | field "$1")" 'BEGIN{printf "%.3f", a / b}'; }  # field, layoutd's RESULT, the other's
wait_up() { for _ in $(seq 50); do curl -sk -o /dev/null "$1/healthz" && return; sleep 0.1; done; echo "server on $1 did not start" >&2; exit 1; }

# One wrk run; prints its RESULT line plus the server's and wrk's own CPU per request (a
# load generator near 100% of its core adds its own queueing to the latencies it reports).
measure() { # pid url script
  local pid=$1 url=$2 script=$3 t0 t1 out res wrk_cpu TIMEFORMAT='WRKCPU %U %S'
  t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  out=$( { time timeout $((DURATION + 20)) "${cli[@]}" wrk -t"$wrk_threads" -c"$CONNS" -d"${DURATION}s" --timeout 5s -s "$script" \
    "$url"; } 2>&1 )
  t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  res=$(echo "$out" | grep '^RESULT')
  wrk_cpu=$(echo "$out" | awk '/^WRKCPU/{print $2 + $3}')
  echo "$res srv_cpu_us_per_req=$(awk -v t=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v n="$(echo "$res" | field reqs)" 'BEGIN{printf "%.2f", t / hz * 1e6 / n}')" \
    "wrk_cpu_us_per_req=$(awk -v t="$wrk_cpu" -v n="$(echo "$res" | field reqs)" 'BEGIN{printf "%.2f", t * 1e6 / n}')"
}

layout() { # split|shared memory|relaxed|strict|tls|tls-close
  local name=$1 store=$2 threads log="$out/$1-$2.log" store_args=(--store memory) baseline="${BASELINE:-}"
  local ceil_url="http://127.0.0.1:$CEIL_PORT" url="http://127.0.0.1:$PORT"
  export WRK_CONNECTION=""
  if [ "$store" = tls ] || [ "$store" = tls-close ]; then
    baseline=memory; url="https://127.0.0.1:$PORT"
    store_args=(--store memory --tls-cert "$out/tls.crt" --tls-key "$out/tls.key")
    [ "$store" = tls-close ] && WRK_CONNECTION=close
  elif [ "$store" != memory ]; then
    rm -rf "$out/store-$store"; mkdir -p "$out/store-$store"
    store_args=(--store "sqlite:$out/store-$store/sessions.sqlite" --durability "$store")
  fi
  case "$name" in
    split) srv=(taskset -c 0); cli=(taskset -c 1); threads=1; wrk_threads=1 ;;
    shared) srv=(); cli=(); threads=2; wrk_threads=2 ;;
    *) echo "unknown layout $name" >&2; exit 2 ;;
  esac
  local ceil_mode=pool threading=pool
  [ "$MODE" = tpc ] && { ceil_mode=tpc; threading=per-connection; }
  : > "$log"
  if [ "$baseline" = memory ]; then
    "${srv[@]}" "$bin" --port "$CEIL_PORT" --threading "$threading" --threads "$threads" --log-level warning --store memory \
      --trust-session-id-header ${LAYOUTD_ARGS:-} 2>>"$log" &
  else
    "${srv[@]}" "$out/bare_server" "$ceil_mode" "$CEIL_PORT" "$threads" 2>/dev/null &
  fi
  local cpid=$!
  "${srv[@]}" "$bin" --port "$PORT" --threading "$threading" --threads "$threads" --log-level warning "${store_args[@]}" \
    --trust-session-id-header ${LAYOUTD_ARGS:-} 2>>"$log" &
  local lpid=$!
  trap "kill $cpid $lpid 2>/dev/null || true" EXIT
  wait_up "$ceil_url"; wait_up "$url"
  local ids=() id u
  for _ in $(seq "$SESSIONS"); do
    # The same ids on both sides when the baseline is a layoutd too (one script drives both).
    id=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
    for u in "$url" ${baseline:+"$ceil_url"}; do
      curl -sk -o /dev/null -H 'Content-Type: application/json' -H "X-Layoutd-Session-Id: $id" --data-binary @"$here/cell.json" "$u/v1/sessions"
    done
    ids+=("$id")
  done
  export LAYOUTD_SESSIONS; LAYOUTD_SESSIONS=$(IFS=,; echo "${ids[*]}")
  local ceil_script="$here/echo.lua" ours="$here/constants.lua" ceil_name="the bare server"
  [ "$baseline" = memory ] && { ceil_script="$ours"; ceil_name="layoutd (memory store)"; }
  timeout 10 "${cli[@]}" wrk -t"$wrk_threads" -c"$CONNS" -d2s -s "$ceil_script" "$ceil_url" >/dev/null
  timeout 10 "${cli[@]}" wrk -t"$wrk_threads" -c"$CONNS" -d2s -s "$ours" "$url" >/dev/null
  echo "# layout $name, store $store: ceiling $ceil_name at $ceil_url, layoutd at $url; servers ${srv[*]:-unpinned} with $threads thread(s), wrk -t$wrk_threads ${cli[*]:-unpinned}; machine before: $("$out/stall_probe" 3)" | tee -a "$log"
  local r c l
  for r in $(seq "$RUNS"); do
    # Alternate who goes first, so a drift within a pair does not always favour one side.
    if (( r % 2 )); then c=$(measure "$cpid" "$ceil_url" "$ceil_script"); l=$(measure "$lpid" "$url" "$ours")
    else l=$(measure "$lpid" "$url" "$ours"); c=$(measure "$cpid" "$ceil_url" "$ceil_script"); fi
    echo "PAIR $r ceiling ${c#RESULT } | layoutd ${l#RESULT } | ratio=$(ratio rps "$l" "$c") p50_ratio=$(ratio p50_us "$l" "$c") p99_ratio=$(ratio p99_us "$l" "$c")" | tee -a "$log"
  done
  kill -TERM "$lpid" "$cpid"; wait "$lpid" "$cpid" 2>/dev/null || true
  trap - EXIT
  local side f
  for side in ceiling layoutd; do
    printf '%-8s %-8s %-8s' "$name" "$store" "$side"
    for f in rps p50_us p90_us p99_us p999_us srv_cpu_us_per_req wrk_cpu_us_per_req; do
      printf ' %s=%s' "$f" "$(grep '^PAIR' "$log" | sed "s/.*$side //; s/ |.*//" | field "$f" | median)"
    done
    printf '\n'
  done | tee -a "$log"
  for f in ratio p50_ratio p99_ratio; do
    echo "$name    $store    $f    median=$(grep '^PAIR' "$log" | field "$f" | median) pairs=$(grep '^PAIR' "$log" | field "$f" | paste -sd' ')"
  done | tee -a "$log"
}

echo "# $(date -u +%FT%TZ) $MODE, -c$CONNS, ${DURATION}s x $RUNS pairs per layout, $SESSIONS sessions of one 5-view cell, nproc=$(nproc)"
for l in $LAYOUTS; do for st in $STORES; do layout "$l" "$st"; done; done
