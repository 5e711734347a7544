-- The people of a tenant who sign in to the console (domain/member.hpp).
-- An e-mail belongs to one member of one tenant, so signing in needs only
-- the e-mail and the password. password_hash is NULL until the member has
-- used its set-up link.
CREATE TABLE members (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id         bigint NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  email             text NOT NULL,
  role              text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  password_hash     text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at   timestamptz,
  -- Failed sign-ins in a row, and until when the account is refused
  -- (domain/sign_in_throttle.hpp).
  failed_sign_ins   integer NOT NULL DEFAULT 0,
  locked_until      timestamptz
);
CREATE UNIQUE INDEX members_email ON members (lower(email));
CREATE INDEX members_tenant ON members (tenant_id, id);

-- One-time set-up links; the row goes when the link is used. Only the
-- token's hash is kept.
CREATE TABLE member_links (
  token_hash  text PRIMARY KEY,
  member_id   bigint NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX member_links_member ON member_links (member_id);

-- Signed-in sessions: every node reads them, so a session ended on one node
-- is refused on all from its next request. Only the token's hash is kept.
CREATE TABLE member_sessions (
  token_hash    text PRIMARY KEY,
  member_id     bigint NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  csrf_token    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX member_sessions_member ON member_sessions (member_id, created_at);

-- Failed sign-ins per client address in the current window.
CREATE TABLE sign_in_addresses (
  address       text PRIMARY KEY,
  failures      integer NOT NULL,
  window_start  timestamptz NOT NULL
);
CREATE INDEX sign_in_addresses_window ON sign_in_addresses (window_start);
