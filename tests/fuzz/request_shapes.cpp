#include "request_shapes.hpp"

#include "invariants.hpp"

#include "domain/billing_records.hpp"
#include "domain/bulk_import.hpp"
#include "domain/call_state.hpp"
#include "domain/campaign.hpp"
#include "domain/campaign_errors.hpp"
#include "domain/client_access.hpp"
#include "domain/client_create.hpp"
#include "domain/global_id.hpp"
#include "domain/lead.hpp"
#include "domain/member.hpp"
#include "domain/page_size.hpp"
#include "domain/password.hpp"
#include "domain/phone_number_pool.hpp"
#include "domain/url.hpp"
#include "domain/webhook_event.hpp"
#include "http/handlers/readers.hpp"
#include "http/inputs/assignment_input.hpp"
#include "http/inputs/campaign_input.hpp"
#include "http/inputs/client_access_input.hpp"
#include "http/inputs/json.hpp"
#include "http/inputs/lead_csv.hpp"
#include "http/inputs/lead_input.hpp"
#include "http/inputs/pool_input.hpp"
#include "outbound/provider_callback.hpp"
#include "storage/event_repository.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>

namespace vcs::fuzz {

namespace {

using domain::all_entities;
using domain::entity;

// The handlers' error envelopes, built as they build them (handlers/body.cpp
// validation_error, handlers/lead_support.cpp invalid_lead_data); only their
// rendering is under test here.
domain::error validation_error(domain::field_errors errors) {
  return domain::error{domain::errc::bad_request, "Validation error"}.with_field_errors(
      std::move(errors));
}

domain::error invalid_lead_data(std::vector<std::string> problems) {
  return domain::error{domain::errc::bad_request, "Invalid data"}.with_detail(std::move(problems));
}

// handlers/body.cpp object_body: a JSON object, else 400 `Invalid data`.
std::optional<rapidjson::Document> object_body(std::string_view body) {
  auto doc = http::parse_json(body);
  if (!doc || !doc->IsObject())
    return std::nullopt;
  return doc;
}

// handlers/lead_support.cpp bulk_body: a non-empty array of at most
// `max_items`, else 400.
bool bulk_body_ok(const rapidjson::Document& doc, std::size_t max_items) {
  return doc.IsArray() && !doc.Empty() && doc.Size() <= max_items;
}

void check_text(const std::optional<std::string>& v, std::size_t max_bytes) {
  if (v) {
    FUZZ_CHECK(v->size() <= max_bytes);
    FUZZ_CHECK(is_storable(*v));
  }
}

void check_email(const std::optional<std::string>& v) {
  check_text(v, domain::lead_email_max_length);
  if (v && !v->empty())
    FUZZ_CHECK(domain::is_email(*v));
}

void check_custom_fields(const std::string& json) {
  FUZZ_CHECK(json.size() <= domain::custom_fields_max_bytes);
  FUZZ_CHECK(check_json(json, true) == rapidjson::kObjectType);
}

// ---- leads ------------------------------------------------------------------

void check_lead_input(const domain::lead_input& lead) {
  auto phone = domain::check_phone(lead.phone_number);
  FUZZ_CHECK(phone.well_formed);
  FUZZ_CHECK(lead.invalid == !phone.valid);
  FUZZ_CHECK(lead.invalid_reason.has_value() == lead.invalid);
  FUZZ_CHECK(is_storable(lead.phone_number));
  check_text(lead.first_name, domain::lead_name_max_length);
  check_text(lead.last_name, domain::lead_name_max_length);
  check_email(lead.email);
  check_custom_fields(lead.custom_fields_json);
}

void check_lead_update(const domain::lead_update& u) {
  FUZZ_CHECK(!u.phone_number.empty() && u.phone_number.size() <= 32);
  FUZZ_CHECK(is_storable(u.phone_number));
  check_text(u.first_name, domain::lead_name_max_length);
  check_text(u.last_name, domain::lead_name_max_length);
  check_email(u.email);
  if (u.custom_fields_json)
    check_custom_fields(*u.custom_fields_json);
}

void check_lead_removal(const domain::lead_removal& r) {
  FUZZ_CHECK(r.phone_number || r.lead_id || r.lead_id_malformed);
  FUZZ_CHECK(!(r.lead_id && r.lead_id_malformed));
  if (r.lead_id)
    FUZZ_CHECK(*r.lead_id > 0);
  if (r.phone_number)
    FUZZ_CHECK(!r.phone_number->empty() && is_storable(*r.phone_number));
}

// One item through a reader: a result and no problem, or problems (the
// first is what a bulk result shows, so there must be one).
template <class Read, class Check>
void read_item(const rapidjson::Value& item, Read read, Check check) {
  std::vector<std::string> problems;
  if (auto parsed = read(item, problems)) {
    FUZZ_CHECK(problems.empty());
    check(*parsed);
  } else {
    FUZZ_CHECK(!problems.empty());
    check_error(invalid_lead_data(std::move(problems)));
  }
}

// leads_v1.cpp check_tenant_id: the tenant id as the handler reads it.
std::optional<int64_t> v1_tenant_id(const rapidjson::Value& body) {
  auto it = body.FindMember("tenant_id");
  if (it == body.MemberEnd() || it->value.IsNull())
    return std::nullopt;
  if (it->value.IsString())
    return domain::parse_id(entity::tenant,
                            std::string_view{it->value.GetString(), it->value.GetStringLength()});
  if (it->value.IsInt64() && it->value.GetInt64() > 0)
    return it->value.GetInt64();
  return std::nullopt;
}

// ---- client create and assignments ------------------------------------------

bool is_resource_kind(const std::string& kind) {
  const auto& kinds = domain::resource_kinds();
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

// Validated access levels: known kinds, each given once, each a level.
void check_access(const std::vector<std::pair<std::string, std::string>>& access) {
  std::set<std::string> kinds;
  for (const auto& [kind, level] : access) {
    FUZZ_CHECK(is_resource_kind(kind));
    FUZZ_CHECK(kinds.insert(kind).second);
    FUZZ_CHECK(domain::parse_access_level(level).has_value());
  }
}

// A validated assignment set: known kinds, each given once; ids plain,
// unique within their kind; campaign ids canonical global ids, decoded in
// order into `campaign_ids`.
void check_assignments(const domain::assignments& set, const std::vector<int64_t>& campaign_ids) {
  std::set<std::string> kinds;
  std::size_t campaigns = 0;
  for (const auto& [kind, ids] : set) {
    FUZZ_CHECK(is_resource_kind(kind));
    FUZZ_CHECK(kinds.insert(kind).second);
    std::set<std::string> seen;
    for (const auto& id : ids) {
      FUZZ_CHECK(!id.empty() && id.size() <= 255 && is_storable(id));
      FUZZ_CHECK(seen.insert(id).second);
      if (kind == "campaign") {
        FUZZ_CHECK(campaigns < campaign_ids.size());
        FUZZ_CHECK(domain::encode_global_id(entity::campaign, campaign_ids[campaigns]) == id);
        ++campaigns;
      }
    }
  }
  FUZZ_CHECK(campaigns == campaign_ids.size());
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// ---- global ids -----------------------------------------------------------------

void round_trip(int64_t id) {
  for (auto kind : all_entities) {
    auto text = domain::encode_global_id(kind, id);
    FUZZ_CHECK(text.size() % 4 == 0);
    FUZZ_CHECK(domain::decode_global_id(kind, text) == id);
    FUZZ_CHECK(domain::parse_id(kind, text) == id);
  }
}

} // namespace

void single_lead_bodies(std::string_view body) {
  auto doc = http::parse_json(body);
  if (!doc) {
    check_error(invalid_lead_data({"Request body is not valid JSON."}));
    return;
  }
  // POST .../leads takes any JSON value; the reader wants an object.
  read_item(*doc, http::read_lead_input, check_lead_input);
  // The v1 routes: an object with the key's tenant id.
  if (!doc->IsObject())
    return;
  if (auto tenant = v1_tenant_id(*doc))
    FUZZ_CHECK(*tenant > 0);
  read_item(*doc, http::read_lead_update, check_lead_update);
  read_item(*doc, http::read_lead_removal, check_lead_removal);
}

namespace {

// A bulk add's rows: every item is a row or a rejection, repeats left out.
void check_bulk_rows(const rapidjson::Document& doc) {
  auto rows = http::read_bulk_leads(doc, 1);
  FUZZ_CHECK(rows.accepted == static_cast<int32_t>(doc.Size()));
  FUZZ_CHECK(rows.invalid >= 0 && rows.duplicates >= 0 &&
             rows.invalid + rows.duplicates <= rows.accepted);
  FUZZ_CHECK(rows.rejected.size() == static_cast<std::size_t>(rows.invalid + rows.duplicates));
  FUZZ_CHECK(std::is_sorted(rows.rejected.begin(), rows.rejected.end(),
                            [](const auto& a, const auto& b) { return a.index < b.index; }));
  FUZZ_CHECK(rows.rows.size() ==
             static_cast<std::size_t>(rows.accepted - rows.invalid - rows.duplicates));
  FUZZ_CHECK(rows.row_index.size() == rows.rows.size());
  FUZZ_CHECK(std::is_sorted(rows.row_index.begin(), rows.row_index.end()));
  for (std::size_t k = 0; k < rows.rows.size(); ++k) {
    check_lead_input(rows.rows[k]);
    FUZZ_CHECK(rows.row_index[k] >= 0 && rows.row_index[k] < rows.accepted);
  }
  if (doc.Size() >= 4096) {
    // Large bodies are validated in slices on several threads: same rows.
    auto sliced = http::read_bulk_leads(doc, 3);
    FUZZ_CHECK(sliced.row_index == rows.row_index && sliced.invalid == rows.invalid &&
               sliced.duplicates == rows.duplicates);
  }
}

} // namespace

void bulk_lead_bodies(std::string_view body) {
  // The same bytes as a CSV body: refused with a 400, or read into leads
  // whose fields are all text.
  if (auto csv = http::read_lead_csv(body, domain::bulk_max_items); !csv) {
    check_error(csv.err());
    FUZZ_CHECK(csv.err().code == domain::errc::bad_request);
  } else {
    FUZZ_CHECK(csv->IsArray() && !csv->Empty() && csv->Size() <= domain::bulk_max_items);
    for (const auto& lead : csv->GetArray()) {
      FUZZ_CHECK(lead.IsObject());
      for (const auto& m : lead.GetObject())
        FUZZ_CHECK(m.value.IsString() || std::string_view{m.name.GetString()} == "custom_fields");
    }
    check_bulk_rows(*csv);
  }
  auto doc = http::parse_json(body);
  if (!doc || !bulk_body_ok(*doc, domain::bulk_max_items))
    return;
  check_bulk_rows(*doc);
  for (const auto& item : doc->GetArray()) {
    if (doc->Size() <= domain::bulk_update_max_items)
      read_item(item, http::read_lead_update, check_lead_update);
    read_item(item, http::read_lead_removal, check_lead_removal);
  }
}

void campaign_body(std::string_view body, bool creating) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  auto input = http::read_campaign_input(*doc, errors);
  domain::validate_campaign(input.fields, creating, errors);
  if (!errors.empty())
    return check_error(domain::invalid_data(std::move(errors)));
  if (input.voice_provider_malformed)
    return check_error(domain::voice_provider_not_found(input.voice_provider_ref));
  const auto& f = input.fields;
  if (creating)
    FUZZ_CHECK(f.name.has_value());
  for (const auto* text :
       {&f.name, &f.type, &f.assistant_id, &f.dialer_type, &f.provider_a_calling_entity,
        &f.phone_number_id, &f.phone_number_pool_id, &f.start_date, &f.end_date, &f.timezone,
        &f.daily_start_time, &f.daily_end_time, &f.webhook_url})
    check_text(*text, 1 << 16);
  if (f.start_date)
    FUZZ_CHECK(domain::is_calendar_date(*f.start_date));
  if (f.end_date)
    FUZZ_CHECK(domain::is_calendar_date(*f.end_date));
  if (f.start_date && f.end_date)
    FUZZ_CHECK(*f.start_date <= *f.end_date);
  if (f.timezone)
    FUZZ_CHECK(domain::is_iana_zone(*f.timezone));
  if (f.daily_start_time && f.daily_end_time)
    FUZZ_CHECK(*f.daily_start_time < *f.daily_end_time);
  if (f.days_of_week) {
    FUZZ_CHECK(!f.days_of_week->empty() && f.days_of_week->size() <= 7);
    std::set<std::string> days(f.days_of_week->begin(), f.days_of_week->end());
    FUZZ_CHECK(days.size() == f.days_of_week->size());
  }
  if (f.max_call_attempts)
    FUZZ_CHECK(*f.max_call_attempts >= 1 &&
               *f.max_call_attempts <= domain::max_call_attempts_limit);
  if (f.max_daily_attempts)
    FUZZ_CHECK(*f.max_daily_attempts >= 1 &&
               *f.max_daily_attempts <= domain::max_daily_attempts_limit);
  if (f.min_gap_between_attempts)
    FUZZ_CHECK(*f.min_gap_between_attempts >= domain::min_gap_minutes_floor &&
               *f.min_gap_between_attempts <= domain::min_gap_minutes_ceiling);
  if (f.webhook_url)
    FUZZ_CHECK(domain::is_http_url(*f.webhook_url));
  if (f.voice_provider_id)
    FUZZ_CHECK(*f.voice_provider_id > 0 && !input.voice_provider_ref.empty());
}

void campaign_status_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  // campaigns.cpp update_campaign_status_handler.
  auto it = doc->FindMember("status");
  if (it == doc->MemberEnd() || !it->value.IsString())
    return check_error(domain::invalid_campaign_status());
  std::string_view text{it->value.GetString(), it->value.GetStringLength()};
  if (auto status = domain::parse_campaign_status(text))
    FUZZ_CHECK(domain::to_string(*status) == text);
  else
    check_error(domain::invalid_campaign_status());
}

void client_create_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  domain::client_create req;
  std::vector<std::string> passwords;
  http::handlers::read_client_create(*doc, req, passwords, errors);
  if (!errors.empty())
    return check_error(validation_error(std::move(errors)));
  // The handler hashes passwords[i] into users[i].
  FUZZ_CHECK(!req.users.empty() && passwords.size() == req.users.size());
  std::set<std::string> emails;
  for (std::size_t i = 0; i < req.users.size(); ++i) {
    FUZZ_CHECK(domain::is_email(req.users[i].email) && is_storable(req.users[i].email));
    FUZZ_CHECK(emails.insert(lower(req.users[i].email)).second);
    FUZZ_CHECK(passwords[i].size() >= domain::password_min_length &&
               passwords[i].size() <= domain::password_max_length);
  }
  FUZZ_CHECK(!req.name.empty() && req.name.size() <= 255 && is_storable(req.name));
  FUZZ_CHECK(domain::is_email(req.primary_email) && is_storable(req.primary_email));
  FUZZ_CHECK(!req.asset_group_name.empty() && is_storable(req.asset_group_name));
  if (req.voice_provider_id)
    FUZZ_CHECK(*req.voice_provider_id > 0 && !req.voice_provider_ref.empty());
  check_text(req.product_id, 255);
  for (const auto& id : req.price_ids)
    FUZZ_CHECK(is_storable(id));
  check_access(req.access);
  check_assignments(req.assigned, req.campaign_ids);
}

