-- wrk script: set-constant round trips, spread over the sessions in LAYOUTD_SESSIONS
-- (comma-separated ids). Each request moves its session's avatar to a new place (the value
-- steps once per round over the sessions), so every answer carries the changed frames.
--
-- The requests are formatted once, in init: formatting one per request cost wrk 1.8 µs of
-- CPU each, on a load generator that is itself near saturation (run_load.sh prints its CPU).
local ids = {}
for id in string.gmatch(os.getenv("LAYOUTD_SESSIONS") or "", "[^,]+") do ids[#ids + 1] = id end
local headers = {["Content-Type"] = "application/json", ["Accept-Encoding"] = os.getenv("WRK_ACCEPT_ENCODING") or "identity"}
-- WRK_CONNECTION=close: a new connection per request (run_load.sh's row tls-close).
if (os.getenv("WRK_CONNECTION") or "") ~= "" then headers["Connection"] = os.getenv("WRK_CONNECTION") end
local requests = {}
local n = 0

init = function(args)
  for k = 0, 64 * #ids - 1 do
    local id = ids[(k % #ids) + 1]
    requests[k + 1] = wrk.format("POST", "/v1/sessions/" .. id .. "/constants", headers,
                                 '{"lead":' .. (8 + math.floor(k / #ids) % 64) .. '}')
  end
end

request = function()
  n = n + 1
  if n > #requests then n = 1 end
  return requests[n]
end

done = function(summary, latency, requests)
  local secs = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format(
    "RESULT rps=%.0f p50_us=%d p90_us=%d p99_us=%d p999_us=%d max_us=%d reqs=%d non2xx=%d sockerr=%d\n",
    summary.requests / secs,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), latency.max, summary.requests,
    e.status, e.connect + e.read + e.write + e.timeout))
end
