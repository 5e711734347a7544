-- 0037, why a provider refused to place a call (domain/placement_refusal.hpp):
-- busy (its rate or concurrency limit: the lead waits, nothing counts
-- against the provider), credentials (it refused the configuration: the
-- campaign pauses with the reason provider_credentials) or failed. Null
-- for calls the provider took. A nullable column rewrites nothing. Same
-- rules as 0001 (no colon outside literals except casts, no apostrophe in
-- comments).
ALTER TABLE calls ADD COLUMN refusal text
  CHECK (refusal IN ('failed', 'busy', 'credentials'));
ALTER TABLE campaigns DROP CONSTRAINT campaigns_pause_reason_check;
ALTER TABLE campaigns ADD CONSTRAINT campaigns_pause_reason_check
  CHECK (pause_reason IN ('manual', 'billing', 'usage_exhausted', 'failure_breaker',
                          'provider_credentials'));