void assignments_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  // assignments.cpp assign_resources_handler.
  domain::field_errors errors;
  domain::assignments set;
  std::vector<int64_t> campaign_ids;
  auto it = doc->FindMember("assigned_resources");
  if (it == doc->MemberEnd() || it->value.IsNull())
    errors.add("assigned_resources", "This field is required.");
  else
    set = http::read_assignments(it->value, "assigned_resources", errors, campaign_ids);
  if (!errors.empty())
    return check_error(domain::invalid_data(std::move(errors)));
  check_assignments(set, campaign_ids);
}

void widget_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  auto req = http::handlers::read_widget_request(*doc, errors);
  if (!errors.empty())
    return check_error(domain::invalid_data(std::move(errors)));
  FUZZ_CHECK(req.campaign_ref.has_value());
  check_text(req.campaign_ref, 128);
  check_text(req.voice_assistant_id, 255);
  check_text(req.chat_assistant_id, 255);
  const auto& c = req.config;
  FUZZ_CHECK(!c.mode.empty() && c.mode.size() <= 2);
  for (const auto& m : c.mode)
    FUZZ_CHECK(m == "voice" || m == "chat");
  FUZZ_CHECK(!c.has_mode("voice") || req.voice_assistant_id);
  FUZZ_CHECK(!c.has_mode("chat") || req.chat_assistant_id);
  FUZZ_CHECK(c.theme == "light" || c.theme == "dark" || c.theme == "auto");
  FUZZ_CHECK(c.position == "bottom-right" || c.position == "bottom-left" ||
             c.position == "top-right" || c.position == "top-left");
  FUZZ_CHECK(c.title.size() <= 60 && is_storable(c.title));
  FUZZ_CHECK(c.subtitle.size() <= 120 && is_storable(c.subtitle));
  FUZZ_CHECK(c.cta_button_text.size() <= 40 && is_storable(c.cta_button_text));
  FUZZ_CHECK(domain::is_hex_colour(c.accent_color) && domain::is_hex_colour(c.cta_button_color));
}

