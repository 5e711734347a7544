-- Shared by every scenario: prints one JSON line with the figures the
-- harness reads (wrk's own text report stays above it).
function report(summary, latency)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write +
                 summary.errors.status + summary.errors.timeout
  local points = {}
  for _, p in ipairs({"50", "75", "90", "99", "99.9", "99.99"}) do
    points[#points + 1] = string.format('"%s":%d', p, latency:percentile(tonumber(p)))
  end
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"errors":%d,"p50_us":%d,"p99_us":%d,' ..
    '"percentiles_us":{%s},"max_us":%d}\n',
    summary.requests, summary.duration, errors, latency:percentile(50), latency:percentile(99),
    table.concat(points, ","), latency.max))
end
