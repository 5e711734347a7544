#pragma once

// Set-up links, made by the tenant's members routes and the operator's
// (members.cpp, operator_members.cpp).

#include "domain/error.hpp"
#include "domain/member.hpp"
#include "http/handlers/readers.hpp"
#include "http/work/handler.hpp"

namespace vcs::http::handlers {

// A new member of the tenant and its one-time set-up link (201); or 409
// when the e-mail is taken, 400 past the most members a tenant may have.
domain::result<outbound_response> invite(soci::session& sql, const services& svc, int64_t tenant_id,
                                         const member_invitation& req);

// A new one-time set-up link for `member` (201).
outbound_response new_setup_link(soci::session& sql, const services& svc,
                                 const domain::member_info& member);

} // namespace vcs::http::handlers
