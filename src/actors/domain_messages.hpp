#pragma once

// Domain values that travel between actors as they are. The domain layer
// knows nothing of CAF, so they are allowed as messages here.

#include "domain/billing.hpp"
#include "domain/billing_records.hpp"
#include "domain/campaign.hpp"
#include "domain/client_create.hpp"
#include "domain/client_form.hpp"
#include "domain/tenant.hpp"
#include "domain/tenant_patch.hpp"
#include "domain/voice_provider.hpp"
#include "domain/web_widget.hpp"

#include <caf/allowed_unsafe_message_type.hpp>

// These types never leave the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::tenant)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::tenant_patch)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::api_key_info)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::voice_provider_config)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::campaign)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::campaign_status)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::web_widget)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::product)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::client_create)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::created_client)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::client_form)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::form_submission)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::payment_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(vcs::domain::usage_record)