void voice_provider_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  auto req = http::handlers::read_provider_request(*doc, errors);
  if (!errors.empty() || !req)
    return check_error(validation_error(std::move(errors)));
  FUZZ_CHECK(req->concurrency_limit >= domain::concurrency_limit_min &&
             req->concurrency_limit <= domain::concurrency_limit_max);
  // The credentials are sealed as this JSON text: exactly the provider's
  // fields, each at most credential_max_length, all required ones present.
  FUZZ_CHECK(check_json(req->credentials_json, true) == rapidjson::kObjectType);
  rapidjson::Document creds;
  creds.Parse(req->credentials_json.data(), req->credentials_json.size());
  for (const auto& field : domain::credential_fields(req->kind)) {
    std::string name{field.name};
    auto it = creds.FindMember(name.c_str());
    if (field.required)
      FUZZ_CHECK(it != creds.MemberEnd());
    if (it != creds.MemberEnd())
      FUZZ_CHECK(it->value.IsString() &&
                 it->value.GetStringLength() <= domain::credential_max_length);
  }
  FUZZ_CHECK(creds.MemberCount() <= domain::credential_fields(req->kind).size());
}

void payment_update_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  auto update = http::handlers::read_payment_update(*doc, errors);
  if (update.bad_status || !errors.empty()) {
    FUZZ_CHECK(!errors.empty());
    return check_error(validation_error(std::move(errors)));
  }
  FUZZ_CHECK(update.status && domain::one_of(domain::payment_statuses(), *update.status));
  check_text(update.external_payment_id, 255);
}

