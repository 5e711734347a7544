-- 0016, the custom fields of stored import chunks as JSON text. Parsing a
-- jsonb value costs more than the rest of a stored row together (about
-- 2 µs for a few fields), and a chunk is parsed when its lead rows are
-- inserted anyway: storing it parsed as well doubled that work
-- (docs/performance.md, issue 19). The service validated the text before
-- it was stored. Same rules as 0001 (no colon outside literals except
-- casts, no apostrophe in comments).
ALTER TABLE lead_import_chunks
  ALTER COLUMN custom_fields TYPE text[] USING custom_fields::text[],
  ALTER COLUMN custom_fields SET COMPRESSION lz4;
