-- 0001_initial, the whole schema of the voice campaign service (PostgreSQL 15).
--
-- Run by the embedded migration runner inside one transaction, sent as one
-- simple-protocol query string. Rules for this file, because the runner hands
-- it to SOCI, which rewrites colon-prefixed names into bind parameters and
-- tracks single quotes to do so
--   * no colon outside a string literal except the cast operator (two colons)
--     and the PL/pgSQL assignment (colon equals),
--   * no apostrophe in comments (it would unbalance the quote tracking),
--   * no BEGIN/COMMIT, no CREATE INDEX CONCURRENTLY.
--
-- Conventions
--   * Every tenant-owned table carries tenant_id and cascades from tenants.
--   * Parent tables expose UNIQUE (tenant_id, id) and children reference the
--     pair (tenant_id, parent_id), so the database itself refuses a row that
--     points at another tenant record. The application simply writes the same
--     tenant_id it scopes every query with.
--   * updated_at is refreshed by the trigger vcs_touch_updated_at on UPDATE
--     unless the statement sets updated_at itself.
--   * References that must not lose history or catalog entries (a
--     subscription to its product, subscription_prices to prices, a payment
--     request to its subscription) are NO ACTION DEFERRABLE INITIALLY
--     DEFERRED. Deleting a referenced row alone fails at COMMIT, but a tenant
--     (or client) delete, whose cascades reach parent and child tables in
--     catalog order, still succeeds. A non-deferred NO ACTION or RESTRICT
--     would fail there because each cascade step is checked on its own.
--     So the service sees a bad id in those three columns only at COMMIT,
--     not at the INSERT; it validates such ids before inserting.

CREATE FUNCTION vcs_touch_updated_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
    NEW.updated_at := now();
  END IF;
  RETURN NEW;
END
$$;

-- ---------------------------------------------------------------------------
-- Tenants and API keys
-- ---------------------------------------------------------------------------

