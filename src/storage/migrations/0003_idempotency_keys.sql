-- Idempotency-Key of public POST, PATCH and DELETE requests. A request claims
-- its key (row with claim_token, no status) before the work, and stores its
-- successful response afterwards; a repeat within 24 hours on any node
-- replays the stored response. Error responses delete the claim, so a retry
-- runs again.
CREATE TABLE idempotency_keys (
  tenant_id     bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  idem_key      text NOT NULL,
  -- SHA-256 (hex) of method, target and body: the request the key stands for.
  fingerprint   text NOT NULL,
  claim_token   uuid NOT NULL,
  status        integer,
  content_type  text,
  response_body text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  claimed_at    timestamptz NOT NULL DEFAULT now(),
  completed_at  timestamptz,
  PRIMARY KEY (tenant_id, idem_key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
