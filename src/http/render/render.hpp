#pragma once

#include "domain/campaign.hpp"
#include "domain/client.hpp"
#include "domain/client_detail.hpp"
#include "domain/dial_state.hpp"
#include "domain/global_id.hpp"
#include "domain/lead_record.hpp"
#include "domain/member.hpp"
#include "domain/tenant.hpp"
#include "domain/voice_provider.hpp"
#include "http/inputs/json.hpp"
#include "storage/campaign_progress.hpp"
#include "storage/event_repository.hpp"

#include <optional>
#include <string_view>

namespace vcs::http {

// JSON shapes of domain records, written into an open writer.

// An id as a global id of `kind`, or null.
void global_id_field(json_out& out, std::string_view name, domain::entity kind,
                     std::optional<int64_t> id);
void render_tenant_fields(json_out& out, const domain::tenant& t);
// The key as listed; `secret` adds the one-time full key at creation.
void render_api_key(json_out& out, const domain::api_key_info& k,
                    std::optional<std::string_view> secret = std::nullopt);
// {<member>: [masked key, ...]}: the operator's api_keys, the tenant's data.
std::string api_keys_json(std::string_view member, const std::vector<domain::api_key_info>& keys);
// id, email, role, status (Active, or Invited until its set-up link is
// used), created_at, last_sign_in_at.
void render_member(json_out& out, const domain::member_info& m);
// The members as a JSON array.
void render_members(json_out& out, const std::vector<domain::member_info>& members);
// setup_url and setup_expires_at of a one-time link made now
// (domain::setup_link_validity), in an object being written.
void setup_link_fields(json_out& out, std::string_view setup_url);
// {success, message, data: member}; with a set-up link also setup_url and
// setup_expires_at (the link's token is in the URL's fragment, which
// browsers never send to a server or in a Referer).
std::string member_json(const domain::member_info& m, std::string_view message,
                        std::string_view setup_url = {});
void render_client(json_out& out, const domain::client& c);
// A client's form submission: id, form_id, form_title, submitted_at,
// response_data, is_test.
void render_client_submission(json_out& out, const domain::client_submission& s);
// The spec's campaign summary: campaign_id, campaign_name, campaign_type,
// campaign_status.
void render_campaign_summary(json_out& out, const domain::campaign& c);
// Every stored field of a campaign (the campaign list's items).
void render_campaign(json_out& out, const domain::campaign& c);
// The campaign read (GET /api/v2/voice-campaigns/{id}) and an event
// stream's campaign.progress: every stored field, then lead_counts (each
// call status, 0 included), answered_count, failed_count, dialable_count,
// next_dial_at and counts_as_of.
void render_campaign(json_out& out, const storage::campaign_progress& p);
// A calling rule as {id, jurisdiction, kind, source: {title, url}}, or null.
void render_calling_rule(json_out& out, const domain::calling_rule* rule);
// The spec's lead record: timestamps with offset, answer_type "" while
// unanswered, names and e-mail "" when never given. With `dial`, the lead
// also says its dial_state, next_dial_at and dial_rule (the calling rule
// holding it, or null; all null for a lead removed while the page was
// read).
void render_lead(json_out& out, const domain::lead& l,
                 const std::optional<domain::lead_dial_view>* dial = nullptr);
// Progress of a bulk import (domain::import_job_json).
void render_import_job(json_out& out, const domain::import_job& j);
// An event of the feed: id, type, campaign_id, created_at, cursor, payload
// (the pull feed's items and the event streams' data).
void render_feed_event(json_out& out, const storage::feed_event& e);
// voice_provider_id, voice_provider, concurrency_limit; never credentials.
void render_voice_provider(json_out& out, const domain::voice_provider_config& v);

} // namespace vcs::http
