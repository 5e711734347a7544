#include "domain/calling_rules.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace vcs::domain {

// The text of data/calling_rules/rules.json (calling_rules_data.cpp,
// generated at build time).
extern const std::string_view calling_rules_text;

namespace {

using rapidjson::Value;

constexpr std::array<std::string_view, 7> weekday_keys{"sun", "mon", "tue", "wed",
                                                       "thu", "fri", "sat"};

[[noreturn]] void refuse(const std::string& rule, const std::string& why) {
  throw std::invalid_argument("calling rule " + rule + ": " + why);
}

std::string text_of(const Value& v, const char* key, const std::string& rule) {
  auto it = v.FindMember(key);
  if (it == v.MemberEnd() || !it->value.IsString())
    refuse(rule, std::string{"no "} + key);
  return {it->value.GetString(), it->value.GetStringLength()};
}

date::sys_days day_of(const std::string& text, const std::string& rule) {
  int y = 0;
  unsigned m = 0, d = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%4d-%2u-%2u%c", &y, &m, &d, &tail) != 3)
    refuse(rule, "a date is not YYYY-MM-DD: " + text);
  const date::year_month_day ymd{date::year{y}, date::month{m}, date::day{d}};
  if (!ymd.ok())
    refuse(rule, "no such date: " + text);
  return date::sys_days{ymd};
}

std::chrono::minutes clock_of(const Value& v, const std::string& rule) {
  unsigned h = 60, m = 60;
  char tail = 0;
  if (!v.IsString() || std::sscanf(v.GetString(), "%2u:%2u%c", &h, &m, &tail) != 2 || m > 59 ||
      h * 60 + m > 24 * 60)
    refuse(rule, "a time is not HH:MM");
  return std::chrono::minutes{h * 60 + m};
}

void read_hours(const Value& hours, calling_rule& r) {
  if (!hours.IsObject())
    refuse(r.id, "hours is not an object");
  for (std::size_t day = 0; day < weekday_keys.size(); ++day) {
    auto it = hours.FindMember(Value{weekday_keys[day].data(),
                                     static_cast<rapidjson::SizeType>(weekday_keys[day].size())});
    if (it == hours.MemberEnd() || !it->value.IsArray())
      refuse(r.id, "hours must name every weekday");
    for (const auto& range : it->value.GetArray()) {
      if (!range.IsArray() || range.Size() != 2)
        refuse(r.id, "an hours range is not [start, end]");
      const auto from = clock_of(range[0], r.id);
      const auto to = clock_of(range[1], r.id);
      if (from >= to)
        refuse(r.id, "an hours range ends before it starts");
      r.hours[day].emplace_back(from, to);
    }
  }
}

void read_day_ban(const Value& banned, calling_rule& r) {
  if (!banned.IsObject())
    refuse(r.id, "banned_days is not an object");
  if (auto h = banned.FindMember("holidays");
      h != banned.MemberEnd() && h->value.IsArray() && !h->value.Empty())
    // A holiday calendar needs its dates computed; refusing here keeps a
    // rule from being applied only in part.
    refuse(r.id, "holiday bans are not read by this release");
  auto w = banned.FindMember("weekdays");
  if (w == banned.MemberEnd() || !w->value.IsArray())
    refuse(r.id, "banned_days names no weekday");
  for (const auto& d : w->value.GetArray()) {
    bool known = false;
    for (std::size_t day = 0; day < weekday_keys.size(); ++day)
      if (d.IsString() && weekday_keys[day] == d.GetString()) {
        r.banned_weekdays |= static_cast<uint8_t>(1u << day);
        known = true;
      }
    if (!known)
      refuse(r.id, "a banned weekday is unknown");
  }
}

void read_cap(const Value& cap, calling_rule& r) {
  if (!cap.IsObject())
    refuse(r.id, "cap is not an object");
  auto calls = cap.FindMember("calls");
  auto hours = cap.FindMember("window_hours");
  if (calls == cap.MemberEnd() || !calls->value.IsInt() || calls->value.GetInt() < 1 ||
      hours == cap.MemberEnd() || !hours->value.IsInt() || hours->value.GetInt() < 1)
    refuse(r.id, "cap needs positive calls and window_hours");
  r.cap_calls = calls->value.GetInt();
  r.cap_window = std::chrono::hours{hours->value.GetInt()};
}

calling_rule read_rule(const Value& v) {
  calling_rule r;
  if (!v.IsObject())
    refuse("?", "a rule is not an object");
  r.id = text_of(v, "id", "?");
  auto j = v.FindMember("jurisdiction");
  if (j == v.MemberEnd() || !j->value.IsObject())
    refuse(r.id, "no jurisdiction");
  r.country = text_of(j->value, "country", r.id);
  if (auto region = j->value.FindMember("region");
      region != j->value.MemberEnd() && region->value.IsString())
    r.region = region->value.GetString();
  auto purposes = v.FindMember("purposes");
  if (purposes == v.MemberEnd() || !purposes->value.IsArray())
    refuse(r.id, "no purposes");
  for (const auto& p : purposes->value.GetArray()) {
    const std::string_view name = p.IsString() ? p.GetString() : "";
    if (name == "telemarketing")
      r.telemarketing = true;
    else if (name == "informational")
      r.informational = true;
    else
      refuse(r.id, "an unknown purpose");
  }
  const auto kind = text_of(v, "kind", r.id);
  if (kind == "hours") {
    r.kind = calling_rule_kind::hours;
    read_hours(v["hours"], r);
  } else if (kind == "day_ban") {
    r.kind = calling_rule_kind::day_ban;
    read_day_ban(v["banned_days"], r);
  } else if (kind == "contact_cap") {
    r.kind = calling_rule_kind::contact_cap;
    read_cap(v["cap"], r);
  } else {
    refuse(r.id, "an unknown kind: " + kind);
  }
  r.effective_from = day_of(text_of(v, "effective_from", r.id), r.id);
  if (auto to = v.FindMember("effective_to"); to != v.MemberEnd() && to->value.IsString())
    r.effective_to = day_of(to->value.GetString(), r.id);
  auto source = v.FindMember("source");
  if (source == v.MemberEnd() || !source->value.IsObject())
    refuse(r.id, "no source");
  r.source_title = text_of(source->value, "title", r.id);
  r.source_url = text_of(source->value, "url", r.id);
  return r;
}

// country_zones.countries: {"US": ["America/New_York", ...], ...}; optional.
void read_country_zones(const Value& doc, calling_rule_book& book) {
  auto zones = doc.FindMember("country_zones");
  if (zones == doc.MemberEnd())
    return;
  if (!zones->value.IsObject())
    refuse("data", "country_zones is not an object");
  auto countries = zones->value.FindMember("countries");
  if (countries == zones->value.MemberEnd() || !countries->value.IsObject())
    refuse("data", "country_zones has no countries object");
  for (const auto& [country, names] : countries->value.GetObject()) {
    if (!names.IsArray())
      refuse("data", "country_zones lists no zones of a country");
    for (const auto& name : names.GetArray()) {
      if (!name.IsString())
        refuse("data", "country_zones holds a zone that is not a name");
      book.zone_country.emplace(std::string{name.GetString(), name.GetStringLength()},
                                std::string{country.GetString(), country.GetStringLength()});
    }
  }
}

} // namespace

