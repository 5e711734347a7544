-- 0041, the calling rules' contact caps (domain/contact_caps.hpp) count a
-- tenant's calls to a number in a rolling window, across its campaigns.
-- dialed_at is the instant the dial pass placed the call by (its clock:
-- the server's, or an operator's test instant); rows from before this
-- migration count by created_at. A call the provider refused (ABANDONED)
-- reached no one and is not counted.
ALTER TABLE calls ADD COLUMN dialed_at timestamptz NULL;
CREATE INDEX calls_contact_idx ON calls (tenant_id, phone_number, (coalesce(dialed_at, created_at)))
  WHERE status <> 'ABANDONED';
