#include "domain/campaign_errors.hpp"
#include "domain/dial_state.hpp"
#include "domain/global_id.hpp"
#include "domain/lead.hpp"
#include "http/handlers/body.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lead_support.hpp"
#include "http/handlers/readers.hpp"
#include "http/inputs/lead_csv.hpp"
#include "http/inputs/lead_input.hpp"
#include "http/render/render.hpp"
#include "http/work/cpu_pool.hpp"
#include "http/work/lead_page_cache.hpp"
#include "http/work/on_cpu_pool.hpp"
#include "storage/dialer_repository.hpp"
#include "storage/import_job_repository.hpp"
#include "storage/lead_repository.hpp"

#include <thread>

namespace vcs::http::handlers {

namespace {

constexpr int64_t default_limit = 50;
constexpr int64_t max_limit = 200;

// A whole decimal query value within [min, max]; absent gives `fallback`.
std::optional<int64_t> query_int(const target& t, const char* name, int64_t fallback, int64_t min,
                                 int64_t max, domain::field_errors& errors) {
  auto text = t.param(name);
  if (!text)
    return fallback;
  auto v = parse_whole_number(*text);
  if (!v || *v < min || *v > max) {
    errors.add(name,
               max == std::numeric_limits<int64_t>::max()
                   ? "Must be an integer greater than or equal to " + std::to_string(min) + "."
                   : "Must be an integer between " + std::to_string(min) + " and " +
                         std::to_string(max) + ".");
    return std::nullopt;
  }
  return v;
}

} // namespace

std::optional<lead_list_query> read_lead_list_query(const target& t, domain::field_errors& errors) {
  auto limit = query_int(t, "limit", default_limit, 1, max_limit, errors);
  auto offset = query_int(t, "offset", 0, 0, std::numeric_limits<int64_t>::max(), errors);
  std::optional<std::string> phone;
  if (auto given = t.param("phone_number")) {
    if (domain::check_phone(*given).well_formed)
      phone = std::string{*given};
    else
      errors.add("phone_number", "Enter a phone number in E.164 format, e.g. +14155552671 (the + "
                                 "sent as %2B).");
  }
  bool dial_state = false;
  if (auto include = t.param("include")) {
    dial_state = *include == "dial_state";
    if (!dial_state)
      errors.add("include", "Must be dial_state.");
  }
  if (!limit || !offset || !errors.empty())
    return std::nullopt;
  return lead_list_query{*limit, *offset, std::move(phone), dial_state};
}

bool lead_list_query::has_next_page(int64_t total) const noexcept {
  // offset + limit < total, without overflowing at the largest offsets.
  return total > limit && offset < total - limit;
}

namespace {

// POST /api/v2/voice-campaigns/{campaign_id}/leads
class add_lead_handler final : public handler {
public:
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    auto body = parse_json(ex->request.body);
    if (!body)
      return ex->fail(invalid_lead_data({"Request body is not valid JSON."}));
    std::vector<std::string> problems;
    auto lead = read_lead_input(*body, problems);
    if (!lead)
      return ex->fail(invalid_lead_data(std::move(problems)));
    auto c = path_lead_campaign(ex);
    if (!c)
      return ex->fail(c.err());
    ask_campaign<bool>(
        ctx.self, ex, c->tenant_id, c->campaign_id,
        [ex](bool&) {
          json_out out;
          out.w().StartObject();
          out.field("status", "success");
          out.field("message", "Lead added successfully");
          out.w().EndObject();
          ex->respond(201, out.take());
        },
        std::make_tuple(actors::create_atom::value, actors::lead_row{std::move(*lead)}));
  }
};

// POST /api/v2/voice-campaigns/{campaign_id}/leads/bulk: a JSON array or
// CSV; answered once the job is stored and, for a body of up to two chunks,
// its leads are in; the chunks after those are inserted after the answer.
class bulk_add_leads_handler final : public handler {
public:
  body_size body() const override { return body_size::bulk; }
  // A CSV body's rows are counted as it is parsed (read_lead_csv).
  std::size_t body_items(std::string_view content_type) const override {
    return is_csv(content_type) ? 0 : max_items;
  }
  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    on_cpu_pool(
        ex, ctx,
        [ex]() -> domain::result<domain::bulk_import> {
          const auto& req = ex->request;
          auto body = is_csv(req.content_type) ? read_lead_csv(req.body, max_items)
                                               : read_bulk_body(req.body, max_items);
          if (!body)
            return std::move(body).err();
          return read_bulk_leads(*body, ex->svc.cpu->width(std::thread::hardware_concurrency()));
        },
        [ex](worker_context& ctx, domain::result<domain::bulk_import>& bulk) {
          if (!bulk)
            return ex->fail(bulk.err());
          import(ex, ctx, *bulk);
        });
  }

private:
  static constexpr std::size_t max_items = domain::bulk_max_items;

