-- A dialer's traffic mix on one campaign: by default 60% call-outcome
-- updates (v1), 15% lead list page 1, 10% campaign reads, 10% new leads, 5%
-- client detail; WEIGHTS ("60,15,10,10,5", in that order) sets others.
-- wrk -s mixed.lua URL -- CAMPAIGN KEY TENANT N PREFIX CLIENT [AREA [WEIGHTS]]
-- New leads get numbers +1 AREA ..., so runs with different areas never collide.
package.path = package.path .. ";" .. debug.getinfo(1, "S").source:match("@?(.*/)") .. "?.lua"
require "common"

local campaign, key, tenant, n, prefix, client, area, headers
local bounds = {}
local counter = 0

function init(args)
  campaign, key, tenant, n, prefix, client = args[1], args[2], args[3], tonumber(args[4]),
    args[5], args[6]
  area = args[7] or "415"
  -- Cumulative bounds of the five kinds out of their total weight.
  local total = 0
  for w in string.gmatch(args[8] or "60,15,10,10,5", "%d+") do
    total = total + tonumber(w)
    bounds[#bounds + 1] = total
  end
  for i = 1, #bounds do
    bounds[i] = bounds[i] / total
  end
  headers = {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

function request()
  counter = counter + 1
  local r = math.random()
  if r < bounds[1] then
    local body = string.format(
      '{"tenant_id":"%s","phone_number":"%s%07d","custom_fields":{"last_outcome":"c%d"}}',
      tenant, prefix, math.random(0, n - 1), counter % 8)
    return wrk.format("PATCH", "/v1/api/voice-campaigns/" .. campaign .. "/lead/update", headers,
      body)
  elseif r < bounds[2] then
    return wrk.format("GET", "/api/v2/voice-campaigns/" .. campaign .. "/leads/list?limit=50",
      headers)
  elseif r < bounds[3] then
    return wrk.format("GET", "/api/v2/voice-campaigns/" .. campaign, headers)
  elseif r < bounds[4] then
    -- Unique per run, thread and request: the area, the exchange from the
    -- thread, the line from the counter.
    local body = string.format('{"phone_number":"+1%s%d%06d"}', area, 2 + thread_id, counter)
    return wrk.format("POST", "/api/v2/voice-campaigns/" .. campaign .. "/leads", headers, body)
  else
    return wrk.format("GET", "/api/v2/clients/" .. client, headers)
  end
end

request = paced(request)
done = report
