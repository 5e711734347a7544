-- Single-lead v1 updates spread over N leads of one campaign, each writing a
-- custom field: wrk -s v1_update.lua URL -- CAMPAIGN KEY TENANT N PREFIX
package.path = package.path .. ";" .. debug.getinfo(1, "S").source:match("@?(.*/)") .. "?.lua"
require "common"

local path, key, tenant, n, prefix
local counter = 0

function init(args)
  path = "/v1/api/voice-campaigns/" .. args[1] .. "/lead/update"
  key = args[2]
  tenant = args[3]
  n = tonumber(args[4])
  prefix = args[5]
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

function request()
  counter = counter + 1
  local i = math.random(0, n - 1)
  local body = string.format(
    '{"tenant_id":"%s","phone_number":"%s%07d","custom_fields":{"w%d":%d}}',
    tenant, prefix, i, counter % 16, counter)
  return wrk.format("PATCH", path,
    {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}, body)
end

request = paced(request)
done = report
