-- Stored secrets are sealed with a key derived from the service key for
-- sealing alone (domain::service_keys). Those sealed with the service key
-- itself are sealed again by the first node that starts with it
-- (storage::reseal_stored_secrets), which records that here, once.
CREATE TABLE key_changes (
  name    text PRIMARY KEY,
  done_at timestamptz NOT NULL DEFAULT now()
);