void billing_query(const http::target& t, billing_list list) {
  std::optional<int64_t> client;
  std::optional<std::string> status, type;
  storage::page_request page;
  // billing.cpp: the filters the list takes, then the page.
  auto problem = http::handlers::read_client_filter(t, client);
  if (!problem && list == billing_list::payment_requests)
    problem = http::handlers::read_choice(t, "status", domain::payment_statuses(), status);
  if (!problem && list == billing_list::payment_requests)
    problem = http::handlers::read_choice(t, "type", domain::payment_types(), type);
  if (!problem && list == billing_list::subscriptions)
    problem = http::handlers::read_choice(t, "status", domain::subscription_statuses(), status);
  if (!problem)
    problem = http::handlers::read_page(t, page);
  if (problem) {
    FUZZ_CHECK(problem->code == domain::errc::bad_request);
    return check_error(*problem);
  }
  if (client)
    FUZZ_CHECK(*client > 0);
  FUZZ_CHECK(page.page >= 1);
  FUZZ_CHECK(page.page_size >= 1 && page.page_size <= domain::max_page_size);
  // storage/billing_repository.cpp offset_of: (page - 1) * page_size, an
  // int64 bound as the SQL OFFSET.
  int64_t offset = 0;
  FUZZ_CHECK(!__builtin_mul_overflow(page.page - 1, page.page_size, &offset));
}

void call_list_query(const http::target& t) {
  storage::page_request page;
  // calls.cpp: the filters, then the page.
  auto filter = http::handlers::read_call_filter(t);
  std::optional<domain::error> problem;
  if (!filter)
    problem = filter.err();
  else
    problem = http::handlers::read_page(t, page);
  if (problem) {
    FUZZ_CHECK(problem->code == domain::errc::bad_request);
    return check_error(*problem);
  }
  const auto& f = filter.value();
  if (f.lead_id)
    FUZZ_CHECK(*f.lead_id > 0);
  if (f.outcome)
    FUZZ_CHECK(domain::one_of(domain::call_outcome_names(), *f.outcome));
  if (f.status)
    FUZZ_CHECK(domain::one_of(domain::call_row_statuses(), *f.status));
  if (f.from && f.to)
    FUZZ_CHECK(*f.from < *f.to);
  FUZZ_CHECK(page.page_size >= 1 && page.page_size <= domain::max_page_size);
}

