-- Client users sign in to the portal (domain/client_access.hpp). Their
-- e-mail is unique only within a tenant, so a portal sign-in names the
-- tenant too. The columns have constant defaults: adding them rewrites no
-- row.
ALTER TABLE client_users
  ADD COLUMN disabled        boolean NOT NULL DEFAULT false,
  ADD COLUMN last_sign_in_at timestamptz,
  ADD COLUMN failed_sign_ins integer NOT NULL DEFAULT 0,
  ADD COLUMN locked_until    timestamptz;

-- One-time links to set a client user's password; the row goes when the
-- link is used. Only the token's hash is kept.
CREATE TABLE client_user_links (
  token_hash     text PRIMARY KEY,
  client_user_id bigint NOT NULL REFERENCES client_users (id) ON DELETE CASCADE,
  expires_at     timestamptz NOT NULL
);
CREATE INDEX client_user_links_user ON client_user_links (client_user_id);

-- Portal sessions, read by every node on every request, as member sessions
-- are.
CREATE TABLE client_user_sessions (
  token_hash     text PRIMARY KEY,
  client_user_id bigint NOT NULL REFERENCES client_users (id) ON DELETE CASCADE,
  csrf_token     text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_seen_at   timestamptz NOT NULL DEFAULT now(),
  expires_at     timestamptz NOT NULL
);
CREATE INDEX client_user_sessions_user ON client_user_sessions (client_user_id, created_at);
