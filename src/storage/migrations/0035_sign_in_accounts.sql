-- 0035, the sign-in throttle per account name: failed sign-ins counted by
-- what a sign-in names (a hash of the account kind, the tenant for the
-- portal, and the lower-case e-mail), whether or not an account has that
-- name, so a known and an unknown e-mail lock alike and the lock does not
-- tell them apart. An attempt is counted before its password is checked,
-- under the row lock of its subject and of its client address, and
-- forgotten when the password was right; so concurrent guesses are
-- counted one after another. Rows idle for a day are forgotten. The
-- columns failed_sign_ins and locked_until of members and client_users are
-- no longer written; nodes of the previous version read them during a
-- rolling upgrade. Same rules as 0001 (no colon outside literals except
-- casts, no apostrophe in comments).
CREATE TABLE sign_in_accounts (
  subject       text PRIMARY KEY,
  failures      integer NOT NULL,
  locked_until  timestamptz,
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sign_in_accounts_updated ON sign_in_accounts (updated_at);
