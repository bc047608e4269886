-- wrk script for the bare server: POST /echo with a 201-byte JSON body, and
-- the same RESULT line as constants.lua, so run_load.sh pairs the two run by run.
wrk.method = "POST"
wrk.path = "/echo"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept-Encoding"] = os.getenv("WRK_ACCEPT_ENCODING") or "identity"
wrk.body = '{"lead":24,"title.width":180,"padding":"..............................................................................................................................................................."}'

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "RESULT rps=%.0f p50_us=%d p90_us=%d p99_us=%d p999_us=%d max_us=%d reqs=%d non2xx=%d sockerr=%d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), latency.max, summary.requests,
    e.status, e.connect + e.read + e.write + e.timeout))
end