CREATE TABLE tenants (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name           text NOT NULL CHECK (btrim(name) <> ''),
  plan           text NOT NULL CHECK (plan IN ('FREE', 'STARTER', 'PRO', 'ENTERPRISE')),
  campaign_limit integer NULL CHECK (campaign_limit >= 0), -- NULL means the plan default
  active         boolean NOT NULL DEFAULT true,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 (lower-case hex) of a key is stored; the full key is shown
-- once at creation. Deleting a key deletes the row.
CREATE TABLE api_keys (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id  bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name       text NOT NULL,
  key_hash   text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
  masked_key text NOT NULL,
  status     text NOT NULL DEFAULT 'Active' CHECK (status IN ('Active', 'Disabled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_tenant_created_idx ON api_keys (tenant_id, created_at DESC, id DESC);

-- ---------------------------------------------------------------------------
-- Voice provider configurations (credentials encrypted by the application)
-- ---------------------------------------------------------------------------

CREATE TABLE voice_providers (
  id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id              bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  voice_provider         text NOT NULL
                         CHECK (voice_provider IN ('provider_a', 'provider_b', 'provider_c', 'provider_d')),
  -- AEAD ciphertext of the JSON object of credential fields, and its nonce.
  credentials_ciphertext bytea NOT NULL CHECK (octet_length(credentials_ciphertext) > 0),
  credentials_nonce      bytea NOT NULL CHECK (octet_length(credentials_nonce) > 0),
  concurrency_limit      integer NULL CHECK (concurrency_limit > 0),
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id)
);

-- ---------------------------------------------------------------------------
-- Campaigns and leads
-- ---------------------------------------------------------------------------

CREATE TABLE campaigns (
  id                             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id                      bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name                           text NOT NULL CHECK (btrim(name) <> ''),
  type                           text NOT NULL DEFAULT 'OUTBOUND' CHECK (type IN ('OUTBOUND', 'INBOUND')),
  status                         text NOT NULL DEFAULT 'DRAFT'
                                 CHECK (status IN ('DRAFT', 'SCHEDULED', 'ACTIVE', 'PAUSED', 'ENDED')),
  assistant_id                   text NULL,
  voice_provider_id              bigint NULL,
  dialer_type                    text NULL CHECK (dialer_type IN ('SINGLE', 'POOL')),
  provider_a_calling_entity      text NULL,
  phone_number_id                text NULL,
  phone_number_pool_id           text NULL,
  start_date                     date NULL,
  end_date                       date NULL,
  timezone                       text NULL,
  days_of_week                   text[] NULL CHECK (days_of_week <@ ARRAY['MONDAY', 'TUESDAY', 'WEDNESDAY',
                                   'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY']::text[]),
  daily_start_time               text NULL CHECK (daily_start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  daily_end_time                 text NULL CHECK (daily_end_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  max_call_attempts              integer NULL CHECK (max_call_attempts >= 0),
  max_daily_attempts             integer NULL CHECK (max_daily_attempts >= 0),
  min_gap_between_attempts       integer NULL CHECK (min_gap_between_attempts >= 0),
  consider_voicemail_as_answered boolean NOT NULL DEFAULT false,
  webhook_url                    text NULL,
  -- Maintained by the application in the same transaction that adds or
  -- removes leads (O(1) counts for lists and client details).
  lead_count                     bigint NOT NULL DEFAULT 0 CHECK (lead_count >= 0),
  -- Next value of leads.position to hand out in this campaign.
  next_lead_position             bigint NOT NULL DEFAULT 0 CHECK (next_lead_position >= 0),
  created_at                     timestamptz NOT NULL DEFAULT now(),
  updated_at                     timestamptz NOT NULL DEFAULT now(),
  -- Also the (tenant_id, id) index for tenant-scoped lookups and campaign counts
  -- for the plan limit.
  UNIQUE (tenant_id, id),
  CHECK (end_date IS NULL OR start_date IS NULL OR end_date >= start_date),
  -- A provider configuration of the same tenant; deleting it keeps the
  -- campaign and clears only the reference (column list, PostgreSQL 15).
  FOREIGN KEY (tenant_id, voice_provider_id) REFERENCES voice_providers (tenant_id, id)
    ON DELETE SET NULL (voice_provider_id)
);
CREATE INDEX campaigns_voice_provider_idx ON campaigns (tenant_id, voice_provider_id)
  WHERE voice_provider_id IS NOT NULL;
-- Campaigns the dialer and schedulers look at.
CREATE INDEX campaigns_runnable_idx ON campaigns (status, id) WHERE status IN ('SCHEDULED', 'ACTIVE');

CREATE TABLE leads (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id          bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  campaign_id        bigint NOT NULL,
  -- Dense per-campaign insertion order (0, 1, 2, ...), handed out from
  -- campaigns.next_lead_position, so that a page at any offset is an index
  -- range on (campaign_id, position) instead of an OFFSET scan.
  position           bigint NOT NULL CHECK (position >= 0),
  phone_number       text NOT NULL CHECK (btrim(phone_number) <> ''),
  first_name         text NULL,
  last_name          text NULL,
  email              text NULL,
  source             text NOT NULL DEFAULT 'API',
  custom_fields      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(custom_fields) = 'object'),
  call_status        text NOT NULL DEFAULT 'IDLE',
  call_error_reason  text NULL,
  answered           boolean NOT NULL DEFAULT false,
  answer_type        text NOT NULL DEFAULT '', -- empty string while unanswered
  attempts_made      integer NOT NULL DEFAULT 0 CHECK (attempts_made >= 0),
  do_not_call        boolean NOT NULL DEFAULT false,
  invalid            boolean NOT NULL DEFAULT false,
  invalid_reason     text NULL,
  priority           integer NOT NULL DEFAULT 0,
  next_attempt_after timestamptz NULL,
  answered_at        timestamptz NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  -- Leads are addressed by phone number inside a campaign; this index also
  -- serves ON CONFLICT (campaign_id, phone_number) for imports.
  UNIQUE (campaign_id, phone_number),
  -- Deferrable (checked at the end of each statement) so that one UPDATE can
  -- shift positions down to close the gaps left by removed leads. Not usable
  -- as an ON CONFLICT arbiter, which nothing needs.
  UNIQUE (campaign_id, position) DEFERRABLE INITIALLY IMMEDIATE,
  FOREIGN KEY (tenant_id, campaign_id) REFERENCES campaigns (tenant_id, id) ON DELETE CASCADE
);
-- Leads the dialer may pick next. No index on leads (tenant_id) alone on
-- purpose (write cost on the largest table); deleting a whole tenant is a
-- rare operator action and reaches leads through campaigns anyway.
CREATE INDEX leads_dialable_idx ON leads (campaign_id, priority DESC, position)
  WHERE call_status = 'IDLE' AND NOT answered AND NOT do_not_call AND NOT invalid;

-- Asynchronous bulk lead imports. Workers claim queued jobs with
-- FOR UPDATE SKIP LOCKED; a running job whose claimed_at is too old belongs to
-- a dead worker and may be claimed again (inserts are idempotent thanks to
-- UNIQUE (campaign_id, phone_number)).
CREATE TABLE lead_import_jobs (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  campaign_id bigint NOT NULL,
  status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  payload     jsonb NOT NULL,                           -- the accepted lead input array
  accepted    integer NOT NULL CHECK (accepted >= 0),   -- number of items in payload
  inserted    integer NOT NULL DEFAULT 0 CHECK (inserted >= 0),
  duplicates  integer NOT NULL DEFAULT 0 CHECK (duplicates >= 0),
  invalid     integer NOT NULL DEFAULT 0 CHECK (invalid >= 0),
  attempts    integer NOT NULL DEFAULT 0 CHECK (attempts >= 0), -- times claimed
  error       text NULL,
  claimed_by  text NULL,
  claimed_at  timestamptz NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz NULL,
  FOREIGN KEY (tenant_id, campaign_id) REFERENCES campaigns (tenant_id, id) ON DELETE CASCADE
);
-- The work queue; stays small because finished jobs leave it.
CREATE INDEX lead_import_jobs_unfinished_idx ON lead_import_jobs (created_at, id)
  WHERE status IN ('queued', 'running');
CREATE INDEX lead_import_jobs_campaign_idx ON lead_import_jobs (tenant_id, campaign_id, created_at DESC, id DESC);

-- ---------------------------------------------------------------------------
-- Clients, their users, access and account configurations
-- ---------------------------------------------------------------------------

CREATE TABLE clients (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id     bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name          text NOT NULL,
  primary_email text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id)
);
CREATE INDEX clients_tenant_created_idx ON clients (tenant_id, created_at DESC, id DESC);

CREATE TABLE client_users (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id     bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id     bigint NOT NULL,
  email         text NOT NULL,
  password_hash text NOT NULL, -- libsodium crypto_pwhash_str output
  created_at    timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, client_id) REFERENCES clients (tenant_id, id) ON DELETE CASCADE
);
-- One login per e-mail address (case-insensitive) inside a tenant.
CREATE UNIQUE INDEX client_users_tenant_email_key ON client_users (tenant_id, lower(email));
CREATE INDEX client_users_client_idx ON client_users (client_id, id);

-- Resource kind to access level. The spec shows kinds assistant and campaign
-- and levels view_only and view_and_add but not the full lists, so only the
-- shape (lower-case identifiers) is checked here.
CREATE TABLE client_access (
  tenant_id     bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id     bigint NOT NULL,
  resource_kind text NOT NULL CHECK (resource_kind ~ '^[a-z][a-z0-9_]*$'),
  access_level  text NOT NULL CHECK (access_level ~ '^[a-z][a-z0-9_]*$'),
  PRIMARY KEY (client_id, resource_kind),
  FOREIGN KEY (tenant_id, client_id) REFERENCES clients (tenant_id, id) ON DELETE CASCADE
);

-- The client asset group of the public API.
CREATE TABLE account_configurations (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id         bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id         bigint NOT NULL,
  name              text NOT NULL,
  voice_provider_id bigint NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id),
  FOREIGN KEY (tenant_id, client_id) REFERENCES clients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, voice_provider_id) REFERENCES voice_providers (tenant_id, id)
    ON DELETE SET NULL (voice_provider_id)
);
CREATE INDEX account_configurations_client_idx ON account_configurations (tenant_id, client_id, id);
CREATE INDEX account_configurations_voice_provider_idx ON account_configurations (tenant_id, voice_provider_id)
  WHERE voice_provider_id IS NOT NULL;

