#pragma once

#include "domain/billing.hpp"
#include "domain/client.hpp"
#include "domain/client_form.hpp"
#include "domain/timestamp.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vcs::domain {

// The client's live subscription with what the detail object shows of it.
struct subscription_view {
  int64_t id = 0;
  std::string processor_id;
  std::string status;
  timestamp created_at{};
  product catalog_product; // with only the subscription's prices
  std::optional<timestamp> trial_start;
  std::optional<timestamp> trial_end;
  std::string trial_minutes; // decimal text
  timestamp current_period_start{};
  timestamp current_period_end{};
  timestamp billing_cycle_anchor{};
  // Usage balance of the current period (decimal texts).
  std::string minutes_included_used = "0";
  std::string minutes_billable_used = "0";
};

struct client_campaign_stats {
  int64_t id = 0;
  std::string name;
  std::string type;
  std::string status;
  bool web_widget_enabled = false;
  int64_t leads_count = 0;
  int64_t answered_leads = 0;
  // Calls placed since the campaign was created.
  int64_t calls_count = 0;
  // Ended calls per verdict of their success evaluation, in the order of
  // evaluation_verdict (success, failure, unclear).
  std::array<int64_t, 3> evaluations{};
};

struct client_submission {
  form_submission submission;
  std::string form_title;
};

// A client account configuration (the API's asset group).
struct client_account_configuration {
  int64_t id = 0;
  std::string name;
  std::optional<int64_t> voice_provider_id;
};

struct client_detail {
  client record;
  std::vector<client_account_configuration> configurations;
  // Resource kind to access level (client_access), by kind.
  std::vector<std::pair<std::string, std::string>> access;
  std::optional<subscription_view> subscription;
  std::vector<client_campaign_stats> campaigns;
  std::vector<client_submission> submissions;
};

} // namespace vcs::domain
