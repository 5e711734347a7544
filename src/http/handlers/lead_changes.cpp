#include "domain/lead.hpp"
#include "http/handlers/handlers.hpp"
#include "http/handlers/lead_support.hpp"
#include "http/inputs/lead_input.hpp"
#include "http/work/on_cpu_pool.hpp"

namespace vcs::http::handlers {

namespace {

// One item of a bulk update or removal as it will be answered: its key as
// sent, and its outcome's message.
struct item_result {
  std::optional<std::string> phone_number;
  std::optional<std::string> campaign_lead_id;
  bool success = false;
  std::string message;
};

// A bulk body read: every item's result so far (a bad item has its problem
// already), and the good items in the campaign actor's message.
template <class Batch> struct bulk_items {
  std::vector<item_result> results;
  Batch batch;
  // Where each item of `batch` is in `results`.
  std::vector<std::size_t> sent_index;
};

std::optional<std::string> sent_string(const rapidjson::Value& item, const char* name) {
  if (!item.IsObject())
    return std::nullopt;
  auto it = item.FindMember(name);
  if (it == item.MemberEnd() || !it->value.IsString())
    return std::nullopt;
  return std::string{it->value.GetString(), it->value.GetStringLength()};
}

// The body's items, each read by `read` (one item's fields, or its
// problems): a bad item fails alone. Runs on the CPU pool.
template <class Batch, class Read>
domain::result<bulk_items<Batch>> read_items(std::string_view body, std::size_t max_items,
                                             Read read) {
  auto doc = read_bulk_body(body, max_items);
  if (!doc)
    return std::move(doc).err();
  bulk_items<Batch> out;
  for (const auto& item : doc->GetArray()) {
    item_result r;
    r.phone_number = sent_string(item, "phone_number");
    r.campaign_lead_id = sent_string(item, "campaign_lead_id");
    std::vector<std::string> problems;
    if (auto parsed = read(item, problems)) {
      out.sent_index.push_back(out.results.size());
      out.batch.items.push_back(std::move(*parsed));
    } else {
      r.message = problems.front();
    }
    out.results.push_back(std::move(r));
  }
  return out;
}

// Every item's result in the order sent: the sent ones take their outcome.
void render_results(const exchange_ptr& ex, std::vector<item_result>& results,
                    const std::vector<std::size_t>& sent_index,
                    const actors::lead_outcomes& outcomes, lead_change change) {
  std::size_t ok = 0;
  for (std::size_t i = 0; i < sent_index.size(); ++i) {
    auto& r = results[sent_index[i]];
    r.success = outcomes.items[i] == domain::lead_outcome::done;
    r.message = lead_outcome_message(outcomes.items[i], change);
    ok += r.success ? 1 : 0;
  }
  json_out out;
  out.w().StartObject();
  out.field("status", "success");
  out.field("message", "Processed " + std::to_string(results.size()) +
                           " items: " + std::to_string(ok) + " " +
                           (change == lead_change::update ? "updated" : "removed") + ", " +
                           std::to_string(results.size() - ok) + " failed");
  out.key("results");
  out.w().StartArray();
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    out.w().StartObject();
    out.field("index", static_cast<int64_t>(i));
    if (r.phone_number)
      out.field("phone_number", *r.phone_number);
    if (r.campaign_lead_id)
      out.field("campaign_lead_id", *r.campaign_lead_id);
    out.field("success", r.success);
    out.field("message", r.message);
    out.w().EndObject();
  }
  out.w().EndArray();
  out.w().EndObject();
  ex->respond(200, out.take());
}

// Sends the good items to the campaign actor as one `atom` message, even
// when there are none (the actor answers whether the campaign exists), and
// answers every item's result in the order sent.
template <class Batch, class Atom>
void send_items(const exchange_ptr& ex, worker_context& ctx, bulk_items<Batch> read, Atom atom,
                lead_change change) {
  auto c = path_lead_campaign(ex);
  if (!c)
    return ex->fail(c.err());
  auto batch = std::move(read.batch);
  auto kept = std::make_shared<bulk_items<Batch>>(std::move(read));
  ask_campaign<actors::lead_outcomes>(
      ctx.self, ex, c->tenant_id, c->campaign_id,
      [ex, kept, change](actors::lead_outcomes& outcomes) {
        render_results(ex, kept->results, kept->sent_index, outcomes, change);
      },
      std::make_tuple(atom, std::move(batch)));
}

// PATCH /api/v2/voice-campaigns/{campaign_id}/leads/update/bulk
class bulk_update_leads_handler final : public handler {
public:
  body_size body() const override { return body_size::bulk; }
  std::size_t body_items(std::string_view) const override { return max_items; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    on_cpu_pool(
        ex, ctx, [ex] { return parse(ex); },
        [ex](worker_context& ctx, domain::result<items>& parsed) {
          if (!parsed)
            return ex->fail(parsed.err());
          send(ex, ctx, std::move(*parsed));
        });
  }

private:
  using items = bulk_items<actors::lead_updates>;
  static constexpr std::size_t max_items = domain::bulk_update_max_items;

  // On the CPU pool (the session counted the items while reading the body,
  // against body_items).
  static domain::result<items> parse(const exchange_ptr& ex) {
    return read_items<actors::lead_updates>(ex->request.body, max_items, read_lead_update);
  }

  static void send(const exchange_ptr& ex, worker_context& ctx, items read) {
    send_items(ex, ctx, std::move(read), actors::update_atom::value, lead_change::update);
  }
};

// DELETE /api/v2/voice-campaigns/{campaign_id}/leads/remove/bulk
class bulk_remove_leads_handler final : public handler {
public:
  body_size body() const override { return body_size::bulk; }
  std::size_t body_items(std::string_view) const override { return max_items; }

  void handle(const exchange_ptr& ex, worker_context& ctx) override {
    on_cpu_pool(
        ex, ctx, [ex] { return parse(ex); },
        [ex](worker_context& ctx, domain::result<items>& parsed) {
          if (!parsed)
            return ex->fail(parsed.err());
          send(ex, ctx, std::move(*parsed));
        });
  }

private:
  using items = bulk_items<actors::lead_removals>;
  static constexpr std::size_t max_items = domain::bulk_max_items;

  static domain::result<items> parse(const exchange_ptr& ex) {
    return read_items<actors::lead_removals>(ex->request.body, max_items, read_lead_removal);
  }

  static void send(const exchange_ptr& ex, worker_context& ctx, items read) {
    send_items(ex, ctx, std::move(read), actors::delete_atom::value, lead_change::removal);
  }
};

} // namespace

std::shared_ptr<handler> bulk_update_leads() {
  return std::make_shared<bulk_update_leads_handler>();
}
std::shared_ptr<handler> bulk_remove_leads() {
  return std::make_shared<bulk_remove_leads_handler>();
}

} // namespace vcs::http::handlers
