-- A tenant that is deactivated, or whose every API key is disabled or
-- deleted, is switched off: the dialer places no calls for it and its webhook
-- deliveries wait. One definition for every statement that asks; a view, so
-- the planner folds it into each statement as a semi-join (a SQL function
-- with a subquery would run once per row instead).
CREATE VIEW switched_on_tenants AS
  SELECT t.id FROM tenants t
  WHERE t.active
    AND EXISTS (SELECT 1 FROM api_keys k WHERE k.tenant_id = t.id AND k.status = 'Active');
