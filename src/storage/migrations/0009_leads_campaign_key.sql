-- Every statement that inserts leads first takes its campaign row for
-- update, matched on both tenant_id and id, in the same transaction
-- (lead_repository, reserve_stmt), and nothing changes a lead campaign or
-- tenant afterwards. The reference from leads to campaigns therefore only
-- added a check per inserted lead: 30% of a 10,000-lead insert under
-- EXPLAIN ANALYZE. What it also did, removing the leads of a deleted
-- campaign (and so of a deleted tenant), is kept by a trigger.
ALTER TABLE leads DROP CONSTRAINT leads_tenant_id_campaign_id_fkey;

CREATE FUNCTION vcs_delete_campaign_leads() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM leads WHERE campaign_id = OLD.id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER campaigns_delete_leads AFTER DELETE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION vcs_delete_campaign_leads();