void lead_list_query(const http::target& t) {
  domain::field_errors errors;
  auto query = http::handlers::read_lead_list_query(t, errors);
  if (!query) {
    FUZZ_CHECK(!errors.empty());
    return check_error(
        domain::error{domain::errc::bad_request, "Invalid query parameters"}.with_field_errors(
            std::move(errors)));
  }
  FUZZ_CHECK(errors.empty());
  FUZZ_CHECK(query->limit >= 1 && query->limit <= 200);
  FUZZ_CHECK(query->offset >= 0);
  // page_info.has_next_page for any lead count the campaign may have.
  constexpr auto max = std::numeric_limits<int64_t>::max();
  for (int64_t total : {int64_t{0}, query->offset, query->limit, max - 1, max}) {
    bool expected = static_cast<__int128>(query->offset) + query->limit < total;
    FUZZ_CHECK(query->has_next_page(total) == expected);
  }
}

void global_id_text(std::string_view text) {
  auto plain = domain::parse_positive_int(text);
  if (plain) {
    FUZZ_CHECK(*plain > 0 && std::to_string(*plain) == text);
    round_trip(*plain);
  }
  for (auto kind : all_entities) {
    auto id = domain::decode_global_id(kind, text);
    if (id) {
      // Canonical: the decoded id encodes back to the very same text, and
      // the text names no other kind.
      FUZZ_CHECK(*id > 0);
      FUZZ_CHECK(domain::encode_global_id(kind, *id) == text);
      for (auto other : all_entities)
        if (other != kind)
          FUZZ_CHECK(!domain::decode_global_id(other, text));
    }
    auto parsed = domain::parse_id(kind, text);
    FUZZ_CHECK(parsed == (plain ? plain : id));
  }
  // The bytes as an id, for the encoding side.
  if (text.size() >= sizeof(int64_t)) {
    int64_t raw = 0;
    std::memcpy(&raw, text.data(), sizeof raw);
    if (raw > 0)
      round_trip(raw);
  }
}

void key_request_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  // tenant_api_keys.cpp create_key_handler, for a key holding everything.
  domain::field_errors errors;
  auto req = http::handlers::read_key_request(*doc, domain::key_scope{}, errors);
  if (!req)
    return check_error(domain::invalid_data(std::move(errors)));
  FUZZ_CHECK(errors.empty() && !req->first.empty());
  check_text(req->first, 100);
  FUZZ_CHECK(!req->second.campaigns ||
             (!req->second.campaigns->empty() && req->second.campaigns->size() <= 1000));
}

void do_not_call_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  http::object_reader in{*doc, errors};
  auto number = in.string("phone_number", false, 32);
  if (!errors.empty())
    return check_error(domain::invalid_data(std::move(errors)));
  if (number) {
    check_text(number, 32);
    auto phone = domain::check_phone(*number);
    FUZZ_CHECK(!phone.well_formed || ((*number)[0] == '+' && number->size() <= 16));
  }
}

