-- 0029, why a PAUSED campaign is paused: by hand (manual), by the billing
-- of its client (billing), and later by usage or the failure breaker. A
-- billing resume resumes only what billing paused, so a campaign paused by
-- hand stays paused. The column is null unless the campaign is PAUSED.
-- Adding a nullable column rewrites nothing; the backfill touches the
-- PAUSED campaigns only. Same rules as 0001 (no colon outside literals
-- except casts, no apostrophe in comments).
ALTER TABLE campaigns ADD COLUMN pause_reason text
  CHECK (pause_reason IN ('manual', 'billing', 'usage_exhausted', 'failure_breaker'));
UPDATE campaigns c SET pause_reason =
  CASE WHEN EXISTS (SELECT 1 FROM campaign_billing_pauses b
                    WHERE b.tenant_id = c.tenant_id AND b.campaign_id = c.id)
       THEN 'billing' ELSE 'manual' END
WHERE c.status = 'PAUSED';
