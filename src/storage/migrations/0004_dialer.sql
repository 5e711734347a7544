-- 0004_dialer, campaign execution: calls, dialing state, the tenant
-- do-not-call list and the webhook outbox
-- (docs/decisions/dialer-and-webhooks.md#dialer-campaign-execution).
-- Same rules as 0001 (no colon outside literals except casts and the
-- PL/pgSQL assignment, no apostrophe in comments).

-- Attempts per local day: the day they were counted on (in the zone the
-- campaign dials by) and how many.
ALTER TABLE leads
  ADD COLUMN daily_attempts     integer NOT NULL DEFAULT 0 CHECK (daily_attempts >= 0),
  ADD COLUMN daily_attempts_day date NULL;

-- The dialer picks leads by priority, then the oldest next attempt (never
-- called first), then insertion order.
DROP INDEX leads_dialable_idx;
CREATE INDEX leads_dialable_idx ON leads (campaign_id, priority DESC, next_attempt_after NULLS FIRST, position)
  WHERE call_status = 'IDLE' AND NOT answered AND NOT do_not_call AND NOT invalid;

ALTER TABLE campaigns
  -- Apply the daily window in each lead own time zone(s), from its number.
  ADD COLUMN lead_local_time boolean NOT NULL DEFAULT false,
  -- When a dialer should look at the campaign next; NULL while there is
  -- nothing to do until something changes. A node that takes the campaign
  -- moves it ahead by a lease, so other nodes skip it meanwhile.
  ADD COLUMN next_dial_at    timestamptz NULL;
CREATE INDEX campaigns_dial_due_idx ON campaigns (next_dial_at)
  WHERE status IN ('SCHEDULED', 'ACTIVE') AND next_dial_at IS NOT NULL;
CREATE INDEX campaigns_end_due_idx ON campaigns (end_date) WHERE status <> 'ENDED' AND end_date IS NOT NULL;

-- Any change a dialer must look at (status, schedule, limits, provider,
-- leads added or removed) wakes the campaign, unless the statement set
-- next_dial_at itself (the dialer does).
CREATE FUNCTION vcs_campaign_dial_wake() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('ACTIVE', 'SCHEDULED') AND NEW.next_dial_at IS NOT DISTINCT FROM OLD.next_dial_at THEN
    NEW.next_dial_at := now();
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER campaigns_dial_wake BEFORE UPDATE OF status, lead_count, voice_provider_id, start_date,
  end_date, timezone, days_of_week, daily_start_time, daily_end_time, max_call_attempts, max_daily_attempts,
  min_gap_between_attempts, consider_voicemail_as_answered, lead_local_time ON campaigns
  FOR EACH ROW EXECUTE FUNCTION vcs_campaign_dial_wake();

-- One row per call attempt. A call holds a slot of its provider
-- configuration from its insert (QUEUED) until ended_at is set; the count of
-- open calls under the provider row lock is the cross-node concurrency cap.
CREATE TABLE calls (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id         bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  campaign_id       bigint NOT NULL,
  -- No reference: a lead removed during its call keeps its call history.
  lead_id           bigint NOT NULL,
  phone_number      text NOT NULL,
  voice_provider_id bigint NULL,
  attempt           integer NOT NULL CHECK (attempt > 0),
  status            text NOT NULL DEFAULT 'QUEUED'
                    CHECK (status IN ('QUEUED', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'ABANDONED')),
  outcome           text NULL CHECK (outcome IN ('human', 'voicemail', 'no_answer', 'busy', 'failed',
                      'invalid_number')),
  provider_call_id  text NULL,
  error             text NULL,
  node_id           text NOT NULL,
  duration_seconds  integer NOT NULL DEFAULT 0 CHECK (duration_seconds >= 0),
  -- Set once the call minutes went to the client usage (or there was no
  -- subscription to charge).
  usage_recorded    boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now(),
  ringing_at        timestamptz NULL,
  ended_at          timestamptz NULL,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (tenant_id, campaign_id) REFERENCES campaigns (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, voice_provider_id) REFERENCES voice_providers (tenant_id, id)
    ON DELETE SET NULL (voice_provider_id)
);
CREATE INDEX calls_open_idx ON calls (voice_provider_id, created_at) WHERE ended_at IS NULL;
CREATE INDEX calls_campaign_idx ON calls (tenant_id, campaign_id, id);
CREATE INDEX calls_usage_due_idx ON calls (ended_at) WHERE ended_at IS NOT NULL AND NOT usage_recorded;
CREATE UNIQUE INDEX calls_provider_call_key ON calls (voice_provider_id, provider_call_id)
  WHERE provider_call_id IS NOT NULL;
CREATE TRIGGER calls_touch BEFORE UPDATE ON calls
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();

-- Numbers no campaign of the tenant may call (E.164 text as given).
CREATE TABLE do_not_call_numbers (
  tenant_id    bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  phone_number text NOT NULL CHECK (phone_number ~ '^[+][1-9][0-9]{1,14}$'),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, phone_number)
);

-- The per-tenant webhook signing secret, sealed like provider credentials.
ALTER TABLE tenants
  ADD COLUMN webhook_secret_ciphertext bytea NULL,
  ADD COLUMN webhook_secret_nonce      bytea NULL;

-- The webhook outbox: written in the transaction of the change it reports,
-- delivered at least once by any node (claimed with SKIP LOCKED by moving
-- next_attempt_at ahead), retried with exponential backoff, then dead.
CREATE TABLE webhook_deliveries (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id       bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  campaign_id     bigint NULL,
  event_id        text NOT NULL UNIQUE,
  event_type      text NOT NULL,
  url             text NOT NULL,
  payload         text NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts        integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text NULL,
  last_status     integer NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz NULL,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_tenant_idx ON webhook_deliveries (tenant_id, status, id DESC);
CREATE TRIGGER webhook_deliveries_touch BEFORE UPDATE ON webhook_deliveries
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();
