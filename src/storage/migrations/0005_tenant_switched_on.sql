-- A tenant that is deactivated, or whose every API key is disabled or
-- deleted, is switched off: the dialer places no calls for it and its webhook
-- deliveries wait. One definition for every statement that asks (a simple
-- SQL function, so the planner inlines it).
CREATE FUNCTION tenant_switched_on(tenant bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM tenants t
    WHERE t.id = tenant AND t.active
      AND EXISTS (SELECT 1 FROM api_keys k WHERE k.tenant_id = t.id AND k.status = 'Active'))
$$;