-- Assign replaces the whole set (DELETE then INSERT in one transaction).
-- resource_id is the identifier as the API shows it (provider-native ID, or
-- the global ID for phone_number_pool and campaign), hence text and no FK.
CREATE TABLE assigned_resources (
  tenant_id                bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  account_configuration_id bigint NOT NULL,
  resource_kind            text NOT NULL CHECK (resource_kind IN ('assistant', 'provider_a_workflow',
                             'provider_a_squad', 'phone_number', 'phone_number_pool', 'knowledge_base',
                             'tools_and_functions', 'campaign')),
  resource_id              text NOT NULL CHECK (resource_id <> ''),
  position                 integer NOT NULL CHECK (position >= 0), -- order inside the kind, as sent
  PRIMARY KEY (account_configuration_id, resource_kind, resource_id),
  FOREIGN KEY (tenant_id, account_configuration_id) REFERENCES account_configurations (tenant_id, id)
    ON DELETE CASCADE
);
-- Which configurations hold a given resource (for example a campaign).
CREATE INDEX assigned_resources_resource_idx ON assigned_resources (tenant_id, resource_kind, resource_id);

-- ---------------------------------------------------------------------------
-- Web widgets (one per inbound campaign; the type is checked by the service)
-- ---------------------------------------------------------------------------

