-- 0033, campaigns paused because their client used up its minutes
-- (pause_reason usage_exhausted, domain::minutes_exhausted): the pause is
-- recorded beside the billing block pauses, with its reason, so that each
-- resume gives back only the campaigns its own cause paused. Same rules
-- as 0001 (no colon outside literals except casts, no apostrophe in
-- comments).
ALTER TABLE campaign_billing_pauses
  ADD COLUMN reason text NOT NULL DEFAULT 'billing' CHECK (reason IN ('billing', 'usage_exhausted'));
