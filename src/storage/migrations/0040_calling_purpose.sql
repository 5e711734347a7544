-- 0040, what a campaign's calls are, for the calling rules (domain/
-- calling_rules.hpp): a tenant's default and a campaign's own choice (null:
-- the tenant's). NONE applies no rule, as before this migration, so a
-- running campaign dials as it did until its tenant says otherwise.
ALTER TABLE tenants ADD COLUMN calling_purpose text NOT NULL DEFAULT 'NONE'
  CHECK (calling_purpose IN ('NONE', 'TELEMARKETING', 'INFORMATIONAL'));
ALTER TABLE campaigns ADD COLUMN calling_purpose text
  CHECK (calling_purpose IN ('NONE', 'TELEMARKETING', 'INFORMATIONAL'));

-- A campaign whose purpose changes is looked at again.
DROP TRIGGER campaigns_dial_wake ON campaigns;
CREATE TRIGGER campaigns_dial_wake BEFORE UPDATE OF status, lead_count, voice_provider_id, start_date,
  end_date, timezone, days_of_week, daily_start_time, daily_end_time, max_call_attempts, max_daily_attempts,
  min_gap_between_attempts, consider_voicemail_as_answered, lead_local_time, dialer_type,
  phone_number_pool_id, calling_purpose ON campaigns
  FOR EACH ROW EXECUTE FUNCTION vcs_campaign_dial_wake();
