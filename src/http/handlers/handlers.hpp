#pragma once

#include "http/work/handler.hpp"
#include "outbound/provider_callback.hpp"

#include <memory>

namespace vcs::http::handlers {

// Both listeners.
std::shared_ptr<handler> liveness();
std::shared_ptr<handler> readiness();
std::shared_ptr<handler> health();

// Operator listener.
std::shared_ptr<handler> metrics();
std::shared_ptr<handler> create_tenant();
std::shared_ptr<handler> list_tenants();
std::shared_ptr<handler> get_tenant();
std::shared_ptr<handler> update_tenant();
std::shared_ptr<handler> create_api_key();
std::shared_ptr<handler> list_api_keys();
std::shared_ptr<handler> update_api_key();
std::shared_ptr<handler> delete_api_key();
std::shared_ptr<handler> list_tenant_api_keys();
std::shared_ptr<handler> console_page();
std::shared_ptr<handler> console_script();
std::shared_ptr<handler> web_style();
std::shared_ptr<handler> portal_page();
std::shared_ptr<handler> portal_script();
std::shared_ptr<handler> sign_in();
std::shared_ptr<handler> use_setup_link();
std::shared_ptr<handler> current_session();
std::shared_ptr<handler> sign_out();
std::shared_ptr<handler> change_password();
std::shared_ptr<handler> portal_sign_in();
std::shared_ptr<handler> use_portal_setup_link();
std::shared_ptr<handler> current_portal_session();
std::shared_ptr<handler> portal_sign_out();
std::shared_ptr<handler> change_portal_password();
std::shared_ptr<handler> portal_billing();
std::shared_ptr<handler> portal_payment_requests();
std::shared_ptr<handler> portal_resources();
std::shared_ptr<handler> portal_form_submissions();
std::shared_ptr<handler> list_client_users();
std::shared_ptr<handler> update_client_user();
std::shared_ptr<handler> client_user_setup_link();
std::shared_ptr<handler> set_client_access();
std::shared_ptr<handler> list_members();
std::shared_ptr<handler> invite_member();
std::shared_ptr<handler> update_member();
std::shared_ptr<handler> remove_member();
std::shared_ptr<handler> member_setup_link();
std::shared_ptr<handler> operator_create_member();
std::shared_ptr<handler> operator_list_members();
std::shared_ptr<handler> operator_member_setup_link();
std::shared_ptr<handler> list_events();
std::shared_ptr<handler> stream_events();
std::shared_ptr<handler> create_tenant_api_key();
std::shared_ptr<handler> update_tenant_api_key();
std::shared_ptr<handler> delete_tenant_api_key();
std::shared_ptr<handler> create_product();
std::shared_ptr<handler> create_client_form();
std::shared_ptr<handler> add_form_submission();
std::shared_ptr<handler> create_payment_request();
std::shared_ptr<handler> record_usage();
std::shared_ptr<handler> add_addon_minutes();
std::shared_ptr<handler> run_billing_sweep();
std::shared_ptr<handler> run_dialer();
std::shared_ptr<handler> list_calls();
std::shared_ptr<handler> rotate_webhook_secret();
std::shared_ptr<handler> list_webhook_deliveries();
std::shared_ptr<handler> replay_webhook_delivery();
std::shared_ptr<handler> operator_add_do_not_call();
std::shared_ptr<handler> operator_remove_do_not_call();
std::shared_ptr<handler> operator_check_do_not_call();

// Public listener.
// The API reference: the OpenAPI document, the page that renders it, and
// the renderer's script (all embedded; no authentication).
// The listener's own document: the public or the operator API.
std::shared_ptr<handler> openapi_document(listener_kind listener);
std::shared_ptr<handler> api_reference_page();
std::shared_ptr<handler> api_reference_script();
std::shared_ptr<handler> list_clients();
std::shared_ptr<handler> create_client();
std::shared_ptr<handler> get_client();
std::shared_ptr<handler> client_id_required();
std::shared_ptr<handler> get_assignments();
std::shared_ptr<handler> assign_resources();
std::shared_ptr<handler> configuration_id_required();
std::shared_ptr<handler> list_form_submissions();
std::shared_ptr<handler> list_payment_requests();
std::shared_ptr<handler> get_payment_request();
std::shared_ptr<handler> update_payment_request();
std::shared_ptr<handler> list_subscriptions();
std::shared_ptr<handler> get_subscription();
std::shared_ptr<handler> list_usage();
std::shared_ptr<handler> create_voice_provider();
std::shared_ptr<handler> list_voice_providers();
std::shared_ptr<handler> get_voice_provider();
std::shared_ptr<handler> update_voice_provider();
std::shared_ptr<handler> delete_voice_provider();
std::shared_ptr<handler> verify_voice_provider();
std::shared_ptr<handler> list_provider_assistants();
std::shared_ptr<handler> list_provider_phone_numbers();
std::shared_ptr<handler> create_campaign();
std::shared_ptr<handler> list_campaigns();
std::shared_ptr<handler> list_campaign_calls();
std::shared_ptr<handler> get_campaign_call();
std::shared_ptr<handler> export_campaign_calls();
std::shared_ptr<handler> export_leads();
std::shared_ptr<handler> get_campaign_forecast();
std::shared_ptr<handler> send_webhook_test();
std::shared_ptr<handler> list_tenant_webhook_deliveries();
std::shared_ptr<handler> get_tenant_webhook_delivery();
std::shared_ptr<handler> replay_tenant_webhook_delivery();
std::shared_ptr<handler> list_webhook_endpoints();
std::shared_ptr<handler> enable_webhook_endpoint();
std::shared_ptr<handler> rotate_tenant_webhook_secret();
std::shared_ptr<handler> get_campaign();
std::shared_ptr<handler> update_campaign();
std::shared_ptr<handler> update_campaign_status();
std::shared_ptr<handler> add_lead();
std::shared_ptr<handler> bulk_add_leads();
std::shared_ptr<handler> list_lead_imports();
std::shared_ptr<handler> get_lead_import();
std::shared_ptr<handler> list_import_rejections();
std::shared_ptr<handler> list_cluster_imports();
std::shared_ptr<handler> list_leads();
std::shared_ptr<handler> bulk_update_leads();
std::shared_ptr<handler> bulk_remove_leads();
std::shared_ptr<handler> v1_update_lead();
std::shared_ptr<handler> v1_remove_lead();
std::shared_ptr<handler> create_web_widget();
// Phone number pools (phone_number_pools.cpp).
std::shared_ptr<handler> create_phone_number_pool();
std::shared_ptr<handler> list_phone_number_pools();
std::shared_ptr<handler> get_phone_number_pool();
std::shared_ptr<handler> update_phone_number_pool();
std::shared_ptr<handler> delete_phone_number_pool();
// Call-status callbacks of a live voice provider.
std::shared_ptr<handler> provider_callback(const outbound::provider_callback& vendor);
// The tenant's do-not-call list.
std::shared_ptr<handler> add_do_not_call();
std::shared_ptr<handler> remove_do_not_call();
std::shared_ptr<handler> check_do_not_call();

} // namespace vcs::http::handlers
