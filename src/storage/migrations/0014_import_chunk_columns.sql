-- 0014, stored import chunks as one array per column, the shape the lead
-- insert takes: the service sends them in binary, which the server copies
-- instead of parsing a JSON document per chunk (docs/performance.md,
-- issue 19). Same rules as 0001 (no colon outside literals except casts,
-- no apostrophe in comments).
ALTER TABLE lead_import_chunks
  ADD COLUMN phone_numbers   text[],
  ADD COLUMN first_names     text[],
  ADD COLUMN last_names      text[],
  ADD COLUMN emails          text[],
  ADD COLUMN custom_fields   jsonb[],
  ADD COLUMN invalid         boolean[],
  ADD COLUMN invalid_reasons text[],
  -- Each row item index in its request, which names a row the campaign
  -- already had among the job rejections.
  ADD COLUMN row_indexes     integer[];

-- Chunks of imports not finished when this runs, converted in place.
UPDATE lead_import_chunks c
SET (phone_numbers, first_names, last_names, emails, custom_fields, invalid, invalid_reasons,
     row_indexes) = (
  SELECT array_agg(e.item->>'phone_number' ORDER BY e.ord),
         array_agg(e.item->>'first_name' ORDER BY e.ord),
         array_agg(e.item->>'last_name' ORDER BY e.ord),
         array_agg(e.item->>'email' ORDER BY e.ord),
         array_agg(coalesce(e.item->'custom_fields', '{}'::jsonb) ORDER BY e.ord),
         array_agg(coalesce((e.item->>'invalid')::boolean, false) ORDER BY e.ord),
         array_agg(e.item->>'invalid_reason' ORDER BY e.ord),
         array_agg((e.item->>'i')::integer ORDER BY e.ord)
  FROM jsonb_array_elements(c.rows) WITH ORDINALITY AS e(item, ord));

ALTER TABLE lead_import_chunks
  DROP COLUMN rows,
  ALTER COLUMN phone_numbers SET NOT NULL,
  ALTER COLUMN first_names SET NOT NULL,
  ALTER COLUMN last_names SET NOT NULL,
  ALTER COLUMN emails SET NOT NULL,
  ALTER COLUMN custom_fields SET NOT NULL,
  ALTER COLUMN invalid SET NOT NULL,
  ALTER COLUMN invalid_reasons SET NOT NULL,
  ALTER COLUMN row_indexes SET NOT NULL,
  -- As the rows were (0008): lz4 stores in about half the time of pglz.
  ALTER COLUMN phone_numbers SET COMPRESSION lz4,
  ALTER COLUMN first_names SET COMPRESSION lz4,
  ALTER COLUMN last_names SET COMPRESSION lz4,
  ALTER COLUMN emails SET COMPRESSION lz4,
  ALTER COLUMN custom_fields SET COMPRESSION lz4,
  ALTER COLUMN invalid_reasons SET COMPRESSION lz4,
  ALTER COLUMN row_indexes SET COMPRESSION lz4;
