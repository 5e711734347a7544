-- Shared by every scenario: prints one JSON line with the figures the
-- harness reads (wrk's own text report stays above it) and, with
-- WRK_INTERVAL_US set, paces the load as an open loop.
local ffi = require "ffi"
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } vcs_timespec;
  int clock_gettime(int clock, vcs_timespec *ts);
]]
local clock = ffi.new("vcs_timespec")

local function now_us()
  ffi.C.clock_gettime(1, clock) -- CLOCK_MONOTONIC: one clock for every thread
  return tonumber(clock.tv_sec) * 1000000 + tonumber(clock.tv_nsec) / 1000
end

local threads = {}
-- Open loop (WRK_INTERVAL_US set, see below): the run's schedule ends
-- WRK_DURATION_US after the first thread was set up, which is before wrk
-- starts its clock, so every thread still runs when the schedule ends.
-- (A global: each thread gets it through thread:set.)
local interval = tonumber(os.getenv("WRK_INTERVAL_US") or "")
deadline = nil

function setup(thread)
  deadline = deadline or now_us() + tonumber(os.getenv("WRK_DURATION_US") or "0")
  thread:set("thread_id", #threads)
  thread:set("deadline", deadline)
  threads[#threads + 1] = thread
end

-- Every answer's status is counted per thread (wrk itself counts only those
-- above 399, as one number). Globals, since done() reads them through
-- thread:get.
statuses = {}

local function count(status)
  statuses[status] = (statuses[status] or 0) + 1
end

-- Open loop: one connection per thread, so each Lua state follows one
-- connection, and each connection sends one request every WRK_INTERVAL_US
-- microseconds on a fixed schedule from a random phase (first_due). A
-- request is timed from when it was due: when a slow answer holds a
-- connection past its next send, that wait counts in the next request's
-- latency instead of vanishing from it (coordinated omission). When the
-- connection was idle, the request is timed from its actual send, since
-- wrk's timers round to a millisecond. Each thread keeps (due, status,
-- latency) per answer, and counts its sends that were due before the
-- deadline; done() writes the answers to WRK_LOG.
local next_due, due, behind, sent
sends = 0
first_due = nil
log_due, log_status, log_latency = {}, {}, {}

if interval then
  function delay()
    local now = now_us()
    if not next_due then
      next_due = now + math.random() * interval
      first_due = next_due
    end
    due, next_due = next_due, next_due + interval
    behind = due <= now
    return behind and 0 or math.ceil((due - now) / 1000)
  end

  function response(status)
    local at = now_us()
    local n = #log_due + 1
    log_due[n], log_status[n] = due, status
    log_latency[n] = at - (behind and due or sent)
    count(status)
  end
else
  response = count
end

-- Each scenario's request builder, timed from its send when paced. (wrk
-- also calls it once before the run, to check the request: not a send.)
function paced(build)
  if not interval then
    return build
  end
  return function()
    sent = now_us()
    if due and due < deadline then
      sends = sends + 1
    end
    return build()
  end
end

local function write_log(path)
  local f = assert(io.open(path, "w"))
  for _, thread in ipairs(threads) do
    local d, s, l = thread:get("log_due"), thread:get("log_status"), thread:get("log_latency")
    for i = 1, #d do
      f:write(string.format("%d\t%d\t%d\n", d[i], s[i], l[i]))
    end
  end
  f:close()
end

-- The threads' counts of each status, as a JSON object; in an open loop,
-- their sends and the sends scheduled before the deadline (a thread that
-- never connected counts its schedule from the start).
local function totals()
  local all, started, scheduled = {}, 0, 0
  for _, thread in ipairs(threads) do
    started = started + (thread:get("sends") or 0)
    if interval then
      local first = thread:get("first_due") or deadline - tonumber(os.getenv("WRK_DURATION_US"))
      scheduled = scheduled + math.max(0, math.floor((deadline - first) / interval) + 1)
    end
    for status, n in pairs(thread:get("statuses")) do
      all[status] = (all[status] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(all) do
    parts[#parts + 1] = string.format('"%d":%d', status, n)
  end
  return "{" .. table.concat(parts, ",") .. "}", started, scheduled
end

function report(summary, latency)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write +
                 summary.errors.status + summary.errors.timeout
  local points = {}
  for _, p in ipairs({"50", "75", "90", "99", "99.9", "99.99"}) do
    points[#points + 1] = string.format('"%s":%d', p, latency:percentile(tonumber(p)))
  end
  if interval then
    write_log(os.getenv("WRK_LOG"))
  end
  local by_status, started, scheduled = totals()
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"errors":%d,"p50_us":%d,"p99_us":%d,' ..
    '"percentiles_us":{%s},"max_us":%d,"socket_errors":%d,"statuses":%s,"started":%d,' ..
    '"scheduled":%d,"deadline_us":%d}\n',
    summary.requests, summary.duration, errors, latency:percentile(50), latency:percentile(99),
    table.concat(points, ","), latency.max, errors - summary.errors.status, by_status,
    started, scheduled, deadline or 0))
end
