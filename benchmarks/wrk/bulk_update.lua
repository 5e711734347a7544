-- Bulk updates of 100 leads per request: wrk -s bulk_update.lua URL -- CAMPAIGN KEY N PREFIX
package.path = package.path .. ";" .. debug.getinfo(1, "S").source:match("@?(.*/)") .. "?.lua"
require "common"

local path, key, n, prefix
local counter = 0

function init(args)
  path = "/api/v2/voice-campaigns/" .. args[1] .. "/leads/update/bulk"
  key = args[2]
  n = tonumber(args[3])
  prefix = args[4]
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

function request()
  counter = counter + 1
  local items = {}
  local start = math.random(0, n - 100)
  for j = 0, 99 do
    items[#items + 1] = string.format('{"phone_number":"%s%07d","custom_fields":{"b":%d}}',
      prefix, start + j, counter)
  end
  return wrk.format("PATCH", path,
    {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"},
    "[" .. table.concat(items, ",") .. "]")
end

request = paced(request)
done = report
