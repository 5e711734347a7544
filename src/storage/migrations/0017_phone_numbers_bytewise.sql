-- 0017, phone numbers compared byte for byte. They are E.164 text, or the
-- text of a number stored flagged as invalid: nothing sorts them, and any
-- deterministic collation finds the same ones equal. The default one went
-- through strcoll for every comparison, 7% of a 5,000-row lead insert
-- (docs/performance.md, issue 19). The do-not-call list changes with the
-- leads, because the dialer joins the two on the number, and the join can
-- use the list key only while both sides share a collation. Both unique
-- indexes are rebuilt; the tables are not rewritten. Same rules as 0001
-- (no colon outside literals except casts, no apostrophe in comments).
ALTER TABLE leads ALTER COLUMN phone_number TYPE text COLLATE "C";
ALTER TABLE do_not_call_numbers ALTER COLUMN phone_number TYPE text COLLATE "C";
