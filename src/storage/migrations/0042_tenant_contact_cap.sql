-- 0042, a tenant's own contact cap (domain/tenant_contact_cap.hpp): at most
-- contact_cap_calls calls to a number in any contact_cap_hours, across its
-- campaigns, beside the calling rules' caps. Both null: no cap of its own,
-- as before this migration. The bounds are the domain's.
ALTER TABLE tenants
  ADD COLUMN contact_cap_calls integer CHECK (contact_cap_calls BETWEEN 1 AND 50),
  ADD COLUMN contact_cap_hours integer CHECK (contact_cap_hours BETWEEN 1 AND 720),
  ADD CONSTRAINT tenants_contact_cap_whole
    CHECK ((contact_cap_calls IS NULL) = (contact_cap_hours IS NULL));
