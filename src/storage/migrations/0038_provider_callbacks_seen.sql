-- 0038, provider_b call events already acknowledged, by the digest of their
-- signature: a captured event sent again within the five minutes its
-- signed time allows is refused (401) instead of read twice. Rows older
-- than ten minutes can no longer match a signature that passes, and are
-- removed as new ones are written (storage/dialer_repository.cpp). Same
-- rules as 0001 (no colon outside literals except casts, no apostrophe in
-- comments).
CREATE TABLE provider_callbacks_seen (
  voice_provider_id bigint NOT NULL REFERENCES voice_providers (id) ON DELETE CASCADE,
  digest            text NOT NULL CHECK (length(digest) <= 128),
  seen_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (voice_provider_id, digest)
);
CREATE INDEX provider_callbacks_seen_at ON provider_callbacks_seen (voice_provider_id, seen_at);
