-- GET of one path with the bearer key: wrk -s get.lua URL -- PATH KEY
package.path = package.path .. ";" .. debug.getinfo(1, "S").source:match("@?(.*/)") .. "?.lua"
require "common"

local path, key

function init(args)
  path = args[1]
  key = args[2]
end

function request()
  local headers = {}
  if key and key ~= "" then headers["Authorization"] = "Bearer " .. key end
  return wrk.format("GET", path, headers)
end

request = paced(request)
done = report