CREATE TABLE web_widgets (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id          bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  campaign_id        bigint NOT NULL UNIQUE,
  config             jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(config) = 'object'),
  voice_assistant_id text NULL,
  chat_assistant_id  text NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, campaign_id) REFERENCES campaigns (tenant_id, id) ON DELETE CASCADE
);

-- ---------------------------------------------------------------------------
-- Client forms and their submissions
-- ---------------------------------------------------------------------------

CREATE TABLE client_forms (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id  bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  title      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id)
);

CREATE TABLE form_submissions (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id     bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  form_id       bigint NOT NULL,
  client_id     bigint NOT NULL,
  response_data jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(response_data) = 'object'),
  is_test       boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, form_id) REFERENCES client_forms (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, client_id) REFERENCES clients (tenant_id, id) ON DELETE CASCADE
);
-- Submissions of a form, optionally of one client; and of a client (details).
CREATE INDEX form_submissions_form_idx ON form_submissions (tenant_id, form_id, client_id, created_at DESC, id DESC);
CREATE INDEX form_submissions_client_idx ON form_submissions (tenant_id, client_id, created_at DESC, id DESC);

-- ---------------------------------------------------------------------------
-- Billing catalog, products and prices (identified by the processor ids)
-- ---------------------------------------------------------------------------

CREATE TABLE products (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id               bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  processor_product_id    text NOT NULL,
  name                    text NOT NULL,
  pricing_model           text NOT NULL,
  currency                char(3) NULL CHECK (currency ~ '^[A-Za-z]{3}$'),
  min_minutes_included    numeric(14,2) NOT NULL DEFAULT 0 CHECK (min_minutes_included >= 0),
  additional_minute_price numeric(14,4) NOT NULL DEFAULT 0 CHECK (additional_minute_price >= 0),
  trial_days              integer NOT NULL DEFAULT 0 CHECK (trial_days >= 0),
  trial_minutes           numeric(14,2) NOT NULL DEFAULT 0 CHECK (trial_minutes >= 0),
  created_at              timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, processor_product_id),
  UNIQUE (tenant_id, id)
);