void provider_callback_body(std::string_view body) {
  for (const auto* vendor : outbound::provider_callbacks()) {
    auto report = vendor->read(body);
    if (!report)
      continue;
    // Every report names a call, by our id or the provider's.
    FUZZ_CHECK((report->call_id && *report->call_id > 0) || !report->provider_call_id.empty());
    const auto& u = report->update;
    using kind = actors::call_update::kind;
    // A refusal after the fact is only the provider's own busy account.
    FUZZ_CHECK(u.what == kind::ringing || u.what == kind::ended ||
               (u.what == kind::refused && u.refusal == domain::placement_refusal::busy));
    FUZZ_CHECK(u.duration_seconds >= 0 && u.duration_seconds <= 86'400);
    FUZZ_CHECK(u.what == kind::ended || u.duration_seconds == 0);
    FUZZ_CHECK(u.provider_call_id == report->provider_call_id);
    // A later analysis comes only with the end it completes.
    FUZZ_CHECK(!report->analysis || u.what == kind::ended);
  }
}

void webhook_text(std::string_view text) {
  // The hand-written JSON of webhook payloads: any text quotes to a JSON
  // string that reads back as the same text.
  if (!is_utf8(text))
    return;
  auto quoted = domain::json_quote(text);
  auto doc = http::parse_json("[" + quoted + "]");
  FUZZ_CHECK(doc && doc->IsArray() && doc->Size() == 1 && (*doc)[0].IsString());
  FUZZ_CHECK(std::string_view((*doc)[0].GetString(), (*doc)[0].GetStringLength()) == text);
}

namespace {

// ---- lists ----------------------------------------------------------------------

// The page of a contract-style list (listing.cpp read_page), read as its
// handler reads it: after the list's filters, whose refusal is `problem`.
void list_page(const http::target& t, std::optional<domain::error> problem = std::nullopt) {
  storage::page_request page;
  if (!problem)
    problem = http::handlers::read_page(t, page);
  if (problem) {
    FUZZ_CHECK(problem->code == domain::errc::bad_request);
    return check_error(*problem);
  }
  FUZZ_CHECK(page.page >= 1);
  FUZZ_CHECK(page.page_size >= 1 && page.page_size <= domain::max_page_size);
  // storage/page.hpp offset_of: (page - 1) * page_size, an int64 bound as
  // the SQL OFFSET.
  int64_t offset = 0;
  FUZZ_CHECK(!__builtin_mul_overflow(page.page - 1, page.page_size, &offset));
}

// campaigns.cpp list_campaigns_handler: status and type, then the page.
void campaign_list_query(const http::target& t) {
  std::optional<std::string> status, type;
  auto problem = http::handlers::read_choice(t, "status", domain::campaign_status_names(), status);
  if (!problem)
    problem = http::handlers::read_choice(t, "type", domain::campaign_type_names(), type);
  list_page(t, std::move(problem));
}

// lead_imports.cpp list_imports_handler: status, then the page.
void import_list_query(const http::target& t) {
  std::optional<std::string> status;
  list_page(t, http::handlers::read_choice(t, "status", domain::import_job_statuses(), status));
}

// lead_imports.cpp list_rejected_rows_handler: reason, then the page; the
// handler parses a listed reason into its filter.
void rejected_rows_query(const http::target& t) {
  std::optional<std::string> reason;
  list_page(t, http::handlers::read_choice(t, "reason", domain::rejection_reason_names(), reason));
  if (reason)
    FUZZ_CHECK(domain::parse_rejection_reason(*reason).has_value());
}

// tenant_webhooks.cpp list_deliveries_handler: status, event_type and
// campaign_id (a campaign's global id; the handler words its refusal
// inline), then the page.
void deliveries_query(const http::target& t) {
  std::optional<std::string> status, event_type;
  auto problem =
      http::handlers::read_choice(t, "status", domain::webhook_delivery_statuses(), status);
  if (!problem)
    problem =
        http::handlers::read_choice(t, "event_type", domain::webhook_event_types(), event_type);
  if (auto v = t.param("campaign_id"); !problem && v)
    domain::parse_id(entity::campaign, *v);
  list_page(t, std::move(problem));
}

// events.cpp: the cursor `after` (given_cursor; a stream may take it from
// Last-Event-ID instead) and, for a page of the feed, `limit` before it
// (listing.cpp limit_param reads it off the exchange, so only its number is
// parsed here).
void events_query(const http::target& t, bool stream) {
  if (auto limit = t.param("limit"); limit && !stream)
    http::parse_whole_number(*limit);
  auto after = t.param("after");
  if (!after)
    return;
  // The feed answers next_cursor as to_string: it reads back as the cursor.
  if (auto cursor = storage::parse_event_cursor(*after)) {
    auto again = storage::parse_event_cursor(storage::to_string(*cursor));
    FUZZ_CHECK(again && again->txid == cursor->txid && again->id == cursor->id);
  }
}

// ---- pools, client access and members -------------------------------------------

// phone_number_pools.cpp pool_body: read_pool_fields (`creating`: POST,
// else PATCH).
void pool_body(std::string_view body, bool creating) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  const auto f = http::read_pool_fields(*doc, creating, errors);
  if (!errors.empty())
    return check_error(validation_error(std::move(errors)));
  if (creating)
    FUZZ_CHECK(f.name && f.phone_number_ids);
  check_text(f.name, 1 << 16);
  if (f.phone_number_ids) {
    const auto& ids = *f.phone_number_ids;
    FUZZ_CHECK(!ids.empty() && ids.size() <= domain::pool_numbers_max);
    FUZZ_CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
    for (const auto& number : ids)
      FUZZ_CHECK(!number.empty() && is_storable(number));
  }
  if (f.daily_cap_per_number)
    FUZZ_CHECK(*f.daily_cap_per_number >= 1 &&
               *f.daily_cap_per_number <= domain::pool_daily_cap_max);
  if (f.timezone)
    FUZZ_CHECK(domain::is_iana_zone(*f.timezone));
}

// client_users.cpp set_client_access_handler: {client_access: {kind: level}}
// (a missing or non-object client_access the handler refuses itself).
void client_access_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  auto it = doc->FindMember("client_access");
  if (it == doc->MemberEnd() || !it->value.IsObject())
    return;
  domain::field_errors errors;
  const auto access = http::read_client_access(it->value, errors);
  if (!errors.empty())
    return check_error(validation_error(std::move(errors)));
  check_access(access);
}

// members.cpp invite_member_handler: {email, role}.
void member_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  auto req = http::handlers::read_member_invitation(*doc, errors);
  if (!req) {
    FUZZ_CHECK(!errors.empty());
    return check_error(validation_error(std::move(errors)));
  }
  FUZZ_CHECK(errors.empty());
  FUZZ_CHECK(domain::valid_member_email(req->email) && req->email.size() <= 254 &&
             is_storable(req->email));
}

// members.cpp update_member_handler: {role}.
void member_role_body(std::string_view body) {
  auto doc = object_body(body);
  if (!doc)
    return;
  domain::field_errors errors;
  if (auto role = http::handlers::read_member_role(*doc, errors); !role) {
    FUZZ_CHECK(!errors.empty());
    check_error(validation_error(std::move(errors)));
  }
}

} // namespace

