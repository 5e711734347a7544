#include "http/work/routes.hpp"

#include "http/handlers/handlers.hpp"
#include "http/work/handler.hpp"
#include "outbound/provider_callback.hpp"

namespace vcs::http {

using domain::permission;
using level = domain::access_level;

namespace {

// A route a client user's portal session may use from level `least` on.
router::route for_clients(router::route r, level least) {
  r.client_level = least;
  return r;
}

} // namespace

router public_routes() {
  router r;
  r.add({"GET", "/healthz", handlers::health()});
  r.add({"GET", "/livez", handlers::liveness()});
  r.add({"GET", "/readyz", handlers::readiness()});
  r.add({"GET", "/openapi.json", handlers::openapi_document(listener_kind::public_api)});
  r.add({"GET", "/docs", handlers::api_reference_page()});
  r.add({"GET", "/docs/redoc.standalone.js", handlers::api_reference_script()});
  r.add({"GET", "/console", handlers::console_page()});
  r.add({"GET", "/console/{page}", handlers::console_page()});
  r.add({"GET", "/console/campaigns/{campaign_id}", handlers::console_page()});
  r.add({"GET", "/console/assets/console.js", handlers::console_script()});
  r.add({"GET", "/console/assets/console.css", handlers::web_style()});
  r.add({"GET", "/portal", handlers::portal_page()});
  r.add({"GET", "/portal/{page}", handlers::portal_page()});
  r.add({"GET", "/portal/campaigns/{campaign_id}", handlers::portal_page()});
  r.add({"GET", "/portal/assets/portal.js", handlers::portal_script()});
  r.add({"GET", "/portal/assets/portal.css", handlers::web_style()});
  r.add({"GET", "/api/v2/clients", handlers::list_clients(), permission::clients_read});
  r.add({"POST", "/api/v2/clients/create", handlers::create_client(), permission::clients_write});
  r.add({"GET", "/api/v2/clients/", handlers::client_id_required(), permission::clients_read});
  r.add({"GET", "/api/v2/clients/{client_id}", handlers::get_client(), permission::clients_read});
  r.add({"GET", "/api/v2/client-forms/{client_form_id}/submissions",
         handlers::list_form_submissions(), permission::clients_read});
  r.add({"GET", "/api/v2/client-account-configurations//resources",
         handlers::configuration_id_required(), permission::clients_read});
  r.add({"POST", "/api/v2/client-account-configurations//resources/assign",
         handlers::configuration_id_required(), permission::clients_write});
  r.add({"GET", "/api/v2/client-account-configurations/{client_account_configuration_id}/resources",
         handlers::get_assignments(), permission::clients_read});
  r.add({"POST",
         "/api/v2/client-account-configurations/{client_account_configuration_id}/resources/assign",
         handlers::assign_resources(), permission::clients_write});
  r.add({"POST", "/api/v2/voice-pod", handlers::create_voice_provider(),
         permission::campaigns_write});
  r.add({"GET", "/api/v2/voice-pod", handlers::list_voice_providers(), permission::campaigns_read});
  r.add({"GET", "/api/v2/voice-pod/{voice_provider_id}", handlers::get_voice_provider(),
         permission::campaigns_read});
  r.add({"PATCH", "/api/v2/voice-pod/{voice_provider_id}", handlers::update_voice_provider(),
         permission::campaigns_write});
  r.add({"DELETE", "/api/v2/voice-pod/{voice_provider_id}", handlers::delete_voice_provider(),
         permission::campaigns_write});
  r.add({"POST", "/api/v2/voice-pod/{voice_provider_id}/verify", handlers::verify_voice_provider(),
         permission::campaigns_read});
  r.add({"GET", "/api/v2/voice-pod/{voice_provider_id}/assistants",
         handlers::list_provider_assistants(), permission::campaigns_read});
  r.add({"GET", "/api/v2/voice-pod/{voice_provider_id}/phone-numbers",
         handlers::list_provider_phone_numbers(), permission::campaigns_read});
  r.add({"POST", "/api/v2/web-widgets", handlers::create_web_widget(), permission::clients_write});
  r.add({"GET", "/api/v2/phone-number-pools", handlers::list_phone_number_pools(),
         permission::campaigns_read});
  r.add({"POST", "/api/v2/phone-number-pools", handlers::create_phone_number_pool(),
         permission::campaigns_write});
  r.add({"GET", "/api/v2/phone-number-pools/{pool_id}", handlers::get_phone_number_pool(),
         permission::campaigns_read});
  r.add({"PATCH", "/api/v2/phone-number-pools/{pool_id}", handlers::update_phone_number_pool(),
         permission::campaigns_write});
  r.add({"DELETE", "/api/v2/phone-number-pools/{pool_id}", handlers::delete_phone_number_pool(),
         permission::campaigns_write});
  r.add({"GET", "/api/v2/external-billing/payment-requests", handlers::list_payment_requests(),
         permission::billing_read});
  r.add({"GET", "/api/v2/external-billing/payment-requests/{payment_request_id}/",
         handlers::get_payment_request(), permission::billing_read});
  r.add({"PATCH", "/api/v2/external-billing/payment-requests/{payment_request_id}/update",
         handlers::update_payment_request(), permission::billing_write});
  r.add({"GET", "/api/v2/external-billing/subscriptions", handlers::list_subscriptions(),
         permission::billing_read});
  r.add({"GET", "/api/v2/external-billing/subscriptions/{subscription_id}/",
         handlers::get_subscription(), permission::billing_read});
  r.add(
      {"GET", "/api/v2/external-billing/usage", handlers::list_usage(), permission::billing_read});
  r.add(for_clients(
      {"GET", "/api/v2/voice-campaigns", handlers::list_campaigns(), permission::campaigns_read},
      level::view_only));
  r.add({"POST", "/api/v2/voice-campaigns", handlers::create_campaign(),
         permission::campaigns_write});
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}", handlers::get_campaign(),
                     permission::campaigns_read},
                    level::view_only));
  r.add(for_clients({"PATCH", "/api/v2/voice-campaigns/{campaign_id}", handlers::update_campaign(),
                     permission::campaigns_write},
                    level::full_access));
  r.add(for_clients({"PATCH", "/api/v2/voice-campaigns/{campaign_id}/status",
                     handlers::update_campaign_status(), permission::campaigns_write},
                    level::full_access));
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}/calls",
                     handlers::list_campaign_calls(), permission::campaigns_read},
                    level::view_only));
  // Before the call route, which would take "export" as a call id.
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}/calls/export",
                     handlers::export_campaign_calls(), permission::campaigns_read},
                    level::view_only));
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}/calls/{call_id}",
                     handlers::get_campaign_call(), permission::campaigns_read},
                    level::view_only));
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}/forecast",
                     handlers::get_campaign_forecast(), permission::campaigns_read},
                    level::view_only));
  r.add({"POST", "/api/v2/voice-campaigns/{campaign_id}/webhook-test",
         handlers::send_webhook_test(), permission::webhooks_write});
  r.add(for_clients({"POST", "/api/v2/voice-campaigns/{campaign_id}/leads", handlers::add_lead(),
                     permission::leads_write},
                    level::view_and_add));
  r.add(for_clients({"POST", "/api/v2/voice-campaigns/{campaign_id}/leads/bulk",
                     handlers::bulk_add_leads(), permission::leads_write},
                    level::view_and_add));
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/imports",
                     handlers::list_lead_imports(), permission::leads_read},
                    level::view_only));
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}",
                     handlers::get_lead_import(), permission::leads_read},
                    level::view_only));
  r.add(for_clients(
      {"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}/rejected-rows",
       handlers::list_import_rejections(), permission::leads_read},
      level::view_only));
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/export",
                     handlers::export_leads(), permission::leads_read},
                    level::view_only));
  r.add(for_clients({"GET", "/api/v2/voice-campaigns/{campaign_id}/leads/list",
                     handlers::list_leads(), permission::leads_read},
                    level::view_only));
  r.add(for_clients({"PATCH", "/api/v2/voice-campaigns/{campaign_id}/leads/update/bulk",
                     handlers::bulk_update_leads(), permission::leads_write},
                    level::full_access));
  r.add(for_clients({"DELETE", "/api/v2/voice-campaigns/{campaign_id}/leads/remove/bulk",
                     handlers::bulk_remove_leads(), permission::leads_write},
                    level::full_access));
  r.add({"PATCH", "/v1/api/voice-campaigns/{campaign_id}/lead/update", handlers::v1_update_lead(),
         permission::leads_write});
  r.add({"DELETE", "/v1/api/voice-campaigns/{campaign_id}/lead/remove", handlers::v1_remove_lead(),
         permission::leads_write, "Invalid request method"});
  r.add({"POST", "/api/v2/do-not-call", handlers::add_do_not_call(), permission::leads_write});
  r.add({"GET", "/api/v2/webhook-deliveries", handlers::list_tenant_webhook_deliveries(),
         permission::webhooks_read});
  r.add({"GET", "/api/v2/webhook-deliveries/{delivery_id}", handlers::get_tenant_webhook_delivery(),
         permission::webhooks_read});
  r.add({"POST", "/api/v2/webhook-deliveries/{delivery_id}/replay",
         handlers::replay_tenant_webhook_delivery(), permission::webhooks_write});
  r.add({"GET", "/api/v2/webhook-endpoints", handlers::list_webhook_endpoints(),
         permission::webhooks_read});
  r.add({"POST", "/api/v2/webhook-endpoints/{endpoint_id}/enable",
         handlers::enable_webhook_endpoint(), permission::webhooks_write});
  r.add({"POST", "/api/v2/webhook-secret", handlers::rotate_tenant_webhook_secret(),
         permission::webhooks_write});
  for (const auto* callback : outbound::provider_callbacks())
    r.add({"POST", std::string{callback->route}, handlers::provider_callback(*callback)});
  r.add({"GET", "/api/v2/do-not-call/{phone_number}", handlers::check_do_not_call(),
         permission::leads_read});
  r.add({"GET", "/api/v2/events", handlers::list_events(), permission::webhooks_read});
  r.add({"GET", "/api/v2/events/stream", handlers::stream_events(), permission::webhooks_read});
  r.add({"POST", "/api/v2/session", handlers::sign_in()});
  r.add({"GET", "/api/v2/session", handlers::current_session()});
  r.add({"DELETE", "/api/v2/session", handlers::sign_out()});
  r.add({"POST", "/api/v2/session/setup", handlers::use_setup_link()});
  r.add({"POST", "/api/v2/session/password", handlers::change_password()});
  r.add({"POST", "/api/v2/portal/session", handlers::portal_sign_in()});
  r.add({"GET", "/api/v2/portal/session", handlers::current_portal_session()});
  r.add({"DELETE", "/api/v2/portal/session", handlers::portal_sign_out()});
  r.add({"POST", "/api/v2/portal/session/setup", handlers::use_portal_setup_link()});
  r.add({"POST", "/api/v2/portal/session/password", handlers::change_portal_password()});
  r.add({"GET", "/api/v2/portal/billing", handlers::portal_billing()});
  r.add({"GET", "/api/v2/portal/payment-requests", handlers::portal_payment_requests()});
  r.add({"GET", "/api/v2/portal/resources", handlers::portal_resources()});
  r.add({"GET", "/api/v2/portal/form-submissions", handlers::portal_form_submissions()});
  r.add({"GET", "/api/v2/clients/{client_id}/users", handlers::list_client_users(),
         permission::clients_read});
  r.add({"PATCH", "/api/v2/clients/{client_id}/users/{user_id}", handlers::update_client_user(),
         permission::clients_write});
  r.add({"POST", "/api/v2/clients/{client_id}/users/{user_id}/setup-link",
         handlers::client_user_setup_link(), permission::clients_write});
  r.add({"PUT", "/api/v2/clients/{client_id}/access", handlers::set_client_access(),
         permission::clients_write});
  r.add({"GET", "/api/v2/members", handlers::list_members(), permission::members_read});
  r.add({"POST", "/api/v2/members", handlers::invite_member(), permission::members_write});
  r.add({"PATCH", "/api/v2/members/{member_id}", handlers::update_member(),
         permission::members_write});
  r.add({"DELETE", "/api/v2/members/{member_id}", handlers::remove_member(),
         permission::members_write});
  r.add({"POST", "/api/v2/members/{member_id}/setup-link", handlers::member_setup_link(),
         permission::members_write});
  r.add({"GET", "/api/v2/api-keys", handlers::list_tenant_api_keys(), permission::keys_read});
  r.add({"POST", "/api/v2/api-keys", handlers::create_tenant_api_key(), permission::keys_write});
  r.add({"PATCH", "/api/v2/api-keys/{key_id}", handlers::update_tenant_api_key(),
         permission::keys_write});
  r.add({"DELETE", "/api/v2/api-keys/{key_id}", handlers::delete_tenant_api_key(),
         permission::keys_write});
  r.add({"DELETE", "/api/v2/do-not-call/{phone_number}", handlers::remove_do_not_call(),
         permission::leads_write});
  return r;
}

