-- 0015, positions reserved for a stored chunk. A bulk add whose first two
-- chunks are inserted next to the job transaction reserves their positions
-- in it (docs/decisions/leads.md#leads), so whichever transaction inserts
-- such a chunk puts its rows where the request order has them. NULL:
-- positions are taken when the chunk is imported, as before. Same rules
-- as 0001 (no colon outside literals except casts, no apostrophe in
-- comments).
ALTER TABLE lead_import_chunks
  ADD COLUMN first_position bigint NULL CHECK (first_position >= 0);
