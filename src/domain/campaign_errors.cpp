#include "domain/campaign_errors.hpp"

#include "domain/campaign.hpp"

namespace vcs::domain {

error campaign_not_found() {
  return not_found("Campaign not found");
}

error voice_provider_not_found(std::string_view id_as_sent) {
  return error{errc::not_found, "Tenant voice provider not found"}.with_errors(
      {"Invalid tenant_voice_provider_id: " + std::string{id_as_sent}});
}

error campaign_pool_not_found(std::string_view id_as_sent) {
  return error{errc::not_found, "Phone number pool not found"}.with_errors(
      {"Invalid phone_number_pool_id: " + std::string{id_as_sent}});
}

error campaign_limit_reached(int32_t limit) {
  return error{errc::plan_limit, "Your plan allows " + std::to_string(limit) +
                                     " campaigns. Please upgrade your plan to create more."}
      .with_errors({"Campaign limit reached"});
}

error immutable_field(std::string_view field) {
  auto name = std::string{field};
  auto label = field == "type" ? std::string{"Campaign type"} : name;
  return error{errc::bad_request, label + " cannot be changed after creation"}.with_errors(
      {name + " is immutable"});
}

error invalid_campaign_status() {
  error e{errc::bad_request,
          "Invalid status. Allowed values are: " + join(campaign_status_names())};
  e.valid_values = campaign_status_names();
  return e;
}

error campaign_status_rejected(std::string reason) {
  return error{errc::conflict, "Unable to update the campaign status"}.with_detail(
      std::move(reason));
}

} // namespace vcs::domain
