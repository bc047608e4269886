-- wrk script: set-constants on one tenant's session (LAYOUTD_SESSION, with LAYOUTD_KEY), each
-- connection waiting WRK_DELAY_MS between its requests (unset or 0: none). tenant_isolation.py
-- runs it for both tenants; the RESULT line is constants.lua's.
local id = os.getenv("LAYOUTD_SESSION")
local headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. os.getenv("LAYOUTD_KEY")}
local pause = tonumber(os.getenv("WRK_DELAY_MS") or "0")
local requests = {}
local n = 0

init = function(args)
  for k = 0, 63 do
    requests[k + 1] = wrk.format("POST", "/v1/sessions/" .. id .. "/constants", headers, '{"lead":' .. (8 + k) .. '}')
  end
end

request = function()
  n = n % #requests + 1
  return requests[n]
end

if pause > 0 then delay = function() return pause end end

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