-- Note that "interval" is a keyword; the column works unquoted in DDL and in
-- most positions, but quote it ("interval") in queries to be safe.
CREATE TABLE prices (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id          bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  product_id         bigint NOT NULL,
  processor_price_id text NOT NULL,
  billing_type       text NULL,
  usage_type         text NULL,
  unit_amount        numeric(14,4) NULL CHECK (unit_amount >= 0),
  currency           char(3) NOT NULL CHECK (currency ~ '^[A-Za-z]{3}$'),
  "interval"         text NULL,
  active             boolean NOT NULL DEFAULT true,
  tiers              jsonb NULL CHECK (jsonb_typeof(tiers) = 'array'), -- usage price tiers, in order
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, processor_price_id),
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX prices_product_idx ON prices (product_id, id);

-- ---------------------------------------------------------------------------
-- Subscriptions
-- ---------------------------------------------------------------------------

CREATE TABLE subscriptions (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id            bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id            bigint NOT NULL,
  product_id           bigint NOT NULL,
  processor_id         text NULL,
  status               text NOT NULL DEFAULT 'active'
                       CHECK (status IN ('active', 'past_due', 'blocked', 'canceled')),
  current_period_start timestamptz NOT NULL,
  current_period_end   timestamptz NOT NULL,
  billing_cycle_anchor timestamptz NOT NULL,
  trial_start          timestamptz NULL,
  trial_end            timestamptz NULL,
  trial_minutes        numeric(14,2) NOT NULL DEFAULT 0 CHECK (trial_minutes >= 0),
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id),
  CHECK (current_period_end > current_period_start),
  FOREIGN KEY (tenant_id, client_id) REFERENCES clients (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, product_id) REFERENCES products (tenant_id, id)
    DEFERRABLE INITIALLY DEFERRED
);
-- A client has at most one subscription that is not canceled (a blocked one
-- must be canceled before a new one starts); canceled ones are history.
CREATE UNIQUE INDEX subscriptions_one_live_per_client_key ON subscriptions (client_id)
  WHERE status <> 'canceled';
CREATE INDEX subscriptions_tenant_created_idx ON subscriptions (tenant_id, created_at DESC, id DESC);
CREATE INDEX subscriptions_client_idx ON subscriptions (tenant_id, client_id, created_at DESC, id DESC);
CREATE INDEX subscriptions_product_idx ON subscriptions (tenant_id, product_id);

CREATE TABLE subscription_prices (
  subscription_id bigint NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
  price_id        bigint NOT NULL REFERENCES prices (id) DEFERRABLE INITIALLY DEFERRED,
  PRIMARY KEY (subscription_id, price_id)
);
CREATE INDEX subscription_prices_price_idx ON subscription_prices (price_id);

-- ---------------------------------------------------------------------------
-- Payment requests
-- ---------------------------------------------------------------------------

CREATE TABLE payment_requests (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id            bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id            bigint NOT NULL,
  subscription_id      bigint NULL, -- NULL for requests outside a subscription
  status               text NOT NULL DEFAULT 'PENDING'
                       CHECK (status IN ('PENDING', 'PAID', 'FAILED', 'CANCELED', 'OVERDUE')),
  type                 text NOT NULL CHECK (type IN ('SUBSCRIPTION', 'ADDON', 'OVERAGE', 'ONE_TIME')),
  amount               numeric(14,2) NOT NULL CHECK (amount >= 0),
  currency             char(3) NOT NULL CHECK (currency ~ '^[A-Za-z]{3}$'),
  due_date             timestamptz NOT NULL,
  grace_period_ends_at timestamptz NULL, -- cycle requests only
  paid_at              timestamptz NULL,
  external_payment_id  text NULL,
  notes                text NULL,
  line_items           jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(line_items) = 'array'),
  period_start         timestamptz NOT NULL,
  period_end           timestamptz NOT NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  CHECK (period_end >= period_start),
  FOREIGN KEY (tenant_id, client_id) REFERENCES clients (tenant_id, id) ON DELETE CASCADE,
  -- MATCH SIMPLE, so a NULL subscription_id is not checked.
  FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions (tenant_id, id)
    DEFERRABLE INITIALLY DEFERRED
);
-- The billing sweep. PENDING past due_date becomes OVERDUE; OVERDUE past
-- grace_period_ends_at blocks the subscription.
CREATE INDEX payment_requests_sweep_idx ON payment_requests (status, due_date);
CREATE INDEX payment_requests_grace_idx ON payment_requests (status, grace_period_ends_at)
  WHERE grace_period_ends_at IS NOT NULL;
