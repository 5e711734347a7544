-- PATCH of payment requests under concurrency: each request moves a random
-- one of N requests (of N subscriptions) to PAID or back to PENDING, through
-- its subscription's actor: wrk -s payment_patch.lua URL -- KEY ID1,ID2,...
package.path = package.path .. ";" .. debug.getinfo(1, "S").source:match("@?(.*/)") .. "?.lua"
require "common"

local key
local ids = {}
local counter = 0

function init(args)
  key = args[1]
  for id in string.gmatch(args[2], "[^,]+") do
    ids[#ids + 1] = id
  end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
end

function request()
  counter = counter + 1
  local id = ids[math.random(1, #ids)]
  local status = (counter % 2 == 0) and "PAID" or "PENDING"
  return wrk.format("PATCH", "/api/v2/external-billing/payment-requests/" .. id .. "/update",
    {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"},
    '{"status":"' .. status .. '","external_payment_id":"pi_' .. counter .. '"}')
end

request = paced(request)
done = report
