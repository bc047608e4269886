#!/usr/bin/env bash
# 64 concurrent drags over WebSocket streams (layoutd-drag-bench), beside two references in
# the same run: the bare epoll echo floor (same traffic shape, no server logic) and the
# model alone (one session, no sockets). Loopback only; every phase is bounded in time.
#
#   Benchmarks/streams/run_streams.sh          # SECONDS_PER_MODE=8 DRAGS=64 CELLS=1000 CLIENT=threads
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
secs="${SECONDS_PER_MODE:-8}"; drags="${DRAGS:-64}"; cells="${CELLS:-1000}"; client="${CLIENT:-threads}"; port="${PORT:-8097}"
cd "$root"
cc -O2 -Wall -pthread -o .build/echo_floor Benchmarks/streams/echo_floor.c
cc -O2 -Wall -pthread -o .build/stall_probe Benchmarks/machine/stall_probe.c
swift build -c release --product layoutd >/dev/null
swift build -c release --product layoutd-drag-bench >/dev/null
echo "# machine before: $(.build/stall_probe 3)"
timeout 60 .build/echo_floor "$drags" "$secs"
timeout 60 .build/release/layoutd-drag-bench --client in-process --cells "$cells" --seconds "$secs"
.build/release/layoutd --port "$port" --max-body-bytes 16777216 --log-level warning --store memory &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/healthz" && break; sleep 0.1; done
timeout 600 .build/release/layoutd-drag-bench --port "$port" --drags "$drags" --cells "$cells" --seconds "$secs" --client "$client"
