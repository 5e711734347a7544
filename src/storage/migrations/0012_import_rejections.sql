-- 0012_import_rejections (issue 20): what a bulk import did not take, row
-- by row, for the tenant to read.
-- Same rules as 0001 (no colon outside literals except casts and the
-- PL/pgSQL assignment, no apostrophe in comments).

-- Items repeating an earlier item of the same request are left out before
-- the job is stored: the rows to insert are accepted - invalid -
-- request_duplicates. `duplicates` counts them with the rows that met a
-- lead of the campaign.
ALTER TABLE lead_import_jobs
  ADD COLUMN request_duplicates integer NOT NULL DEFAULT 0 CHECK (request_duplicates >= 0);

-- One row per item not imported: its index in the request, its phone
-- number as sent (when it was text) and why. Malformed items and repeats
-- are written with the job; rows whose number the campaign already had are
-- written by the insert that skipped them, in its transaction.
CREATE TABLE lead_import_rejections (
  job_id       bigint NOT NULL REFERENCES lead_import_jobs (id) ON DELETE CASCADE,
  row_index    integer NOT NULL CHECK (row_index >= 0),
  phone_number text NULL,
  reason       text NOT NULL CHECK (reason IN ('invalid', 'duplicate_in_request', 'already_in_campaign')),
  message      text NOT NULL,
  PRIMARY KEY (job_id, row_index)
);
