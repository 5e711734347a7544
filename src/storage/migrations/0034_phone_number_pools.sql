-- 0034, phone number pools: the tenant's named sets of provider-native
-- phone number ids that POOL campaigns call from, each number under a daily
-- cap. A number keeps the calls of one day (use_day, a day in the pool
-- time zone, and calls_on_day); the dial pass reads and writes them under
-- the pool row lock, so the cap holds however many nodes dial. Campaigns
-- name their pool by its global id (phone_number_pool_id, canonical form),
-- and each call records the number it was placed from. Same rules as 0001
-- (no colon outside literals except casts, no apostrophe in comments).
CREATE TABLE phone_number_pools (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id            bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  name                 text NOT NULL CHECK (btrim(name) <> ''),
  daily_cap_per_number integer NOT NULL CHECK (daily_cap_per_number > 0),
  timezone             text NOT NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, id)
);
CREATE TRIGGER phone_number_pools_touch BEFORE UPDATE ON phone_number_pools
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();

CREATE TABLE phone_number_pool_numbers (
  tenant_id       bigint NOT NULL,
  pool_id         bigint NOT NULL,
  position        integer NOT NULL,
  phone_number_id text NOT NULL,
  use_day         date NULL,
  calls_on_day    integer NOT NULL DEFAULT 0 CHECK (calls_on_day >= 0),
  PRIMARY KEY (pool_id, phone_number_id),
  FOREIGN KEY (tenant_id, pool_id) REFERENCES phone_number_pools (tenant_id, id) ON DELETE CASCADE
);

-- A pool in use by a campaign that has not ended is not deleted.
CREATE INDEX campaigns_pool_idx ON campaigns (tenant_id, phone_number_pool_id)
  WHERE phone_number_pool_id IS NOT NULL;

ALTER TABLE calls ADD COLUMN phone_number_id text NULL;

-- A campaign that changes its dialer type or pool is looked at again.
DROP TRIGGER campaigns_dial_wake ON campaigns;
CREATE TRIGGER campaigns_dial_wake BEFORE UPDATE OF status, lead_count, voice_provider_id, start_date,
  end_date, timezone, days_of_week, daily_start_time, daily_end_time, max_call_attempts, max_daily_attempts,
  min_gap_between_attempts, consider_voicemail_as_answered, lead_local_time, dialer_type,
  phone_number_pool_id ON campaigns
  FOR EACH ROW EXECUTE FUNCTION vcs_campaign_dial_wake();