routed_request route_request(const router& routes, std::string_view method,
                             std::string_view raw_target) {
  routed_request out;
  out.decoded_target = parse_target(raw_target);
  if (out.decoded_target)
    out.match = routes.find(method, out.decoded_target->path);
  return out;
}

std::size_t request_body_limit(const router::route* route, const server_options& o) {
  return route && route->target->body() == body_size::bulk ? o.bulk_body_limit : o.body_limit;
}

std::size_t request_body_items(const router::route* route, std::string_view content_type) {
  return route ? route->target->body_items(content_type) : 0;
}

router operator_routes() {
  router r;
  r.add({"GET", "/healthz", handlers::health()});
  r.add({"GET", "/livez", handlers::liveness()});
  r.add({"GET", "/readyz", handlers::readiness()});
  r.add({"GET", "/metrics", handlers::metrics()});
  r.add({"GET", "/openapi.json", handlers::openapi_document(listener_kind::operator_api)});
  r.add({"GET", "/docs", handlers::api_reference_page()});
  r.add({"GET", "/docs/redoc.standalone.js", handlers::api_reference_script()});
  r.add({"POST", "/admin/v1/tenants", handlers::create_tenant()});
  r.add({"GET", "/admin/v1/tenants", handlers::list_tenants()});
  r.add({"GET", "/admin/v1/tenants/{tenant_id}", handlers::get_tenant()});
  r.add({"PATCH", "/admin/v1/tenants/{tenant_id}", handlers::update_tenant()});
  r.add({"POST", "/admin/v1/tenants/{tenant_id}/members", handlers::operator_create_member()});
  r.add({"GET", "/admin/v1/tenants/{tenant_id}/members", handlers::operator_list_members()});
  r.add({"POST", "/admin/v1/tenants/{tenant_id}/members/{member_id}/setup-link",
         handlers::operator_member_setup_link()});
  r.add({"POST", "/admin/v1/tenants/{tenant_id}/api-keys", handlers::create_api_key()});
  r.add({"GET", "/admin/v1/tenants/{tenant_id}/api-keys", handlers::list_api_keys()});
  r.add({"PATCH", "/admin/v1/api-keys/{key_id}", handlers::update_api_key()});
  r.add({"DELETE", "/admin/v1/api-keys/{key_id}", handlers::delete_api_key()});
  r.add({"POST", "/admin/v1/tenants/{tenant_id}/products", handlers::create_product()});
  r.add({"POST", "/admin/v1/payment-requests", handlers::create_payment_request()});
  r.add({"POST", "/admin/v1/usage", handlers::record_usage()});
  r.add({"POST", "/admin/v1/usage/addon", handlers::add_addon_minutes()});
  r.add({"POST", "/admin/v1/billing/sweep", handlers::run_billing_sweep()});
  r.add({"GET", "/admin/v1/imports", handlers::list_cluster_imports()});
  r.add({"POST", "/admin/v1/dialer/run", handlers::run_dialer()});
  r.add({"GET", "/admin/v1/tenants/{tenant_id}/campaigns/{campaign_id}/calls",
         handlers::list_calls()});
  r.add(
      {"POST", "/admin/v1/tenants/{tenant_id}/webhook-secret", handlers::rotate_webhook_secret()});
  r.add({"GET", "/admin/v1/tenants/{tenant_id}/webhook-deliveries",
         handlers::list_webhook_deliveries()});
  r.add({"POST", "/admin/v1/tenants/{tenant_id}/webhook-deliveries/{delivery_id}/replay",
         handlers::replay_webhook_delivery()});
  r.add(
      {"POST", "/admin/v1/tenants/{tenant_id}/do-not-call", handlers::operator_add_do_not_call()});
  r.add({"GET", "/admin/v1/tenants/{tenant_id}/do-not-call/{phone_number}",
         handlers::operator_check_do_not_call()});
  r.add({"DELETE", "/admin/v1/tenants/{tenant_id}/do-not-call/{phone_number}",
         handlers::operator_remove_do_not_call()});
  r.add({"POST", "/admin/v1/tenants/{tenant_id}/client-forms", handlers::create_client_form()});
  r.add({"POST", "/admin/v1/client-forms/{client_form_id}/submissions",
         handlers::add_form_submission()});
  return r;
}

} // namespace vcs::http
