-- 0011_standard_webhooks (issue 20): secret rotation with a grace period,
-- endpoints that are disabled after days of failures, and the tenant list
-- of its deliveries.
-- Same rules as 0001 (no colon outside literals except casts and the
-- PL/pgSQL assignment, no apostrophe in comments).

-- The secret rotated out keeps signing beside the new one until it expires.
ALTER TABLE tenants
  ADD COLUMN webhook_previous_secret_ciphertext bytea NULL,
  ADD COLUMN webhook_previous_secret_nonce      bytea NULL,
  ADD COLUMN webhook_previous_secret_expires_at timestamptz NULL;

-- Each URL a tenant receives deliveries at, from its first outcome on:
-- failing since its first failure after a success; disabled when a
-- delivery spent its whole retry schedule while it kept failing, or when
-- it answered 410 Gone. A disabled endpoint is sent nothing until the
-- tenant enables it again.
CREATE TABLE webhook_endpoints (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id       bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  url             text NOT NULL,
  status          text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  failing_since   timestamptz NULL,
  last_success_at timestamptz NULL,
  last_failure_at timestamptz NULL,
  disabled_at     timestamptz NULL,
  disabled_reason text NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, url)
);
CREATE TRIGGER webhook_endpoints_touch BEFORE UPDATE ON webhook_endpoints
  FOR EACH ROW EXECUTE FUNCTION vcs_touch_updated_at();

-- The tenant list of all its deliveries, newest first.
CREATE INDEX webhook_deliveries_tenant_all_idx ON webhook_deliveries (tenant_id, id DESC);
