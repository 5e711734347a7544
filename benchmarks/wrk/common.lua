-- Shared by every scenario: prints one JSON line with the figures the
-- harness reads (wrk's own text report stays above it).
function report(summary, latency)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write +
                 summary.errors.status + summary.errors.timeout
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"errors":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, errors, latency:percentile(50), latency:percentile(99)))
end
