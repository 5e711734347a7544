// Hot paths of the HTTP layer: a 1,000-lead bulk body parsed, validated
// (phone parsing included) and encoded as the insert's column arrays, a
// page of leads rendered, a request routed.

#include "domain/global_id.hpp"
#include "http/inputs/json.hpp"
#include "http/inputs/lead_input.hpp"
#include "http/render/render.hpp"
#include "http/work/routes.hpp"
#include "storage/lead_columns.hpp"

#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace {

using namespace vcs;

std::string bulk_body(int n) {
  std::string body = "[";
  for (int i = 0; i < n; ++i) {
    if (i > 0)
      body += ',';
    body += R"({"phone_number":"+1415)" + std::to_string(2000000 + i) +
            R"(","first_name":"Ada","last_name":"Lovelace","email":"ada)" + std::to_string(i) +
            R"(@example.com","custom_fields":{"crm_id":")" + std::to_string(i) + R"("}})";
  }
  return body + "]";
}

// Parsed, validated and encoded as the insert's binary column arrays.
void bulk_body_1000_parse_and_validate(benchmark::State& state) {
  auto body = bulk_body(1000);
  for (auto _ : state) {
    auto doc = http::parse_json(body);
    auto rows = http::read_bulk_leads(*doc, 1);
    auto columns = storage::columns_of(rows.rows, rows.row_index);
    benchmark::DoNotOptimize(columns.phone_number.value());
  }
  state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(bulk_body_1000_parse_and_validate)->Unit(benchmark::kMillisecond);

void lead_page_50_render(benchmark::State& state) {
  std::vector<domain::lead> page(50);
  auto now = domain::now();
  for (std::size_t i = 0; i < page.size(); ++i) {
    auto& l = page[i];
    l.id = 1'000'000 + static_cast<int64_t>(i);
    l.phone_number = "+1415555" + std::to_string(1000 + i);
    l.first_name = "Ada";
    l.last_name = "Lovelace";
    l.email = "ada@example.com";
    l.source = "API";
    l.custom_fields_json = R"({"crm_id":"42","tier":"gold"})";
    l.call_status = "IDLE";
    l.created_at = l.updated_at = now;
  }
  for (auto _ : state) {
    http::json_out out;
    out.w().StartArray();
    for (const auto& l : page)
      http::render_lead(out, l);
    out.w().EndArray();
    benchmark::DoNotOptimize(out.take());
  }
  state.SetItemsProcessed(state.iterations() * 50);
}
BENCHMARK(lead_page_50_render)->Unit(benchmark::kMicrosecond);

void route_lead_list(benchmark::State& state) {
  auto routes = http::public_routes();
  auto path = "/api/v2/voice-campaigns/" +
              domain::encode_global_id(domain::entity::campaign, 123456) + "/leads/list";
  for (auto _ : state)
    benchmark::DoNotOptimize(routes.find("GET", path));
}
BENCHMARK(route_lead_list);

} // namespace
