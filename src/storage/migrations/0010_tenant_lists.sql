-- 0010_tenant_lists, the lists a tenant reads (issue 20): its campaigns
-- newest first, and the calls of one lead newest first. The calls of a
-- campaign already have calls_campaign_idx.
-- Same rules as 0001 (no colon outside literals except casts and the
-- PL/pgSQL assignment, no apostrophe in comments).

CREATE INDEX campaigns_tenant_created_idx ON campaigns (tenant_id, created_at DESC, id DESC);
CREATE INDEX calls_lead_idx ON calls (tenant_id, lead_id, id);
