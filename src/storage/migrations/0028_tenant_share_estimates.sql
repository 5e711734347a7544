-- The service plans each statement once per connection, without the values
-- of its parameters (plan_cache_mode = force_generic_plan). Such a plan
-- expects tenant_id = $1 to match the rows of a table divided by its number
-- of tenants. With one tenant holding nearly all rows it walked the whole
-- table (a sequential scan, or the primary key backwards) instead of the
-- index range of the tenant, so another tenant listing its 10 calls beside
-- 10,000,000 calls of a large one read them all (3 s, against 0.07 ms
-- through its index). Each setting below has plans expect a tenant,
-- campaign or client to hold about a hundred rows of its table, and a lead
-- five calls, however large the table, so that every list reads an index
-- range of its own. ANALYZE records them.
ALTER TABLE campaigns ALTER COLUMN tenant_id SET (n_distinct = -0.01);
ALTER TABLE calls ALTER COLUMN tenant_id SET (n_distinct = -0.01),
  ALTER COLUMN campaign_id SET (n_distinct = -0.01),
  ALTER COLUMN lead_id SET (n_distinct = -0.2);
ALTER TABLE webhook_deliveries ALTER COLUMN tenant_id SET (n_distinct = -0.01),
  ALTER COLUMN campaign_id SET (n_distinct = -0.01);
ALTER TABLE events ALTER COLUMN tenant_id SET (n_distinct = -0.01),
  ALTER COLUMN campaign_id SET (n_distinct = -0.01);
ALTER TABLE lead_import_jobs ALTER COLUMN tenant_id SET (n_distinct = -0.01),
  ALTER COLUMN campaign_id SET (n_distinct = -0.01);
ALTER TABLE payment_requests ALTER COLUMN tenant_id SET (n_distinct = -0.01),
  ALTER COLUMN client_id SET (n_distinct = -0.01);
ANALYZE campaigns (tenant_id), calls (tenant_id, campaign_id, lead_id),
  webhook_deliveries (tenant_id, campaign_id), events (tenant_id, campaign_id),
  lead_import_jobs (tenant_id, campaign_id), payment_requests (tenant_id, client_id);

-- The campaign list reads the key (tenant_id, id) in order. With small
-- estimates a plan preferred that narrower key to this index and sorted the
-- whole tenant, and the checks of references to campaigns took it while
-- campaigns was small.
DROP INDEX campaigns_tenant_created_idx;
