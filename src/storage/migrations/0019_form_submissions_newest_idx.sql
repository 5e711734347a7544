-- A form's submissions newest first, of every client: the whole list is read
-- in batches, each after the last row of the one before, and a page by
-- offset; form_submissions_form_idx puts client_id before the time, so
-- every batch sorted all of the form's submissions.
CREATE INDEX form_submissions_form_newest_idx
  ON form_submissions (tenant_id, form_id, created_at DESC, id DESC);