void matched_route(const std::string& route, const http::target& t, const http::path_params& params,
                   std::string_view body) {
  auto id = [&](std::string_view name, entity kind) {
    return domain::parse_id(kind, params.get(name));
  };
  // Routes whose handlers read nothing from the request beyond the path.
  static const std::set<std::string> no_input{
      "GET /healthz",
      "GET /livez",
      "GET /readyz",
      "GET /openapi.json",
      "GET /docs",
      "GET /docs/redoc.standalone.js",
      "GET /console",
      "GET /console/{page}",
      "GET /console/campaigns/{campaign_id}",
      "GET /console/assets/console.js",
      "GET /console/assets/console.css",
      "GET /portal",
      "GET /portal/{page}",
      "GET /portal/campaigns/{campaign_id}",
      "GET /portal/assets/portal.js",
      "GET /portal/assets/portal.css",
      "GET /api/v2/clients",
      "GET /api/v2/clients/",
      "GET /api/v2/client-account-configurations//resources",
      "POST /api/v2/client-account-configurations//resources/assign",
      "GET /api/v2/session",
      "DELETE /api/v2/session",
      "GET /api/v2/portal/session",
      "DELETE /api/v2/portal/session",
      "GET /api/v2/portal/billing",
      "GET /api/v2/portal/resources",
      "GET /api/v2/members",
  };
  // Routes whose bodies are a few object_reader fields read inside their
  // handlers (sign-in, set-up and password bodies, a secret's grace
  // period; so is a client user's status, after its path ids below):
  // object_reader is fuzzed through the bodies below, and these handlers
  // call nothing else on the input.
  static const std::set<std::string> handler_read_fields{
      "POST /api/v2/webhook-secret",          "POST /api/v2/session",
      "POST /api/v2/session/setup",           "POST /api/v2/session/password",
      "POST /api/v2/portal/session",          "POST /api/v2/portal/session/setup",
      "POST /api/v2/portal/session/password",
  };
  if (no_input.count(route) || handler_read_fields.count(route))
    return;
  if (route == "POST /api/v2/clients/create")
    return client_create_body(body);
  if (route == "GET /api/v2/clients/{client_id}" ||
      route == "GET /api/v2/clients/{client_id}/users") {
    id("client_id", entity::client);
    return;
  }
  if (route == "PATCH /api/v2/clients/{client_id}/users/{user_id}") {
    id("client_id", entity::client);
    id("user_id", entity::client_user);
    return;
  }
  if (route == "POST /api/v2/clients/{client_id}/users/{user_id}/setup-link") {
    id("client_id", entity::client);
    id("user_id", entity::client_user);
    return;
  }
  if (route == "PUT /api/v2/clients/{client_id}/access") {
    id("client_id", entity::client);
    return client_access_body(body);
  }
  if (route == "GET /api/v2/client-forms/{client_form_id}/submissions") {
    id("client_form_id", entity::client_form);
    if (auto c = t.param("client_id"))
      domain::parse_id(entity::client, *c);
    return;
  }
  if (route == "GET /api/v2/client-account-configurations/{client_account_configuration_id}/"
               "resources") {
    id("client_account_configuration_id", entity::account_configuration);
    return;
  }
  if (route == "POST /api/v2/client-account-configurations/{client_account_configuration_id}/"
               "resources/assign") {
    id("client_account_configuration_id", entity::account_configuration);
    return assignments_body(body);
  }
  if (route == "POST /api/v2/voice-pod")
    return voice_provider_body(body);
  if (route == "POST /api/v2/web-widgets")
    return widget_body(body);
  if (route == "GET /api/v2/phone-number-pools")
    return list_page(t);
  if (route == "POST /api/v2/phone-number-pools")
    return pool_body(body, true);
  if (route == "GET /api/v2/phone-number-pools/{pool_id}" ||
      route == "DELETE /api/v2/phone-number-pools/{pool_id}") {
    id("pool_id", entity::phone_number_pool);
    return;
  }
  if (route == "PATCH /api/v2/phone-number-pools/{pool_id}") {
    id("pool_id", entity::phone_number_pool);
    return pool_body(body, false);
  }
  if (route == "GET /api/v2/external-billing/payment-requests")
    return billing_query(t, billing_list::payment_requests);
  if (route == "GET /api/v2/external-billing/subscriptions")
    return billing_query(t, billing_list::subscriptions);
  if (route == "GET /api/v2/external-billing/usage")
    return billing_query(t, billing_list::usage);
  if (route == "GET /api/v2/external-billing/payment-requests/{payment_request_id}/") {
    domain::parse_positive_int(params.get("payment_request_id"));
    return;
  }
  if (route == "GET /api/v2/external-billing/subscriptions/{subscription_id}/") {
    domain::parse_positive_int(params.get("subscription_id"));
    return;
  }
  if (route == "PATCH /api/v2/external-billing/payment-requests/{payment_request_id}/update") {
    domain::parse_positive_int(params.get("payment_request_id"));
    return payment_update_body(body);
  }
  if (route == "GET /api/v2/voice-campaigns")
    return campaign_list_query(t);
  if (route == "POST /api/v2/voice-campaigns")
    return campaign_body(body, true);
  if (route == "GET /api/v2/voice-campaigns/{campaign_id}" ||
      route == "GET /api/v2/voice-campaigns/{campaign_id}/forecast" ||
      route == "POST /api/v2/voice-campaigns/{campaign_id}/webhook-test") {
    id("campaign_id", entity::campaign);
    return;
  }
  if (route == "PATCH /api/v2/voice-campaigns/{campaign_id}") {
    id("campaign_id", entity::campaign);
    return campaign_body(body, false);
  }
  if (route == "PATCH /api/v2/voice-campaigns/{campaign_id}/status") {
    id("campaign_id", entity::campaign);
    return campaign_status_body(body);
  }
  if (route == "GET /api/v2/voice-campaigns/{campaign_id}/calls") {
    id("campaign_id", entity::campaign);
    return call_list_query(t);
  }
  if (route == "GET /api/v2/voice-campaigns/{campaign_id}/calls/{call_id}") {
    id("campaign_id", entity::campaign);
    domain::parse_positive_int(params.get("call_id"));
    return;
  }
  if (route == "POST /api/v2/voice-campaigns/{campaign_id}/leads" ||
      route == "PATCH /v1/api/voice-campaigns/{campaign_id}/lead/update" ||
      route == "DELETE /v1/api/voice-campaigns/{campaign_id}/lead/remove") {
    id("campaign_id", entity::campaign);
    return single_lead_bodies(body);
  }
  if (route == "POST /api/v2/voice-campaigns/{campaign_id}/leads/bulk" ||
      route == "PATCH /api/v2/voice-campaigns/{campaign_id}/leads/update/bulk" ||
      route == "DELETE /api/v2/voice-campaigns/{campaign_id}/leads/remove/bulk") {
    id("campaign_id", entity::campaign);
    return bulk_lead_bodies(body);
  }
  if (route == "GET /api/v2/voice-campaigns/{campaign_id}/leads/imports") {
    id("campaign_id", entity::campaign);
    return import_list_query(t);
  }
  if (route == "GET /api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}") {
    id("campaign_id", entity::campaign);
    id("import_id", entity::lead_import);
    return;
  }
  if (route ==
      "GET /api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}/rejected-rows") {
    id("campaign_id", entity::campaign);
    id("import_id", entity::lead_import);
    return rejected_rows_query(t);
  }
  if (route == "GET /api/v2/voice-campaigns/{campaign_id}/leads/list") {
    id("campaign_id", entity::campaign);
    return lead_list_query(t);
  }
  if (route == "POST /api/v2/do-not-call")
    return do_not_call_body(body);
  if (route == "GET /api/v2/do-not-call/{phone_number}" ||
      route == "DELETE /api/v2/do-not-call/{phone_number}") {
    domain::check_phone(params.get("phone_number"));
    return;
  }
  if (route == "GET /api/v2/webhook-deliveries")
    return deliveries_query(t);
  if (route == "GET /api/v2/webhook-deliveries/{delivery_id}" ||
      route == "POST /api/v2/webhook-deliveries/{delivery_id}/replay") {
    domain::parse_positive_int(params.get("delivery_id"));
    return;
  }
  if (route == "GET /api/v2/webhook-endpoints")
    return list_page(t);
  if (route == "POST /api/v2/webhook-endpoints/{endpoint_id}/enable") {
    domain::parse_positive_int(params.get("endpoint_id"));
    return;
  }
  if (route == "GET /api/v2/events")
    return events_query(t, false);
  if (route == "GET /api/v2/events/stream")
    return events_query(t, true);
  if (route == "GET /api/v2/portal/payment-requests" ||
      route == "GET /api/v2/portal/form-submissions")
    return list_page(t);
  if (route == "POST /api/v2/members")
    return member_body(body);
  if (route == "PATCH /api/v2/members/{member_id}") {
    id("member_id", entity::member);
    return member_role_body(body);
  }
  if (route == "DELETE /api/v2/members/{member_id}" ||
      route == "POST /api/v2/members/{member_id}/setup-link") {
    id("member_id", entity::member);
    return;
  }
  if (route == "GET /api/v2/api-keys")
    return;
  if (route == "POST /api/v2/api-keys")
    return key_request_body(body);
  if (route == "PATCH /api/v2/api-keys/{key_id}" || route == "DELETE /api/v2/api-keys/{key_id}") {
    id("key_id", entity::api_key);
    return;
  }
  if (route == "POST /webhooks/provider-a/{voice_provider_id}" ||
      route == "POST /webhooks/provider-b/{voice_provider_id}") {
    domain::parse_positive_int(params.get("voice_provider_id"));
    return provider_callback_body(body);
  }
  if (route == "POST /webhooks/provider-d/{voice_provider_id}/{secret}") {
    domain::parse_positive_int(params.get("voice_provider_id"));
    return provider_callback_body(body);
  }
  if (route == "POST /webhooks/provider-c/{voice_provider_id}") {
    id("voice_provider_id", entity::voice_provider);
    return provider_callback_body(body);
  }
  // A public route this table does not know: add it above (with the reader
  // its handler uses) so that it is fuzzed.
  std::fprintf(stderr, "fuzz: unknown public route %s\n", route.c_str());
  FUZZ_CHECK(!"every public route is known to matched_route");
}

} // namespace vcs::fuzz
