#include "domain/campaign_changes.hpp"

#include "domain/campaign_errors.hpp"

namespace vcs::domain {
namespace {

std::optional<error> changed(const char* field, const std::optional<std::string>& sent,
                             const std::optional<std::string>& stored) {
  if (sent && sent != stored)
    return immutable_field(field);
  return std::nullopt;
}

// The stored fields with the update laid over them.
campaign_fields merged(const campaign& c, const campaign_fields& u) {
  campaign_fields m;
  m.max_call_attempts = u.max_call_attempts ? u.max_call_attempts : c.max_call_attempts;
  m.max_daily_attempts = u.max_daily_attempts ? u.max_daily_attempts : c.max_daily_attempts;
  m.daily_start_time = u.daily_start_time ? u.daily_start_time : c.daily_start_time;
  m.daily_end_time = u.daily_end_time ? u.daily_end_time : c.daily_end_time;
  return m;
}

} // namespace

std::optional<error> check_create_only_fields(const campaign& stored, const campaign_fields& f) {
  for (auto& refused : {changed("type", f.type, stored.type),
                        changed("provider_a_calling_entity", f.provider_a_calling_entity,
                                stored.provider_a_calling_entity),
                        changed("start_date", f.start_date, stored.start_date),
                        changed("end_date", f.end_date, stored.end_date)})
    if (refused)
      return refused;
  return std::nullopt;
}

std::optional<error> check_related_fields(const campaign& stored, const campaign_fields& f) {
  field_errors errors;
  validate_campaign(merged(stored, f), false, errors);
  if (!errors.empty())
    return invalid_data(std::move(errors));
  return std::nullopt;
}

bool changes_status(const campaign& c, campaign_status to) noexcept {
  if (c.status != to)
    return true;
  return to == campaign_status::paused && c.paused_for != pause_reason::manual;
}

bool billing_may_block(campaign_status to) noexcept {
  return to == campaign_status::active || to == campaign_status::scheduled;
}

std::optional<error> check_status_change(campaign_status from, campaign_status to,
                                         const std::optional<std::string>& blocked_by) {
  if (from == campaign_status::ended)
    return campaign_status_rejected("An ENDED campaign cannot change its status.");
  if (blocked_by && billing_may_block(to))
    return campaign_status_rejected(
        "The client's subscription is " + *blocked_by +
        "; its campaigns cannot become ACTIVE or SCHEDULED until the payment is resolved.");
  return std::nullopt;
}

} // namespace vcs::domain
