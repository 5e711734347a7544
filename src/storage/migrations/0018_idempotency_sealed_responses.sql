-- Stored responses are sealed (XChaCha20-Poly1305 with the service key,
-- bound to tenant and key): an answer may carry a secret shown once, such as
-- a webhook signing secret, or a tenant's personal data. response_body stays
-- readable for the responses stored before this migration (kept 24 hours),
-- and is no longer written.
ALTER TABLE idempotency_keys
  ADD COLUMN response_ciphertext bytea,
  ADD COLUMN response_nonce bytea;
