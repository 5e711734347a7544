-- 0036, a member e-mail is unique within its tenant only: another tenant
-- can no longer take an address first. A sign-in that names no tenant
-- tries the e-mail's members, most recently signed in first (see
-- storage/member_repository.cpp); one that names a tenant tries that
-- tenant's. Nodes of the previous version invite with ON CONFLICT on the
-- old index, so invitations fail on them until they are upgraded. Same
-- rules as 0001 (no colon outside literals except casts, no apostrophe in
-- comments).
DROP INDEX members_email;
CREATE UNIQUE INDEX members_tenant_email ON members (tenant_id, lower(email));
CREATE INDEX members_email ON members (lower(email), last_sign_in_at DESC);