std::string_view to_string(calling_purpose p) noexcept {
  switch (p) {
  case calling_purpose::telemarketing:
    return "TELEMARKETING";
  case calling_purpose::informational:
    return "INFORMATIONAL";
  case calling_purpose::none:
    break;
  }
  return "NONE";
}

std::optional<calling_purpose> parse_calling_purpose(std::string_view text) noexcept {
  for (auto p :
       {calling_purpose::none, calling_purpose::telemarketing, calling_purpose::informational})
    if (text == to_string(p))
      return p;
  return std::nullopt;
}

std::string_view to_string(calling_rule_kind k) noexcept {
  switch (k) {
  case calling_rule_kind::day_ban:
    return "day_ban";
  case calling_rule_kind::contact_cap:
    return "contact_cap";
  case calling_rule_kind::hours:
    break;
  }
  return "hours";
}

std::string calling_rule::jurisdiction() const {
  return region.empty() ? country : country + "-" + region;
}

bool calling_rule::governs(calling_purpose p) const noexcept {
  return (p == calling_purpose::telemarketing && telemarketing) ||
         (p == calling_purpose::informational && informational);
}

bool calling_rule::in_force_on(date::sys_days local_day) const noexcept {
  return local_day >= effective_from && (!effective_to || local_day < *effective_to);
}

bool calling_rule::allows_at(unsigned weekday,
                             std::chrono::microseconds time_of_day) const noexcept {
  if (kind == calling_rule_kind::day_ban)
    return (banned_weekdays & (1u << weekday)) == 0;
  if (kind != calling_rule_kind::hours)
    return true;
  return std::any_of(hours[weekday].begin(), hours[weekday].end(), [&](const auto& r) {
    return time_of_day >= r.first && time_of_day < r.second;
  });
}

calling_rule_book parse_calling_rule_book(std::string_view json) {
  rapidjson::Document doc;
  doc.Parse(json.data(), json.size());
  if (doc.HasParseError() || !doc.IsObject())
    throw std::invalid_argument("the calling rules are not a JSON object");
  calling_rule_book book;
  book.version = text_of(doc, "version", "data");
  book.reviewed_on = text_of(doc, "reviewed_on", "data");
  book.notice = text_of(doc, "notice", "data");
  auto rules = doc.FindMember("rules");
  if (rules == doc.MemberEnd() || !rules->value.IsArray())
    throw std::invalid_argument("the calling rules have no rules list");
  for (const auto& r : rules->value.GetArray())
    book.rules.push_back(read_rule(r));
  read_country_zones(doc, book);
  return book;
}

std::optional<std::string_view> calling_rule_book::country_of_zone(std::string_view zone) const {
  const auto it = zone_country.find(zone);
  if (it == zone_country.end())
    return std::nullopt;
  return it->second;
}

const calling_rule_book& calling_rules() {
  static const calling_rule_book book = parse_calling_rule_book(calling_rules_text);
  return book;
}

} // namespace vcs::domain
