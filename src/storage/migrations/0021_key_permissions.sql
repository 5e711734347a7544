-- What a key may do (domain::key_scope): its permissions by name (NULL:
-- every permission, as keys made before this and by operators), its
-- campaigns (NULL: every campaign), its expiry, and when it was last used
-- (written at most once a minute).
ALTER TABLE api_keys
  ADD COLUMN permissions  text[],
  ADD COLUMN campaign_ids bigint[],
  ADD COLUMN expires_at   timestamptz,
  ADD COLUMN last_used_at timestamptz;
