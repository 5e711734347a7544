-- 0013_campaign_dial_claims (issue 22): which node holds a campaign's dial
-- lease, so a stopping node can hand its unfinished passes on at once
-- instead of leaving them until the lease runs out.
-- Same rules as 0001 (no colon outside literals except casts and the
-- PL/pgSQL assignment, no apostrophe in comments).

-- Set with the lease when a round claims the campaign, cleared when its
-- pass sets the next look; a stopping node releases what it still holds.
ALTER TABLE campaigns ADD COLUMN dial_claimed_by text NULL;
CREATE INDEX campaigns_dial_claimed_idx ON campaigns (dial_claimed_by)
  WHERE dial_claimed_by IS NOT NULL;
