-- wrk script: set-constants on one tenant's session (LAYOUTD_SESSION, with LAYOUTD_KEY), each
-- connection waiting WRK_DELAY_MS between its requests (unset or 0: none). tenant_isolation.py
-- runs it for both tenants. The RESULT line is constants.lua's (its `done`, loaded first).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "constants.lua")
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