  static void import(const exchange_ptr& ex, worker_context& ctx, domain::bulk_import& bulk) {
    auto c = path_lead_campaign(ex);
    if (!c)
      return ex->fail(c.err());
    const auto queued = static_cast<int32_t>(bulk.rows.size());
    const auto invalid = bulk.invalid;
    const auto duplicates = bulk.duplicates;
    ask_campaign<int64_t>(
        ctx.self, ex, c->tenant_id, c->campaign_id,
        [ex, queued, invalid, duplicates](int64_t& job_id) {
          json_out out;
          out.w().StartObject();
          out.field("status", "success");
          out.field("message", "Leads queued for import; " + std::to_string(queued) + " queued, " +
                                   std::to_string(invalid) + " invalid skipped, " +
                                   std::to_string(duplicates) + " repeated skipped");
          out.field("import_id", domain::encode_global_id(domain::entity::lead_import, job_id));
          out.field("queued", queued);
          out.field("invalid", invalid);
          out.field("duplicates", duplicates);
          out.w().EndObject();
          ex->respond(200, out.take());
        },
        std::make_tuple(actors::import_atom::value, std::move(bulk)));
  }
};

// GET /api/v2/voice-campaigns/{campaign_id}/leads/list
class list_leads_handler final : public handler {
public:
  std::string_view versioned_campaign() const override { return "campaign_id"; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    domain::field_errors errors;
    auto query = read_lead_list_query(ex->target, errors);
    if (!query)
      return ex->fail(
          domain::error{domain::errc::bad_request, "Invalid query parameters"}.with_field_errors(
              std::move(errors)));
    if (!ex->campaign)
      return ex->fail(domain::campaign_not_found());
    const auto& campaign = *ex->campaign;
    const auto tenant_id = ex->principal->tenant_id;
    if (query->phone_number) {
      auto found =
          storage::find_lead_by_phone(ctx.db(), tenant_id, campaign.id, *query->phone_number);
      if (!found)
        return ex->fail(domain::campaign_not_found());
      return respond_page(ex, ctx, tenant_id, campaign.id, *found, *query);
    }
    if (query->dial_state) {
      auto page = storage::list_leads(ctx.db(), tenant_id, campaign.id, query->offset,
                                      static_cast<int32_t>(query->limit));
      if (!page)
        return ex->fail(domain::campaign_not_found());
      return respond_page(ex, ctx, tenant_id, campaign.id, *page, *query);
    }
    const lead_page_cache::key key{campaign.id, query->limit, query->offset};
    auto& pages = *ex->svc.lead_pages;
    if (auto page = pages.find(key, campaign.leads_version))
      return ex->respond(200, *page);
    auto page = storage::list_leads(ctx.db(), ex->principal->tenant_id, campaign.id, query->offset,
                                    static_cast<int32_t>(query->limit));
    if (!page)
      return ex->fail(domain::campaign_not_found());
    // Rendered after the version was read, so at that version or later.
    auto body = std::make_shared<const std::string>(render_page(*page, *query));
    pages.store(key, campaign.leads_version, body);
    ex->respond(200, *body);
  }

private:
  // A page not taken from the cache: with dial states when asked.
  static void respond_page(const exchange_ptr& ex, worker_context& ctx, int64_t tenant_id,
                           int64_t campaign_id, const storage::lead_page& page,
                           const lead_list_query& query) {
    if (!query.dial_state)
      return ex->respond(200, render_page(page, query));
    std::vector<int64_t> ids;
    std::vector<std::string> phones;
    for (const auto& l : page.leads) {
      ids.push_back(l.id);
      phones.push_back(l.phone_number);
    }
    const auto now = domain::now();
    auto in = storage::read_dial_inputs(ctx.db(), tenant_id, campaign_id, ids, phones, now);
    if (!in)
      return ex->fail(domain::campaign_not_found());
    const auto refused = domain::campaign_refusal(in->facts, in->policy, now);
    std::vector<std::optional<domain::lead_dial_view>> views;
    for (const auto& l : page.leads) {
      auto state = in->states.find(l.id);
      if (state == in->states.end()) {
        views.emplace_back();
        continue;
      }
      const domain::dial_target lead{l.phone_number, in->places[l.id], in->recent[l.phone_number]};
      views.emplace_back(domain::lead_dial_state(in->facts, refused, in->free_lines, in->policy,
                                                 state->second, lead,
                                                 in->listed.count(l.phone_number) > 0, now));
    }
    ex->respond(200, render_page(page, query, &views));
  }

  static std::string
  render_page(const storage::lead_page& page, const lead_list_query& query,
              const std::vector<std::optional<domain::lead_dial_view>>* views = nullptr) {
    json_out out;
    out.w().StartObject();
    out.key("leads");
    out.w().StartArray();
    for (std::size_t i = 0; i < page.leads.size(); ++i)
      render_lead(out, page.leads[i], views ? &(*views)[i] : nullptr);
    out.w().EndArray();
    out.key("page_info");
    out.w().StartObject();
    out.field("total_count", page.total);
    out.field("limit", query.limit);
    out.field("offset", query.offset);
    out.field("has_next_page", query.has_next_page(page.total));
    out.field("has_previous_page", query.offset > 0);
    out.w().EndObject();
    out.w().EndObject();
    return out.take();
  }
};

} // namespace

std::shared_ptr<handler> add_lead() {
  return std::make_shared<add_lead_handler>();
}
std::shared_ptr<handler> bulk_add_leads() {
  return std::make_shared<bulk_add_leads_handler>();
}
std::shared_ptr<handler> list_leads() {
  return std::make_shared<list_leads_handler>();
}

} // namespace vcs::http::handlers