-- Lists (all filters are combinable; client_id is the selective one).
CREATE INDEX payment_requests_tenant_created_idx ON payment_requests (tenant_id, created_at DESC, id DESC);
CREATE INDEX payment_requests_client_idx ON payment_requests (tenant_id, client_id, created_at DESC, id DESC);
-- Unpaid cycle requests of a subscription (decides past_due to active).
CREATE INDEX payment_requests_subscription_idx ON payment_requests (subscription_id, status)
  WHERE subscription_id IS NOT NULL;

-- ---------------------------------------------------------------------------
-- Minute usage, one balance row per subscription
-- ---------------------------------------------------------------------------

-- Consumption order per call minute is the included limit, then add-on balance,
-- then billable overage. minutes_addon_balance carries over between periods.
CREATE TABLE usage_balances (
  subscription_id        bigint PRIMARY KEY,
  tenant_id              bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  client_id              bigint NOT NULL,
  minutes_included_limit numeric(14,2) NOT NULL DEFAULT 0 CHECK (minutes_included_limit >= 0),
  minutes_included_used  numeric(14,2) NOT NULL DEFAULT 0 CHECK (minutes_included_used >= 0),
  minutes_addon_balance  numeric(14,2) NOT NULL DEFAULT 0 CHECK (minutes_addon_balance >= 0),
  minutes_billable_used  numeric(14,2) NOT NULL DEFAULT 0 CHECK (minutes_billable_used >= 0),
  current_period_start   timestamptz NOT NULL,
  current_period_end     timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, client_id) REFERENCES clients (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX usage_balances_client_idx ON usage_balances (tenant_id, client_id, subscription_id);

-- ---------------------------------------------------------------------------
-- Campaigns paused by a billing block, with the status to restore
-- ---------------------------------------------------------------------------

CREATE TABLE campaign_billing_pauses (
  campaign_id     bigint PRIMARY KEY,
  tenant_id       bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  subscription_id bigint NOT NULL,
  previous_status text NOT NULL
                  CHECK (previous_status IN ('DRAFT', 'SCHEDULED', 'ACTIVE', 'PAUSED', 'ENDED')),
  paused_at       timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, campaign_id) REFERENCES campaigns (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, subscription_id) REFERENCES subscriptions (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX campaign_billing_pauses_subscription_idx ON campaign_billing_pauses (subscription_id);

-- ---------------------------------------------------------------------------
-- updated_at triggers
-- ---------------------------------------------------------------------------

CREATE TRIGGER tenants_touch BEFORE UPDATE ON tenants
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER api_keys_touch BEFORE UPDATE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER voice_providers_touch BEFORE UPDATE ON voice_providers
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER campaigns_touch BEFORE UPDATE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER leads_touch BEFORE UPDATE ON leads
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER clients_touch BEFORE UPDATE ON clients
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER account_configurations_touch BEFORE UPDATE ON account_configurations
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER web_widgets_touch BEFORE UPDATE ON web_widgets
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER form_submissions_touch BEFORE UPDATE ON form_submissions
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER subscriptions_touch BEFORE UPDATE ON subscriptions
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER payment_requests_touch BEFORE UPDATE ON payment_requests
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
CREATE TRIGGER usage_balances_touch BEFORE UPDATE ON usage_balances
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
